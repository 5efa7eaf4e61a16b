// What the form a page answers did (the original shop's add-to-cart form or link, the
// cart page's form, posted without scripts): the server puts it in the page's
// settings, shown above the page until the shopper moves on.
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Link } from '@/components/ui/link';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import styles from './app-layout.module.css';

export function PageNotices() {
  const location = useLocation();
  const [arrivedAt] = useState(location.key);
  const notices = settings.notices;
  if (notices.length === 0 || location.key !== arrivedAt) return null;
  return (
    <div className={`container ${styles.notices}`}>
      {notices.map((notice, index) => (
        <Notice key={index} tone={notice.kind === 'error' ? 'error' : 'success'}>
          {notice.message}
          {notice.cart_link && (
            <>
              {' '}
              <Link to={paths.cart()}>View cart</Link>
            </>
          )}
        </Notice>
      ))}
    </div>
  );
}
