//! What the shop keeps of its payments at the provider: the intents made for orders
//! and for saving methods, the webhook events already acted on, the methods customers
//! keep, the provider's customer behind an account, and refunds.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::orders::Tx;
use super::{flag, Db, StoreResult};
use rules::orders::model::OrderId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentKind {
    Payment,
    Setup,
}

impl IntentKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Payment => "payment",
            Self::Setup => "setup",
        }
    }
}

/// An intent the shop made, and what it was made for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntentRecord {
    pub intent_id: String,
    /// The order it pays; 0 for a setup intent saving a method.
    pub order_id: i64,
    pub customer_id: Option<i64>,
    pub kind: IntentKind,
    pub attempt: i64,
    pub status: String,
    pub amount: i64,
    pub currency: String,
    pub payment_method_id: String,
    pub save_method: bool,
    pub created_at: i64,
}

const INTENT_COLUMNS: &str = "intent_id, order_id, customer_id, kind, attempt, status, amount,
    currency, payment_method_id, save_method, created_at";

fn intent_from_row(r: &AnyRow) -> StoreResult<IntentRecord> {
    let kind: String = r.try_get("kind")?;
    Ok(IntentRecord {
        intent_id: r.try_get("intent_id")?,
        order_id: r.try_get("order_id")?,
        customer_id: r.try_get("customer_id")?,
        kind: if kind == "setup" {
            IntentKind::Setup
        } else {
            IntentKind::Payment
        },
        attempt: r.try_get("attempt")?,
        status: r.try_get("status")?,
        amount: r.try_get("amount")?,
        currency: r.try_get("currency")?,
        payment_method_id: r.try_get("payment_method_id")?,
        save_method: r.try_get::<i64, _>("save_method")? != 0,
        created_at: r.try_get("created_at")?,
    })
}

/// How long an attempt at the provider may hold an order before another may start.
pub const ATTEMPT_CLAIM_SECS: i64 = 60;

/// Claims the order for a payment attempt, in the transaction that locks it. Returns
/// the attempt's number, or None while another attempt holds it. An attempt that got
/// no answer (the network failed) keeps its number, so trying again repeats the same
/// request under the same idempotency key and cannot charge twice.
pub async fn claim_attempt(tx: &mut Tx<'_>, order: OrderId, now: i64) -> StoreResult<Option<i64>> {
    let attempts: Option<i64> = sqlx::query_scalar(
        "UPDATE orders SET payment_started_at = $2
         WHERE id = $1 AND (payment_started_at IS NULL OR payment_started_at <= $3)
         RETURNING payment_attempts",
    )
    .bind(order.0)
    .bind(now)
    .bind(now - ATTEMPT_CLAIM_SECS)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(attempts.map(|n| n + 1))
}

/// The number of the attempt under way on the order now, if one holds its claim.
pub async fn attempt_under_way(db: &Db, order: OrderId, now: i64) -> StoreResult<Option<i64>> {
    let row: Option<(i64, Option<i64>)> =
        sqlx::query_as("SELECT payment_attempts, payment_started_at FROM orders WHERE id = $1")
            .bind(order.0)
            .fetch_optional(db.reader())
            .await?;
    Ok(row.and_then(|(attempts, started)| {
        started
            .filter(|&at| at > now - ATTEMPT_CLAIM_SECS)
            .map(|_| attempts + 1)
    }))
}

/// Ends the order's attempt. `answered`: the provider gave a definite answer, so the
/// next attempt gets a number of its own.
pub async fn release_attempt(
    db: &Db,
    order: OrderId,
    attempt: i64,
    answered: bool,
) -> StoreResult<()> {
    sqlx::query(
        "UPDATE orders SET payment_started_at = NULL,
            payment_attempts = CASE WHEN $3 = 1 AND payment_attempts < $2 THEN $2 ELSE payment_attempts END
         WHERE id = $1",
    )
    .bind(order.0)
    .bind(attempt)
    .bind(flag(answered))
    .execute(db.writer())
    .await?;
    Ok(())
}

