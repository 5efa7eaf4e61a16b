// `rename_list` on the table's endpoint: a new title for one of the shopper's lists.
import { wishlistAjax, type WishlistAjaxAnswer } from './wishlist-ajax';

export function renameWishlist(shareKey: string, name: string): Promise<WishlistAjaxAnswer> {
  return wishlistAjax('rename_list', [
    ['tinvwl-sharekey', shareKey],
    ['tinvwl-name', name],
  ]);
}
