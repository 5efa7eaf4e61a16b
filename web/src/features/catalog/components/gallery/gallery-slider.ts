// The gallery's slider, in a chunk of its own that the product page fetches once it
// has been taken over: Embla Carousel on the server-rendered slides (no markup of its
// own, so nothing moves when it takes over) and Embla's autoplay for the slideshow.
import EmblaCarousel from 'embla-carousel';
import Autoplay from 'embla-carousel-autoplay';
import { emblaDurationFor, SLIDE_ANIMATION_MS, SLIDESHOW_DELAY_MS } from '../../lib/gallery-slideshow';

export interface SliderOptions {
  startIndex: number;
  /** Slides change without a glide. */
  reducedMotion: boolean;
  onSelect: (index: number) => void;
  /** A press or swipe on the slides (touch and pen: a mouse clicks through to the viewer instead). */
  onPointerDown: () => void;
}

export interface Slider {
  scrollTo: (index: number) => void;
  next: () => void;
  previous: () => void;
  /** Starts or stops the slideshow's timer. */
  play: (running: boolean) => void;
  destroy: () => void;
}

export function createSlider(viewport: HTMLElement, options: SliderOptions): Slider {
  const autoplay = Autoplay({
    delay: SLIDESHOW_DELAY_MS,
    playOnInit: false,
    // The page decides when the slideshow stops (any use of the gallery, see
    // gallery-slideshow.ts); the plugin only keeps time, and waits while the tab is hidden.
    stopOnInteraction: true,
    stopOnFocusIn: false,
    stopOnMouseEnter: false,
  });
  const embla = EmblaCarousel(
    viewport,
    {
      loop: true,
      startIndex: options.startIndex,
      duration: options.reducedMotion ? 0 : emblaDurationFor(SLIDE_ANIMATION_MS),
      // A mouse's press is a click (it opens the viewer); fingers and pens swipe.
      watchDrag: (_api, event) => event.type !== 'mousedown',
    },
    [autoplay],
  );
  embla.on('select', () => options.onSelect(embla.selectedScrollSnap()));
  embla.on('pointerDown', options.onPointerDown);
  // With two slides Embla cannot loop: next after the last goes back to the first.
  const next = () => (embla.canScrollNext() ? embla.scrollNext() : embla.scrollTo(0));
  const previous = () => (embla.canScrollPrev() ? embla.scrollPrev() : embla.scrollTo(embla.scrollSnapList().length - 1));
  return {
    scrollTo: (index) => embla.scrollTo(index),
    next,
    previous,
    play: (running) => {
      if (running && !autoplay.isPlaying()) autoplay.play();
      else if (!running) autoplay.stop();
    },
    destroy: () => embla.destroy(),
  };
}
