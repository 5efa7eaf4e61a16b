//! The mail outbox: every e-mail is a row here before it is sent. Queuing can join the
//! caller's transaction, so an order and its e-mails commit together or not at all.
//! Senders on any number of instances claim due rows with a lease (one conditional
//! UPDATE), so a mail is never sent twice at once, and settle them under that lease.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Db, StoreResult};

/// A mail to queue, already rendered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewMail<'a> {
    /// What the mail is ("customer_reset_password", "new_order", …), for the record.
    pub kind: &'a str,
    /// One mailbox: "ada@example.test" or "Ada Lovelace <ada@example.test>".
    pub recipient: &'a str,
    pub subject: &'a str,
    pub html: &'a str,
    pub text: &'a str,
    /// It holds a secret (a password-reset link): its text is removed once it is sent
    /// or given up on, so no usable key stays readable in the database.
    pub sensitive: bool,
    /// The address replies go to, when it is not the shop's own.
    pub reply_to: Option<&'a str>,
    /// Where the recipient unsubscribes (`List-Unsubscribe`), for mail they signed up to.
    pub list_unsubscribe: Option<&'a str>,
    /// Files sent with the mail. They are kept only until the mail is sent or given up on.
    pub attachments: &'a [Attachment],
}

/// A file attached to a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub filename: String,
    pub media_type: String,
    pub content: Vec<u8>,
}

/// What a sensitive mail's text becomes once it is no longer needed.
pub const REMOVED_TEXT: &str = "[removed after sending: this mail held a password-reset link]";

/// A mail claimed for sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxMail {
    pub id: i64,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub html: String,
    pub text: String,
    pub reply_to: Option<String>,
    pub list_unsubscribe: Option<String>,
    pub attachments: Vec<Attachment>,
    /// Counting the attempt being made now.
    pub attempts: i64,
    pub created_at: i64,
}

/// A row as the record shows it (tests and, later, the back office).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    pub id: i64,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub text: String,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub last_error: Option<String>,
    pub sent_at: Option<i64>,
}

const INSERT: &str = "INSERT INTO mail_outbox (kind, recipient, subject, html, text, sensitive, status, attempts, next_attempt_at, created_at, reply_to, list_unsubscribe, attachments)
     VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, $7, $7, $8, $9, $10)
     RETURNING id";

/// Queues a mail on its own; due at once.
pub async fn queue(db: &Db, mail: &NewMail<'_>, now: i64) -> StoreResult<i64> {
    if mail.attachments.is_empty() {
        return Ok(bind_insert(mail, now).fetch_one(db.writer()).await?);
    }
    let mut tx = db.begin_write().await?;
    let id = queue_in(&mut tx, mail, now).await?;
    tx.commit().await?;
    Ok(id)
}

/// Queues a mail as part of the caller's transaction; it exists once that commits.
pub async fn queue_in(
    tx: &mut Transaction<'_, Any>,
    mail: &NewMail<'_>,
    now: i64,
) -> StoreResult<i64> {
    let id = bind_insert(mail, now).fetch_one(&mut **tx).await?;
    for file in mail.attachments {
        sqlx::query(
            "INSERT INTO mail_attachments (mail_id, filename, media_type, content) VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(&file.filename)
        .bind(&file.media_type)
        .bind(&file.content)
        .execute(&mut **tx)
        .await?;
    }
    Ok(id)
}

fn bind_insert<'q>(
    mail: &'q NewMail<'q>,
    now: i64,
) -> sqlx::query::QueryScalar<'q, Any, i64, sqlx::any::AnyArguments<'q>> {
    sqlx::query_scalar(INSERT)
        .bind(mail.kind)
        .bind(mail.recipient)
        .bind(mail.subject)
        .bind(mail.html)
        .bind(mail.text)
        .bind(i64::from(mail.sensitive))
        .bind(now)
        .bind(mail.reply_to)
        .bind(mail.list_unsubscribe)
        .bind(mail.attachments.len() as i64)
}

