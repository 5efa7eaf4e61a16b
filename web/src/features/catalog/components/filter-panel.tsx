// The filter choices of a listing: price (own range or a round band), categories,
// brands, each global attribute's terms, stock status, rating and "on sale". Each
// group is a fieldset whose options show how many products they would list; options
// that would list none are left out (unless chosen, so they can be unticked).
// Every change applies at once through `onChange`.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { formatPrice, type PriceFormat } from '@/lib/format-price';
import { htmlToText } from '@/lib/html-text';
import type { Taxonomy } from '@/types/store-api';
import type { AttributeWithTerms } from '../api/get-attributes';
import type { CollectionData } from '../api/get-collection-data';
import {
  bandFilter,
  fromMinorUnits,
  STOCK_STATUS_LABELS,
  STOCK_STATUSES,
  toggled,
  toMinorUnits,
  type CatalogFilters,
} from '../lib/filters';
import styles from './filter-panel.module.css';

export interface FilterPanelProps {
  filters: CatalogFilters;
  onChange: (next: CatalogFilters) => void;
  data: CollectionData | undefined;
  /** The categories to offer (top level, or a category page's subcategories). */
  categories: Taxonomy[];
  /** The brands to offer; none on a brand page. */
  brands: Taxonomy[];
  attributes: AttributeWithTerms[];
  format: PriceFormat;
}

function countOf(counts: { term: number; count: number }[] | null | undefined, id: number): number {
  return counts?.find((entry) => entry.term === id)?.count ?? 0;
}

/** One choice: a checkbox with its label and, beside it, how many products it would
 *  list. The option's name reads on as "Blue 4 products", so what is seen ("Blue 4")
 *  is part of what is heard and what voice control answers to. A plain function, not a
 *  component: a listing has dozens of these, and each component costs its render. */
function option(key: string | number, label: ReactNode, count: number, checked: boolean, onToggle: () => void) {
  return (
    <li key={key}>
      <label className={styles.option}>
        <input type="checkbox" className={styles.checkbox} checked={checked} onChange={onToggle} />
        {label}{' '}
        <span className={styles.count}>
          {count} <span className="visually-hidden">{count === 1 ? 'product' : 'products'}</span>
        </span>
      </label>
    </li>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{legend}</legend>
      {children}
    </fieldset>
  );
}

export function Stars({ rating }: { rating: number }) {
  return (
    <span className={styles.stars}>
      <span aria-hidden="true">
        <span className={styles.filled}>{'★'.repeat(rating)}</span>
        <span className={styles.empty}>{'★'.repeat(5 - rating)}</span>
      </span>
      <span className="visually-hidden">{`Rated ${rating} out of 5`}</span>
    </span>
  );
}

function PriceFilter({ filters, onChange, data, format }: Pick<FilterPanelProps, 'filters' | 'onChange' | 'data' | 'format'>) {
  const id = useId();
  const unit = format.currency_minor_unit;
  const range = data?.price_range;
  const shown = (value: string | null) => (value === null ? '' : fromMinorUnits(value, unit));
  // The inputs hold what is typed until it is applied (Enter, or leaving the field).
  const [typed, setTyped] = useState<{ min: string; max: string } | null>(null);
  const min = typed?.min ?? shown(filters.minPrice);
  const max = typed?.max ?? shown(filters.maxPrice);

  function apply(event?: FormEvent) {
    event?.preventDefault();
    if (!typed) return;
    setTyped(null);
    const minPrice = typed.min.trim() ? toMinorUnits(typed.min, unit) : null;
    const maxPrice = typed.max.trim() ? toMinorUnits(typed.max, unit) : null;
    if (minPrice !== filters.minPrice || maxPrice !== filters.maxPrice) onChange({ ...filters, minPrice, maxPrice });
  }

  const bands = (data?.price_bands ?? []).filter((band) => band.count > 0);
  const placeholder = (value: string | null | undefined) => (value ? fromMinorUnits(value, unit) : '');

  return (
    <Group legend="Price">
      <form className={styles.priceInputs} onSubmit={apply} aria-label="Price range">
        <div className={styles.priceField}>
          <label htmlFor={`${id}-min`}>Min price</label>
          <input
            id={`${id}-min`}
            className={styles.priceInput}
            inputMode="decimal"
            autoComplete="off"
            value={min}
            placeholder={placeholder(range?.min_price)}
            onChange={(event) => setTyped({ min: event.target.value, max })}
            onBlur={() => apply()}
          />
        </div>
        <span className={styles.priceDash} aria-hidden="true">
          –
        </span>
        <div className={styles.priceField}>
          <label htmlFor={`${id}-max`}>Max price</label>
          <input
            id={`${id}-max`}
            className={styles.priceInput}
            inputMode="decimal"
            autoComplete="off"
            value={max}
            placeholder={placeholder(range?.max_price)}
            onChange={(event) => setTyped({ min, max: event.target.value })}
            onBlur={() => apply()}
          />
        </div>
        <button type="submit" className="visually-hidden">
          Apply price
        </button>
      </form>
      {bands.length > 0 && (
        <ul className={styles.options} aria-label="Price bands">
          {bands.map((band) => {
            const chosen = bandFilter(band);
            const checked = filters.minPrice === chosen.minPrice && filters.maxPrice === chosen.maxPrice;
            const label = `${formatPrice(band.min_price, format)} – ${formatPrice(band.max_price, format)}`;
            return option(band.min_price, label, band.count, checked, () => {
              setTyped(null);
              onChange(checked ? { ...filters, minPrice: null, maxPrice: null } : { ...filters, ...chosen });
            });
          })}
        </ul>
      )}
    </Group>
  );
}

