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
