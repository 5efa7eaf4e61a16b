import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText } from './html-text';

describe('decoding HTML entities in server messages', () => {
  it('decodes the named entities the shop uses', () => {
    expect(decodeEntities('&quot;WordPress Pennant&quot; is not available for purchase.')).toBe(
      '"WordPress Pennant" is not available for purchase.',
    );
    expect(decodeEntities('Add &ldquo;Beanie&rdquo; to your cart')).toBe('Add “Beanie” to your cart');
    expect(decodeEntities('Tom &amp; Jerry &ndash; &hellip;')).toBe('Tom & Jerry – …');
  });

  it('decodes decimal and hexadecimal entities', () => {
    expect(decodeEntities('&#036;18.00 &#039;x&#039; &#x2013;')).toBe("$18.00 'x' –");
  });

  it('leaves unknown entities and lone ampersands alone', () => {
    expect(decodeEntities('&bogus; R&D &')).toBe('&bogus; R&D &');
  });

  it('drops tags but keeps escaped markup as visible text, so nothing becomes HTML', () => {
    expect(htmlToText('<strong>Beanie</strong> was &lt;b&gt;removed&lt;/b&gt;')).toBe('Beanie was <b>removed</b>');
    expect(htmlToText('<img src=x onerror=alert(1)>Hi')).toBe('Hi');
  });
});
