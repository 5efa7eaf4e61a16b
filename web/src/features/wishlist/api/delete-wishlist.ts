// `delete_list` on the table's endpoint: one of the shopper's lists with its items
// (never their default list).
import { wishlistAjax, type WishlistAjaxAnswer } from './wishlist-ajax';

export function deleteWishlist(shareKey: string): Promise<WishlistAjaxAnswer> {
  return wishlistAjax('delete_list', [['tinvwl-sharekey', shareKey]]);
}
