//! Unpaid orders expire. A pending order (payment started, never finished, or failed
//! at the provider and waiting for another try) holds its
//! stock for `hold_stock_minutes`; an on-hold bank-transfer or cheque order waits for
//! its money for the method's `unpaid_days`. Past that, the upkeep task cancels them
//! through `OrderService`, which gives the stock and coupon uses back. Every instance
//! may run the sweeps at once: each order is locked and re-checked before it changes,
//! so it is cancelled once.

use super::service::{Actor, EditError, OrderEdit, OrderService};
use crate::config::checkout::CheckoutConfig;
use rules::orders::model::{OrderId, OrderStatus};
use store::StoreError;

/// Orders a sweep takes on per run; the next run (a minute later) takes the rest.
const BATCH: i64 = 100;

/// Cancels pending orders whose stock hold ran out. Returns how many it cancelled.
pub async fn release_expired_holds(
    orders: &OrderService<'_>,
    now: i64,
) -> Result<usize, StoreError> {
    let mut cancelled = 0;
    // A payment that failed at the provider leaves the order failed, still holding its
    // stock for another try until the same time limit.
    for status in [OrderStatus::Pending, OrderStatus::Failed] {
        let ids = store::orders::expired_holds(orders.db, status, now).await?;
        cancelled += cancel_each(
            orders,
            &ids,
            status,
            "Unpaid order cancelled - time limit reached.",
            now,
        )
        .await?;
    }
    Ok(cancelled)
}

/// Cancels on-hold bank-transfer and cheque orders left unpaid longer than the
/// method's `unpaid_days` (0: never). Returns how many it cancelled.
pub async fn cancel_unpaid_offline_orders(
    orders: &OrderService<'_>,
    checkout: &CheckoutConfig,
    now: i64,
) -> Result<usize, StoreError> {
    let mut cancelled = 0;
    for (method, what, days) in [
        ("bacs", "bank transfer", checkout.unpaid_days_bacs),
        ("cheque", "cheque", checkout.unpaid_days_cheque),
    ] {
        if days == 0 {
            continue;
        }
        let placed_before = now - days * 86_400;
        let ids = store::orders::unpaid_on_hold(orders.db, method, placed_before, BATCH).await?;
        let plural = if days == 1 { "" } else { "s" };
        let reason =
            format!("Unpaid order cancelled: no {what} received within {days} day{plural}.");
        cancelled += cancel_each(orders, &ids, OrderStatus::OnHold, &reason, now).await?;
    }
    Ok(cancelled)
}

async fn cancel_each(
    orders: &OrderService<'_>,
    ids: &[OrderId],
    still: OrderStatus,
    reason: &str,
    now: i64,
) -> Result<usize, StoreError> {
    let edit = OrderEdit {
        status: Some(OrderStatus::Cancelled),
        reason: Some(reason.to_string()),
        only_if: Some(still),
        ..OrderEdit::default()
    };
    let mut cancelled = 0;
    for &id in ids {
        match orders.edit(id, &edit, &Actor::system(), now).await {
            Ok(_) => cancelled += 1,
            // Paid, cancelled by someone else, or gone since it was picked: leave it.
            Err(EditError::Moved(_) | EditError::Refused(_) | EditError::NotFound) => {}
            Err(EditError::Store(e)) => return Err(e),
        }
    }
    Ok(cancelled)
}
