-- Customer accounts and what signing in needs (login sessions, failed-attempt counts,
-- password-reset keys), and the outbox every e-mail passes through. All of it lives in
-- the database so several server instances agree on it.

-- `email_key` is the address lowercased: one account per address, whatever its case,
-- while `email` keeps it as the customer typed it. Addresses are JSON documents in the
-- Store API's billing_address / shipping_address shape.
CREATE TABLE customers (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    email         TEXT NOT NULL,
    email_key     TEXT NOT NULL UNIQUE,
    display_name  TEXT NOT NULL DEFAULT '',
    first_name    TEXT NOT NULL DEFAULT '',
    last_name     TEXT NOT NULL DEFAULT '',
    -- Argon2id in PHC string form.
    password_hash TEXT NOT NULL,
    billing       TEXT NOT NULL DEFAULT '{}',
    shipping      TEXT NOT NULL DEFAULT '{}',
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);

-- One row per failed login, keyed by what is limited ("account:<email_key>" or
-- "ip:<address>"); counted over a sliding window and swept when older than it.
CREATE TABLE login_attempts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    limit_key    TEXT NOT NULL,
    attempted_at INTEGER NOT NULL
);
CREATE INDEX login_attempts_key ON login_attempts (limit_key, attempted_at);
CREATE INDEX login_attempts_time ON login_attempts (attempted_at);

-- A password-reset key is mailed to the customer; only its SHA-256 is kept, so the
-- table alone does not let anyone reset a password. Each key works once.
CREATE TABLE password_resets (
    token_hash  TEXT PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER
);
CREATE INDEX password_resets_customer ON password_resets (customer_id);

-- A signed-in browser: the login cookie carries the token, this row says it is still
-- good. Logging out (or changing the password) deletes rows, which revokes cookies
-- that are otherwise still validly signed. Only the token's SHA-256 is stored.
CREATE TABLE login_sessions (
    token_hash  TEXT PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
);
CREATE INDEX login_sessions_customer ON login_sessions (customer_id);
CREATE INDEX login_sessions_expires ON login_sessions (expires_at);

-- Lets login find the other carts a customer left behind.
CREATE INDEX sessions_customer ON sessions (customer_id) WHERE customer_id IS NOT NULL;

-- Every e-mail is written here first, in the same transaction as what caused it, and
-- sent by a background worker. A worker claims a due row by moving `next_attempt_at`
-- past the lease and stamping `lease_token`, so two instances never send one mail;
-- a claim that is never settled (a crash) comes due again when the lease ends.
-- Rows are kept after sending, and after giving up, for the record.
CREATE TABLE mail_outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT NOT NULL,
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    html            TEXT NOT NULL,
    text            TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_token     TEXT,
    last_error      TEXT,
    created_at      INTEGER NOT NULL,
    sent_at         INTEGER
);
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
