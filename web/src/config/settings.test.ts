import { describe, expect, it } from 'vitest';
import { parseSettings } from './settings';

describe('the page settings’ store notice', () => {
  it('is read when it has an id and a text', () => {
    expect(parseSettings('{"store_notice":{"id":"sale-1","text":"Sale"}}').store_notice).toEqual({ id: 'sale-1', text: 'Sale' });
  });

  it('is none when left out, null or malformed', () => {
    for (const json of ['{}', '{"store_notice":null}', '{"store_notice":{"id":"","text":"Sale"}}', '{"store_notice":{"id":"a","text":7}}', '{"store_notice":"Sale"}']) {
      expect(parseSettings(json).store_notice, json).toBeNull();
    }
  });
});

describe('the page settings’ wishlist', () => {
  it('takes the server’s values over the defaults', () => {
    const wishlist = parseSettings('{"wishlist":{"nonce":"abc","hash_key":"ti_wishlist_data_0123","simple_flow":true}}').wishlist;
    expect(wishlist).toMatchObject({ nonce: 'abc', hash_key: 'ti_wishlist_data_0123', simple_flow: true, popup_timer: 6000, wc_ajax_url: '/?wc-ajax=tinvwl' });
    expect(wishlist.tinvwl_break_submit).toBe('No items or actions are selected.');
  });

  it('has the defaults when left out', () => {
    expect(parseSettings('{}').wishlist).toMatchObject({ redirect: true, show_notice: true, allow_parent_variable: false, hide_zero_counter: false, page_url: '/wishlist/' });
  });
});
