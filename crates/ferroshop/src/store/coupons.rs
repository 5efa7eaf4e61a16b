//! Coupons and their uses. A use is counted with one conditional UPDATE inside the
//! order's transaction, so a limited coupon is never used more often than allowed.

use sqlx::Row;

use super::orders::Tx;
use super::{Db, StoreError, StoreResult};
use crate::checkout::coupons::{Coupon, CouponCode};

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

/// Counts one use of `code` by `customer_key` for `order_id`, if the coupon's limits
/// allow it. The coupon row is updated first: on PostgreSQL that locks it, so the
/// per-customer count below sees every earlier use of concurrent orders.
pub async fn use_coupon(
    tx: &mut Tx<'_>,
    code: &CouponCode,
    customer_key: &str,
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
        let used: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM coupon_usages WHERE code = $1 AND customer_key = $2",
        )
        .bind(code.as_str())
        .bind(customer_key)
        .fetch_one(&mut **tx)
        .await?;
        if used >= limit {
            return Ok(Err(UseRefused::CustomerLimitReached));
        }
    }
    sqlx::query("INSERT INTO coupon_usages (code, order_id, customer_key) VALUES ($1, $2, $3)")
        .bind(code.as_str())
        .bind(order_id)
        .bind(customer_key)
        .execute(&mut **tx)
        .await?;
    Ok(Ok(()))
}

/// How often a customer has used a coupon.
pub async fn customer_usage(db: &Db, code: &CouponCode, customer_key: &str) -> StoreResult<i64> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM coupon_usages WHERE code = $1 AND customer_key = $2",
    )
    .bind(code.as_str())
    .bind(customer_key)
    .fetch_one(db.reader())
    .await?)
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
