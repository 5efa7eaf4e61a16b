//! Paying for an order placed earlier and left unpaid (the order-pay page).

use super::place::PlaceError;
use crate::orders::service::Actor;
use crate::state::AppState;

use rules::address::Address;
use rules::orders::model::{Order, OrderStatus};
use store::StoreError;

/// Pays `order` with an offline method: the order moves to the method's status. The
/// order row is locked while this happens, so paying twice at once pays once.
pub async fn pay_existing(
    state: &AppState,
    order: &Order,
    payment_method: &str,
    billing: Option<Address>,
    shipping: Option<Address>,
    base_url: &str,
    now: i64,
) -> Result<Order, PlaceError> {
    let gateway = state
        .config
        .checkout
        .gateways
        .find(payment_method)
        .ok_or(PlaceError::PaymentMethod)?
        .clone();
    let mut tx = state.db.begin_write().await?;
    let mut current = store::orders::lock_order(&mut tx, &state.db, order.id)
        .await?
        .ok_or(PlaceError::EmptyCart)?;
    if !current.status.needs_payment() {
        tx.rollback().await.map_err(StoreError::from)?;
        return Err(PlaceError::NotPayable {
            status: current.status.label().to_string(),
        });
    }
    let (status, note) = gateway.placed_status();
    let before = current.status;
    current.status = status;
    current.payment_method = gateway.id.to_string();
    current.payment_method_title = gateway.title.clone();
    current.hold_expires_at = None;
    current.updated_at = now;
    if let Some(b) = billing.filter(|b| !b.is_empty()) {
        current.billing = b;
    }
    if let Some(s) = shipping.filter(|s| !s.is_empty()) {
        current.shipping = s;
    }
    if status == OrderStatus::Processing {
        current.paid_at = Some(now);
    }
    store::orders::update_order(&mut tx, &current, before).await?;
    store::orders::add_note(
        &mut tx,
        current.id,
        &format!(
            "{note} Order status changed from {} to {}.",
            before.label(),
            status.label()
        ),
        false,
        Actor::system().as_str(),
        now,
    )
    .await?;
    let mail_settings = state.config.order_mails(base_url);
    mail::order::queue_order_emails(&mut tx, &current, Some(before), &mail_settings).await?;
    tx.commit().await.map_err(StoreError::from)?;
    mail::wake();
    Ok(current)
}

/// Keeps the billing address the order-pay form sent (and the shipping address an
/// express payment's wallet sent), before the order is paid at the provider (whose
/// record of the payer it becomes).
pub async fn update_addresses(
    state: &AppState,
    order: &Order,
    billing: Option<Address>,
    shipping: Option<Address>,
    now: i64,
) -> Result<Order, PlaceError> {
    let billing = billing.filter(|b| !b.is_empty());
    let shipping = shipping.filter(|s| !s.is_empty());
    if billing.is_none() && shipping.is_none() {
        return Ok(order.clone());
    }
    let mut tx = state.db.begin_write().await?;
    let mut current = store::orders::lock_order(&mut tx, &state.db, order.id)
        .await?
        .ok_or(PlaceError::EmptyCart)?;
    let changed = billing.as_ref().is_some_and(|b| *b != current.billing)
        || shipping.as_ref().is_some_and(|s| *s != current.shipping);
    if current.status.needs_payment() && changed {
        if let Some(b) = billing {
            current.billing = b;
        }
        if let Some(s) = shipping {
            current.shipping = s;
        }
        current.updated_at = now;
        let status = current.status;
        store::orders::update_order(&mut tx, &current, status).await?;
    }
    tx.commit().await.map_err(StoreError::from)?;
    Ok(current)
}
