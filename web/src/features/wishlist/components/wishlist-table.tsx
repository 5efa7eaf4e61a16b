// A list's items: for its owner a table with a tick box, a remove button and add to
// cart per row, bulk actions (Actions: Add to Cart / Remove, then Apply), "Add
// Selected to Cart" and "Add All to Cart"; for others the same without ticking or
// removing. Bulk actions with nothing ticked, or Apply with no action chosen, are
// refused with the settings' `tinvwl_break_submit`, said in the page and in an alert.
// Phones get one card per item (the stylesheet).
import { useEffect, useState, type FormEvent } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { SafeHtml } from '@/components/ui/safe-html';
import { toAppPath } from '@/config/paths';
import { settings } from '@/config/settings';
import { htmlToText } from '@/lib/html-text';
import type { Wishlist, WishlistItem } from '../api/get-wishlist';
import type { TableAction } from '../api/run-wishlist-action';
import { addedDateTime, bulkBlocked, formatAddedDate, pageAddress, variationText, type BulkChoice } from '../lib/wishlist-page';
import styles from './wishlist-page.module.css';

type Run = (request: { action: TableAction; itemId?: number; itemIds?: number[] }) => Promise<void>;

/** A variable product's parent (no variation chosen) goes to its page to choose one. */
const needsOptions = (item: WishlistItem) => item.type === 'variable' && item.variation_id === 0;

