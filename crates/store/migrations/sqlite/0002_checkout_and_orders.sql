-- Checkout and orders: the tax and shipping classes products carry, coupons with
-- their usage counts, and orders. An order keeps its lines as they were placed (a JSON
-- document) so later catalogue changes never rewrite history.

ALTER TABLE products ADD COLUMN tax_class TEXT NOT NULL DEFAULT '';
ALTER TABLE products ADD COLUMN shipping_class TEXT NOT NULL DEFAULT '';

-- The coupon's rules as JSON; the two limits that concurrent checkouts race for are
-- columns, so "use it once more if uses remain" is one conditional UPDATE.
CREATE TABLE coupons (
    code        TEXT PRIMARY KEY,
    rules       TEXT NOT NULL,
    usage_limit INTEGER,
    usage_count INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);

-- One row per use: counts a customer's uses for per-customer limits, and lets a
-- cancelled order give its uses back.
CREATE TABLE coupon_usages (
    code         TEXT NOT NULL REFERENCES coupons (code),
    order_id     INTEGER NOT NULL,
    customer_key TEXT NOT NULL,
    PRIMARY KEY (code, order_id)
);
CREATE INDEX coupon_usages_customer ON coupon_usages (code, customer_key);

CREATE TABLE orders (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    order_key            TEXT NOT NULL UNIQUE,
    status               TEXT NOT NULL CHECK (status IN ('checkout-draft', 'pending', 'on-hold', 'processing', 'completed', 'cancelled', 'failed', 'refunded')),
    -- The session a draft belongs to; cleared once placed.
    session_id           TEXT,
    customer_id          INTEGER,
    billing_email        TEXT NOT NULL DEFAULT '',
    currency             TEXT NOT NULL,
    prices_include_tax   INTEGER NOT NULL DEFAULT 0,
    billing              TEXT NOT NULL DEFAULT '{}',
    shipping             TEXT NOT NULL DEFAULT '{}',
    customer_note        TEXT NOT NULL DEFAULT '',
    payment_method       TEXT NOT NULL DEFAULT '',
    payment_method_title TEXT NOT NULL DEFAULT '',
    transaction_id       TEXT NOT NULL DEFAULT '',
    created_via          TEXT NOT NULL DEFAULT '',
    cart_hash            TEXT NOT NULL DEFAULT '',
    -- Items, shipping, coupon and tax lines as placed.
    lines                TEXT NOT NULL DEFAULT '{}',
    subtotal             INTEGER NOT NULL DEFAULT 0,
    discount_total       INTEGER NOT NULL DEFAULT 0,
    discount_tax         INTEGER NOT NULL DEFAULT 0,
    shipping_total       INTEGER NOT NULL DEFAULT 0,
    shipping_tax         INTEGER NOT NULL DEFAULT 0,
    total_tax            INTEGER NOT NULL DEFAULT 0,
    total                INTEGER NOT NULL DEFAULT 0,
    -- Stock this order took, so cancelling gives back exactly that.
    stock_reduced        INTEGER NOT NULL DEFAULT 0,
    -- An unpaid (pending) order holds its stock until then.
    hold_expires_at      INTEGER,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL,
    paid_at              INTEGER,
    completed_at         INTEGER
);
CREATE UNIQUE INDEX orders_draft_session ON orders (session_id) WHERE session_id IS NOT NULL;
CREATE INDEX orders_customer ON orders (customer_id, id);
CREATE INDEX orders_status_hold ON orders (status, hold_expires_at);

-- The order's notes: status changes and messages, for the shop and the customer.
CREATE TABLE order_notes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id    INTEGER NOT NULL REFERENCES orders (id),
    note        TEXT NOT NULL,
    for_customer INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);
CREATE INDEX order_notes_order ON order_notes (order_id);
