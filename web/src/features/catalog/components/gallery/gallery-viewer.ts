// The gallery's full-screen viewer, in a chunk of its own (with PhotoSwipe and its
// styles) fetched when the page is idle or the viewer is first opened: the images at
// their large size with a counter ("2 / 3"), zoom, close, next and previous, the
// caption, and a share menu (Facebook, Twitter, Pinterest, download). As in the
// original, the controls go idle after 4000 ms without the pointer or keys, the
// loading indicator shows after 1000 ms, and a file that fails says so with a link
// to it. PhotoSwipe keeps focus inside while it is open, closes on Escape and gives
// focus back to the control that opened it.
import PhotoSwipe, { type SlideData } from 'photoswipe';
import 'photoswipe/style.css';
import './gallery-viewer.css';
import { viewerSecondaryZoom, type ViewerItem } from '../../lib/gallery';
import { absoluteImageUrl, shareLinks } from '../../lib/gallery-share';

export const VIEWER_IDLE_MS = 4000;
export const VIEWER_LOADING_DELAY_MS = 1000;
export const IMAGE_ERROR_TEXT = ' could not be loaded.';

/** The class the viewer's root carries while its controls are idle (hidden until the pointer moves or a key is pressed). */
export const IDLE_CLASS = 'pswp--idle';

export interface ViewerOptions {
  items: ViewerItem[];
  index: number;
  /** The product's name: names the dialog and is the shared text. */
  title: string;
  /** The page's address to share (lib/gallery-share.ts `sharePageUrl`). */
  pageUrl: string;
  reducedMotion: boolean;
  /** The file the page already shows for the first image, drawn while the large one loads. */
  placeholder?: { index: number; src: string };
  onChange?: (index: number) => void;
  onClose?: () => void;
}

export interface Viewer {
  close: () => void;
}

const SHARE_ICON =
  '<svg aria-hidden="true" class="pswp__icn" viewBox="0 0 32 32" width="32" height="32">' +
  '<path d="M21 6.5a3.5 3.5 0 1 1-3.3 4.7l-5.5 3.1a3.6 3.6 0 0 1 0 3.4l5.5 3.1a3.5 3.5 0 1 1-.9 1.8l-5.5-3.1a3.5 3.5 0 1 1 0-5l5.5-3.1A3.5 3.5 0 0 1 21 6.5z"/>' +
  '</svg>';

export function openViewer(options: ViewerOptions): Viewer {
  const dataSource: SlideData[] = options.items.map((item, index) => ({
    src: item.src,
    srcset: item.srcset,
    width: item.width,
    height: item.height,
    alt: item.alt,
    caption: item.caption,
    vector: item.vector,
    msrc: options.placeholder?.index === index ? options.placeholder.src : undefined,
  }));
  const pswp = new PhotoSwipe({
    dataSource,
    index: options.index,
    showHideAnimationType: options.reducedMotion ? 'none' : 'fade',
    preloaderDelay: VIEWER_LOADING_DELAY_MS,
    indexIndicatorSep: ' / ',
    bgOpacity: 1,
    // On a wide screen the image keeps clear of the top bar, the arrows and the caption.
    paddingFn: (viewport) => (viewport.x >= 768 ? { top: 64, bottom: 64, left: 72, right: 72 } : { top: 0, bottom: 0, left: 0, right: 0 }),
    closeTitle: 'Close (Esc)',
    zoomTitle: 'Zoom in or out (z)',
    arrowPrevTitle: 'Previous image',
    arrowNextTitle: 'Next image',
    errorMsg: 'The image could not be loaded.',
    mainClass: 'pswp--ferroshop',
    secondaryZoomLevel: (zoom) =>
      viewerSecondaryZoom({ fit: zoom.fit, width: zoom.elementSize?.x ?? 0, vector: Boolean(zoom.itemData.vector) }),
  });

  // A failed file: "The image could not be loaded." with "The image" linking to it.
  pswp.addFilter('contentErrorElement', (element, content) => {
    const link = document.createElement('a');
    link.href = content.data.src ?? '';
    link.target = '_blank';
    link.rel = 'noopener';
    link.textContent = 'The image';
    element.replaceChildren(link, IMAGE_ERROR_TEXT);
    return element;
  });

  let closeShareMenu: (returnFocus: boolean) => boolean = () => false;
  pswp.on('uiRegister', () => {
    pswp.ui?.registerElement({
      name: 'caption',
      appendTo: 'wrapper',
      order: 9,
      onInit: (element) => {
        pswp.on('change', () => {
          const caption = String(pswp.currSlide?.data.caption ?? '');
          element.textContent = caption;
          element.hidden = caption === '';
        });
      },
    });
    pswp.ui?.registerElement({
      name: 'share',
      title: 'Share',
      order: 9,
      isButton: true,
      html: SHARE_ICON,
      onInit: (button, instance) => {
        closeShareMenu = shareMenu(button, instance, options);
      },
    });
  });

  pswp.on('keydown', (event) => {
    const key = event.originalEvent;
    // Escape closes the share menu first, then the viewer.
    if (key.key === 'Escape' && closeShareMenu(true)) event.preventDefault();
    if (key.key === 'Tab' && pswp.element) keepFocusIn(pswp.element, key);
  });
  pswp.on('pointerDown', (event) => {
    // Links (the share menu's, a failed image's) are followed, not dragged or tapped away.
    if ((event.originalEvent.target as Element | null)?.closest('a, .pswp__share-menu')) event.preventDefault();
  });
  pswp.on('change', () => options.onChange?.(pswp.currIndex));
  pswp.on('destroy', () => options.onClose?.());

  pswp.init();
  const root = pswp.element;
  if (root) {
    root.setAttribute('aria-modal', 'true');
    root.setAttribute('aria-label', `${options.title} images`);
    idleControls(pswp, root);
  }
  return { close: () => pswp.close() };
}

