//! Customer accounts and signing in: the customers themselves, their login sessions,
//! failed-login counts, password-reset keys, and attaching a shopper's cart session to
//! the customer who signs in. Tokens and keys are stored as SHA-256 digests only.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::direct::read_row;
use super::sessions::SessionRecord;
use super::{Db, StoreResult};
use rules::customers::CustomerId;
use rules::staff::Role;

/// A customer row as stored, password hash and address JSON included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerRow {
    pub id: CustomerId,
    pub email: String,
    pub display_name: String,
    pub first_name: String,
    pub last_name: String,
    pub password_hash: String,
    pub billing: String,
    pub shipping: String,
    pub created_at: i64,
}

pub struct NewCustomer<'a> {
    pub email: &'a str,
    pub email_key: &'a str,
    pub display_name: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub password_hash: &'a str,
    /// The saved addresses, as stored JSON (`{}` for none yet).
    pub billing: &'a str,
    pub shipping: &'a str,
}

/// The "Edit account" form's changes; `password_hash` only when the password changes.
pub struct DetailsChange<'a> {
    pub email: &'a str,
    pub email_key: &'a str,
    pub display_name: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub password_hash: Option<&'a str>,
}

const CUSTOMER_COLUMNS: &str =
    "id, email, display_name, first_name, last_name, password_hash, billing, shipping, created_at";

