import { describe, expect, it } from 'vitest';
import { dialogLines, dialogViewUrl } from './dialog-text';

const DIALOG =
  '<div class="tinvwl_added_to_wishlist tinv-modal tinv-modal-open"><div class="tinv-overlay"></div><div class="tinv-table"><div class="tinv-cell"><div class="tinv-modal-inner">' +
  '<i class="icon_big_heart_check"></i><div class="tinv-txt">Hoodie &amp; Cap added to Default wishlist<br>&ldquo;Mug&rdquo; too</div>' +
  '<div class="tinvwl-buttons-group tinv-wishlist-clear"><button class="button tinvwl_button_view tinvwl-btn-onclick" data-url="https://shop.test/wishlist/0a1b2c3d4e5f/" type="button"><i class="ftinvwl ftinvwl-heart-o"></i>View Wishlist</button>' +
  '<button class="button tinvwl_button_close" type="button"><i class="ftinvwl ftinvwl-times"></i>Close</button></div></div></div></div></div>';

describe('the server’s dialog', () => {
  it('says its text, line by line, as text', () => {
    expect(dialogLines(DIALOG)).toEqual(['Hoodie & Cap added to Default wishlist', '“Mug” too']);
  });

  it('reads a plain message as it is, and nothing from nothing', () => {
    expect(dialogLines('Something went wrong')).toEqual(['Something went wrong']);
    expect(dialogLines(undefined)).toEqual([]);
  });

  it('finds where "View Wishlist" goes', () => {
    expect(dialogViewUrl(DIALOG)).toBe('https://shop.test/wishlist/0a1b2c3d4e5f/');
    expect(dialogViewUrl('<div class="tinv-txt">x</div>')).toBeNull();
  });
});
