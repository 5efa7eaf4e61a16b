// The page for addresses the shop does not know, and for unknown products,
// categories and brands.
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import styles from './status-page.module.css';

export const NOT_FOUND_TITLE = 'Page not found';

export function NotFoundPage() {
  useDocumentTitle(NOT_FOUND_TITLE);
  return (
    <div className={`container ${styles.page}`}>
      <p className={styles.code}>404</p>
      <h1 className={styles.title}>Page not found</h1>
      <p className={styles.text}>It looks like nothing was found at this location. Maybe try the shop or a search?</p>
      <ButtonLink to={paths.shop()}>Return to shop</ButtonLink>
    </div>
  );
}
