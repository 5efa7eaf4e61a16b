// The notice group a failed checkout shows at the top of the form. Items about one
// field link to it: following the link puts the cursor in that field and brings its
// row (label and all) out from under the sticky header.
import type { Ref } from 'react';
import { Icon } from '@/components/ui/icon';
import { NOTICE_SCROLL, scrollToElement } from '@/lib/scroll';
import type { ServerNotice } from '../lib/notices';
import styles from './checkout.module.css';

export function CheckoutErrors({ notices, groupRef }: { notices: ServerNotice[]; groupRef: Ref<HTMLDivElement> }) {
  if (notices.length === 0) return null;
  const errors = notices.filter((notice) => notice.tone === 'error');
  const others = notices.filter((notice) => notice.tone !== 'error');
  return (
    <div ref={groupRef} className={`woocommerce-NoticeGroup woocommerce-NoticeGroup-checkout ${styles.noticeGroup}`} tabIndex={-1}>
      {errors.length > 0 && (
        <div className={styles.errorBox} role="alert">
          <Icon name="alert" size={20} className={styles.errorIcon} />
          <ul className={`woocommerce-error ${styles.errorList}`}>
            {errors.map((notice, index) => (
              <li key={`${index}-${notice.text}`} data-id={notice.fieldId ?? undefined}>
                {notice.fieldId ? (
                  <a
                    href={`#${notice.fieldId}`}
                    onClick={(event) => {
                      const field = document.getElementById(notice.fieldId!);
                      if (!field) return;
                      event.preventDefault();
                      field.focus({ preventScroll: true });
                      scrollToElement(document.getElementById(`${notice.fieldId}_field`) ?? field, NOTICE_SCROLL);
                    }}
                  >
                    {notice.text}
                  </a>
                ) : (
                  notice.text
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {others.map((notice, index) => (
        <p key={`${index}-${notice.text}`} className={`woocommerce-message ${styles.otherNotice}`} role="status">
          {notice.text}
        </p>
      ))}
    </div>
  );
}
