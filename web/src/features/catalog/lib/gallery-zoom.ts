// Hover zoom on the product page's main image: where a fine pointer hovers over it on
// a screen of 768 px or more, the image is magnified about the point under the
// pointer. Touch screens have the full-screen viewer's pinch zoom instead.
import type { ProductImage } from '@/types/store-api';

export const HOVER_ZOOM_QUERY = '(hover: hover) and (pointer: fine) and (min-width: 768px)';

/** At least twice, so the effect is worth having; at most three times, so the shopper keeps their bearings. */
const MIN_SCALE = 2;
const MAX_SCALE = 3;

/** The magnification: the large file at its own size where it is larger, within MIN..MAX. */
export function zoomScale(imageWidth: number | undefined, boxWidth: number): number {
  if (!imageWidth || boxWidth <= 0) return MIN_SCALE;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, imageWidth / boxWidth));
}

/** The point under the pointer as percentages of the box, the transform's origin: scaling about it keeps it under the pointer. */
export function zoomOrigin(
  pointer: { x: number; y: number },
  box: { left: number; top: number; width: number; height: number },
): { x: number; y: number } {
  const share = (offset: number, size: number) => (size > 0 ? Math.min(100, Math.max(0, (offset / size) * 100)) : 50);
  return { x: share(pointer.x - box.left, box.width), y: share(pointer.y - box.top, box.height) };
}

/** The smallest file of the image's srcset at least `neededWidth` wide, or its largest (the image as uploaded). */
export function zoomSource(image: Pick<ProductImage, 'src' | 'srcset' | 'width'>, neededWidth: number): string {
  const candidates = [...(image.srcset ?? '').matchAll(/([^\s,]+)\s+(\d+)w/g)]
    .map(([, url, width]) => ({ url: url!, width: Number(width) }))
    .sort((a, b) => a.width - b.width);
  return candidates.find((c) => c.width >= neededWidth)?.url ?? candidates[candidates.length - 1]?.url ?? image.src;
}
