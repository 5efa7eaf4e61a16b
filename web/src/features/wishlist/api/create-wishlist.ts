// `create_list` on the table's endpoint: a new list of the shopper's, by name. The
// answer's `wishlist` names it (its share key opens it).
import { wishlistAjax, type WishlistAjaxAnswer } from './wishlist-ajax';

export type CreateWishlistAnswer = WishlistAjaxAnswer & { wishlist?: { ID: number; title: string; share_key: string } };

export function createWishlist(name: string): Promise<CreateWishlistAnswer> {
  return wishlistAjax('create_list', [['tinvwl-name', name]]);
}
