// The shell around every page: skip link, store notice, header, main landmark,
// footer and the phone's footer bar. It also keeps the cart in sync across tabs and
// restores scroll positions.
import { Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, type Location } from 'react-router';
import { HydrateApart } from '@/components/hydrate-apart';
import { LinkNavigation } from '@/components/ui/link';
import { useCartSync } from '@/features/cart/hooks/use-cart-sync';
import styles from './app-layout.module.css';
import { FooterBar } from './footer-bar';
import { PageNotices } from './page-notices';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';
import { ComingSoonBanner } from './coming-soon-banner';
import { StoreNotice } from './store-notice';

/**
 * Where a page's scroll position is kept. Every page opened afresh (a link from another
 * site, the provider sending the shopper back) has the history key "default": keyed
 * so, the checkout's position would be restored on the thank-you page. Those go by
 * their address instead; moves within the app by their own key.
 */
export function scrollKey(location: Location): string {
  return location.key === 'default' ? `${location.pathname}${location.search}` : location.key;
}

export function AppLayout() {
  useCartSync();
  // The app has taken the page over: held forms go now (see boot.ts), tests may act.
  useEffect(() => {
    document.documentElement.dataset.app = 'ready';
    document.dispatchEvent(new Event('ferroshop:ready'));
  }, []);

  return (
    <LinkNavigation>
      <div className={styles.shell}>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <ComingSoonBanner />
        <StoreNotice />
        <HydrateApart name="header">
          <SiteHeader />
        </HydrateApart>
        <main id="main" className={styles.main} tabIndex={-1}>
          <PageNotices />
          {/* While a page's code loads; later navigations keep the old page up meanwhile. */}
          <Suspense fallback={<div className={styles.progress} aria-hidden="true" />}>
            <HydrateApart name="page">
              <Outlet />
            </HydrateApart>
          </Suspense>
        </main>
        <HydrateApart name="footer">
          <SiteFooter />
        </HydrateApart>
        <HydrateApart name="footer-bar">
          <FooterBar />
        </HydrateApart>
        <ScrollRestoration getKey={scrollKey} />
      </div>
    </LinkNavigation>
  );
}
