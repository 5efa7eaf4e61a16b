-- Rate limits, coupon limits per customer, secrets in the outbox, unreadable carts.

-- One counter per limited thing ("login:account:<email>", "register:ip:<address>",
-- …): the start of its current window and the attempts in it. Replaces the table of
-- failed logins; a counter is hit with one atomic upsert before the work it guards.
DROP TABLE login_attempts;
CREATE TABLE rate_limits (
    limit_key    TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    hits         INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits (window_start);

-- A coupon's uses per customer are counted by account and by e-mail address alike, so
-- a customer cannot use a once-per-customer coupon again as a guest.
ALTER TABLE coupon_usages ADD COLUMN customer_id INTEGER;
ALTER TABLE coupon_usages ADD COLUMN email TEXT NOT NULL DEFAULT '';
UPDATE coupon_usages SET customer_id = CAST(substr(customer_key, 10) AS INTEGER)
    WHERE customer_key LIKE 'customer:%';
UPDATE coupon_usages SET email = COALESCE(
    (SELECT billing_email FROM orders WHERE orders.id = coupon_usages.order_id), '');
UPDATE coupon_usages SET email = substr(customer_key, 7)
    WHERE customer_key LIKE 'email:%' AND email = '';
DROP INDEX coupon_usages_customer;
ALTER TABLE coupon_usages DROP COLUMN customer_key;
CREATE INDEX coupon_usages_by_customer ON coupon_usages (code, customer_id)
    WHERE customer_id IS NOT NULL;
CREATE INDEX coupon_usages_by_email ON coupon_usages (code, email);

-- A mail holding a secret (a password-reset link) loses its text once it is sent or
-- given up on; the row stays for the record. Reset mails already sent lose it now.
ALTER TABLE mail_outbox ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0;
UPDATE mail_outbox SET sensitive = 1 WHERE kind = 'customer_reset_password';
UPDATE mail_outbox SET html = '', text = '[removed after sending: it held a password-reset link]'
    WHERE sensitive = 1 AND status <> 'queued';

-- A stored cart that could not be read is set aside here, never overwritten, so the
-- shop can see what it held.
CREATE TABLE unreadable_carts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    cart       TEXT NOT NULL,
    problem    TEXT NOT NULL,
    found_at   INTEGER NOT NULL
);