export function WishlistTable({ list, page, pathname, onAction }: { list: Wishlist; page: number; pathname: string; onAction: Run }) {
  const owner = list.is_owner;
  const [ticked, setTicked] = useState<Set<number>>(() => new Set());
  const [bulk, setBulk] = useState<BulkChoice>('');
  const [refusal, setRefusal] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const itemIds = list.items.map((item) => item.item_id);
  const allTicked = itemIds.length > 0 && itemIds.every((id) => ticked.has(id));

  // A new page of items, or items gone: only what is shown stays ticked.
  const shown = itemIds.join(',');
  useEffect(() => {
    setTicked((before) => new Set([...before].filter((id) => shown.split(',').includes(String(id)))));
  }, [shown]);

  const act = async (name: string, request: Parameters<Run>[0]) => {
    if (busy) return;
    setBusy(name);
    setRefusal('');
    try {
      await onAction(request);
    } finally {
      setBusy(null);
    }
  };

  const refuse = () => {
    const text = settings.wishlist.tinvwl_break_submit;
    setRefusal(text);
    window.alert(text);
  };

  const tick = (id: number, on: boolean) =>
    setTicked((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (bulkBlocked(ticked.size, bulk)) return refuse();
    void act('apply', { action: bulk as TableAction, itemIds: [...ticked] });
  };

  const addSelected = () => {
    if (bulkBlocked(ticked.size, null)) return refuse();
    void act('selected', { action: 'add_to_cart_selected', itemIds: [...ticked] });
  };

  return (
    <form className={styles.tableForm} onSubmit={apply} aria-busy={busy !== null} aria-label={`${list.title || 'Wishlist'} items`}>
      <table className={styles.table}>
        <thead>
          <tr>
            {owner && (
              <th scope="col" className={styles.cbCell}>
                <input
                  type="checkbox"
                  className="global-cb"
                  aria-label="Select all for bulk action"
                  checked={allTicked}
                  onChange={(event) => setTicked(event.currentTarget.checked ? new Set(itemIds) : new Set())}
                />
              </th>
            )}
            {owner && (
              <th scope="col" className={styles.removeCell}>
                <span className="visually-hidden">Remove</span>
              </th>
            )}
            <th scope="col" className={styles.thumbCell}>
              <span className="visually-hidden">Image</span>
            </th>
            <th scope="col">Product Name</th>
            <th scope="col">Unit Price</th>
            <th scope="col">Date Added</th>
            <th scope="col">Stock Status</th>
            <th scope="col">
              <span className="visually-hidden">Add to cart</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.items.map((item) => {
            const name = htmlToText(item.name);
            const variation = variationText(item.variation);
            return (
              <tr key={item.item_id} className={styles.row}>
                {owner && (
                  <td className={styles.cbCell}>
                    <input
                      type="checkbox"
                      name="wishlist_pr[]"
                      value={item.item_id}
                      aria-label={`Select “${name}”`}
                      checked={ticked.has(item.item_id)}
                      onChange={(event) => tick(item.item_id, event.currentTarget.checked)}
                    />
                  </td>
                )}
                {owner && (
                  <td className={styles.removeCell}>
                    <button
                      type="button"
                      name="tinvwl-remove"
                      value={item.item_id}
                      className={styles.remove}
                      title="Remove"
                      aria-label={`Remove “${name}” from the wishlist`}
                      disabled={busy !== null}
                      onClick={() => void act(`remove-${item.item_id}`, { action: 'remove', itemId: item.item_id })}
                    >
                      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                        <path d="M6 6l12 12 M18 6L6 18" />
                      </svg>
                    </button>
                  </td>
                )}
                <td className={styles.thumbCell}>
                  {item.image ? (
                    <img src={item.image.src} srcSet={item.image.srcset || undefined} sizes="80px" alt={item.image.alt} width={80} height={80} loading="lazy" />
                  ) : (
                    <span className={styles.noImage} aria-hidden="true" />
                  )}
                </td>
                <td className={styles.nameCell}>
                  <Link to={toAppPath(item.permalink)}>{name}</Link>
                  {variation && <span className={styles.variation}>{variation}</span>}
                </td>
                <td className={styles.priceCell} data-title="Unit Price">
                  <SafeHtml html={item.price_html} className={styles.price} />
                </td>
                <td className={styles.dateCell} data-title="Date Added">
                  <time dateTime={addedDateTime(item.added_at)}>{formatAddedDate(item.added_at)}</time>
                </td>
                <td className={styles.stockCell} data-title="Stock Status">
                  <span className={item.stock.is_in_stock ? styles.inStock : styles.outOfStock}>{htmlToText(item.stock.text) || (item.stock.is_in_stock ? 'In stock' : 'Out of stock')}</span>
                </td>
                <td className={styles.actionCell}>
                  {needsOptions(item) ? (
                    <ButtonLink to={toAppPath(item.permalink)} variant="secondary" size="sm">
                      Select options
                    </ButtonLink>
                  ) : item.is_purchasable && item.stock.is_in_stock ? (
                    <Button
                      size="sm"
                      name="tinvwl-add-to-cart"
                      value={item.item_id}
                      aria-label={`Add to Cart: ${name}`}
                      aria-busy={busy === `cart-${item.item_id}` || undefined}
                      disabled={busy !== null}
                      onClick={() => void act(`cart-${item.item_id}`, { action: 'add_to_cart_single', itemId: item.item_id })}
                    >
                      Add to Cart
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>

      <p className={styles.refusal} role="alert">
        {refusal}
      </p>

      <div className={styles.footer}>
        {owner && (
          <div className={styles.bulk}>
            <label htmlFor="tinvwl_product_actions" className="visually-hidden">
              Bulk action
            </label>
            <select
              id="tinvwl_product_actions"
              name="product_actions"
              className={styles.select}
              value={bulk}
              onChange={(event) => setBulk(event.currentTarget.value as BulkChoice)}
            >
              <option value="">Actions</option>
              <option value="add_to_cart_selected">Add to Cart</option>
              <option value="remove_selected">Remove</option>
            </select>
            <Button type="submit" variant="secondary" name="tinvwl-action-product_apply" value="product_apply" title="Apply Action" disabled={busy !== null}>
              Apply
            </Button>
          </div>
        )}
        <div className={styles.cartButtons}>
          {owner && (
            <Button variant="secondary" name="tinvwl-action-product_selected" onClick={addSelected} disabled={busy !== null}>
              Add Selected to Cart
            </Button>
          )}
          <Button name="tinvwl-action-product_all" onClick={() => void act('all', { action: 'add_to_cart_all' })} disabled={busy !== null}>
            Add All to Cart
          </Button>
        </div>
      </div>

      {list.pages > 1 && (
        <nav className={styles.pages} aria-label="Wishlist pages">
          {page > 1 ? (
            <ButtonLink to={pageAddress(pathname, page - 1)} variant="secondary" size="sm" className="tinv-prev">
              Previous Page
            </ButtonLink>
          ) : (
            <span />
          )}
          <span aria-current="page">
            {Math.min(page, list.pages)}/{list.pages}
          </span>
          {page < list.pages ? (
            <ButtonLink to={pageAddress(pathname, page + 1)} variant="secondary" size="sm" className="tinv-next">
              Next Page
            </ButtonLink>
          ) : (
            <span />
          )}
        </nav>
      )}
    </form>
  );
}
