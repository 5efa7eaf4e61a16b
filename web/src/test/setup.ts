// Runs before every test file: a clean DOM, clean storage and real timers.
import { cleanup } from '@testing-library/preact';
import { options } from 'preact';
import { afterEach, vi } from 'vitest';

// Effects run right after the render that scheduled them, not a frame later: a test
// that finds an element and types into it at once must not race the effects of the
// render that drew it (a browser's shopper is a frame slower than that).
options.requestAnimationFrame = (flush) => queueMicrotask(flush);

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  vi.useRealTimers();
});
