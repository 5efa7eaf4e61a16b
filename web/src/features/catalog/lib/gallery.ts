// What the product page's gallery shows: its slides (the product's images, with a
// chosen variation's image brought to the front), which slides' files to fetch now,
// and each image as the full-screen viewer takes it (large file, size, alt, caption).
import type { ProductImage } from '@/types/store-api';

export interface GallerySlides {
  slides: ProductImage[];
  /** The slide showing the chosen variation's image, or null without one. */
  variationSlide: number | null;
}

/**
 * A variation's image that is one of the gallery's is shown where it is; any other
 * takes the first slide's place (and its thumbnail's), as the original shop does,
 * until the choice is undone.
 */
export function gallerySlides(images: ProductImage[], variationImage: ProductImage | undefined): GallerySlides {
  if (!variationImage) return { slides: images, variationSlide: null };
  const index = images.findIndex((image) => image.id === variationImage.id);
  if (index >= 0) return { slides: images, variationSlide: index };
  return { slides: [variationImage, ...images.slice(1)], variationSlide: 0 };
}

/** The slide shown and the ones either side of it (the slider loops): their files are worth fetching now. */
export function nearbySlides(index: number, count: number): number[] {
  if (count <= 0) return [];
  const wrap = (i: number) => ((i % count) + count) % count;
  return [...new Set([wrap(index), wrap(index + 1), wrap(index - 1)])];
}

/**
 * The image's caption, or else its title. The Store API's `name` is the image's title
 * in the original; this shop's media carry a file name there ("hoodie-1.svg"), which
 * says nothing to a shopper and is left out.
 */
export function captionOf(image: ProductImage): string {
  const caption = image.caption?.trim();
  if (caption) return caption;
  const title = image.name.trim();
  return /\.[a-z0-9]{2,5}$/i.test(title) ? '' : title;
}

export interface ViewerItem {
  /** The large file: the image as uploaded. */
  src: string;
  /** Smaller copies of it, for the viewer to choose from by its width. */
  srcset?: string;
  width: number;
  height: number;
  alt: string;
  caption: string;
  /** A drawing (SVG): sharp at any size, so it may be zoomed past its own. */
  vector: boolean;
}

/** The viewer needs the large file's size before it arrives; `measured` stands in where the API has none. */
export function viewerItem(image: ProductImage, measured?: { width: number; height: number }): ViewerItem {
  const width = image.width || measured?.width || 0;
  const height = image.height || measured?.height || 0;
  return {
    src: image.src,
    srcset: image.srcset || undefined,
    width: width > 0 && height > 0 ? width : FALLBACK_SIZE,
    height: width > 0 && height > 0 ? height : FALLBACK_SIZE,
    alt: image.alt,
    caption: captionOf(image),
    vector: /\.svg$/i.test(image.src.split(/[?#]/)[0] ?? ''),
  };
}

/** PhotoSwipe draws nothing wider than this (a GPU's texture limit). */
const VIEWER_MAX_WIDTH = 4000;

/**
 * The viewer's second zoom level (its zoom button's), as a share of the image's own
 * size: PhotoSwipe's own rule (three times the fitted size, but never past the file's
 * own size or 4000 px), and at least twice the fitted size for a drawing, which stays
 * sharp at any size.
 */
export function viewerSecondaryZoom({ fit, width, vector }: { fit: number; width: number; vector: boolean }): number {
  const limit = width > 0 ? VIEWER_MAX_WIDTH / width : Infinity;
  const photo = Math.min(1, fit * 3, limit);
  return vector ? Math.min(Math.max(photo, fit * 2), limit) : photo;
}

/** The product images' own frame is square (see components/ui/product-image.module.css). */
const FALLBACK_SIZE = 1200;
