// The add-to-cart button: idle, loading (spinner, aria-busy) and added (check mark),
// with a "View cart" link inserted after it once added, except on the cart page.
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/components/ui/link';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { settings } from '@/config/settings';
import type { AddToCartRequest } from '@/types/add-to-cart';
import { useAddToCart } from '../api/add-to-cart';
import styles from './add-to-cart-button.module.css';

function samePath(a: string, b: string) {
  const trim = (path: string) => path.replace(/\/+$/, '') || '/';
  return trim(a) === trim(b);
}

export function AddToCartButton(request: AddToCartRequest) {
  const { pathname } = useLocation();
  const mutation = useAddToCart();
  const { reset } = mutation;

  // A different product or variation starts from idle again.
  useEffect(() => {
    reset();
  }, [request.productId, reset]);

  const outcome = mutation.isSuccess ? mutation.data.kind : null;
  // Leaving for the product page takes a moment; stay busy until then.
  const loading = mutation.isPending || outcome === 'go-to-product';
  const added = outcome === 'added';
  const state = loading ? 'loading' : added ? 'added' : 'idle';

  return (
    <span className={styles.wrap}>
      <Button
        size={request.size ?? 'md'}
        className={`${styles.button} ${added ? styles.added : ''}`}
        // Further clicks while busy are queued behind the first, as in the original shop.
        onClick={() => mutation.mutate(request)}
        disabled={request.disabled}
        {...(request.submitsProduct !== undefined
          ? { type: 'submit' as const, name: 'add-to-cart', value: String(request.submitsProduct) }
          : {})}
        aria-busy={loading}
        aria-label={request.label}
        data-state={state}
      >
        {loading && <Spinner />}
        {added && <Icon name="check" size={18} />}
        Add to cart
      </Button>
      {added && !samePath(pathname, settings.cart_url) && (
        <Link to={settings.cart_url} className={styles.viewCart} title={settings.i18n_view_cart}>
          {settings.i18n_view_cart}
        </Link>
      )}
      {mutation.isError && (
        <span className={styles.error} role="alert">
          {mutation.error.message}
        </span>
      )}
    </span>
  );
}
