// The gallery's slideshow: it moves on every 7000 ms with a 600 ms glide (the
// original's slider defaults), loops, and stops for good once the shopper does
// anything with the gallery; the pause/play control (WCAG 2.2.2) is the only way to
// start it again. A pointer hovering over the image holds it while it stays there.

export const SLIDESHOW_DELAY_MS = 7000;
export const SLIDE_ANIMATION_MS = 600;

export interface Slideshow {
  /** The slideshow is on: from the start (unless the shopper asks for reduced motion) until stopped. */
  on: boolean;
  /** A pointer rests on the image: the slideshow waits. */
  held: boolean;
}

export type SlideshowEvent =
  /** Any use of the gallery: a press, a swipe, a thumbnail, an arrow, a key, the viewer, a chosen variation. */
  | 'interact'
  /** The pause/play control. */
  | 'toggle'
  | 'hold'
  | 'release';

export const startSlideshow = (reducedMotion: boolean): Slideshow => ({ on: !reducedMotion, held: false });

export function slideshowReducer(state: Slideshow, event: SlideshowEvent): Slideshow {
  switch (event) {
    case 'interact':
      return state.on ? { ...state, on: false } : state;
    case 'toggle':
      return { ...state, on: !state.on };
    case 'hold':
      return state.held ? state : { ...state, held: true };
    case 'release':
      return state.held ? { ...state, held: false } : state;
  }
}

export const slideshowRunning = (state: Slideshow) => state.on && !state.held;

// Embla's glide is a spring stepped 60 times a second (friction 0.68), tuned by a
// unitless "duration": these are its constants, to find the one that arrives in a
// given time. Arrived: within half a percent of the distance.
const EMBLA_FRICTION = 0.68;
const EMBLA_STEP_MS = 1000 / 60;
const ARRIVED = 0.005;

/** How long Embla's glide takes with `duration`, in milliseconds. */
export function emblaGlideMs(duration: number): number {
  let velocity = 0;
  let location = 0;
  for (let step = 1; step < 10_000; step += 1) {
    velocity = (velocity + (1 - location) / duration) * EMBLA_FRICTION;
    location += velocity;
    if (Math.abs(1 - location) < ARRIVED) return step * EMBLA_STEP_MS;
  }
  return Infinity;
}

/** Embla's `duration` whose glide takes closest to `ms`. */
export function emblaDurationFor(ms: number): number {
  let best = 1;
  for (let duration = 1; duration <= 100; duration += 1) {
    if (Math.abs(emblaGlideMs(duration) - ms) < Math.abs(emblaGlideMs(best) - ms)) best = duration;
  }
  return best;
}
