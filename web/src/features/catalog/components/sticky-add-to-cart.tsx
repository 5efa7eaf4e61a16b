// The sticky add-to-cart bar: once the product's buying controls have scrolled out of
// view above, a bar slides in at the top with the product, its price and a button;
// it slides out when they come back (an IntersectionObserver watches them). A simple
// product is added from the bar; for a variable product (or one that cannot be added
// from here) the button takes the shopper back to the product's options. The bar is
// fixed, so its coming and going never moves the page; hidden, it is inert. It does
// nothing without scripts, so the server leaves it out (a shorter render for every
// product page) and the page adds it once it runs.
import { useEffect, useState, type RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { Price } from '@/components/ui/price';
import { ProductImage } from '@/components/ui/product-image';
import { usePageRunning } from '@/hooks/use-page-running';
import { htmlToText } from '@/lib/html-text';
import type { RenderAddToCart } from '@/types/add-to-cart';
import type { Product } from '@/types/store-api';
import styles from './sticky-add-to-cart.module.css';

/** Whether the bar should show: the trigger is out of view, above the window. */
export function stickyBarShown(entry: Pick<IntersectionObserverEntry, 'isIntersecting' | 'boundingClientRect'>): boolean {
  return !entry.isIntersecting && entry.boundingClientRect.bottom <= 0;
}

/**
 * Whether the trigger has scrolled out of view above. The observer reports each time
 * it leaves or enters the window; a jump from below the window to above it (a link
 * to the page's foot, the End key) crosses nothing it reports, so a scroll also reads
 * the trigger's place once a frame.
 */
function useScrolledPast(trigger: RefObject<HTMLElement | null>): boolean {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const element = trigger.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      if (entry) setPast(stickyBarShown(entry));
    });
    observer.observe(element);
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setPast(element.getBoundingClientRect().bottom <= 0);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      window.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [trigger]);
  return past;
}

interface StickyAddToCartProps {
  product: Product;
  /** A variable product's chosen variation, for its price. */
  variation?: Product;
  /** The buying controls the bar stands in for. */
  trigger: RefObject<HTMLElement | null>;
  renderAddToCart: RenderAddToCart;
}

export function StickyAddToCart(props: StickyAddToCartProps) {
  return usePageRunning() ? <Bar {...props} /> : null;
}

function Bar({ product, variation, trigger, renderAddToCart }: StickyAddToCartProps) {
  const shown = useScrolledPast(trigger);
  const name = htmlToText(product.name);
  const addable = product.type === 'simple' && product.is_purchasable && product.is_in_stock;

  function backToOptions() {
    const area = trigger.current;
    if (!area) return;
    area.scrollIntoView({ behavior: window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth', block: 'center' });
    // The first option (or quantity) takes the focus, so a keyboard user carries on there.
    area.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), select, button')?.focus({ preventScroll: true });
  }

  return (
    <div className={`storefront-sticky-add-to-cart ${styles.bar} ${shown ? styles.shown : ''}`} data-testid="sticky-add-to-cart" data-shown={shown} inert={!shown} aria-hidden={!shown}>
      <div className={`container ${styles.inner}`}>
        <ProductImage image={product.images[0]} className={styles.image} />
        <div className={styles.text}>
          <span className={styles.name}>{name}</span>
          <Price prices={(variation ?? product).prices} showRange={!variation} />
        </div>
        {addable ? (
          renderAddToCart({ productId: product.id, productName: name, quantity: Math.max(1, product.add_to_cart.minimum), size: 'md' })
        ) : (
          <Button type="button" onClick={backToOptions}>
            {product.type === 'variable' ? 'Select options' : 'View product'}
          </Button>
        )}
      </div>
    </div>
  );
}