function TermGroup({
  legend,
  terms,
  chosen,
  onChosen,
}: {
  legend: string;
  terms: { slug: string; name: string; count: number }[];
  chosen: string[];
  onChosen: (next: string[]) => void;
}) {
  const shown = terms.filter((term) => term.count > 0 || chosen.includes(term.slug));
  if (shown.length === 0) return null;
  return (
    <Group legend={legend}>
      <ul className={styles.options}>
        {shown.map((term) =>
          option(term.slug, term.name, term.count, chosen.includes(term.slug), () => onChosen(toggled(chosen, term.slug))),
        )}
      </ul>
    </Group>
  );
}

export function FilterPanel(props: FilterPanelProps) {
  const { filters, onChange, data, categories, brands, attributes } = props;
  const stockCount = (status: string) => data?.stock_status_counts?.find((entry) => entry.status === status)?.count ?? 0;
  const ratingCount = (rating: number) => data?.rating_counts?.find((entry) => entry.rating === rating)?.count ?? 0;
  const stock = STOCK_STATUSES.filter((status) => stockCount(status) > 0 || filters.stockStatus.includes(status));
  const ratings = [5, 4, 3, 2, 1].filter((rating) => ratingCount(rating) > 0 || filters.ratings.includes(rating));

  return (
    <div className={styles.panel}>
      <PriceFilter {...props} />

      <TermGroup
        legend="Categories"
        terms={categories.map((category) => ({
          slug: category.slug,
          name: htmlToText(category.name),
          count: countOf(data?.taxonomy_counts, category.id),
        }))}
        chosen={filters.categories}
        onChosen={(next) => onChange({ ...filters, categories: next })}
      />

      <TermGroup
        legend="Brands"
        terms={brands.map((brand) => ({
          slug: brand.slug,
          name: htmlToText(brand.name),
          count: countOf(data?.taxonomy_counts, brand.id),
        }))}
        chosen={filters.brands}
        onChosen={(next) => onChange({ ...filters, brands: next })}
      />

      {attributes.map((attribute) => (
        <TermGroup
          key={attribute.taxonomy}
          legend={htmlToText(attribute.name)}
          terms={attribute.terms.map((term) => ({
            slug: term.slug,
            name: htmlToText(term.name),
            count: countOf(data?.attribute_counts, term.id),
          }))}
          chosen={filters.attributes[attribute.taxonomy] ?? []}
          onChosen={(next) => onChange({ ...filters, attributes: { ...filters.attributes, [attribute.taxonomy]: next } })}
        />
      ))}

      {stock.length > 0 && (
        <Group legend="Availability">
          <ul className={styles.options}>
            {stock.map((status) =>
              option(status, STOCK_STATUS_LABELS[status], stockCount(status), filters.stockStatus.includes(status), () =>
                onChange({ ...filters, stockStatus: toggled(filters.stockStatus, status) }),
              ),
            )}
          </ul>
        </Group>
      )}

      {ratings.length > 0 && (
        <Group legend="Rating">
          <ul className={styles.options}>
            {ratings.map((rating) =>
              option(rating, <Stars rating={rating} />, ratingCount(rating), filters.ratings.includes(rating), () =>
                onChange({ ...filters, ratings: toggled(filters.ratings, rating) }),
              ),
            )}
          </ul>
        </Group>
      )}

      <Group legend="Offers">
        <label className={styles.option}>
          <input
            type="checkbox"
            className={styles.checkbox}
            checked={filters.onSale}
            onChange={() => onChange({ ...filters, onSale: !filters.onSale })}
          />
          On sale
        </label>
      </Group>
    </div>
  );
}
