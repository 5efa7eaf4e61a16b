// The home page's featured categories: a tile per top-level category with its image,
// or the image of its most popular product when the category has none.
import { Link } from '@/components/ui/link';
import { Icon } from '@/components/ui/icon';
import { ProductImage } from '@/components/ui/product-image';
import { paths } from '@/config/paths';
import { htmlToText } from '@/lib/html-text';
import type { Taxonomy } from '@/types/store-api';
import { topLevelCategories, useCategories } from '../api/get-categories';
import { useProducts } from '../api/get-products';
import styles from './category-grid.module.css';

const TILE_SIZES = '(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw';

function CategoryImage({ category }: { category: Taxonomy }) {
  const { data } = useProducts(
    { category: category.slug, per_page: 1, orderby: 'popularity', order: 'desc' },
    { enabled: !category.image },
  );
  return <ProductImage image={category.image ?? data?.products[0]?.images[0]} sizes={TILE_SIZES} className={styles.image} />;
}

export function CategoryGrid({ limit = 6 }: { limit?: number }) {
  const { data } = useCategories();
  const categories = topLevelCategories(data).slice(0, limit);
  if (categories.length === 0) return null;

  return (
    <ul className={styles.grid}>
      {categories.map((category) => (
        <li key={category.id}>
          <Link to={paths.category(category.slug)} className={styles.tile}>
            <CategoryImage category={category} />
            <span className={styles.caption}>
              <span className={styles.name}>{htmlToText(category.name)}</span>
              <span className={styles.count}>
                {category.count} {category.count === 1 ? 'product' : 'products'}
                <Icon name="arrow-right" size={16} />
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
