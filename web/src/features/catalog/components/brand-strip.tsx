// A row of the shop's brands, each linking to its brand page.
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { htmlToText } from '@/lib/html-text';
import { useBrands } from '../api/get-brands';
import styles from './brand-strip.module.css';

export function BrandStrip() {
  const { data } = useBrands();
  const brands = (data ?? []).filter((brand) => brand.count > 0);
  if (brands.length === 0) return null;

  return (
    <ul className={styles.strip}>
      {brands.map((brand) => (
        <li key={brand.id}>
          <Link to={paths.brand(brand.slug)} className={styles.brand}>
            {brand.image ? (
              <img src={brand.image.thumbnail || brand.image.src} alt={brand.image.alt || htmlToText(brand.name)} loading="lazy" />
            ) : (
              htmlToText(brand.name)
            )}
          </Link>
        </li>
      ))}
    </ul>
  );
}