/**
 * Tab and Shift+Tab go round the viewer's controls: past the last comes the first, so
 * focus never reaches the page behind (PhotoSwipe only pulls it back once it has).
 */
function keepFocusIn(root: HTMLElement, event: KeyboardEvent) {
  // checkVisibility is recent (Safari 17.4); older browsers measure.
  const shown = (element: HTMLElement) =>
    typeof (element as Partial<HTMLElement>).checkVisibility === 'function'
      ? element.checkVisibility({ visibilityProperty: true })
      : element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
  const controls = [...root.querySelectorAll<HTMLElement>('button:not(:disabled), a[href]')].filter(shown);
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !(active instanceof HTMLElement) || !controls.includes(active);
  if (event.shiftKey && (outside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (outside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/** The share button's menu of links for the image shown; returns the function that closes it (true if it was open). */
function shareMenu(button: HTMLElement, pswp: PhotoSwipe, options: ViewerOptions): (returnFocus: boolean) => boolean {
  const menu = document.createElement('div');
  menu.className = 'pswp__share-menu';
  menu.id = 'pswp__share-menu';
  menu.hidden = true;
  const list = document.createElement('ul');
  menu.append(list);
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', menu.id);

  const fill = () => {
    const src = pswp.currSlide?.data.src;
    if (!src) return;
    const imageUrl = absoluteImageUrl(src, window.location.href);
    list.replaceChildren(
      ...shareLinks({ pageUrl: options.pageUrl, imageUrl, text: options.title }).map((share) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.className = `pswp__share--${share.network}`;
        link.href = share.href;
        link.textContent = share.label;
        if (share.download) link.download = '';
        else {
          link.target = '_blank';
          link.rel = 'noopener noreferrer';
        }
        link.addEventListener('click', () => close(false));
        item.append(link);
        return item;
      }),
    );
  };
  const open = () => {
    fill();
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    menu.querySelector('a')?.focus();
  };
  const close = (returnFocus: boolean) => {
    if (menu.hidden) return false;
    menu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (returnFocus) button.focus();
    return true;
  };
  button.addEventListener('click', () => (menu.hidden ? open() : close(false)));
  pswp.on('change', () => (menu.hidden ? undefined : fill()));
  // A press anywhere else closes it.
  pswp.on('pointerDown', (event) => {
    const target = event.originalEvent.target as Node | null;
    if (target && !menu.contains(target) && !button.contains(target)) close(false);
  });
  pswp.element?.append(menu);
  return close;
}

/**
 * Hides the controls after VIEWER_IDLE_MS without pointer or key activity. Touch
 * screens keep PhotoSwipe's own tap-to-toggle instead, and controls stay while one
 * has keyboard focus or the share menu is open, so focus is never on something unseen.
 */
function idleControls(pswp: PhotoSwipe, root: HTMLElement) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let touch = false;
  const rest = () => {
    const focused = document.activeElement;
    const focusShown = focused instanceof HTMLElement && focused !== root && root.contains(focused) && focused.matches(':focus-visible');
    const shareOpen = !root.querySelector<HTMLElement>('.pswp__share-menu')?.hidden;
    if (!touch && !focusShown && !shareOpen) root.classList.add(IDLE_CLASS);
  };
  const wake = (event?: Event) => {
    if (event instanceof PointerEvent) touch = event.pointerType === 'touch';
    root.classList.remove(IDLE_CLASS);
    clearTimeout(timer);
    timer = setTimeout(rest, VIEWER_IDLE_MS);
  };
  for (const type of ['pointermove', 'pointerdown', 'wheel']) pswp.events.add(root, type, wake);
  pswp.events.add(document, 'keydown', wake);
  wake();
  pswp.on('destroy', () => clearTimeout(timer));
}
