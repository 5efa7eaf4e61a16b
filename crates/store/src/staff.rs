//! Staff API keys: their digests, permissions and when they were last used.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Db, StoreError, StoreResult};
use rules::staff::{ApiKey, ApiKeyId, NewKey, Permissions};

const COLUMNS: &str =
    "id, description, permissions, truncated_key, secret_digest, created_at, last_access_at, revoked_at";

fn key_from_row(r: &AnyRow) -> StoreResult<ApiKey> {
    let permissions: String = r.try_get("permissions")?;
    Ok(ApiKey {
        id: ApiKeyId(r.try_get("id")?),
        description: r.try_get("description")?,
        permissions: Permissions::parse(&permissions)
            .ok_or_else(|| StoreError::Corrupt(format!("API key permissions {permissions:?}")))?,
        truncated_key: r.try_get("truncated_key")?,
        secret_digest: r.try_get("secret_digest")?,
        created_at: r.try_get("created_at")?,
        last_access_at: r.try_get("last_access_at")?,
        revoked_at: r.try_get("revoked_at")?,
    })
}

pub async fn create(
    db: &Db,
    key: &NewKey,
    description: &str,
    permissions: Permissions,
    now: i64,
) -> StoreResult<ApiKey> {
    let row = sqlx::query(&format!(
        "INSERT INTO api_keys (description, permissions, key_digest, secret_digest, truncated_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
    ))
    .bind(description)
    .bind(permissions.as_str())
    .bind(key.key_digest())
    .bind(key.secret_digest())
    .bind(key.truncated_key())
    .bind(now)
    .fetch_one(db.writer())
    .await?;
    key_from_row(&row)
}

/// The key whose consumer key has this digest, revoked or not.
pub async fn find_by_key_digest(db: &Db, key_digest: &str) -> StoreResult<Option<ApiKey>> {
    let row = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM api_keys WHERE key_digest = $1"
    ))
    .bind(key_digest)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(key_from_row).transpose()
}

/// Every key, oldest first.
pub async fn list(db: &Db) -> StoreResult<Vec<ApiKey>> {
    let rows = sqlx::query(&format!("SELECT {COLUMNS} FROM api_keys ORDER BY id"))
        .fetch_all(db.reader())
        .await?;
    rows.iter().map(key_from_row).collect()
}

/// Revokes a key; false when there is no such key or it was revoked already.
pub async fn revoke(db: &Db, id: ApiKeyId, now: i64) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE api_keys SET revoked = 1, revoked_at = $1 WHERE id = $2 AND revoked = 0",
    )
    .bind(now)
    .bind(id.0)
    .execute(db.writer())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records that the key was used, at most once a minute, so a busy client does not
/// turn every read into a write.
pub async fn touch(db: &Db, id: ApiKeyId, now: i64) -> StoreResult<()> {
    sqlx::query(
        "UPDATE api_keys SET last_access_at = $1
         WHERE id = $2 AND (last_access_at IS NULL OR last_access_at < $3)",
    )
    .bind(now)
    .bind(id.0)
    .bind(now - 60)
    .execute(db.writer())
    .await?;
    Ok(())
}
