//! Contact forms and what shoppers send through them. A form's definition is kept as
//! the JSON the rules crate reads (`rules::contact::form::FormDefinition`); this module
//! only stores and finds it. A submission is written in the transaction that queues
//! its mail, so a message the shop says it received is always both kept and queued.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::orders::Tx;
use super::{Db, StoreResult};

/// A stored form: its id, title and definition (JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredForm {
    pub id: i64,
    pub title: String,
    pub definition: String,
    pub updated_at: i64,
}

/// A submission to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSubmission<'a> {
    pub form_id: i64,
    /// `mail_sent`, `mail_failed` or `spam`.
    pub status: &'a str,
    /// JSON: `[[name, [value, …]], …]`.
    pub inputs: &'a str,
    /// JSON: what was attached, without the files themselves.
    pub files: &'a str,
    pub posted_data_hash: &'a str,
    pub customer_id: Option<i64>,
    pub client_ip: Option<&'a str>,
    pub mail_id: Option<i64>,
    pub created_at: i64,
}

/// A kept submission, as staff read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub id: i64,
    pub form_id: i64,
    pub status: String,
    pub inputs: String,
    pub files: String,
    pub posted_data_hash: String,
    pub customer_id: Option<i64>,
    pub client_ip: Option<String>,
    pub mail_id: Option<i64>,
    pub created_at: i64,
}

fn form_of(r: &AnyRow) -> StoreResult<StoredForm> {
    Ok(StoredForm {
        id: r.try_get("id")?,
        title: r.try_get("title")?,
        definition: r.try_get("definition")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// The form with this id.
pub async fn form(db: &Db, id: i64) -> StoreResult<Option<StoredForm>> {
    let row =
        sqlx::query("SELECT id, title, definition, updated_at FROM contact_forms WHERE id = $1")
            .bind(id)
            .fetch_optional(db.reader())
            .await?;
    row.as_ref().map(form_of).transpose()
}

/// Every form, oldest first (a shop has a handful).
pub async fn forms(db: &Db) -> StoreResult<Vec<StoredForm>> {
    let rows = sqlx::query(
        "SELECT id, title, definition, updated_at FROM contact_forms ORDER BY id LIMIT 1000",
    )
    .fetch_all(db.reader())
    .await?;
    rows.iter().map(form_of).collect()
}

/// Adds a form; its id.
pub async fn create_form(db: &Db, title: &str, definition: &str, now: i64) -> StoreResult<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO contact_forms (title, definition, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING id",
    )
    .bind(title)
    .bind(definition)
    .bind(now)
    .fetch_one(db.writer())
    .await?)
}

/// Keeps a submission in the caller's transaction; its id.
pub async fn insert_submission(tx: &mut Tx<'_>, s: &NewSubmission<'_>) -> StoreResult<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO contact_submissions
             (form_id, status, inputs, files, posted_data_hash, customer_id, client_ip, mail_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
    )
    .bind(s.form_id)
    .bind(s.status)
    .bind(s.inputs)
    .bind(s.files)
    .bind(s.posted_data_hash)
    .bind(s.customer_id)
    .bind(s.client_ip)
    .bind(s.mail_id)
    .bind(s.created_at)
    .fetch_one(&mut **tx)
    .await?)
}

fn submission_of(r: &AnyRow) -> StoreResult<Submission> {
    Ok(Submission {
        id: r.try_get("id")?,
        form_id: r.try_get("form_id")?,
        status: r.try_get("status")?,
        inputs: r.try_get("inputs")?,
        files: r.try_get("files")?,
        posted_data_hash: r.try_get("posted_data_hash")?,
        customer_id: r.try_get("customer_id")?,
        client_ip: r.try_get("client_ip")?,
        mail_id: r.try_get("mail_id")?,
        created_at: r.try_get("created_at")?,
    })
}

const SUBMISSION_COLUMNS: &str =
    "id, form_id, status, inputs, files, posted_data_hash, customer_id, client_ip, mail_id, created_at";

/// A page of a form's submissions, newest first, read by key (never by offset), with
/// whether more follow: those with an id below `before`, when given.
pub async fn submissions(
    db: &Db,
    form_id: i64,
    before: Option<i64>,
    limit: i64,
) -> StoreResult<(Vec<Submission>, bool)> {
    let rows = sqlx::query(&format!(
        "SELECT {SUBMISSION_COLUMNS} FROM contact_submissions
         WHERE form_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3"
    ))
    .bind(form_id)
    .bind(before.unwrap_or(i64::MAX))
    .bind(limit + 1)
    .fetch_all(db.reader())
    .await?;
    let more = rows.len() as i64 > limit;
    let page = rows
        .iter()
        .take(limit as usize)
        .map(submission_of)
        .collect::<StoreResult<Vec<_>>>()?;
    Ok((page, more))
}

/// The submission with this id.
pub async fn submission(db: &Db, id: i64) -> StoreResult<Option<Submission>> {
    let row = sqlx::query(&format!(
        "SELECT {SUBMISSION_COLUMNS} FROM contact_submissions WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(submission_of).transpose()
}

/// Deletes a submission; false when there was none.
pub async fn delete_submission(db: &Db, id: i64) -> StoreResult<bool> {
    let done = sqlx::query("DELETE FROM contact_submissions WHERE id = $1")
        .bind(id)
        .execute(db.writer())
        .await?;
    Ok(done.rows_affected() == 1)
}
