// Whether the page's scripts are running: false on the server and during the
// hydration pass (so both render the same), true from the first effect on. For what
// only makes sense with scripts, added once the page runs.
import { useEffect, useState } from 'react';

export function usePageRunning(): boolean {
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  return running;
}
