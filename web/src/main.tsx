// Entry point: styles, providers and the router. A page the server rendered is
// hydrated with the data it was rendered with; without that (the development
// server, a render that fell back to the bare page) the app renders from scratch.
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider';
import { browserRoutes, createRouter, loadMatchedPages } from './app/router';
import { createQueryClient } from './lib/query-client';
import { hydratePageState, readPageState } from './lib/page-state';
import './styles/tokens.css';
import './styles/base.css';

const root = document.getElementById('root')!;
const routes = browserRoutes();
const queryClient = createQueryClient();
const pageState = readPageState();

if (pageState && root.firstElementChild) {
  hydratePageState(queryClient, pageState);
  await loadMatchedPages(routes, window.location);
  hydrateRoot(root, app());
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
