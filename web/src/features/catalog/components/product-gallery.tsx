// The product page's gallery: a slider of the product's images with the thumbnails
// as its navigation, a slideshow with a pause/play control, hover zoom for a mouse,
// and a full-screen viewer. The server renders the slides as they first show (the
// first image fetched first, with the sizes of the server's preload); once the page
// is taken over and idle, Embla takes the same markup over, so nothing moves. Its
// code and PhotoSwipe's (only when the viewer is wanted) come in chunks of their own,
// never on the server. A chosen variation's image comes to the front.
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { Icon } from '@/components/ui/icon';
import { ProductImage } from '@/components/ui/product-image';
import { useMediaQueryOnceKnown } from '@/hooks/use-media-query';
import { usePageRunning } from '@/hooks/use-page-running';
import { announce } from '@/lib/screen-reader';
import type { ProductImage as Image } from '@/types/store-api';
import { gallerySlides, nearbySlides, viewerItem } from '../lib/gallery';
import { sharePageUrl } from '../lib/gallery-share';
import { slideshowReducer, slideshowRunning, startSlideshow } from '../lib/gallery-slideshow';
import { HOVER_ZOOM_QUERY, zoomOrigin, zoomScale, zoomSource } from '../lib/gallery-zoom';
import type { Slider } from './gallery/gallery-slider';
import type { Viewer } from './gallery/gallery-viewer';
import { whenIdle } from './gallery/when-idle';
import styles from './product-gallery.module.css';

// The server preloads the main image with these sizes (PRODUCT_IMAGE_SIZES in the
// server's web.rs): the two must agree, or the browser fetches the image twice.
const MAIN_SIZES = '(min-width: 1024px) 600px, 100vw';

type SliderModule = typeof import('./gallery/gallery-slider');
type ViewerModule = typeof import('./gallery/gallery-viewer');

let sliderLoad: Promise<SliderModule | null> | null = null;
let viewerLoad: Promise<ViewerModule | null> | null = null;

/** Embla's chunk, fetched once for the visit; never on the server. A failed fetch is tried again next time. */
function loadSlider(): Promise<SliderModule | null> {
  if (import.meta.env.SSR) return Promise.resolve(null);
  sliderLoad ??= import('./gallery/gallery-slider').catch(() => {
    sliderLoad = null;
    return null;
  });
  return sliderLoad;
}

/** PhotoSwipe's chunk (with its styles), fetched when the viewer is first wanted. */
function loadViewer(): Promise<ViewerModule | null> {
  if (import.meta.env.SSR) return Promise.resolve(null);
  viewerLoad ??= import('./gallery/gallery-viewer').catch(() => {
    viewerLoad = null;
    return null;
  });
  return viewerLoad;
}

const prefersReducedMotion = () =>
  !import.meta.env.SSR && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

interface HoverZoom {
  src: string;
  scale: number;
  /** Where the pointer first was, in percent of the image (later moves are written straight to the element). */
  origin: { x: number; y: number };
}

