// Where the catalogue meets the wishlist: catalogue components ask for a heart
// through this render function, and the wishlist feature provides it.
import { WishlistButton } from '@/features/wishlist/components/wishlist-button';
import type { RenderWishlistButton } from '@/types/wishlist-button';

export const renderWishlistButton: RenderWishlistButton = (request) => <WishlistButton {...request} />;
