// Runs work once the browser is idle after the page has been taken over, so the
// gallery's extras never compete with the page's first tasks. Returns a cancel.
export function whenIdle(work: () => void, timeoutMs = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 300);
  return () => clearTimeout(timer);
}
