// "Share on": the list's address on Facebook, Twitter, Pinterest, by e-mail and on
// WhatsApp, or copied ("Copied!" said where the button is).
import { useEffect, useState } from 'react';
import { settings } from '@/config/settings';
import type { Wishlist } from '../api/get-wishlist';
import { shareLinks } from '../lib/share-links';
import styles from './wishlist-page.module.css';

export function WishlistShare({ list }: { list: Wishlist }) {
  const [copied, setCopied] = useState(false);
  const image = list.items.find((item) => item.image)?.image?.src;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 3000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(list.url);
    } catch {
      // Without the clipboard API: select-and-copy from a field of our own.
      const field = document.createElement('textarea');
      field.value = list.url;
      document.body.append(field);
      field.select();
      document.execCommand('copy');
      field.remove();
    }
    setCopied(true);
  };

  return (
    <section className={`social-buttons ${styles.share}`} aria-labelledby="wishlist-share-title">
      <h2 id="wishlist-share-title" className={styles.shareTitle}>
        Share on
      </h2>
      <ul className={styles.shareList}>
        {shareLinks(list.url, image).map((link) => (
          <li key={link.name}>
            <a
              className={`social social-${link.name} ${styles.shareLink}`}
              href={link.href}
              target={link.name === 'email' ? undefined : '_blank'}
              rel="noopener noreferrer nofollow"
              title={link.label}
            >
              {link.label}
            </a>
          </li>
        ))}
        <li>
          <a
            className={`social social-clipboard ${styles.shareLink}`}
            href={list.url}
            title="Clipboard"
            onClick={(event) => {
              event.preventDefault();
              void copy();
            }}
          >
            Copy link
          </a>
        </li>
      </ul>
      <p className={styles.copied} role="status">
        {copied ? settings.wishlist.tinvwl_clipboard : ''}
      </p>
    </section>
  );
}
