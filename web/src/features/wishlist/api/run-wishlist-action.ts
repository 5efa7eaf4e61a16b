// The wishlist table's actions on `?wc-ajax=tinvwl`: remove one item or the ticked
// ones (the owner's), add one, the ticked ones or all of them to the cart (anyone who
// may see the list). Items are named by their item id, the list by its share key.
import { wishlistAjax, type WishlistAjaxAnswer } from './wishlist-ajax';

export type TableAction = 'remove' | 'remove_selected' | 'add_to_cart_single' | 'add_to_cart_selected' | 'add_to_cart_all';

export interface TableActionRequest {
  action: TableAction;
  shareKey: string;
  /** The item of `remove` and `add_to_cart_single`. */
  itemId?: number;
  /** The ticked items of the bulk actions. */
  itemIds?: number[];
  page: number;
  perPage: number;
}

export function tableActionFields({ shareKey, itemId, itemIds = [], page, perPage }: TableActionRequest): [string, string | number][] {
  const fields: [string, string | number][] = [
    ['tinvwl-sharekey', shareKey],
    ['tinvwl-paged', page],
    ['tinvwl-per-page', perPage],
  ];
  if (itemId !== undefined) fields.push(['tinvwl-product_id', itemId]);
  for (const id of itemIds) fields.push(['tinvwl-products[]', id]);
  return fields;
}

export const isCartAction = (action: TableAction) => action.startsWith('add_to_cart');

export function runWishlistAction(request: TableActionRequest): Promise<WishlistAjaxAnswer> {
  return wishlistAjax(request.action, tableActionFields(request));
}
