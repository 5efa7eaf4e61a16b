// The home page: hero, featured categories, popular products and the brands strip.
import { Link } from '@/components/ui/link';
import { ButtonLink } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { ProductImage } from '@/components/ui/product-image';
import { paths } from '@/config/paths';
import { useProducts } from '@/features/catalog/api/get-products';
import { BrandStrip } from '@/features/catalog/components/brand-strip';
import { CategoryGrid } from '@/features/catalog/components/category-grid';
import { PopularProducts, popularProductsParams } from '@/features/catalog/components/popular-products';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { renderAddToCart } from '../add-to-cart-slot';
import { renderWishlistButton } from '../wishlist-slot';
import styles from './home.module.css';
import { HydrateApart } from '@/components/hydrate-apart';

export const POPULAR_COUNT = 8;

function HeroImages() {
  // The same query as the popular row below, so the hero costs no extra request.
  const { data } = useProducts(popularProductsParams(POPULAR_COUNT));
  const images = (data?.products ?? []).flatMap((product) => product.images.slice(0, 1)).slice(0, 3);
  return (
    <div className={styles.collage} aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <div key={index} className={styles.tile}>
          <ProductImage image={images[index]} sizes="(min-width: 1024px) 320px, 45vw" eager={index === 0} priority={index === 0} />
        </div>
      ))}
    </div>
  );
}

export default function HomeRoute() {
  useDocumentTitle(undefined);

  return (
    // One root element: a part taken over later (hydrate-apart.tsx) keeps its server HTML only
    // when it holds one node.
    <div className={styles.home}>
      <section className={styles.hero} aria-labelledby="hero-title">
        <div className={`container ${styles.heroInner}`}>
          <div className={styles.heroText}>
            <p className={styles.eyebrow}>New season, same good things</p>
            <h1 id="hero-title" className={styles.heroTitle}>
              Goods that get better with use.
            </h1>
            <p className={styles.lead}>
              Clothing, accessories and small things for the home — chosen to last, priced fairly and shipped with care.
            </p>
            <div className={styles.actions}>
              <ButtonLink to={paths.shop()} size="lg">
                Shop all products
                <Icon name="arrow-right" size={18} />
              </ButtonLink>
              <ButtonLink to={`${paths.shop()}?on_sale=true`} size="lg" variant="secondary">
                See what’s on sale
              </ButtonLink>
            </div>
          </div>
          <HydrateApart name="home-hero">
            <HeroImages />
          </HydrateApart>
        </div>
      </section>

      <section className={`container ${styles.section}`} aria-labelledby="categories-title">
        <div className={styles.sectionHeader}>
          <h2 id="categories-title" className={styles.sectionTitle}>
            Shop by category
          </h2>
        </div>
        <HydrateApart name="home-categories">
          <CategoryGrid />
        </HydrateApart>
      </section>

      <section className={`container ${styles.section}`} aria-labelledby="popular-title">
        <div className={styles.sectionHeader}>
          <h2 id="popular-title" className={styles.sectionTitle}>
            Popular right now
          </h2>
          <Link to={`${paths.shop()}?orderby=popularity`} className={styles.more}>
            View all
            <Icon name="arrow-right" size={16} />
          </Link>
        </div>
        <HydrateApart name="home-popular">
          <PopularProducts count={POPULAR_COUNT} renderAddToCart={renderAddToCart} renderWishlistButton={renderWishlistButton} />
        </HydrateApart>
      </section>

      <section className={styles.brands} aria-labelledby="brands-title">
        <div className="container">
          <h2 id="brands-title" className={styles.brandsTitle}>
            Brands we carry
          </h2>
          <HydrateApart name="home-brands">
            <BrandStrip />
          </HydrateApart>
          <p className={styles.allBrands}>
            <Link to={paths.brands()} className={styles.more}>
              All brands A–Z
              <Icon name="arrow-right" size={16} />
            </Link>
          </p>
        </div>
      </section>
    </div>
  );
}
