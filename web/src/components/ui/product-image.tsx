// A product image from the API (with its srcset), or a quiet placeholder when the
// product has none. Alt text comes from the API.
import type { ProductImage as Image } from '@/types/store-api';
import styles from './product-image.module.css';

export function ProductImage({
  image,
  variant = 'thumbnail',
  sizes,
  className,
  eager = false,
  priority = false,
}: {
  image: Image | undefined;
  /** "thumbnail" loads the small square; "full" the large one with its srcset. */
  variant?: 'thumbnail' | 'full';
  sizes?: string;
  className?: string;
  eager?: boolean;
  /** The page's largest image: fetched first (and preloaded by the server's render). */
  priority?: boolean;
}) {
  const classes = `${styles.image} ${className ?? ''}`;
  // Without a sizes hint the browser assumes full width and picks the largest file.
  const resolvedSizes = sizes ?? (variant === 'full' ? image?.sizes : undefined);
  if (!image) return <div className={`${classes} ${styles.placeholder}`} aria-hidden="true" />;
  return (
    <img
      className={classes}
      src={variant === 'full' ? image.src : image.thumbnail || image.src}
      srcSet={resolvedSizes && image.srcset ? image.srcset : undefined}
      sizes={resolvedSizes && image.srcset ? resolvedSizes : undefined}
      alt={image.alt}
      width={image.width || undefined}
      height={image.height || undefined}
      loading={eager || priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
    />
  );
}
