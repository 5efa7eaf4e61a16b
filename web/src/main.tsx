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

/** Lets the browser have the main thread before the next step (a task of its own). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const root = document.getElementById('root')!;
const routes = browserRoutes();
const queryClient = createQueryClient();
// Evaluating the app's code, reading the page's data and taking the page over are
// each a task of their own: together they would hold the main thread long enough to
// delay a tap on a phone.
await nextTask();
const pageState = readPageState();

if (pageState && root.firstElementChild) {
  hydratePageState(queryClient, pageState);
  await loadMatchedPages(routes, window.location);
  await nextTask();
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