/// Records an intent the provider made. Recording it again (a retried request got the
/// same intent back) keeps the first record.
pub async fn record_intent(db: &Db, intent: &IntentRecord) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO payment_intents (intent_id, order_id, customer_id, kind, attempt, status, amount,
            currency, payment_method_id, save_method, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
         ON CONFLICT (intent_id) DO NOTHING",
    )
    .bind(&intent.intent_id)
    .bind(intent.order_id)
    .bind(intent.customer_id)
    .bind(intent.kind.as_str())
    .bind(intent.attempt)
    .bind(&intent.status)
    .bind(intent.amount)
    .bind(&intent.currency)
    .bind(&intent.payment_method_id)
    .bind(flag(intent.save_method))
    .bind(intent.created_at)
    .execute(db.writer())
    .await?;
    Ok(())
}

pub async fn find_intent(db: &Db, intent_id: &str) -> StoreResult<Option<IntentRecord>> {
    let row = sqlx::query(&format!(
        "SELECT {INTENT_COLUMNS} FROM payment_intents WHERE intent_id = $1"
    ))
    .bind(intent_id)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(intent_from_row).transpose()
}

/// The order's most recent payment intent.
pub async fn latest_order_intent(db: &Db, order: OrderId) -> StoreResult<Option<IntentRecord>> {
    let row = sqlx::query(&format!(
        "SELECT {INTENT_COLUMNS} FROM payment_intents WHERE order_id = $1 AND kind = 'payment'
         ORDER BY attempt DESC LIMIT 1"
    ))
    .bind(order.0)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(intent_from_row).transpose()
}