export function ProductGallery({ images, variationImage, name }: { images: Image[]; variationImage?: Image; name: string }) {
  const { slides, variationSlide } = useMemo(() => gallerySlides(images, variationImage), [images, variationImage]);
  const count = slides.length;
  const isSlider = count > 1;

  // The slide first shown is the one the server drew: it is fetched first, the others lazily.
  const [firstShown] = useState(() => variationSlide ?? 0);
  const [selected, setSelected] = useState(firstShown);
  const mounted = usePageRunning();
  const [sliderWanted, setSliderWanted] = useState(false);
  const [ready, setReady] = useState(false);
  const [slideshow, dispatch] = useReducer(slideshowReducer, undefined, () => startSlideshow(prefersReducedMotion()));
  const running = isSlider && slideshowRunning(slideshow);
  const [zoom, setZoom] = useState<HoverZoom | null>(null);
  const canZoom = useMediaQueryOnceKnown(HOVER_ZOOM_QUERY) === true;

  const rootRef = useRef<HTMLElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const zoomRef = useRef<HTMLImageElement>(null);
  const rotationRef = useRef<HTMLButtonElement>(null);
  const sliderRef = useRef<Slider | null>(null);
  const viewerRef = useRef<Viewer | 'opening' | null>(null);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;

  // Embla takes the slides over once the page is idle (sooner if the shopper reaches for them).
  useEffect(() => {
    if (!isSlider) return;
    return whenIdle(() => setSliderWanted(true));
  }, [isSlider]);

  useEffect(() => {
    const viewport = viewportRef.current;
    if (!sliderWanted || !viewport) return;
    let current = true;
    let slider: Slider | null = null;
    void loadSlider().then((module) => {
      if (!current || !module) return;
      try {
        slider = module.createSlider(viewport, {
          startIndex: selectedRef.current,
          reducedMotion: prefersReducedMotion(),
          onSelect: setSelected,
          onPointerDown: () => dispatch('interact'),
        });
      } catch {
        // A browser the slider cannot run in keeps the gallery as the server drew it.
        return;
      }
      sliderRef.current = slider;
      setReady(true);
    });
    return () => {
      current = false;
      slider?.destroy();
      sliderRef.current = null;
      setReady(false);
    };
  }, [sliderWanted]);

  // In the commit itself, so the slideshow stops the moment the control says it has.
  useLayoutEffect(() => {
    sliderRef.current?.play(running);
  }, [running, ready]);

  const goTo = useCallback((index: number) => {
    if (sliderRef.current) sliderRef.current.scrollTo(index);
    else {
      // Until the slider has come the slides move without a glide; it starts from there.
      setSelected(index);
      setSliderWanted(true);
    }
  }, []);

  // Outside the slideshow, the slide that comes is read out ("Image 2 of 3").
  const announced = useRef(selected);
  useEffect(() => {
    if (announced.current === selected) return;
    announced.current = selected;
    if (!running) announce(`Image ${selected + 1} of ${count}`);
  }, [selected, running, count]);

  // A newly chosen variation (a new image object from its call) brings its image to
  // the front, even when the shopper had moved on from the same one, and ends the slideshow.
  useEffect(() => {
    if (variationSlide === null) return;
    dispatch('interact');
    goTo(variationSlide);
  }, [variationImage, variationSlide, goTo]);

  // Any use of the gallery but its pause/play control ends the slideshow for good.
  useEffect(() => {
    const root = rootRef.current;
    if (!root || !isSlider) return;
    const interact = (event: Event) => {
      if (event.target instanceof Node && rotationRef.current?.contains(event.target)) return;
      dispatch('interact');
    };
    root.addEventListener('pointerdown', interact);
    root.addEventListener('focusin', interact);
    root.addEventListener('keydown', interact);
    return () => {
      root.removeEventListener('pointerdown', interact);
      root.removeEventListener('focusin', interact);
      root.removeEventListener('keydown', interact);
    };
  }, [isSlider]);

  const openViewer = useCallback(async () => {
    dispatch('interact');
    if (viewerRef.current) return;
    viewerRef.current = 'opening';
    const module = await loadViewer();
    if (!module) {
      viewerRef.current = null;
      return;
    }
    const shown = viewportRef.current?.querySelectorAll<HTMLImageElement>('img')[selectedRef.current];
    const measured = (index: number) => {
      const img = viewportRef.current?.querySelectorAll<HTMLImageElement>('img')[index];
      return img && img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : undefined;
    };
    let last = selectedRef.current;
    viewerRef.current = module.openViewer({
      items: slides.map((image, index) => viewerItem(image, measured(index))),
      index: selectedRef.current,
      title: name,
      pageUrl: sharePageUrl(window.location, document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href),
      reducedMotion: prefersReducedMotion(),
      placeholder: shown?.currentSrc ? { index: selectedRef.current, src: shown.currentSrc } : undefined,
      onChange: (index) => {
        last = index;
      },
      onClose: () => {
        viewerRef.current = null;
        // The gallery shows the image the shopper left the viewer on.
        if (last !== selectedRef.current) goTo(last);
      },
    });
  }, [slides, name, goTo]);

  // Leaving the page (a link within the app) closes the viewer with it.
  useEffect(
    () => () => {
      const viewer = viewerRef.current;
      if (viewer && viewer !== 'opening') viewer.close();
    },
    [],
  );

  // Hover zoom: a mouse over the image magnifies it about the pointer, from a larger
  // file. The pointer's moves are written straight to the element, not rendered.
  const zoomAt = (event: ReactPointerEvent<HTMLElement>) => {
    const image = slides[selectedRef.current];
    const viewport = viewportRef.current;
    if (!canZoom || !image || !viewport) return;
    const rect = viewport.getBoundingClientRect();
    const origin = zoomOrigin({ x: event.clientX, y: event.clientY }, rect);
    if (zoomRef.current) {
      zoomRef.current.style.transformOrigin = `${origin.x}% ${origin.y}%`;
      return;
    }
    const scale = zoomScale(image.width, rect.width);
    setZoom({ src: zoomSource(image, rect.width * scale * (window.devicePixelRatio || 1)), scale, origin });
  };
  const enterImage = (event: ReactPointerEvent<HTMLElement>) => {
    if (event.pointerType !== 'mouse') return;
    dispatch('hold');
    void loadViewer(); // the shopper may well click through to the viewer next
    zoomAt(event);
  };
  const leaveImage = () => {
    dispatch('release');
    setZoom(null);
  };
  useEffect(() => {
    // Another slide came (a thumbnail, the keyboard): the next move zooms it afresh.
    setZoom(null);
  }, [selected]);

  const thumbnailLabel = (index: number) => `Show image ${index + 1} of ${count}`;
  const nearby = ready ? nearbySlides(selected, count) : [];

  const slideList = (
    <div
      className={styles.slides}
      // Before the slider comes, a thumbnail moves the slides by this; then Embla does.
      style={!ready && selected > 0 ? ({ '--gallery-index': selected } as Record<string, number>) : undefined}
    >
      {slides.map((image, index) => {
        const current = index === selected;
        return (
          // Keyed by place: a variation's image takes the first slide's in place, under Embla.
          <div
            key={index}
            className={styles.slide}
            role={isSlider ? 'group' : undefined}
            aria-roledescription={isSlider ? 'slide' : undefined}
            aria-label={isSlider ? `Image ${index + 1} of ${count}` : undefined}
            aria-hidden={current ? undefined : true}
            data-testid={current ? 'product-main-image' : undefined}
          >
            <ProductImage
              image={image}
              variant="full"
              sizes={MAIN_SIZES}
              eager={index === firstShown || nearby.includes(index)}
              priority={index === firstShown}
              className={styles.mainImage}
            />
          </div>
        );
      })}
      {count === 0 && (
        <div className={styles.slide} data-testid="product-main-image">
          <ProductImage image={undefined} variant="full" className={styles.mainImage} />
        </div>
      )}
    </div>
  );

  return (
    <section
      ref={rootRef}
      className={styles.gallery}
      aria-roledescription={isSlider ? 'carousel' : undefined}
      aria-label={isSlider ? `${name} images` : undefined}
      data-slider={ready ? 'ready' : undefined}
    >
      <div className={styles.main}>
        <div
          ref={viewportRef}
          className={mounted && count > 0 ? `${styles.viewport} ${styles.opens}` : styles.viewport}
          onClick={count > 0 ? () => void openViewer() : undefined}
          onPointerEnter={enterImage}
          onPointerMove={(event) => event.pointerType === 'mouse' && zoomAt(event)}
          onPointerLeave={leaveImage}
        >
          {slideList}
        </div>
        {zoom && (
          <img
            ref={zoomRef}
            className={styles.zoom}
            src={zoom.src}
            alt=""
            aria-hidden="true"
            style={{ transform: `scale(${zoom.scale})`, transformOrigin: `${zoom.origin.x}% ${zoom.origin.y}%` }}
            data-testid="gallery-zoom"
          />
        )}
        {mounted && count > 0 && (
          <>
            {isSlider && (
              <button
                ref={rotationRef}
                type="button"
                className={`${styles.control} ${styles.rotation}`}
                onClick={() => dispatch('toggle')}
              >
                <Icon name={slideshow.on ? 'pause' : 'play'} size={18} />
                <span className="visually-hidden">{slideshow.on ? 'Pause slideshow' : 'Play slideshow'}</span>
              </button>
            )}
            {isSlider && (
              <>
                <button
                  type="button"
                  className={`${styles.control} ${styles.previous}`}
                  onClick={() => {
                    dispatch('interact');
                    if (sliderRef.current) sliderRef.current.previous();
                    else goTo((selected - 1 + count) % count);
                  }}
                >
                  <Icon name="chevron-left" />
                  <span className="visually-hidden">Previous image</span>
                </button>
                <button
                  type="button"
                  className={`${styles.control} ${styles.next}`}
                  onClick={() => {
                    dispatch('interact');
                    if (sliderRef.current) sliderRef.current.next();
                    else goTo((selected + 1) % count);
                  }}
                >
                  <Icon name="chevron-right" />
                  <span className="visually-hidden">Next image</span>
                </button>
              </>
            )}
            <button
              type="button"
              className={`${styles.control} ${styles.fullScreen}`}
              onClick={() => void openViewer()}
              onPointerEnter={() => void loadViewer()}
              onFocus={() => void loadViewer()}
            >
              <Icon name="expand" size={18} />
              <span className="visually-hidden">View full-screen</span>
            </button>
          </>
        )}
      </div>
      {isSlider && (
        <ul className={styles.thumbnails} aria-label={`${name} thumbnails`}>
          {slides.map((image, index) => {
            const active = index === selected;
            return (
              <li key={index}>
                <button
                  type="button"
                  className={`${styles.thumbnail} ${active ? styles.active : ''}`}
                  aria-label={thumbnailLabel(index)}
                  aria-pressed={active}
                  onClick={() => {
                    dispatch('interact');
                    goTo(index);
                  }}
                >
                  <ProductImage image={image} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
