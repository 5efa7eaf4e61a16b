-- The shop owner's side of the order lifecycle: who made each change, API keys for
-- the staff API, per-status order counts, and the indexes staff listings and the
-- unpaid-order sweep read through. (Version 4 belongs to another change.)

-- Who made each change: "system", "staff (command line)", "API key 'Warehouse' (…abc1234)".
ALTER TABLE order_notes ADD COLUMN actor TEXT NOT NULL DEFAULT 'system';

-- Staff listings: newest first over all orders or one status, and by billing e-mail.
CREATE INDEX orders_created ON orders (created_at, id);
CREATE INDEX orders_status_created ON orders (status, created_at, id);
CREATE INDEX orders_billing_email ON orders (billing_email, id);
-- Bank-transfer and cheque orders left on hold, oldest first, for the sweep that
-- cancels the unpaid ones. Only on-hold rows are in it, so it stays small.
CREATE INDEX orders_on_hold_by_method ON orders (payment_method, created_at) WHERE status = 'on-hold';

-- How many placed orders have each status, so a listing's total never counts rows.
-- Every status change moves one count in the same transaction. A status's count is
-- spread over 16 slots (the order id modulo 16) and summed when read, so concurrent
-- checkouts update different rows instead of queueing on one.
CREATE TABLE order_status_counts (
    status TEXT NOT NULL,
    slot   INTEGER NOT NULL,
    orders INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (status, slot)
);
INSERT INTO order_status_counts (status, slot, orders)
    SELECT status, id % 16, COUNT(*) FROM orders WHERE status <> 'checkout-draft'
    GROUP BY status, id % 16;

-- Keys for the staff API, made the way the original shop makes them (`ck_` and `cs_`
-- followed by 40 hex digits). Neither is stored: only their SHA-256 digests, the key's
-- for lookup and the secret's to compare, and the key's last 7 characters to tell
-- keys apart in listings. A revoked key stays for the record.
CREATE TABLE api_keys (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    description    TEXT NOT NULL,
    permissions    TEXT NOT NULL CHECK (permissions IN ('read', 'write', 'read_write')),
    key_digest     TEXT NOT NULL UNIQUE,
    secret_digest  TEXT NOT NULL,
    truncated_key  TEXT NOT NULL,
    created_at     INTEGER NOT NULL,
    last_access_at INTEGER,
    revoked        INTEGER NOT NULL DEFAULT 0,
    revoked_at     INTEGER
);