fn customer_row(r: &AnyRow) -> StoreResult<CustomerRow> {
    Ok(CustomerRow {
        id: CustomerId(r.try_get("id")?),
        email: r.try_get("email")?,
        display_name: r.try_get("display_name")?,
        first_name: r.try_get("first_name")?,
        last_name: r.try_get("last_name")?,
        password_hash: r.try_get("password_hash")?,
        billing: r.try_get("billing")?,
        shipping: r.try_get("shipping")?,
        created_at: r.try_get("created_at")?,
    })
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// Creates the customer; None when the address already has an account.
pub async fn insert_customer(
    tx: &mut Transaction<'_, Any>,
    c: &NewCustomer<'_>,
    now: i64,
) -> StoreResult<Option<CustomerId>> {
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO customers (email, email_key, display_name, first_name, last_name, password_hash, billing, shipping, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
         ON CONFLICT (email_key) DO NOTHING
         RETURNING id",
    )
    .bind(c.email)
    .bind(c.email_key)
    .bind(c.display_name)
    .bind(c.first_name)
    .bind(c.last_name)
    .bind(c.password_hash)
    .bind(c.billing)
    .bind(c.shipping)
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(id.map(CustomerId))
}

pub async fn find_customer(db: &Db, id: CustomerId) -> StoreResult<Option<CustomerRow>> {
    let row = sqlx::query(&format!(
        "SELECT {CUSTOMER_COLUMNS} FROM customers WHERE id = $1"
    ))
    .bind(id.0)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(customer_row).transpose()
}

pub async fn find_customer_by_email(db: &Db, email_key: &str) -> StoreResult<Option<CustomerRow>> {
    let row = sqlx::query(&format!(
        "SELECT {CUSTOMER_COLUMNS} FROM customers WHERE email_key = $1"
    ))
    .bind(email_key)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(customer_row).transpose()
}

/// Saves the "Edit account" form. False when the new address belongs to another account.
pub async fn update_details(
    db: &Db,
    id: CustomerId,
    c: &DetailsChange<'_>,
    now: i64,
) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE customers SET email = $1, email_key = $2, display_name = $3, first_name = $4,
             last_name = $5, password_hash = COALESCE($6, password_hash), updated_at = $7
         WHERE id = $8",
    )
    .bind(c.email)
    .bind(c.email_key)
    .bind(c.display_name)
    .bind(c.first_name)
    .bind(c.last_name)
    .bind(c.password_hash)
    .bind(now)
    .bind(id.0)
    .execute(db.writer())
    .await;
    match done {
        Ok(_) => Ok(true),
        Err(e) if is_unique_violation(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Replaces the addresses given (JSON documents); None leaves one as it is.
pub async fn save_addresses(
    db: &Db,
    id: CustomerId,
    billing: Option<&str>,
    shipping: Option<&str>,
    now: i64,
) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE customers SET billing = COALESCE($1, billing), shipping = COALESCE($2, shipping),
             updated_at = $3
         WHERE id = $4",
    )
    .bind(billing)
    .bind(shipping)
    .bind(now)
    .bind(id.0)
    .execute(db.writer())
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn set_password_in(
    tx: &mut Transaction<'_, Any>,
    id: CustomerId,
    password_hash: &str,
    now: i64,
) -> StoreResult<()> {
    sqlx::query("UPDATE customers SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(password_hash)
        .bind(now)
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

// Login sessions.

/// Stores a new login, and sweeps the logins that have run out.
pub async fn insert_login(
    db: &Db,
    token_hash: &str,
    id: CustomerId,
    now: i64,
    expires_at: i64,
) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    insert_login_in(&mut tx, token_hash, id, now, expires_at).await?;
    tx.commit().await?;
    Ok(())
}

/// `insert_login` as a step of a larger transaction (an account made at checkout is
/// signed in by the transaction that places its order).
pub async fn insert_login_in(
    tx: &mut Transaction<'_, Any>,
    token_hash: &str,
    id: CustomerId,
    now: i64,
    expires_at: i64,
) -> StoreResult<()> {
    sqlx::query("DELETE FROM login_sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "INSERT INTO login_sessions (token_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(id.0)
    .bind(now)
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The customer a login token still signs in, if it was not revoked and has not expired.
pub async fn login_customer(
    db: &Db,
    token_hash: &str,
    now: i64,
) -> StoreResult<Option<(CustomerId, Role)>> {
    const FIND: &str = "SELECT l.customer_id, c.role FROM login_sessions l \
         JOIN customers c ON c.id = l.customer_id \
         WHERE l.token_hash = $1 AND l.expires_at > $2";
    let found = read_row!(db, FIND, (i64, String), token_hash, now);
    Ok(found.map(|(id, role)| (CustomerId(id), Role::parse(&role).unwrap_or_default())))
}

/// Makes the account with this e-mail staff (or a customer again); false when there is
/// no such account.
pub async fn set_role(db: &Db, email_key: &str, role: Role, now: i64) -> StoreResult<bool> {
    let done = sqlx::query("UPDATE customers SET role = $1, updated_at = $2 WHERE email_key = $3")
        .bind(role.as_str())
        .bind(now)
        .bind(email_key)
        .execute(db.writer())
        .await?;
    Ok(done.rows_affected() > 0)
}

/// The shop's staff accounts: id, e-mail, name and role, by e-mail.
pub async fn list_staff(db: &Db) -> StoreResult<Vec<(CustomerId, String, String, Role)>> {
    let rows = sqlx::query(
        "SELECT id, email, display_name, role FROM customers WHERE role <> 'customer' ORDER BY email_key",
    )
    .fetch_all(db.reader())
    .await?;
    rows.iter()
        .map(|r| {
            let role: String = r.try_get("role")?;
            Ok((
                CustomerId(r.try_get("id")?),
                r.try_get("email")?,
                r.try_get("display_name")?,
                Role::parse(&role).unwrap_or_default(),
            ))
        })
        .collect()
}

/// An account's storefront settings (`woocommerce_meta`), by key.
pub async fn meta(db: &Db, id: CustomerId) -> StoreResult<Vec<(String, String)>> {
    let rows = sqlx::query(
        "SELECT meta_key, meta_value FROM customer_meta WHERE customer_id = $1 ORDER BY meta_key",
    )
    .bind(id.0)
    .fetch_all(db.reader())
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("meta_key")?, r.try_get("meta_value")?)))
        .collect()
}

/// Sets some of an account's storefront settings, each key once (the last value wins).
pub async fn set_meta(db: &Db, id: CustomerId, values: &[(String, String)]) -> StoreResult<()> {
    let mut tx = db.begin_write().await?;
    for (key, value) in values {
        sqlx::query(
            "INSERT INTO customer_meta (customer_id, meta_key, meta_value) VALUES ($1, $2, $3) \
             ON CONFLICT (customer_id, meta_key) DO UPDATE SET meta_value = excluded.meta_value",
        )
        .bind(id.0)
        .bind(key)
        .bind(value)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

pub async fn delete_login(db: &Db, token_hash: &str) -> StoreResult<()> {
    sqlx::query("DELETE FROM login_sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(db.writer())
        .await?;
    Ok(())
}

/// Signs the customer out everywhere, except the login `keep` if given; also sweeps
/// expired logins of everyone.
pub async fn delete_logins_in(
    tx: &mut Transaction<'_, Any>,
    id: CustomerId,
    keep: Option<&str>,
    now: i64,
) -> StoreResult<()> {
    sqlx::query(
        "DELETE FROM login_sessions WHERE (customer_id = $1 AND token_hash <> $2) OR expires_at <= $3",
    )
    .bind(id.0)
    .bind(keep.unwrap_or(""))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

// Password resets.

/// Stores a new reset key for the customer; keys asked for earlier stop working, as
/// only the latest mail should. Keys that ran out a day ago are swept.
pub async fn insert_reset_in(
    tx: &mut Transaction<'_, Any>,
    token_hash: &str,
    id: CustomerId,
    now: i64,
    expires_at: i64,
) -> StoreResult<()> {
    sqlx::query("DELETE FROM password_resets WHERE expires_at <= $1")
        .bind(now - 24 * 3600)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE password_resets SET used_at = $1 WHERE customer_id = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(id.0)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO password_resets (token_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(id.0)
    .bind(now)
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The customer an unused, unexpired reset key belongs to.
pub async fn find_reset(db: &Db, token_hash: &str, now: i64) -> StoreResult<Option<CustomerId>> {
    let id: Option<i64> = sqlx::query_scalar(
        "SELECT customer_id FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(db.reader())
    .await?;
    Ok(id.map(CustomerId))
}

/// Uses the key up. False when it was used (or expired) meanwhile: of two concurrent
/// resets with one key, only one gets through.
pub async fn use_reset_in(
    tx: &mut Transaction<'_, Any>,
    token_hash: &str,
    id: CustomerId,
    now: i64,
) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE password_resets SET used_at = $1
         WHERE token_hash = $2 AND customer_id = $3 AND used_at IS NULL AND expires_at > $1",
    )
    .bind(now)
    .bind(token_hash)
    .bind(id.0)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

// Carts of signed-in customers.

/// The customer's live cart sessions other than `except`.
pub async fn customer_sessions(
    db: &Db,
    id: CustomerId,
    except: &str,
    now: i64,
) -> StoreResult<Vec<SessionRecord>> {
    let rows = sqlx::query(
        "SELECT id, customer_id, cart, version, expires_at FROM sessions
         WHERE customer_id = $1 AND id <> $2 AND expires_at > $3
         ORDER BY updated_at",
    )
    .bind(id.0)
    .bind(except)
    .bind(now)
    .fetch_all(db.writer())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(SessionRecord {
                id: r.try_get("id")?,
                customer_id: r.try_get("customer_id")?,
                cart: r.try_get("cart")?,
                version: r.try_get("version")?,
                expires_at: r.try_get("expires_at")?,
            })
        })
        .collect()
}

/// Marks a session as the customer's (an account made at checkout signs in there).
pub async fn claim_session_in(
    tx: &mut Transaction<'_, Any>,
    session_id: &str,
    id: CustomerId,
) -> StoreResult<()> {
    sqlx::query("UPDATE sessions SET customer_id = $1 WHERE id = $2")
        .bind(id.0)
        .bind(session_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// What signing in does to the cart sessions, all at once.
pub struct SessionAttach<'a> {
    pub session_id: &'a str,
    pub customer_id: CustomerId,
    /// The version the current session was read at; None when it has no row yet.
    pub version: Option<i64>,
    /// The merged cart.
    pub cart: &'a str,
    pub now: i64,
    pub expires_at: i64,
    /// The customer's other sessions whose carts were merged in, with the versions
    /// read: they end here.
    pub absorbed: &'a [(String, i64)],
}

/// Stores the merged cart on the current session, marks it as the customer's, and ends
/// the sessions merged into it. False (and nothing changed) when any of them was
/// written meanwhile: read again and retry.
pub async fn attach_session(db: &Db, a: &SessionAttach<'_>) -> StoreResult<bool> {
    let mut tx = db.begin_write().await?;
    let stored = match a.version {
        Some(version) => sqlx::query(
            "UPDATE sessions SET cart = $1, customer_id = $2, version = version + 1,
                 updated_at = $3, expires_at = $4
             WHERE id = $5 AND version = $6",
        )
        .bind(a.cart)
        .bind(a.customer_id.0)
        .bind(a.now)
        .bind(a.expires_at)
        .bind(a.session_id)
        .bind(version)
        .execute(&mut *tx)
        .await?,
        None => sqlx::query(
            "INSERT INTO sessions (id, customer_id, cart, version, created_at, updated_at, expires_at)
             VALUES ($1, $2, $3, 1, $4, $4, $5)
             ON CONFLICT (id) DO UPDATE SET cart = excluded.cart, customer_id = excluded.customer_id,
                 version = sessions.version + 1, created_at = excluded.created_at,
                 updated_at = excluded.updated_at, expires_at = excluded.expires_at
             WHERE sessions.expires_at <= excluded.created_at",
        )
        .bind(a.session_id)
        .bind(a.customer_id.0)
        .bind(a.cart)
        .bind(a.now)
        .bind(a.expires_at)
        .execute(&mut *tx)
        .await?,
    };
    if stored.rows_affected() != 1 {
        return Ok(false);
    }
    for (id, version) in a.absorbed {
        let done = sqlx::query(
            "UPDATE sessions SET customer_id = NULL, expires_at = $1, version = version + 1
             WHERE id = $2 AND version = $3",
        )
        .bind(a.now)
        .bind(id)
        .bind(*version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
    }
    tx.commit().await?;
    Ok(true)
}