pub async fn set_intent_status(
    tx: &mut Tx<'_>,
    intent_id: &str,
    status: &str,
    now: i64,
) -> StoreResult<()> {
    sqlx::query("UPDATE payment_intents SET status = $1, updated_at = $2 WHERE intent_id = $3")
        .bind(status)
        .bind(now)
        .bind(intent_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Notes a webhook event as received, in the transaction that acts on it. False when
/// it was received before: the caller acts on it no further. If acting on it fails,
/// the transaction rolls back and the provider's next delivery is acted on.
pub async fn record_event(
    tx: &mut Tx<'_>,
    event_id: &str,
    event_type: &str,
    object_id: &str,
    now: i64,
) -> StoreResult<bool> {
    let done = sqlx::query(
        "INSERT INTO payment_events (event_id, event_type, object_id, received_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO NOTHING",
    )
    .bind(event_id)
    .bind(event_type)
    .bind(object_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A payment method a customer keeps for later purchases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedMethod {
    pub id: i64,
    pub customer_id: i64,
    pub gateway: String,
    pub method_type: String,
    pub provider_method_id: String,
    pub brand: String,
    pub last4: String,
    pub exp_month: i64,
    pub exp_year: i64,
    pub is_default: bool,
    pub created_at: i64,
}

const SAVED_COLUMNS: &str =
    "id, customer_id, gateway, method_type, provider_method_id, brand, last4,
    exp_month, exp_year, is_default, created_at";

fn saved_from_row(r: &AnyRow) -> StoreResult<SavedMethod> {
    Ok(SavedMethod {
        id: r.try_get("id")?,
        customer_id: r.try_get("customer_id")?,
        gateway: r.try_get("gateway")?,
        method_type: r.try_get("method_type")?,
        provider_method_id: r.try_get("provider_method_id")?,
        brand: r.try_get("brand")?,
        last4: r.try_get("last4")?,
        exp_month: r.try_get("exp_month")?,
        exp_year: r.try_get("exp_year")?,
        is_default: r.try_get::<i64, _>("is_default")? != 0,
        created_at: r.try_get("created_at")?,
    })
}

/// The customer's kept methods, the default first, then newest first.
pub async fn saved_methods(db: &Db, customer_id: i64) -> StoreResult<Vec<SavedMethod>> {
    let rows = sqlx::query(&format!(
        "SELECT {SAVED_COLUMNS} FROM saved_payment_methods WHERE customer_id = $1
         ORDER BY is_default DESC, id DESC LIMIT 100"
    ))
    .bind(customer_id)
    .fetch_all(db.reader())
    .await?;
    rows.iter().map(saved_from_row).collect()
}

pub async fn find_saved_method(
    db: &Db,
    customer_id: i64,
    id: i64,
) -> StoreResult<Option<SavedMethod>> {
    let row = sqlx::query(&format!(
        "SELECT {SAVED_COLUMNS} FROM saved_payment_methods WHERE customer_id = $1 AND id = $2"
    ))
    .bind(customer_id)
    .bind(id)
    .fetch_optional(db.reader())
    .await?;
    row.as_ref().map(saved_from_row).transpose()
}

/// Keeps a method for the customer; the first one kept becomes the default. Keeping
/// the same provider method twice keeps it once. Returns the kept row.
pub async fn save_method(tx: &mut Tx<'_>, method: &SavedMethod) -> StoreResult<SavedMethod> {
    let has_default: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM saved_payment_methods WHERE customer_id = $1 AND is_default = 1 LIMIT 1",
    )
    .bind(method.customer_id)
    .fetch_optional(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO saved_payment_methods (customer_id, gateway, method_type, provider_method_id,
            brand, last4, exp_month, exp_year, is_default, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (customer_id, provider_method_id) DO NOTHING",
    )
    .bind(method.customer_id)
    .bind(&method.gateway)
    .bind(&method.method_type)
    .bind(&method.provider_method_id)
    .bind(&method.brand)
    .bind(&method.last4)
    .bind(method.exp_month)
    .bind(method.exp_year)
    .bind(flag(has_default.is_none()))
    .bind(method.created_at)
    .execute(&mut **tx)
    .await?;
    let row = sqlx::query(&format!(
        "SELECT {SAVED_COLUMNS} FROM saved_payment_methods
         WHERE customer_id = $1 AND provider_method_id = $2"
    ))
    .bind(method.customer_id)
    .bind(&method.provider_method_id)
    .fetch_one(&mut **tx)
    .await?;
    saved_from_row(&row)
}

/// Makes one of the customer's methods the default. False when it is not theirs.
pub async fn set_default_method(db: &Db, customer_id: i64, id: i64) -> StoreResult<bool> {
    let mut tx = db.begin_write().await?;
    let found = sqlx::query(
        "UPDATE saved_payment_methods SET is_default = CASE WHEN id = $2 THEN 1 ELSE 0 END
         WHERE customer_id = $1 AND EXISTS (
             SELECT 1 FROM saved_payment_methods WHERE customer_id = $1 AND id = $2)",
    )
    .bind(customer_id)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(found.rows_affected() > 0)
}

/// Forgets one of the customer's methods; the newest left becomes the default if the
/// default went. Returns what was forgotten, None when it is not theirs.
pub async fn delete_method(db: &Db, customer_id: i64, id: i64) -> StoreResult<Option<SavedMethod>> {
    let mut tx = db.begin_write().await?;
    let row = sqlx::query(&format!(
        "DELETE FROM saved_payment_methods WHERE customer_id = $1 AND id = $2 RETURNING {SAVED_COLUMNS}"
    ))
    .bind(customer_id)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let deleted = row.as_ref().map(saved_from_row).transpose()?;
    if deleted.as_ref().is_some_and(|d| d.is_default) {
        sqlx::query(
            "UPDATE saved_payment_methods SET is_default = 1 WHERE id = (
                 SELECT id FROM saved_payment_methods WHERE customer_id = $1 ORDER BY id DESC LIMIT 1)",
        )
        .bind(customer_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(deleted)
}

/// Every method the customer keeps, forgotten at once (the account is closing).
pub async fn delete_all_methods(db: &Db, customer_id: i64) -> StoreResult<Vec<SavedMethod>> {
    let rows = sqlx::query(&format!(
        "DELETE FROM saved_payment_methods WHERE customer_id = $1 RETURNING {SAVED_COLUMNS}"
    ))
    .bind(customer_id)
    .fetch_all(db.writer())
    .await?;
    rows.iter().map(saved_from_row).collect()
}

/// The provider's customer behind the account, if one was made.
pub async fn provider_customer(db: &Db, customer_id: i64) -> StoreResult<Option<String>> {
    let id: Option<Option<String>> =
        sqlx::query_scalar("SELECT provider_customer_id FROM customers WHERE id = $1")
            .bind(customer_id)
            .fetch_optional(db.reader())
            .await?;
    Ok(id.flatten().filter(|s| !s.is_empty()))
}

/// Links the account to the provider's customer `provider_id`, unless a concurrent
/// request linked another first; returns the one that stays linked.
pub async fn link_provider_customer(
    db: &Db,
    customer_id: i64,
    provider_id: &str,
) -> StoreResult<String> {
    sqlx::query(
        "UPDATE customers SET provider_customer_id = $1
         WHERE id = $2 AND (provider_customer_id IS NULL OR provider_customer_id = '')",
    )
    .bind(provider_id)
    .bind(customer_id)
    .execute(db.writer())
    .await?;
    let linked: Option<Option<String>> =
        sqlx::query_scalar("SELECT provider_customer_id FROM customers WHERE id = $1")
            .bind(customer_id)
            .fetch_optional(db.writer())
            .await?;
    Ok(linked.flatten().unwrap_or_else(|| provider_id.to_string()))
}

/// Money given back on an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    pub id: i64,
    pub order_id: i64,
    pub amount: i64,
    pub reason: String,
    pub provider_refund_id: String,
    pub refunded_by: String,
    pub created_at: i64,
}

fn refund_from_row(r: &AnyRow) -> StoreResult<Refund> {
    Ok(Refund {
        id: r.try_get("id")?,
        order_id: r.try_get("order_id")?,
        amount: r.try_get("amount")?,
        reason: r.try_get("reason")?,
        provider_refund_id: r.try_get("provider_refund_id")?,
        refunded_by: r.try_get("refunded_by")?,
        created_at: r.try_get("created_at")?,
    })
}

/// Records a refund. A provider refund already recorded (the webhook and the staff
/// call both saw it) is recorded once: None then.
pub async fn add_refund(tx: &mut Tx<'_>, refund: &Refund) -> StoreResult<Option<i64>> {
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO order_refunds (order_id, amount, reason, provider_refund_id, refunded_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (provider_refund_id) WHERE provider_refund_id <> '' DO NOTHING RETURNING id",
    )
    .bind(refund.order_id)
    .bind(refund.amount)
    .bind(&refund.reason)
    .bind(&refund.provider_refund_id)
    .bind(&refund.refunded_by)
    .bind(refund.created_at)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(id)
}

/// How much of the order was given back so far, read in the transaction that locks it.
pub async fn refunded_total(tx: &mut Tx<'_>, order: OrderId) -> StoreResult<i64> {
    // PostgreSQL sums BIGINT as NUMERIC: cast back.
    let total: i64 = sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM order_refunds WHERE order_id = $1",
    )
    .bind(order.0)
    .fetch_one(&mut **tx)
    .await?;
    Ok(total)
}

pub async fn refunds(db: &Db, order: OrderId) -> StoreResult<Vec<Refund>> {
    let rows = sqlx::query(
        "SELECT id, order_id, amount, reason, provider_refund_id, refunded_by, created_at
         FROM order_refunds WHERE order_id = $1 ORDER BY id",
    )
    .bind(order.0)
    .fetch_all(db.reader())
    .await?;
    rows.iter().map(refund_from_row).collect()
}
