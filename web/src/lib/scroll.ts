// Smooth scrolling to an element over a set time, as the checkout scrolls to its login
// form, its notices and the fields they name. The offset keeps the target clear of the
// page's top edge, counted from the bottom of the sticky header. Reduced motion jumps
// straight there.

/** Where notices (and the fields a notice leads to) are scrolled: 100 px below the header, over a second. */
export const NOTICE_SCROLL = { duration: 1000, offset: 100 };

/** The height of the sticky header, which covers the top of the window. */
function stickyHeaderHeight(): number {
  const header = document.querySelector('header');
  if (!header) return 0;
  const position = getComputedStyle(header).position;
  return position === 'sticky' || position === 'fixed' ? header.getBoundingClientRect().height : 0;
}

export function scrollToElement(element: Element, { duration, offset }: { duration: number; offset: number }): void {
  const start = window.scrollY;
  const target = Math.max(0, start + element.getBoundingClientRect().top - offset - stickyHeaderHeight());
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  if (reduced || duration <= 0 || typeof requestAnimationFrame !== 'function') {
    window.scrollTo(0, target);
    return;
  }
  const began = performance.now();
  const step = (now: number) => {
    const progress = Math.min(1, (now - began) / duration);
    // Ease in and out, like the original's "swing".
    const eased = 0.5 - Math.cos(progress * Math.PI) / 2;
    window.scrollTo(0, start + (target - start) * eased);
    if (progress < 1) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}
