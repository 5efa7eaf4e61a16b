//! Coupons and their uses. A use is counted with one conditional UPDATE inside the
//! order's transaction, so a limited coupon is never used more often than allowed.

use sqlx::Row;

use super::orders::Tx;
use super::{Db, StoreError, StoreResult};
use rules::pricing::coupons::{Coupon, CouponCode};

/// The stored coupons among `codes` (unknown codes are simply absent).
pub async fn find_coupons(db: &Db, codes: &[String]) -> StoreResult<Vec<Coupon>> {
    let mut found = Vec::new();
    for code in codes {
        let Ok(code) = CouponCode::parse(code) else {
            continue;
        };
        if let Some(c) = find_coupon(db, &code).await? {
            found.push(c);
        }
    }
    Ok(found)
}

pub async fn find_coupon(db: &Db, code: &CouponCode) -> StoreResult<Option<Coupon>> {
    let row = sqlx::query("SELECT rules, usage_count FROM coupons WHERE code = $1")
        .bind(code.as_str())
        .fetch_optional(db.reader())
        .await?;
    row.map(|r| {
        let mut coupon: Coupon = serde_json::from_str(&r.try_get::<String, _>("rules")?)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        coupon.usage_count = r.try_get("usage_count")?;
        Ok(coupon)
    })
    .transpose()
}

/// Adds or replaces a coupon (demo data, tests, and later the back office). The usage
/// count of an existing coupon is kept.
pub async fn save_coupon(db: &Db, coupon: &Coupon, now: i64) -> StoreResult<()> {
    let rules = serde_json::to_string(coupon).expect("coupon serializes");
    sqlx::query(
        "INSERT INTO coupons (code, rules, usage_limit, usage_count, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (code) DO UPDATE SET rules = excluded.rules, usage_limit = excluded.usage_limit",
    )
    .bind(coupon.code.as_str())
    .bind(rules)
    .bind(coupon.usage_limit.filter(|&l| l > 0))
    .bind(coupon.usage_count)
    .bind(now)
    .execute(db.writer())
    .await?;
    Ok(())
}

/// Why a use could not be counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UseRefused {
    Unknown,
    LimitReached,
    CustomerLimitReached,
}

/// Who uses a coupon, for limits per customer: the account (if any) and the e-mail
/// addresses they go by (the order's billing address, the account's). A use counts
/// against a customer when any of them matches, so signing out does not reset it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CouponUser {
    pub customer_id: Option<i64>,
    /// Lowercased; the first is recorded with a use.
    pub emails: Vec<String>,
}

impl CouponUser {
    pub fn new(customer_id: Option<i64>, emails: &[&str]) -> Self {
        let mut list: Vec<String> = Vec::new();
        for e in emails {
            let e = e.trim().to_lowercase();
            if !e.is_empty() && !list.contains(&e) {
                list.push(e);
            }
        }
        Self {
            customer_id: customer_id.filter(|&id| id > 0),
            emails: list,
        }
    }
}

/// How often `user` has used `code`, counted inside `executor`'s view.
async fn uses_by<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    code: &CouponCode,
    user: &CouponUser,
) -> StoreResult<i64> {
    let mut terms = Vec::new();
    let mut next = 2;
    if user.customer_id.is_some() {
        terms.push(format!("customer_id = ${next}"));
        next += 1;
    }
    for _ in &user.emails {
        terms.push(format!("email = ${next}"));
        next += 1;
    }
    if terms.is_empty() {
        return Ok(0);
    }
    let sql = format!(
        "SELECT COUNT(*) FROM coupon_usages WHERE code = $1 AND ({})",
        terms.join(" OR ")
    );
    let mut q = sqlx::query_scalar::<_, i64>(&sql).bind(code.as_str());
    if let Some(id) = user.customer_id {
        q = q.bind(id);
    }
    for e in &user.emails {
        q = q.bind(e.as_str());
    }
    Ok(q.fetch_one(executor).await?)
}

/// Counts one use of `code` by `user` for `order_id`, if the coupon's limits allow
/// it. The coupon row is updated first: on PostgreSQL that locks it, so the
/// per-customer count below sees every earlier use of concurrent orders.
pub async fn use_coupon(
    tx: &mut Tx<'_>,
    code: &CouponCode,
    user: &CouponUser,
    per_customer_limit: Option<i64>,
    order_id: i64,
) -> StoreResult<Result<(), UseRefused>> {
    let updated = sqlx::query_scalar::<_, i64>(
        "UPDATE coupons SET usage_count = usage_count + 1
         WHERE code = $1 AND (usage_limit IS NULL OR usage_count < usage_limit) RETURNING usage_count",
    )
    .bind(code.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    if updated.is_none() {
        let exists: Option<i64> =
            sqlx::query_scalar("SELECT usage_count FROM coupons WHERE code = $1")
                .bind(code.as_str())
                .fetch_optional(&mut **tx)
                .await?;
        return Ok(Err(if exists.is_some() {
            UseRefused::LimitReached
        } else {
            UseRefused::Unknown
        }));
    }
    if let Some(limit) = per_customer_limit.filter(|&l| l > 0) {
        if uses_by(&mut **tx, code, user).await? >= limit {
            return Ok(Err(UseRefused::CustomerLimitReached));
        }
    }
    sqlx::query(
        "INSERT INTO coupon_usages (code, order_id, customer_id, email) VALUES ($1, $2, $3, $4)",
    )
    .bind(code.as_str())
    .bind(order_id)
    .bind(user.customer_id)
    .bind(user.emails.first().map_or("", String::as_str))
    .execute(&mut **tx)
    .await?;
    Ok(Ok(()))
}

/// How often a customer has used a coupon.
pub async fn customer_usage(db: &Db, code: &CouponCode, user: &CouponUser) -> StoreResult<i64> {
    uses_by(db.reader(), code, user).await
}

/// Gives back the uses an order counted (when it is cancelled).
pub async fn release_uses(tx: &mut Tx<'_>, order_id: i64) -> StoreResult<()> {
    let codes: Vec<String> =
        sqlx::query_scalar("SELECT code FROM coupon_usages WHERE order_id = $1")
            .bind(order_id)
            .fetch_all(&mut **tx)
            .await?;
    for code in codes {
        sqlx::query(
            "UPDATE coupons SET usage_count = usage_count - 1 WHERE code = $1 AND usage_count > 0",
        )
        .bind(&code)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query("DELETE FROM coupon_usages WHERE order_id = $1")
        .bind(order_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
