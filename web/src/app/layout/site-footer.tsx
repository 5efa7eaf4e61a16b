// The footer: the newsletter sign-up, a few words about the shop, shop links (with
// the contact page), categories and brands (with the brands A–Z page).
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { settings } from '@/config/settings';
import { useBrands } from '@/features/catalog/api/get-brands';
import { topLevelCategories, useCategories } from '@/features/catalog/api/get-categories';
import { NewsletterForm } from '@/features/newsletter/components/newsletter-form';
import { htmlToText } from '@/lib/html-text';
import styles from './site-footer.module.css';

const MAX_LINKS = 6;

export function SiteFooter() {
  const categories = topLevelCategories(useCategories().data).slice(0, MAX_LINKS);
  const brands = (useBrands().data ?? []).filter((brand) => brand.count > 0).slice(0, MAX_LINKS);

  return (
    <footer className={styles.footer}>
      <section className={`container ${styles.newsletter}`} aria-labelledby="footer-newsletter">
        <div className={styles.newsletterIntro}>
          <h2 id="footer-newsletter" className={styles.heading}>
            Newsletter
          </h2>
          <p className={styles.newsletterLead}>New arrivals, restocks and the odd sale, about once a month.</p>
          <p>We only write when there is something worth reading. Unsubscribe with one click.</p>
        </div>
        <div className={styles.newsletterForm}>
          <NewsletterForm source="footer" />
        </div>
      </section>
      <div className={`container ${styles.columns}`}>
        <section className={styles.about} aria-labelledby="footer-about">
          <h2 id="footer-about" className={styles.brand}>
            {settings.shop_name}
          </h2>
          <p>
            Everyday goods made to last, chosen with care and shipped from our small workshop. Fair prices, no
            surprises.
          </p>
        </section>

        <nav aria-labelledby="footer-shop">
          <h2 id="footer-shop" className={styles.heading}>
            Shop
          </h2>
          <ul>
            <li>
              <Link to={paths.shop()}>All products</Link>
            </li>
            <li>
              <Link to={`${paths.shop()}?orderby=date`}>New arrivals</Link>
            </li>
            <li>
              <Link to={`${paths.shop()}?orderby=popularity`}>Best sellers</Link>
            </li>
            <li>
              <Link to={`${paths.shop()}?on_sale=true`}>On sale</Link>
            </li>
            <li>
              <Link to={paths.cart()}>Cart</Link>
            </li>
            <li>
              <Link to={paths.account()}>My account</Link>
            </li>
            <li>
              <Link to={paths.orderTracking()}>Track your order</Link>
            </li>
            <li>
              <Link to={paths.contact()}>Contact us</Link>
            </li>
          </ul>
        </nav>

        {categories.length > 0 && (
          <nav aria-labelledby="footer-categories">
            <h2 id="footer-categories" className={styles.heading}>
              Categories
            </h2>
            <ul>
              {categories.map((category) => (
                <li key={category.id}>
                  <Link to={paths.category(category.slug)}>{htmlToText(category.name)}</Link>
                </li>
              ))}
            </ul>
          </nav>
        )}

        {brands.length > 0 && (
          <nav aria-labelledby="footer-brands">
            <h2 id="footer-brands" className={styles.heading}>
              Brands
            </h2>
            <ul>
              {brands.map((brand) => (
                <li key={brand.id}>
                  <Link to={paths.brand(brand.slug)}>{htmlToText(brand.name)}</Link>
                </li>
              ))}
              <li>
                <Link to={paths.brands()} className={styles.all}>
                  All brands A–Z
                </Link>
              </li>
            </ul>
          </nav>
        )}
      </div>
      <div className={`container ${styles.bottom}`}>
        <p>
          © {new Date().getFullYear()} {settings.shop_name}
        </p>
      </div>
    </footer>
  );
}
