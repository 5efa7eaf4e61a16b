// The data a page was rendered with on the server travels in the page as
// <script id="ferroshop-state" type="application/json">: TanStack Query's dehydrated
// cache. Failed queries travel too (a product that is not there renders its
// not-found page on both sides), their ApiError written as plain fields.
import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

export const PAGE_STATE_ELEMENT_ID = 'ferroshop-state';

interface WrittenError {
  ferroshopApiError: { message: string; code: string; status: number; data: unknown };
}

function isWrittenError(value: unknown): value is WrittenError {
  return typeof value === 'object' && value !== null && 'ferroshopApiError' in value;
}

/** The cache as the page carries it: finished queries only, errors as plain fields. */
export function writePageState(queryClient: QueryClient): DehydratedState {
  const state = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => query.state.status === 'success' || query.state.status === 'error',
  });
  for (const query of state.queries) {
    const error = query.state.error;
    if (error instanceof ApiError) {
      const written: WrittenError = {
        ferroshopApiError: { message: error.message, code: error.code, status: error.status, data: error.data ?? null },
      };
      (query.state as { error: unknown }).error = written;
    }
  }
  return state;
}

/** Reads the page's state, if the server rendered the page; null otherwise. */
export function readPageState(doc: Document = document): DehydratedState | null {
  const text = doc.getElementById(PAGE_STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as DehydratedState;
  } catch {
    return null;
  }
}

/**
 * Puts the page's state in the browser's cache. The data was current when the page
 * was served: it counts as fetched now, by this browser's clock, so no query fetches
 * it again on mount.
 */
export function hydratePageState(queryClient: QueryClient, state: DehydratedState, now = Date.now()): void {
  for (const query of state.queries) {
    const written = query.state.error;
    if (isWrittenError(written)) {
      const e = written.ferroshopApiError;
      (query.state as { error: unknown }).error = new ApiError(e.message, e.code, e.status, e.data as ApiError['data']);
      query.state.errorUpdatedAt = now;
    }
    if (query.state.dataUpdatedAt) query.state.dataUpdatedAt = now;
  }
  hydrate(queryClient, state);
}
