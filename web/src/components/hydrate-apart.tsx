// Takes its part of a server-rendered page over in a task of its own. Hydration is
// one synchronous pass; cut at these boundaries, no single task holds the main thread
// long enough to delay a tap (on a mid-range phone a listing took 200 ms in one go).
// The part's HTML stays as the server sent it meanwhile. Only the first hydration
// waits; client navigations and updates render straight through. The children must
// be one element: of several (a fragment), only the first would keep its server HTML.
import { Suspense, type ReactNode } from 'react';
import { holdHydration, isHydrating, releaseHydration } from '@/lib/hydration';

const released = new Set<string>();

function Gate({ name, children }: { name: string; children: ReactNode }) {
  if (isHydrating() && !released.has(name)) {
    holdHydration();
    throw new Promise<void>((resolve) =>
      setTimeout(() => {
        released.add(name);
        resolve();
        releaseHydration();
      }, 0),
    );
  }
  return <>{children}</>;
}

export function HydrateApart({ name, children }: { name: string; children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Gate name={name}>{children}</Gate>
    </Suspense>
  );
}
