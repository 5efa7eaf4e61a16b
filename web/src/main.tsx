// The app: providers and the router (loaded by boot.ts). A page the server rendered is
// hydrated with the data it was rendered with; without that (the development
// server, a render that fell back to the bare page) the app renders from scratch.
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider';
import { browserRoutes, createRouter, loadMatchedPages } from './app/router';
import { createQueryClient } from './lib/query-client';
import { whileHydrating } from './lib/hydration';
import { hydratePageState, readPageState } from './lib/page-state';

const root = document.getElementById('root')!;
const routes = browserRoutes();
const queryClient = createQueryClient();
const pageState = readPageState();

if (pageState && root.firstElementChild) {
  hydratePageState(queryClient, pageState);
  await loadMatchedPages(routes, window.location);
  // As a transition, hydration yields to the browser between components: no long task
  // holds the page while the app takes it over.
  startTransition(() => {
    whileHydrating(() => hydrateRoot(root, app()));
  });
} else {
  createRoot(root).render(app());
}

function app() {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient}>
        <RouterProvider router={createRouter(routes)} />
      </AppProvider>
    </StrictMode>
  );
}
