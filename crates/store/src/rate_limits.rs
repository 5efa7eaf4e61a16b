//! Rate-limit counters: one row per limited key, holding the start of its current
//! window and the attempts in it. A hit is one atomic upsert, so concurrent attempts
//! on any number of instances are counted exactly. On SQLite they live in a file of
//! their own (`Db::counters`).

use super::{Db, StoreResult};

/// Counts an attempt on every `(key, window_secs)` at once, in one transaction (keys
/// in order, so concurrent attempts lock them alike), and returns for each the attempts
/// in its window (this one included) and when the window started. A window older than
/// its length is replaced by a fresh one starting now. Counting them together means
/// the n-th attempt is the n-th on every key: exactly the allowed number get through.
pub async fn hit_all(db: &Db, keys: &[(&str, i64)], now: i64) -> StoreResult<Vec<(i64, i64)>> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| keys[i].0);
    let mut counts = vec![(0, 0); keys.len()];
    // A counter lost in a crash costs a shopper nothing but a retry, so PostgreSQL need
    // not wait for the write-ahead log to reach the disk before answering.
    let mut tx = match db.backend {
        super::Backend::Postgres => {
            db.counters()
                .begin_with("BEGIN; SET LOCAL synchronous_commit TO OFF")
                .await?
        }
        super::Backend::Sqlite => db.counters().begin().await?,
    };
    for i in order {
        let (key, window_secs) = keys[i];
        counts[i] = hit_in(&mut tx, key, now, window_secs).await?;
    }
    tx.commit().await?;
    Ok(counts)
}

async fn hit_in(
    tx: &mut super::orders::Tx<'_>,
    key: &str,
    now: i64,
    window_secs: i64,
) -> StoreResult<(i64, i64)> {
    let row: (i64, i64) = sqlx::query_as(
        "INSERT INTO rate_limits (limit_key, window_start, hits) VALUES ($1, $2, 1)
         ON CONFLICT (limit_key) DO UPDATE SET
             hits = CASE WHEN rate_limits.window_start <= $3 THEN 1 ELSE rate_limits.hits + 1 END,
             window_start = CASE WHEN rate_limits.window_start <= $3 THEN $2 ELSE rate_limits.window_start END
         RETURNING hits, window_start",
    )
    .bind(key)
    .bind(now)
    .bind(now - window_secs)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row)
}

/// Takes one attempt back.
pub async fn give_back(db: &Db, key: &str) -> StoreResult<()> {
    sqlx::query("UPDATE rate_limits SET hits = hits - 1 WHERE limit_key = $1 AND hits > 0")
        .bind(key)
        .execute(db.counters())
        .await?;
    Ok(())
}

/// Forgets a key's attempts (a successful login clears its account's failures).
pub async fn clear(db: &Db, key: &str) -> StoreResult<()> {
    sqlx::query("DELETE FROM rate_limits WHERE limit_key = $1")
        .bind(key)
        .execute(db.counters())
        .await?;
    Ok(())
}

/// Forgets counters whose window started before `before` (no limit is longer).
pub async fn sweep(db: &Db, before: i64) -> StoreResult<u64> {
    let done = sqlx::query("DELETE FROM rate_limits WHERE window_start < $1")
        .bind(before)
        .execute(db.counters())
        .await?;
    Ok(done.rows_affected())
}
