-- Card payments through the provider.

-- The provider's customer behind a shop account, made when the account first saves a
-- payment method.
ALTER TABLE customers ADD COLUMN provider_customer_id TEXT;

-- How many times the order was tried at the provider: each attempt makes its own
-- intent under its own idempotency key, so a retried request repeats an attempt and
-- never charges twice.
ALTER TABLE orders ADD COLUMN payment_attempts INTEGER NOT NULL DEFAULT 0;
-- When the attempt under way started: a second tab paying the same order waits for
-- it instead of charging again. A crashed attempt's claim runs out by itself.
ALTER TABLE orders ADD COLUMN payment_started_at INTEGER;

-- The intents made for orders (payment) and for saving methods (setup; order 0).
CREATE TABLE payment_intents (
    intent_id         TEXT PRIMARY KEY,
    order_id          INTEGER NOT NULL,
    customer_id       INTEGER,
    kind              TEXT NOT NULL CHECK (kind IN ('payment', 'setup')),
    attempt           INTEGER NOT NULL,
    status            TEXT NOT NULL,
    amount            INTEGER NOT NULL,
    currency          TEXT NOT NULL,
    payment_method_id TEXT NOT NULL DEFAULT '',
    -- The shopper asked to keep the method for later purchases.
    save_method       INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
);
CREATE INDEX payment_intents_order ON payment_intents (order_id, attempt);

-- Every webhook event received, by the provider's id: an event is acted on once,
-- however often it is delivered.
CREATE TABLE payment_events (
    event_id     TEXT PRIMARY KEY,
    event_type   TEXT NOT NULL,
    object_id    TEXT NOT NULL DEFAULT '',
    received_at  INTEGER NOT NULL
);

-- Payment methods customers keep for later purchases.
CREATE TABLE saved_payment_methods (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id        INTEGER NOT NULL,
    gateway            TEXT NOT NULL,
    method_type        TEXT NOT NULL,
    provider_method_id TEXT NOT NULL,
    brand              TEXT NOT NULL DEFAULT '',
    last4              TEXT NOT NULL DEFAULT '',
    exp_month          INTEGER NOT NULL DEFAULT 0,
    exp_year           INTEGER NOT NULL DEFAULT 0,
    is_default         INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL
);
CREATE UNIQUE INDEX saved_payment_methods_provider ON saved_payment_methods (customer_id, provider_method_id);

-- Money given back on an order, in full or in part.
CREATE TABLE order_refunds (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id           INTEGER NOT NULL,
    amount             INTEGER NOT NULL CHECK (amount > 0),
    reason             TEXT NOT NULL DEFAULT '',
    -- The provider's refund, when the money went back through it.
    provider_refund_id TEXT NOT NULL DEFAULT '',
    refunded_by        TEXT NOT NULL,
    created_at         INTEGER NOT NULL
);
CREATE INDEX order_refunds_order ON order_refunds (order_id);
-- One provider refund is recorded once, whether the staff call or the webhook saw it first.
CREATE UNIQUE INDEX order_refunds_provider ON order_refunds (provider_refund_id) WHERE provider_refund_id <> '';
