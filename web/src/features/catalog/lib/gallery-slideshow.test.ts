import { describe, expect, it } from 'vitest';
import { emblaDurationFor, emblaGlideMs, SLIDE_ANIMATION_MS, slideshowReducer, slideshowRunning, startSlideshow, type SlideshowEvent } from './gallery-slideshow';

const after = (events: SlideshowEvent[], reducedMotion = false) => events.reduce(slideshowReducer, startSlideshow(reducedMotion));

describe('the slideshow', () => {
  it('runs from the start, but not for a shopper who asks for reduced motion', () => {
    expect(slideshowRunning(startSlideshow(false))).toBe(true);
    expect(slideshowRunning(startSlideshow(true))).toBe(false);
  });

  it('stops for good on any use of the gallery', () => {
    expect(slideshowRunning(after(['interact']))).toBe(false);
    expect(slideshowRunning(after(['interact', 'hold', 'release']))).toBe(false);
    expect(slideshowRunning(after(['interact', 'interact']))).toBe(false);
  });

  it('starts and stops again with its pause/play control', () => {
    expect(slideshowRunning(after(['toggle']))).toBe(false);
    expect(slideshowRunning(after(['toggle', 'toggle']))).toBe(true);
    expect(slideshowRunning(after(['interact', 'toggle']))).toBe(true);
    expect(slideshowRunning(after(['toggle'], true))).toBe(true);
  });

  it('waits while a pointer rests on the image, and goes on when it leaves', () => {
    expect(slideshowRunning(after(['hold']))).toBe(false);
    expect(after(['hold']).on).toBe(true);
    expect(slideshowRunning(after(['hold', 'release']))).toBe(true);
  });

  it('keeps its state object when an event changes nothing', () => {
    const stopped = after(['interact']);
    expect(slideshowReducer(stopped, 'interact')).toBe(stopped);
    const free = startSlideshow(false);
    expect(slideshowReducer(free, 'release')).toBe(free);
  });
});

describe("Embla's glide", () => {
  it('is tuned to take about 600 ms', () => {
    const duration = emblaDurationFor(SLIDE_ANIMATION_MS);
    expect(Math.abs(emblaGlideMs(duration) - SLIDE_ANIMATION_MS)).toBeLessThanOrEqual(50);
    // Longer durations glide longer.
    expect(emblaGlideMs(duration + 5)).toBeGreaterThan(emblaGlideMs(duration));
    expect(emblaDurationFor(1000)).toBeGreaterThan(duration);
  });
});
