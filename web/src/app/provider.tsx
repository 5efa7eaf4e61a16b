// Everything the app needs around its pages: the query client and the live region
// screen-reader messages are spoken through. The server renders with a client it
// filled itself; the browser makes its own.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { LiveRegion } from '@/components/ui/live-region';
import { createQueryClient } from '@/lib/query-client';

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [ownClient] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={ownClient}>
      {children}
      <LiveRegion />
    </QueryClientProvider>
  );
}
