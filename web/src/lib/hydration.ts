// Whether the app is still taking over a page the server rendered (see main.tsx and
// components/hydrate-apart.tsx). It is while the first pass runs and while any part
// that was put off has yet to be taken over: a part inside a put-off part is put off
// in its turn when the outer one resumes.
let taking = false;
let waiting = 0;

export const isHydrating = () => taking;

/** Runs the first pass (synchronous) with the flag up. */
export function whileHydrating(hydrate: () => void) {
  taking = true;
  try {
    hydrate();
  } finally {
    if (waiting === 0) taking = false;
  }
}

/** A part put off its takeover. */
export function holdHydration() {
  waiting += 1;
}

/** A put-off part resumes. The flag drops a task later if no part it holds was put off meanwhile. */
export function releaseHydration() {
  waiting -= 1;
  if (waiting === 0) {
    setTimeout(() => {
      if (waiting === 0) taking = false;
    }, 0);
  }
}
