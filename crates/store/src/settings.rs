//! Shop-wide values kept in the database so every server instance shares them.

use super::{Db, StoreResult};

/// Returns the named value, creating it with `init()` the first time. Concurrent first
/// calls from several instances agree on one value.
pub async fn get_or_create(
    db: &Db,
    name: &str,
    init: impl FnOnce() -> String,
) -> StoreResult<String> {
    if let Some(v) = get(db, name).await? {
        return Ok(v);
    }
    sqlx::query("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .bind(init())
        .execute(db.writer())
        .await?;
    let v: String = sqlx::query_scalar("SELECT value FROM settings WHERE name = $1")
        .bind(name)
        .fetch_one(db.writer())
        .await?;
    Ok(v)
}

pub async fn get(db: &Db, name: &str) -> StoreResult<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT value FROM settings WHERE name = $1")
            .bind(name)
            .fetch_optional(db.reader())
            .await?,
    )
}

pub async fn set(db: &Db, name: &str, value: &str) -> StoreResult<()> {
    sqlx::query("INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value")
        .bind(name)
        .bind(value)
        .execute(db.writer())
        .await?;
    Ok(())
}
