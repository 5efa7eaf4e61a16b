// /brands: every brand with products, A to Z. A letter index jumps to each letter's
// group (letters no brand starts with are shown, disabled); from 768 px the index sits
// beside the groups and follows the scroll, 20 px below the sticky header, and 32 px
// further down on pages with an admin bar (`--admin-bar-height`, see brands.module.css).
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { useBrands } from '@/features/catalog/api/get-brands';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { htmlToText } from '@/lib/html-text';
import { groupByLetter, INDEX_LETTERS, type IndexLetter } from '@/lib/letter-groups';
import styles from './brands.module.css';

/** The id of a letter's group, the index's jump target. */
function letterAnchor(letter: IndexLetter): string {
  return letter === '#' ? 'brands-other' : `brands-${letter.toLowerCase()}`;
}

const productCount = (count: number) => (count === 1 ? '1 product' : `${count} products`);

export default function BrandsPage() {
  useDocumentTitle('Brands');
  const { data, isPending } = useBrands();
  const brands = (data ?? []).filter((brand) => brand.count > 0);
  const groups = groupByLetter(brands, (brand) => htmlToText(brand.name));
  const listed = new Set<IndexLetter>(groups.map((group) => group.letter));

  return (
    <div className={`container ${styles.page}`}>
      <Breadcrumbs crumbs={[{ label: 'Home', to: paths.home() }, { label: 'Brands' }]} />
      <h1 className={styles.title}>Brands</h1>
      <p className={styles.intro}>Every maker we stock, from A to Z.</p>
      <div className={styles.layout}>
        <nav className={styles.index} aria-label="Brands A to Z" data-testid="brands-index">
          <ul className={styles.letters}>
            {INDEX_LETTERS.map((letter) => (
              <li key={letter}>
                {listed.has(letter) ? (
                  <a href={`#${letterAnchor(letter)}`} className={styles.letter}>
                    {letter}
                  </a>
                ) : (
                  // The disabled link's pattern: nothing to follow, said so.
                  <span role="link" aria-disabled="true" className={`${styles.letter} ${styles.disabled}`}>
                    {letter}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.groups}>
          {groups.map((group) => (
            <section key={group.letter} id={letterAnchor(group.letter)} className={styles.group} aria-labelledby={`${letterAnchor(group.letter)}-title`}>
              <h2 id={`${letterAnchor(group.letter)}-title`} className={styles.groupTitle}>
                {group.letter}
              </h2>
              <ul className={styles.brands}>
                {group.items.map((brand) => (
                  <li key={brand.id}>
                    <Link to={paths.brand(brand.slug)} className={styles.brand}>
                      <span className={styles.name}>{htmlToText(brand.name)}</span>
                      <span className={styles.count}>{productCount(brand.count)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {!isPending && groups.length === 0 && <p className={styles.empty}>No brands yet.</p>}
        </div>
      </div>
    </div>
  );
}
