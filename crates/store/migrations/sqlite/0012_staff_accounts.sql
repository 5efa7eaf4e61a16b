-- Staff accounts: a customer account may be the shop's staff (shop_manager or
-- administrator), who see the shop while it is in coming-soon mode.
ALTER TABLE customers ADD COLUMN role TEXT NOT NULL DEFAULT 'customer';
CREATE INDEX customers_staff ON customers (role) WHERE role <> 'customer';

-- An account's own settings of the storefront (the original's `woocommerce_meta`,
-- such as `coming_soon_banner_dismissed`), one row per key.
CREATE TABLE customer_meta (
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    meta_key    TEXT NOT NULL,
    meta_value  TEXT NOT NULL,
    PRIMARY KEY (customer_id, meta_key)
);
