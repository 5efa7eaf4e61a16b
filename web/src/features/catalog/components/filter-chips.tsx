// The filters in force as removable chips above the grid, and "Clear filters".
import { Icon } from '@/components/ui/icon';
import { formatPrice, type PriceFormat } from '@/lib/format-price';
import { htmlToText } from '@/lib/html-text';
import type { Taxonomy } from '@/types/store-api';
import type { AttributeWithTerms } from '../api/get-attributes';
import { NO_FILTERS, STOCK_STATUS_LABELS, type CatalogFilters } from '../lib/filters';
import styles from './filter-panel.module.css';

interface Chip {
  key: string;
  label: string;
  without: CatalogFilters;
}

function nameOf(terms: { slug: string; name: string }[], slug: string): string {
  const term = terms.find((candidate) => candidate.slug === slug);
  return term ? htmlToText(term.name) : slug;
}

export function filterChips(
  filters: CatalogFilters,
  { categories, brands, attributes, format }: { categories: Taxonomy[]; brands: Taxonomy[]; attributes: AttributeWithTerms[]; format: PriceFormat },
): Chip[] {
  const chips: Chip[] = [];
  if (filters.minPrice !== null || filters.maxPrice !== null) {
    const min = filters.minPrice !== null ? formatPrice(filters.minPrice, format) : null;
    const max = filters.maxPrice !== null ? formatPrice(filters.maxPrice, format) : null;
    const label = min && max ? `${min} – ${max}` : min ? `From ${min}` : `Up to ${max}`;
    chips.push({ key: 'price', label: `Price: ${label}`, without: { ...filters, minPrice: null, maxPrice: null } });
  }
  for (const slug of filters.categories) {
    chips.push({
      key: `cat-${slug}`,
      label: nameOf(categories, slug),
      without: { ...filters, categories: filters.categories.filter((s) => s !== slug) },
    });
  }
  for (const slug of filters.brands) {
    chips.push({ key: `brand-${slug}`, label: nameOf(brands, slug), without: { ...filters, brands: filters.brands.filter((s) => s !== slug) } });
  }
  for (const [taxonomy, slugs] of Object.entries(filters.attributes)) {
    const attribute = attributes.find((candidate) => candidate.taxonomy === taxonomy);
    for (const slug of slugs) {
      chips.push({
        key: `${taxonomy}-${slug}`,
        label: attribute ? `${htmlToText(attribute.name)}: ${nameOf(attribute.terms, slug)}` : slug,
        without: { ...filters, attributes: { ...filters.attributes, [taxonomy]: slugs.filter((s) => s !== slug) } },
      });
    }
  }
  for (const status of filters.stockStatus) {
    chips.push({
      key: `stock-${status}`,
      label: STOCK_STATUS_LABELS[status],
      without: { ...filters, stockStatus: filters.stockStatus.filter((s) => s !== status) },
    });
  }
  for (const rating of filters.ratings) {
    chips.push({
      key: `rating-${rating}`,
      label: `Rated ${rating} out of 5`,
      without: { ...filters, ratings: filters.ratings.filter((r) => r !== rating) },
    });
  }
  if (filters.onSale) chips.push({ key: 'on-sale', label: 'On sale', without: { ...filters, onSale: false } });
  return chips;
}

export function FilterChips({ chips, onChange }: { chips: Chip[]; onChange: (next: CatalogFilters) => void }) {
  if (chips.length === 0) return null;
  return (
    <div className={styles.chips} role="group" aria-label="Active filters">
      <ul className={styles.chipList}>
        {chips.map((chip) => (
          <li key={chip.key}>
            <button type="button" className={styles.chip} onClick={() => onChange(chip.without)} aria-label={`Remove filter: ${chip.label}`}>
              <span>{chip.label}</span>
              <Icon name="close" size={14} />
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className={styles.clear} onClick={() => onChange(NO_FILTERS)}>
        Clear filters
      </button>
    </div>
  );
}
