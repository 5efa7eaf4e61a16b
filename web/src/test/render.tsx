// Renders a component as the app would: with a fresh query client and a router at
// the given address. For component tests only.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/preact';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { LinkNavigation } from '@/components/ui/link';
import { LiveRegion } from '@/components/ui/live-region';

export function renderWithApp(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <LinkNavigation>{ui}</LinkNavigation> }], { initialEntries: [path] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <LiveRegion />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}

/** A JSON answer for a stubbed fetch. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}
