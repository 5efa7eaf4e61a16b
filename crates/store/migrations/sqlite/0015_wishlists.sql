-- Wishlists. A list belongs to a customer account (`customer_id`) or to a guest, named
-- by the SHA-256 of the token in the guest's cookie (`owner_hash`), never both. Each
-- owner has at most one default list (the partial unique indexes); `share_key` opens
-- the read-only share page. `item_count` is kept in the transaction that adds or
-- removes an item, so a full list is refused without counting, and `updated_at` is a
-- guest list's last use (idle guest lists are deleted).
CREATE TABLE wishlists (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id INTEGER REFERENCES customers (id) ON DELETE CASCADE,
    owner_hash  TEXT,
    share_key   TEXT NOT NULL UNIQUE,
    title       TEXT NOT NULL,
    is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    item_count  INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CHECK ((customer_id IS NULL) <> (owner_hash IS NULL))
);
CREATE INDEX wishlists_by_customer ON wishlists (customer_id, id);
CREATE INDEX wishlists_by_owner_hash ON wishlists (owner_hash, id);
CREATE UNIQUE INDEX wishlists_default_of_customer ON wishlists (customer_id)
    WHERE is_default = 1 AND customer_id IS NOT NULL;
CREATE UNIQUE INDEX wishlists_default_of_guest ON wishlists (owner_hash)
    WHERE is_default = 1 AND owner_hash IS NOT NULL;
CREATE INDEX wishlists_idle_guests ON wishlists (updated_at) WHERE owner_hash IS NOT NULL;

-- A list's items: a product (the parent of a variation) and the variation (0 for none),
-- once per list.
CREATE TABLE wishlist_items (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    wishlist_id  INTEGER NOT NULL REFERENCES wishlists (id) ON DELETE CASCADE,
    product_id   INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    variation_id INTEGER NOT NULL DEFAULT 0,
    added_at     INTEGER NOT NULL,
    UNIQUE (wishlist_id, product_id, variation_id)
);
CREATE INDEX wishlist_items_by_added ON wishlist_items (wishlist_id, added_at, id);
CREATE INDEX wishlist_items_by_product ON wishlist_items (product_id, variation_id);