/// Claims up to `limit` mails that are due: each gets `lease_token` and is not due again
/// until `lease_until`, so no other sender takes it meanwhile. The conditions are
/// repeated on the updated row itself because on PostgreSQL a concurrent claimer that
/// waited for the row lock re-checks only those, and must then see it is taken.
pub async fn claim_due(
    db: &Db,
    now: i64,
    lease_until: i64,
    lease_token: &str,
    limit: i64,
) -> StoreResult<Vec<OutboxMail>> {
    let rows = sqlx::query(
        "UPDATE mail_outbox SET next_attempt_at = $1, lease_token = $2, attempts = attempts + 1
         WHERE status = 'queued' AND next_attempt_at <= $3
           AND id IN (SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= $3
                      ORDER BY next_attempt_at, id LIMIT $4)
         RETURNING id, kind, recipient, subject, html, text, reply_to, list_unsubscribe, attachments, attempts, created_at",
    )
    .bind(lease_until)
    .bind(lease_token)
    .bind(now)
    .bind(limit)
    .fetch_all(db.writer())
    .await?;
    let mut mails = rows
        .iter()
        .map(|r: &AnyRow| {
            Ok(OutboxMail {
                id: r.try_get("id")?,
                kind: r.try_get("kind")?,
                recipient: r.try_get("recipient")?,
                subject: r.try_get("subject")?,
                html: r.try_get("html")?,
                text: r.try_get("text")?,
                reply_to: r.try_get("reply_to")?,
                list_unsubscribe: r.try_get("list_unsubscribe")?,
                attachments: Vec::new(),
                attempts: r.try_get("attempts")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect::<StoreResult<Vec<_>>>()?;
    // Only mails that have files are asked for them.
    for (mail, row) in mails.iter_mut().zip(&rows) {
        if row.try_get::<i64, _>("attachments")? > 0 {
            mail.attachments = attachments_of(db, mail.id).await?;
        }
    }
    mails.sort_by_key(|m| m.id);
    Ok(mails)
}

async fn attachments_of(db: &Db, mail_id: i64) -> StoreResult<Vec<Attachment>> {
    let rows = sqlx::query(
        "SELECT filename, media_type, content FROM mail_attachments WHERE mail_id = $1 ORDER BY id",
    )
    .bind(mail_id)
    .fetch_all(db.writer())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Attachment {
                filename: r.try_get("filename")?,
                media_type: r.try_get("media_type")?,
                content: r.try_get("content")?,
            })
        })
        .collect()
}

/// A settled mail's files are deleted: they were kept only to be sent.
async fn forget_attachments(db: &Db, mail_id: i64) -> StoreResult<()> {
    sqlx::query("DELETE FROM mail_attachments WHERE mail_id = $1")
        .bind(mail_id)
        .execute(db.writer())
        .await?;
    Ok(())
}

/// Settled rows of sensitive mails lose their text in the same statement (`$4` is
/// `REMOVED_TEXT` in both statements that settle a mail).
const FORGET_SECRETS: &str = "html = CASE WHEN sensitive = 1 THEN '' ELSE html END,
     text = CASE WHEN sensitive = 1 THEN $4 ELSE text END";

/// False when the lease was lost (it ran out and another sender claimed the mail).
pub async fn mark_sent(db: &Db, id: i64, lease_token: &str, now: i64) -> StoreResult<bool> {
    let done = sqlx::query(&format!(
        "UPDATE mail_outbox SET status = 'sent', sent_at = $1, lease_token = NULL, last_error = NULL,
             {FORGET_SECRETS}
         WHERE id = $2 AND lease_token = $3 AND status = 'queued'"
    ))
    .bind(now)
    .bind(id)
    .bind(lease_token)
    .bind(REMOVED_TEXT)
    .execute(db.writer())
    .await?;
    let settled = done.rows_affected() == 1;
    if settled {
        forget_attachments(db, id).await?;
    }
    Ok(settled)
}

/// The attempt failed; try again at `next_attempt_at`.
pub async fn retry_later(
    db: &Db,
    id: i64,
    lease_token: &str,
    next_attempt_at: i64,
    error: &str,
) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE mail_outbox SET next_attempt_at = $1, lease_token = NULL, last_error = $2
         WHERE id = $3 AND lease_token = $4 AND status = 'queued'",
    )
    .bind(next_attempt_at)
    .bind(error)
    .bind(id)
    .bind(lease_token)
    .execute(db.writer())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Gives up on the mail; the row stays, with the last error, for the record.
pub async fn mark_failed(db: &Db, id: i64, lease_token: &str, error: &str) -> StoreResult<bool> {
    let done = sqlx::query(&format!(
        "UPDATE mail_outbox SET status = 'failed', lease_token = NULL, last_error = $1,
             {FORGET_SECRETS}
         WHERE id = $2 AND lease_token = $3 AND status = 'queued'"
    ))
    .bind(error)
    .bind(id)
    .bind(lease_token)
    .bind(REMOVED_TEXT)
    .execute(db.writer())
    .await?;
    let settled = done.rows_affected() == 1;
    if settled {
        forget_attachments(db, id).await?;
    }
    Ok(settled)
}

/// The newest rows first.
pub async fn recent(db: &Db, limit: i64) -> StoreResult<Vec<OutboxEntry>> {
    let rows = sqlx::query(
        "SELECT id, kind, recipient, subject, text, status, attempts, next_attempt_at, last_error, sent_at
         FROM mail_outbox ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db.writer())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(OutboxEntry {
                id: r.try_get("id")?,
                kind: r.try_get("kind")?,
                recipient: r.try_get("recipient")?,
                subject: r.try_get("subject")?,
                text: r.try_get("text")?,
                status: r.try_get("status")?,
                attempts: r.try_get("attempts")?,
                next_attempt_at: r.try_get("next_attempt_at")?,
                last_error: r.try_get("last_error")?,
                sent_at: r.try_get("sent_at")?,
            })
        })
        .collect()
}
