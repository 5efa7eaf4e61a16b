// Everything the app needs around its pages: the query client and the live region
// screen-reader messages are spoken through.
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { LiveRegion } from '@/components/ui/live-region';
import { createQueryClient } from '@/lib/query-client';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <LiveRegion />
    </QueryClientProvider>
  );
}
