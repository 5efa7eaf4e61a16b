-- The newsletter's subscribers: one row per address (lowercased), with where and when
-- they asked (`source`, `consent_at`, `client_ip`) and where they stand: pending until
-- their confirmation link is followed, then confirmed, or unsubscribed.
CREATE TABLE newsletter_subscribers (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    email           TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
    source          TEXT NOT NULL,
    consent_at      INTEGER NOT NULL,
    confirmed_at    INTEGER,
    unsubscribed_at INTEGER,
    client_ip       TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX newsletter_subscribers_by_status ON newsletter_subscribers (status, id);
