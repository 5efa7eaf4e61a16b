-- What a real catalogue carries besides the demo's fields (publication status,
-- catalogue visibility, scheduled sales, tax status, virtual goods, reviews allowed,
-- purchase note, upsells and cross-sells), and what instances need to follow it
-- without reloading it whole.

ALTER TABLE products ADD COLUMN status TEXT NOT NULL DEFAULT 'publish';
ALTER TABLE products ADD COLUMN catalog_visibility TEXT NOT NULL DEFAULT 'visible';
ALTER TABLE products ADD COLUMN tax_status TEXT NOT NULL DEFAULT 'taxable';
ALTER TABLE products ADD COLUMN sale_from BIGINT;
ALTER TABLE products ADD COLUMN sale_to BIGINT;
ALTER TABLE products ADD COLUMN is_virtual BIGINT NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN reviews_allowed BIGINT NOT NULL DEFAULT 1;
ALTER TABLE products ADD COLUMN purchase_note TEXT NOT NULL DEFAULT '';
-- JSON arrays of product ids, in display order.
ALTER TABLE products ADD COLUMN upsell_ids TEXT NOT NULL DEFAULT '[]';
ALTER TABLE products ADD COLUMN cross_sell_ids TEXT NOT NULL DEFAULT '[]';
-- Unix seconds of the last change to the product itself.
ALTER TABLE products ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
UPDATE products SET updated_at = created_at;
-- Unix milliseconds of the last change to what orders move (stock, sales). Instances
-- read the rows changed since their last look through the index, never the table.
ALTER TABLE products ADD COLUMN live_changed_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX products_live_changed ON products (live_changed_at);

-- The value a variable product starts with chosen.
ALTER TABLE product_attributes ADD COLUMN default_value TEXT NOT NULL DEFAULT '';

-- Which items each catalogue change touched, under the catalogue version it made.
-- An instance at version v reloads only the items of the changes after v; when the
-- log no longer reaches back to v (it is pruned), it reloads the catalogue whole.
-- kind: 'product' (item = product id), 'terms', 'media', 'everything' (item = 0).
CREATE TABLE catalog_changes (
    version BIGINT NOT NULL,
    kind    TEXT NOT NULL,
    item_id BIGINT NOT NULL,
    PRIMARY KEY (version, kind, item_id)
);
