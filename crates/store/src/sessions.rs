//! Session storage: one row per shopper session holding the cart as JSON. A write
//! first tries optimistically (it carries the version it read); one that loses a race
//! takes the session's row lock and applies on top of the winner, so concurrent writes
//! to one cart are serialised and never lost or refused.

use sqlx::Row;

use super::catalog::{stock_columns, stock_level, StockLevel};
use super::direct::{read_row, write_rows};
use super::{Db, StoreResult};
use rules::catalog::model::ProductId;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    pub id: String,
    pub customer_id: Option<i64>,
    pub cart: String,
    pub version: i64,
    pub expires_at: i64,
}

const FIND_SESSION: &str =
    "SELECT id, customer_id, cart, version, expires_at FROM sessions WHERE id = $1 AND expires_at > $2";

/// The session's row, unless it expired. Every cart request reads it: it takes the
/// direct way (see `direct`).
pub async fn find_session(db: &Db, id: &str, now: i64) -> StoreResult<Option<SessionRecord>> {
    type Columns = (String, Option<i64>, String, i64, i64);
    let record = |(id, customer_id, cart, version, expires_at): Columns| SessionRecord {
        id,
        customer_id,
        cart,
        version,
        expires_at,
    };
    Ok(read_row!(db, FIND_SESSION, Columns, id, now).map(record))
}

/// A product's stock and the session's row (unless it expired), read together for an
/// add-to-cart: one round trip instead of two. `None` when there is no such product.
pub async fn find_session_and_stock(
    db: &Db,
    id: &str,
    now: i64,
    product: ProductId,
) -> StoreResult<Option<(Option<SessionRecord>, StockLevel)>> {
    const FIND: &str = concat!(
        "SELECT s.id, s.customer_id, s.cart, s.version, s.expires_at, ",
        stock_columns!(),
        " FROM products p LEFT JOIN sessions s ON s.id = $1 AND s.expires_at > $2 WHERE p.id = $3"
    );
    type Columns = (
        Option<String>,
        Option<i64>,
        Option<String>,
        Option<i64>,
        Option<i64>,
        i64,
        Option<i64>,
        String,
        String,
    );
    let row: Option<Columns> = read_row!(db, FIND, Columns, id, now, product.0);
    let Some((sid, customer_id, cart, version, expires_at, manage, quantity, status, backorders)) =
        row
    else {
        return Ok(None);
    };
    let stock = stock_level((manage, quantity, status, backorders))?;
    let session = match (sid, cart, version, expires_at) {
        (Some(id), Some(cart), Some(version), Some(expires_at)) => Some(SessionRecord {
            id,
            customer_id,
            cart,
            version,
            expires_at,
        }),
        _ => None,
    };
    Ok(Some((session, stock)))
}

/// Stores the cart of a session seen for the first time. False when the session was
/// created meanwhile by a concurrent request: read it and retry. An expired session
/// with the same id is started afresh.
pub async fn insert_session(
    db: &Db,
    id: &str,
    cart: &str,
    now: i64,
    expires_at: i64,
) -> StoreResult<bool> {
    const INSERT: &str =
        "INSERT INTO sessions (id, customer_id, cart, version, created_at, updated_at, expires_at)
         VALUES ($1, NULL, $2, 1, $3, $3, $4)
         ON CONFLICT (id) DO UPDATE SET cart = excluded.cart, customer_id = NULL,
             version = sessions.version + 1, created_at = excluded.created_at,
             updated_at = excluded.updated_at, expires_at = excluded.expires_at
         WHERE sessions.expires_at <= excluded.created_at";
    Ok(write_rows!(db, INSERT, id, cart, now, expires_at) == 1)
}

/// Replaces the cart if the session is still at `version`. False when another write
/// came first.
pub async fn update_cart(
    db: &Db,
    id: &str,
    version: i64,
    cart: &str,
    now: i64,
    expires_at: i64,
) -> StoreResult<bool> {
    Ok(write_rows!(db, UPDATE_CART, cart, now, expires_at, id, version) == 1)
}

