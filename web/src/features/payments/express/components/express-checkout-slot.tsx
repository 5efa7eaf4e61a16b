// Where a page offers express checkout (Apple Pay, Google Pay, Link): the product page
// above its quantity and add-to-cart button, the cart above "Proceed to checkout", the
// checkout at the top of its form. The page renders nothing here, on the server or
// while it is being taken over: once it is interactive and idle the params are asked
// for (only in a shop whose card gateway is connected), and only when they say the shop
// offers it is the element's code, with the provider's, fetched.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { settings } from '@/config/settings';
import { shopperSession, tokenSession, type ExpressSession } from '../api/express-session';
import { getExpressParams, mayOfferExpressCheckout } from '../api/get-express-params';
import type { ExpressCheckoutElementProps, ExpressCheckoutSlotProps } from './express-checkout-props';

type ElementComponent = ComponentType<ExpressCheckoutElementProps>;

let elementLoad: Promise<ElementComponent | null> | null = null;

/** The element's chunk (and the provider's loader with it), fetched once for the visit. */
function loadElement(): Promise<ElementComponent | null> {
  if (import.meta.env.SSR) return Promise.resolve(null);
  elementLoad ??= import('./express-checkout-element').then(
    (module) => module.default,
    () => {
      elementLoad = null;
      return null;
    },
  );
  return elementLoad;
}

/** True once the page has been taken over and the browser is idle. */
function useWhenIdle(wanted: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (!wanted) return;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 300);
    return () => clearTimeout(timer);
  }, [wanted]);
  return idle;
}

/** The product page's button buys in a cart of its own: one for the visit, named by its token. */
let productCart: ExpressSession | null = null;
const productSession = () => (productCart ??= tokenSession());

export function ExpressCheckoutSlot(props: ExpressCheckoutSlotProps) {
  const { context, productId, cartVersion } = props;
  const offered = mayOfferExpressCheckout() && (context !== 'product' || Boolean(productId));
  const idle = useWhenIdle(offered);
  const session = useMemo(() => (context === 'product' ? productSession() : shopperSession()), [context]);
  const { data } = useQuery({
    queryKey: ['payments', 'express-params', context, productId ?? 0, cartVersion ?? '', settings.account.user_id],
    queryFn: () => getExpressParams({ context, productId }, session),
    enabled: offered && idle,
    // A new cart version keeps the button up (with its amount) while the params follow.
    placeholderData: keepPreviousData,
  });
  const enabled = data?.enabled === true;
  const [Element, setElement] = useState<ElementComponent | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void loadElement().then((loaded) => {
      if (current && loaded) setElement(() => loaded);
    });
    return () => {
      current = false;
    };
  }, [enabled]);

  if (!data?.enabled || !Element) return null;
  return <Element {...props} params={data} session={session} />;
}
