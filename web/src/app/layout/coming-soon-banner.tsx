// The banner staff see while the shop is in coming-soon mode (visitors get the
// coming-soon page instead). Dismissing it writes `woocommerce_meta.coming_soon_banner_dismissed
// = yes` to the platform's user call named in the link's data, with the nonce header,
// through the platform's REST helper (a PUT, sent as POST with the method override);
// the server then leaves the banner out of every page. The server renders it, so it
// never moves the page after it loads.
import { useState, type MouseEvent } from 'react';
import { settings } from '@/config/settings';
import { platformFetch } from '@/lib/platform-fetch';
import styles from './coming-soon-banner.module.css';

export const COMING_SOON_TEXT = 'This store is in “coming soon” mode: visitors see the coming-soon page. Only you and other staff can see the shop.';

export function ComingSoonBanner() {
  const banner = settings.coming_soon;
  const [dismissed, setDismissed] = useState(false);
  if (!banner || dismissed) return null;

  function dismiss(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    const restUrl = event.currentTarget.dataset.restUrl;
    setDismissed(true);
    if (!restUrl) return;
    // Gone at once; if the write fails the next page shows it again.
    void platformFetch(restUrl, {
      method: 'PUT',
      nonce: banner!.nonce,
      data: { woocommerce_meta: { coming_soon_banner_dismissed: 'yes' } },
    }).catch(() => undefined);
  }

  return (
    <section id="coming-soon-footer-banner" className={`woocommerce-coming-soon-banner ${styles.banner}`} aria-label="Coming soon mode">
      <div className={`container ${styles.inner}`}>
        <p className={styles.text}>{COMING_SOON_TEXT}</p>
        <a href="#" role="button" className={`coming-soon-footer-banner-dismiss ${styles.dismiss}`} data-rest-url={banner.rest_url} onClick={dismiss}>
          Dismiss
        </a>
      </div>
    </section>
  );
}
