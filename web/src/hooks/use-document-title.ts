// Sets the browser tab's title to "{page} – {shop name}" while a page is shown.
import { useEffect } from 'react';
import { settings } from '@/config/settings';

export function documentTitle(page: string | undefined, shopName: string = settings.shop_name): string {
  return page ? `${page} \u2013 ${shopName}` : shopName;
}

export function useDocumentTitle(page: string | undefined) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
