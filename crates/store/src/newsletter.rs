//! The newsletter's subscribers. Each change is one statement that says whether it
//! happened, so two sign-ups or two clicks at once cannot both act on a subscriber.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Db, StoreResult};

/// A subscriber as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscriber {
    pub id: i64,
    pub email: String,
    pub name: String,
    /// `pending`, `confirmed` or `unsubscribed`.
    pub status: String,
    pub source: String,
    pub consent_at: i64,
    pub confirmed_at: Option<i64>,
    pub unsubscribed_at: Option<i64>,
    pub client_ip: Option<String>,
    pub created_at: i64,
}

/// Who is signing up, and where from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignUp<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub source: &'a str,
    pub client_ip: Option<&'a str>,
    pub now: i64,
}

/// What a sign-up found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignedUp {
    /// A new subscriber, pending.
    New(i64),
    /// A subscriber who was pending or unsubscribed, pending again (their name,
    /// source, consent time and address renewed).
    Again(i64),
    /// A confirmed subscriber; nothing changed.
    AlreadyConfirmed(i64),
}

const COLUMNS: &str = "id, email, name, status, source, consent_at, confirmed_at, unsubscribed_at, client_ip, created_at";

fn subscriber_of(r: &AnyRow) -> StoreResult<Subscriber> {
    Ok(Subscriber {
        id: r.try_get("id")?,
        email: r.try_get("email")?,
        name: r.try_get("name")?,
        status: r.try_get("status")?,
        source: r.try_get("source")?,
        consent_at: r.try_get("consent_at")?,
        confirmed_at: r.try_get("confirmed_at")?,
        unsubscribed_at: r.try_get("unsubscribed_at")?,
        client_ip: r.try_get("client_ip")?,
        created_at: r.try_get("created_at")?,
    })
}

/// Signs an address up: a new subscriber, or one who was not confirmed pending again.
pub async fn sign_up(db: &Db, s: &SignUp<'_>) -> StoreResult<SignedUp> {
    let created: Option<i64> = sqlx::query_scalar(
        "INSERT INTO newsletter_subscribers (email, name, status, source, consent_at, client_ip, created_at, updated_at)
         VALUES ($1, $2, 'pending', $3, $4, $5, $4, $4)
         ON CONFLICT (email) DO NOTHING RETURNING id",
    )
    .bind(s.email)
    .bind(s.name)
    .bind(s.source)
    .bind(s.now)
    .bind(s.client_ip)
    .fetch_optional(db.writer())
    .await?;
    if let Some(id) = created {
        return Ok(SignedUp::New(id));
    }
    let again: Option<i64> = sqlx::query_scalar(
        "UPDATE newsletter_subscribers
         SET status = 'pending', name = $1, source = $2, consent_at = $3, client_ip = $4, updated_at = $3
         WHERE email = $5 AND status <> 'confirmed' RETURNING id",
    )
    .bind(s.name)
    .bind(s.source)
    .bind(s.now)
    .bind(s.client_ip)
    .bind(s.email)
    .fetch_optional(db.writer())
    .await?;
    if let Some(id) = again {
        return Ok(SignedUp::Again(id));
    }
    let id: i64 = sqlx::query_scalar("SELECT id FROM newsletter_subscribers WHERE email = $1")
        .bind(s.email)
        .fetch_one(db.writer())
        .await?;
    Ok(SignedUp::AlreadyConfirmed(id))
}

/// The subscriber with this id.
pub async fn find(db: &Db, id: i64) -> StoreResult<Option<Subscriber>> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM newsletter_subscribers WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(db.writer())
    .await?;
    row.as_ref().map(subscriber_of).transpose()
}

/// Confirms a pending subscriber; false when they were not pending.
pub async fn confirm(db: &Db, id: i64, now: i64) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE newsletter_subscribers SET status = 'confirmed', confirmed_at = $1, updated_at = $1
         WHERE id = $2 AND status = 'pending'",
    )
    .bind(now)
    .bind(id)
    .execute(db.writer())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Takes a subscriber off the list; false when they already were.
pub async fn unsubscribe(db: &Db, id: i64, now: i64) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE newsletter_subscribers SET status = 'unsubscribed', unsubscribed_at = $1, updated_at = $1
         WHERE id = $2 AND status <> 'unsubscribed'",
    )
    .bind(now)
    .bind(id)
    .execute(db.writer())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A page of the subscribers in `status`, oldest first, read by key: those with an id
/// above `after`; and whether more follow.
pub async fn page(
    db: &Db,
    status: &str,
    after: i64,
    limit: i64,
) -> StoreResult<(Vec<Subscriber>, bool)> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM newsletter_subscribers WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3"
    ))
    .bind(status)
    .bind(after)
    .bind(limit + 1)
    .fetch_all(db.reader())
    .await?;
    let more = rows.len() as i64 > limit;
    let list = rows
        .iter()
        .take(limit as usize)
        .map(subscriber_of)
        .collect::<StoreResult<Vec<_>>>()?;
    Ok((list, more))
}