const UPDATE_CART: &str =
    "UPDATE sessions SET cart = $1, version = version + 1, updated_at = $2, expires_at = $3
     WHERE id = $4 AND version = $5";

/// An expired session is gone for good: its cart is not shown again.
pub async fn delete_expired(db: &Db, now: i64) -> StoreResult<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(db.writer())
        .await?;
    Ok(done.rows_affected())
}

/// `update_cart` as a step of a larger transaction (placing an order empties the cart
/// in the same commit that creates the order). On PostgreSQL the row stays locked until
/// the transaction ends, so a concurrent checkout of the same cart waits, then loses.
pub async fn update_cart_in(
    tx: &mut super::orders::Tx<'_>,
    id: &str,
    version: i64,
    cart: &str,
    now: i64,
    expires_at: i64,
) -> StoreResult<bool> {
    let done = sqlx::query(UPDATE_CART)
        .bind(cart)
        .bind(now)
        .bind(expires_at)
        .bind(id)
        .bind(version)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Reads a session's row inside a transaction and holds it: on PostgreSQL the row is
/// locked until the transaction ends; on SQLite the transaction holds the only writer.
/// Expired sessions are returned too (their cart starts afresh).
pub async fn lock_session(
    tx: &mut super::orders::Tx<'_>,
    db: &Db,
    id: &str,
) -> StoreResult<Option<SessionRecord>> {
    let lock = match db.backend {
        super::Backend::Postgres => " FOR UPDATE",
        super::Backend::Sqlite => "",
    };
    let row = sqlx::query(&format!(
        "SELECT id, customer_id, cart, version, expires_at FROM sessions WHERE id = $1{lock}"
    ))
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| {
        Ok(SessionRecord {
            id: r.try_get("id")?,
            customer_id: r.try_get("customer_id")?,
            cart: r.try_get("cart")?,
            version: r.try_get("version")?,
            expires_at: r.try_get("expires_at")?,
        })
    })
    .transpose()
}

/// Makes sure a session row exists (an empty, already expired one if it did not), so
/// it can be locked.
pub async fn ensure_session(tx: &mut super::orders::Tx<'_>, id: &str, now: i64) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO sessions (id, customer_id, cart, version, created_at, updated_at, expires_at)
         VALUES ($1, NULL, '{}', 0, $2, $2, $2) ON CONFLICT (id) DO NOTHING",
    )
    .bind(id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Replaces the cart of a session whose row the transaction holds. A session that had
/// expired starts afresh (no customer, a new creation time).
pub async fn store_locked_cart(
    tx: &mut super::orders::Tx<'_>,
    record: &SessionRecord,
    cart: &str,
    now: i64,
    expires_at: i64,
) -> StoreResult<()> {
    let sql = if record.expires_at <= now {
        "UPDATE sessions SET cart = $1, version = version + 1, updated_at = $2, expires_at = $3,
             customer_id = NULL, created_at = $2
         WHERE id = $4"
    } else {
        "UPDATE sessions SET cart = $1, version = version + 1, updated_at = $2, expires_at = $3
         WHERE id = $4"
    };
    sqlx::query(sql)
        .bind(cart)
        .bind(now)
        .bind(expires_at)
        .bind(&record.id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Sets an unreadable cart aside: it is copied to `unreadable_carts` with what was
/// wrong, and the session goes on with an empty cart. Nothing happens if the session
/// was written since it was read (whoever wrote it found a readable cart).
pub async fn set_aside_cart(
    db: &Db,
    record: &SessionRecord,
    problem: &str,
    now: i64,
) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    let emptied = sqlx::query(
        "UPDATE sessions SET cart = '{}', version = version + 1, updated_at = $1
         WHERE id = $2 AND version = $3",
    )
    .bind(now)
    .bind(&record.id)
    .bind(record.version)
    .execute(&mut *tx)
    .await?;
    if emptied.rows_affected() == 1 {
        sqlx::query(
            "INSERT INTO unreadable_carts (session_id, cart, problem, found_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&record.id)
        .bind(&record.cart)
        .bind(problem)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}
