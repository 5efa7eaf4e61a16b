// The live Store API, read from the tests to pick products and to know what the
// pages should show; and the few formatting rules the storefront applies to it.

export const STORE_API = '/wp-json/wc/store/v1';

export class StoreApi {
  constructor(baseURL) {
    this.baseURL = baseURL;
  }

  /** GET {STORE_API}{path}; returns { data, total, totalPages }. */
  async get(path, params = {}) {
    const url = new URL(`${STORE_API}${path}`, this.baseURL);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
    const res = await fetch(url);
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return {
      data: await res.json(),
      total: Number(res.headers.get('x-wp-total')),
      totalPages: Number(res.headers.get('x-wp-totalpages')),
    };
  }

  async products(params = {}) {
    return this.get('/products', params);
  }

  /** Every product (the demo shop has 60; per_page=100 covers them). */
  async allProducts() {
    if (!this.cachedProducts) {
      const { data, total } = await this.products({ per_page: 100 });
      if (data.length !== total) throw new Error(`Expected all ${total} products in one page, got ${data.length}`);
      this.cachedProducts = data;
    }
    return this.cachedProducts;
  }

  async categories() {
    if (!this.cachedCategories) this.cachedCategories = (await this.get('/products/categories')).data;
    return this.cachedCategories;
  }

  async product(id) {
    return (await this.get(`/products/${id}`)).data;
  }

  /** The first product `test` accepts; `description` names it in the error when none does. */
  async pickProduct(description, test) {
    const product = (await this.allProducts()).find(test);
    if (!product) throw new Error(`The demo catalogue has no ${description}`);
    return product;
  }
}

/** The cart as the server holds it for the page's cookies (page.request shares them). */
export async function cartOf(page) {
  const res = await page.request.get(`${STORE_API}/cart`);
  if (!res.ok()) throw new Error(`GET /cart answered ${res.status()}`);
  return res.json();
}

/** Puts a product in the page's cart through the shop's classic add-to-cart call. */
export async function addToCartVia(page, productId, quantity = 1) {
  const res = await page.request.post('/?wc-ajax=add_to_cart', { form: { product_id: productId, quantity } });
  const body = await res.json().catch(() => null);
  if (!res.ok() || !body || body.error) {
    throw new Error(`Adding product ${productId} × ${quantity} failed: ${res.status()} ${JSON.stringify(body)?.slice(0, 300)}`);
  }
  return body;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'", '#039': "'" };

export function decodeEntities(text) {
  return String(text).replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

export function htmlToText(html) {
  return decodeEntities(String(html).replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

/** An amount in minor units ("5400") as the shop shows it ("$54.00"), from the API's currency fields. */
export function formatPrice(amount, currency) {
  const raw = String(amount);
  const negative = raw.startsWith('-');
  const unit = currency.currency_minor_unit;
  const digits = raw.replace('-', '').replace(/^0+(?=\d)/, '').padStart(unit + 1, '0');
  const whole = unit > 0 ? digits.slice(0, -unit) : digits;
  const fraction = unit > 0 ? digits.slice(-unit) : '';
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, currency.currency_thousand_separator);
  const number = fraction ? `${grouped}${currency.currency_decimal_separator}${fraction}` : grouped;
  return `${negative ? '-' : ''}${currency.currency_prefix}${number}${currency.currency_suffix}`;
}

/** The stock line a product or variation should show. */
export function stockText(product) {
  if (product.is_on_backorder) return 'Available on backorder';
  if (!product.is_in_stock) return 'Out of stock';
  if (product.low_stock_remaining !== null && product.low_stock_remaining > 0) {
    return `Only ${product.low_stock_remaining} left in stock`;
  }
  return 'In stock';
}

/** The lowest and highest price a listing sorts a product by. */
export function priceBounds(product) {
  const range = product.prices.price_range;
  return {
    low: BigInt(range ? range.min_amount : product.prices.price),
    high: BigInt(range ? range.max_amount : product.prices.price),
  };
}

/** The storefront's result count wording ("Showing 1–12 of 20 results"). */
export function resultCountText(total, page = 1, perPage = 12) {
  if (total <= 0) return 'No products were found matching your selection.';
  if (total === 1) return 'Showing the single result';
  if (total <= perPage) return `Showing all ${total} results`;
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return `Showing ${first}\u2013${last} of ${total} results`;
}

/**
 * Chooses a variable product's option on its page, whether the shop offers the
 * attribute as swatches (radio buttons drawn as chips or labels) or as a drop-down.
 * `attribute` is the Store API's ({name, taxonomy}); `value` the option's slug.
 */
export async function chooseOption(scope, attribute, value) {
  const field = `attribute_${attribute.taxonomy ?? attribute.name.toLowerCase().replace(/\s+/g, '-')}`;
  const select = scope.locator(`select[name="${field}"]`);
  if ((await select.count()) > 0) {
    await select.selectOption(value);
    return;
  }
  await scope.locator(`label.swatch:has(input[name="${field}"][value="${value}"])`).click();
}
