// SKU, category and brand links under the buying controls.
import { Fragment } from 'react';
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { htmlToText } from '@/lib/html-text';
import type { Product, TermRef } from '@/types/store-api';
import styles from './product-meta.module.css';

function TermLinks({ terms, to }: { terms: TermRef[]; to: (slug: string) => string }) {
  return (
    <>
      {terms.map((term, index) => (
        <Fragment key={term.id}>
          {index > 0 && ', '}
          <Link to={to(term.slug)}>{htmlToText(term.name)}</Link>
        </Fragment>
      ))}
    </>
  );
}

export function ProductMeta({ product, sku }: { product: Product; sku: string }) {
  const brands = product.brands ?? [];
  return (
    <dl className={styles.meta}>
      {sku && (
        <div>
          <dt>SKU:</dt>
          <dd data-testid="product-sku">{sku}</dd>
        </div>
      )}
      {product.categories.length > 0 && (
        <div>
          <dt>{product.categories.length > 1 ? 'Categories:' : 'Category:'}</dt>
          <dd>
            <TermLinks terms={product.categories} to={paths.category} />
          </dd>
        </div>
      )}
      {brands.length > 0 && (
        <div>
          <dt>{brands.length > 1 ? 'Brands:' : 'Brand:'}</dt>
          <dd>
            <TermLinks terms={brands} to={paths.brand} />
          </dd>
        </div>
      )}
    </dl>
  );
}
