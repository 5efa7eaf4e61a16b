// Shown in place of a page that failed to load or render (for instance a page's
// code could not be fetched after a new release). Reloading usually fixes it.
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '@/components/ui/button';
import { NotFoundPage } from './not-found';
import styles from './status-page.module.css';

export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;

  return (
    <div className={`container ${styles.page}`} role="alert">
      <h1 className={styles.title}>Something went wrong</h1>
      <p className={styles.text}>This page could not be shown. Please reload the page and try again.</p>
      <Button onClick={() => window.location.reload()}>Reload page</Button>
    </div>
  );
}
