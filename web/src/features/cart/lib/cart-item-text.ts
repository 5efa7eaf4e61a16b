// How a cart line describes itself in text: its name and chosen options.
import { htmlToText } from '@/lib/html-text';
import type { CartItem } from '@/types/store-api';

/** "Color: Navy, Size: M" from the line's variation and extra item data. */
export function cartItemDetails(item: Pick<CartItem, 'variation' | 'item_data'>): string {
  const parts = [
    ...item.variation.map((entry) => `${htmlToText(entry.attribute)}: ${htmlToText(entry.value)}`),
    ...item.item_data
      .filter((entry) => (entry.name ?? entry.key) && (entry.display ?? entry.value))
      .map((entry) => `${htmlToText(entry.name ?? entry.key ?? '')}: ${htmlToText(entry.display ?? entry.value)}`),
  ];
  return parts.join(', ');
}

export function removedMessage(name: string): string {
  return `\u201c${name}\u201d removed.`;
}
