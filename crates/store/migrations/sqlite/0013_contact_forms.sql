-- Contact forms: each form's definition (its fields, mail templates and messages, as
-- `rules::contact::form::FormDefinition` reads it, in JSON), and every submission,
-- kept for staff until they delete it.
CREATE TABLE contact_forms (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    title      TEXT NOT NULL,
    definition TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE contact_submissions (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    form_id          INTEGER NOT NULL REFERENCES contact_forms (id) ON DELETE CASCADE,
    -- mail_sent, mail_failed or spam.
    status           TEXT NOT NULL CHECK (status IN ('mail_sent', 'mail_failed', 'spam')),
    -- JSON: [[name, [value, …]], …], the form's own fields only.
    inputs           TEXT NOT NULL,
    -- JSON: [{"field", "name", "size", "media_type"}], what was attached (not the files).
    files            TEXT NOT NULL,
    posted_data_hash TEXT NOT NULL,
    customer_id      INTEGER,
    client_ip        TEXT,
    mail_id          INTEGER,
    created_at       INTEGER NOT NULL
);
CREATE INDEX contact_submissions_by_form ON contact_submissions (form_id, id);

-- Mail: a reply address, a List-Unsubscribe address, and attachments. An attachment
-- lives only until its mail is sent or given up on.
ALTER TABLE mail_outbox ADD COLUMN reply_to TEXT;
ALTER TABLE mail_outbox ADD COLUMN list_unsubscribe TEXT;
ALTER TABLE mail_outbox ADD COLUMN attachments INTEGER NOT NULL DEFAULT 0;

CREATE TABLE mail_attachments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    mail_id    INTEGER NOT NULL REFERENCES mail_outbox (id) ON DELETE CASCADE,
    filename   TEXT NOT NULL,
    media_type TEXT NOT NULL,
    content    BLOB NOT NULL
);
CREATE INDEX mail_attachments_by_mail ON mail_attachments (mail_id);
