// /contact: the shop's contact form (the first form the shop has: the demo shop seeds
// the original's "Contact form 1" as form 1), beside where shoppers find answers
// about their orders without writing.
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Link } from '@/components/ui/link';
import { paths } from '@/config/paths';
import { ContactForm } from '@/features/contact/components/contact-form';
import { useDocumentTitle } from '@/hooks/use-document-title';
import styles from './contact.module.css';

/** The form this page shows. */
export const CONTACT_PAGE_FORM_ID = 1;

export default function ContactPage() {
  useDocumentTitle('Contact us');
  return (
    <div className={`container ${styles.page}`}>
      <Breadcrumbs crumbs={[{ label: 'Home', to: paths.home() }, { label: 'Contact us' }]} />
      <h1 className={styles.title}>Contact us</h1>
      <p className={styles.intro}>A question about a product, an order or anything else? Write to us and we will answer by email.</p>
      <div className={styles.layout}>
        <section className={styles.card} aria-label="Write to us">
          <ContactForm formId={CONTACT_PAGE_FORM_ID} />
        </section>
        <aside className={styles.aside} aria-labelledby="contact-orders">
          <h2 id="contact-orders" className={styles.asideTitle}>
            About an order?
          </h2>
          <p>Where it is and what is in it, at any time:</p>
          <ul className={styles.links}>
            <li>
              <Link to={paths.orderTracking()}>Track your order</Link>
            </li>
            <li>
              <Link to={paths.accountOrders()}>Your orders in My account</Link>
            </li>
          </ul>
          <p className={styles.small}>Writing about one? Its order number helps us find it quickly.</p>
        </aside>
      </div>
    </div>
  );
}
