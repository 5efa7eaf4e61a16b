// `get_data` on the table's endpoint: the shopper's wishlist data afresh, for the
// hearts and the header's counter when the cache is missing or out of date.
import { asWishlistsData, type WishlistsData } from '../lib/wishlists-data';
import { wishlistAjax } from './wishlist-ajax';

export async function getWishlistsData(): Promise<WishlistsData | null> {
  return asWishlistsData((await wishlistAjax('get_data')).wishlists_data);
}
