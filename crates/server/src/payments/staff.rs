//! What the shop's staff do with card payments: capture an authorised payment, give
//! money back (in full or in part), release an authorisation when the order is
//! cancelled. Refunds are recorded once whether the staff's own call or the provider's
//! webhook reports them first; a refund that brings the order's refunds to its total
//! refunds the order (its stock and coupon uses given back, the customer told).

use payments::{CapturePaymentIntent, CreateRefund, IdempotencyKey, PaymentIntentId};
use rules::orders::lifecycle::{mails_for, transition};
use rules::orders::model::{Order, OrderId, OrderStatus};
use rules::payments::intents::IntentStatus;
use store::orders::Tx;
use store::payments::Refund;
use store::StoreError;

use super::charge::facts_of;
use super::provider::Provider;
use super::settle;
use crate::config::Config;
use crate::state::AppState;
use store::Db;

/// What the staff's payment actions need: the database, the provider (when the shop
/// has its keys), the settings, and the shop's address for the mails' links. The
/// server hands its own; the command line makes one from the configuration.
pub struct Desk<'a> {
    pub db: &'a Db,
    pub provider: Option<std::sync::Arc<Provider>>,
    pub config: &'a Config,
    pub base_url: String,
}

impl<'a> Desk<'a> {
    pub fn of(state: &'a AppState) -> Self {
        Self {
            db: &state.db,
            provider: state.provider.clone(),
            config: &state.config,
            base_url: state.address.default_base().to_string(),
        }
    }
}

#[derive(Debug)]
pub enum StaffPayError {
    NotFound,
    /// The order was not paid through the provider, or has nothing left to do.
    Refused(String),
    Provider(String),
    Store(StoreError),
}

impl From<StoreError> for StaffPayError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl From<sqlx::Error> for StaffPayError {
    fn from(e: sqlx::Error) -> Self {
        Self::Store(e.into())
    }
}

impl std::fmt::Display for StaffPayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotFound => f.write_str("There is no such order."),
            Self::Refused(m) | Self::Provider(m) => f.write_str(m),
            Self::Store(e) => e.fmt(f),
        }
    }
}

/// Whether the order was paid (or authorised) at the provider.
pub fn paid_by_provider(order: &Order) -> bool {
    order.payment_method == "stripe" || order.payment_method.starts_with("stripe_")
}

/// Records a refund the provider made, in `tx`; true when it was new. A refund that
/// completes the order's refunds moves a paid order to refunded.
#[allow(clippy::too_many_arguments)]
pub async fn record_refund_in(
    tx: &mut Tx<'_>,
    desk: &Desk<'_>,
    order_id: OrderId,
    provider_refund_id: &str,
    amount: i64,
    reason: &str,
    by: &str,
    mail: &mail::order::OrderMailSettings,
    now: i64,
) -> Result<bool, StoreError> {
    let Some(mut order) = store::orders::lock_order(tx, desk.db, order_id).await? else {
        return Ok(false);
    };
    let added = store::payments::add_refund(
        tx,
        &Refund {
            id: 0,
            order_id: order_id.0,
            amount,
            reason: reason.to_string(),
            provider_refund_id: provider_refund_id.to_string(),
            refunded_by: by.to_string(),
            created_at: now,
        },
    )
    .await?;
    if added.is_none() {
        return Ok(false);
    }
    let money = desk
        .config
        .currency
        .format_plain(rules::money::Money { minor: amount });
    let mut note = format!("Refunded {money} \u{2013} Refund ID: {provider_refund_id}");
    if !reason.trim().is_empty() {
        note.push_str(&format!(" \u{2013} Reason: {}", reason.trim()));
    }
    store::orders::add_note(tx, order_id, &note, false, by, now).await?;
    let refunded = store::payments::refunded_total(tx, order_id).await?;
    if refunded >= order.total {
        if let Ok(t) = transition(order.status, OrderStatus::Refunded) {
            if t.restock {
                crate::orders::service::return_stock(tx, &mut order).await?;
            }
            if t.release_coupon_uses {
                store::coupons::release_uses(tx, order_id.0).await?;
            }
            let before = order.status;
            order.status = OrderStatus::Refunded;
            order.updated_at = now;
            if store::orders::change_status(tx, &order, before).await? {
                store::orders::add_note(tx, order_id, &t.note(), false, by, now).await?;
                mail::order::queue_mails(tx, &order, &mails_for(Some(before), order.status), mail)
                    .await?;
            }
        }
    }
    Ok(true)
}

/// Gives `amount` (all that is left when None) of a card order back through the
/// provider. An authorised payment not yet captured is released instead, and the
/// order cancelled.
pub async fn refund(
    desk: &Desk<'_>,
    order_id: OrderId,
    amount: Option<i64>,
    reason: &str,
    by: &str,
    now: i64,
) -> Result<Order, StaffPayError> {
    let provider = desk.provider.clone().ok_or_else(|| {
        StaffPayError::Refused("Card payments are not set up on this shop.".into())
    })?;
    let order = store::orders::find_order(desk.db, order_id)
        .await?
        .ok_or(StaffPayError::NotFound)?;
    if !paid_by_provider(&order) {
        return Err(StaffPayError::Refused(
            "This order was not paid by card; refund it by hand and set its status.".into(),
        ));
    }
    let intent = store::payments::latest_order_intent(desk.db, order_id)
        .await?
        .ok_or_else(|| StaffPayError::Refused("The order has no card payment to refund.".into()))?;
    let mail = desk.config.order_mails(desk.base_url.as_str());
    if intent.status == IntentStatus::RequiresCapture.as_str() {
        cancel_authorisation(desk, &order, by, now).await?;
        return reread(desk, order_id).await;
    }
    if !matches!(
        order.status,
        OrderStatus::Processing | OrderStatus::Completed | OrderStatus::OnHold
    ) {
        return Err(StaffPayError::Refused(format!(
            "An order that is {} has no payment to refund.",
            order.status.label().to_lowercase()
        )));
    }
    let mut tx = desk.db.begin_write().await?;
    let already = store::payments::refunded_total(&mut tx, order_id).await?;
    tx.rollback().await?;
    let left = order.total - already;
    let amount = amount.unwrap_or(left);
    if amount <= 0 || amount > left {
        return Err(StaffPayError::Refused(format!(
            "Invalid refund amount: at most {} can be refunded.",
            desk.config
                .currency
                .format_plain(rules::money::Money { minor: left.max(0) })
        )));
    }
    let mut params = CreateRefund::new(PaymentIntentId::new(intent.intent_id.clone()));
    params.amount = Some(amount);
    params
        .metadata
        .insert("order_id".into(), order_id.0.to_string());
    if !reason.trim().is_empty() {
        params
            .metadata
            .insert("reason".into(), reason.trim().chars().take(500).collect());
    }
    // The same refund asked twice (a double click, a retried request) is one refund.
    let key = IdempotencyKey::new(format!(
        "ferroshop-refund-{}-{already}-{amount}",
        order_id.0
    ))
    .map_err(|_| StaffPayError::Refused("bad refund key".into()))?;
    let made = provider
        .client
        .create_refund(&params, &key)
        .await
        .map_err(|e| StaffPayError::Provider(provider_message(&e)))?;
    let mut tx = desk.db.begin_write().await?;
    let changed = record_refund_in(
        &mut tx,
        desk,
        order_id,
        made.id.as_str(),
        made.amount,
        reason,
        by,
        &mail,
        now,
    )
    .await?;
    tx.commit().await?;
    if changed {
        mail::wake();
    }
    reread(desk, order_id).await
}

/// Takes the money of an authorised payment; the order moves to processing.
pub async fn capture(desk: &Desk<'_>, order_id: OrderId, now: i64) -> Result<Order, StaffPayError> {
    let provider = desk.provider.clone().ok_or_else(|| {
        StaffPayError::Refused("Card payments are not set up on this shop.".into())
    })?;
    let order = store::orders::find_order(desk.db, order_id)
        .await?
        .ok_or(StaffPayError::NotFound)?;
    let intent = store::payments::latest_order_intent(desk.db, order_id)
        .await?
        .filter(|i| i.status == IntentStatus::RequiresCapture.as_str() && paid_by_provider(&order))
        .ok_or_else(|| {
            StaffPayError::Refused("The order has no authorised card payment to capture.".into())
        })?;
    let key = IdempotencyKey::for_order(order_id.0, intent.attempt, "capture");
    let captured = provider
        .client
        .capture_payment_intent(
            &PaymentIntentId::new(intent.intent_id.clone()),
            &CapturePaymentIntent::default(),
            &key,
        )
        .await
        .map_err(|e| StaffPayError::Provider(provider_message(&e)))?;
    let facts =
        facts_of(&captured).ok_or_else(|| StaffPayError::Provider("unreadable answer".into()))?;
    let mail = desk.config.order_mails(desk.base_url.as_str());
    settle::apply(desk.db, order_id, &facts, true, None, &mail, now).await?;
    reread(desk, order_id).await
}

/// Releases an authorised payment (the order is being cancelled); the order is
/// cancelled by what the provider answers.
pub async fn cancel_authorisation(
    desk: &Desk<'_>,
    order: &Order,
    _by: &str,
    now: i64,
) -> Result<(), StaffPayError> {
    let Some(provider) = desk.provider.clone() else {
        return Ok(());
    };
    let Some(intent) = store::payments::latest_order_intent(desk.db, order.id)
        .await?
        .filter(|i| i.status == IntentStatus::RequiresCapture.as_str())
    else {
        return Ok(());
    };
    let key = IdempotencyKey::for_order(order.id.0, intent.attempt, "cancel-authorisation");
    let canceled = provider
        .client
        .cancel_payment_intent(
            &PaymentIntentId::new(intent.intent_id.clone()),
            &Default::default(),
            &key,
        )
        .await
        .map_err(|e| StaffPayError::Provider(provider_message(&e)))?;
    if let Some(facts) = facts_of(&canceled) {
        let mail = desk.config.order_mails(desk.base_url.as_str());
        settle::apply(desk.db, order.id, &facts, true, None, &mail, now).await?;
    }
    Ok(())
}

/// An authorised card payment waits for capture on this order.
pub async fn awaits_capture(desk: &Desk<'_>, order: &Order) -> Result<bool, StoreError> {
    Ok(paid_by_provider(order)
        && store::payments::latest_order_intent(desk.db, order.id)
            .await?
            .is_some_and(|i| i.status == IntentStatus::RequiresCapture.as_str()))
}

fn provider_message(e: &payments::Error) -> String {
    match e.provider_error() {
        Some(p) => p
            .message
            .clone()
            .unwrap_or_else(|| "The payment provider refused the request.".into()),
        None => "The payment provider could not be reached; nothing was changed. Try again.".into(),
    }
}

async fn reread(desk: &Desk<'_>, id: OrderId) -> Result<Order, StaffPayError> {
    store::orders::find_order(desk.db, id)
        .await?
        .ok_or(StaffPayError::NotFound)
}

/// What a card payment must do before its order takes the status `to` by a staff
/// hand: capture (processing, completed), release (cancelled), refund in full
/// (refunded). True when something was done; the order may have moved with it.
pub async fn before_status_change(
    desk: &Desk<'_>,
    order: &Order,
    to: OrderStatus,
    by: &str,
) -> Result<bool, StaffPayError> {
    if !paid_by_provider(order) || desk.provider.is_none() {
        return Ok(false);
    }
    let now = rules::clock::now();
    let authorised = awaits_capture(desk, order).await?;
    match to {
        OrderStatus::Processing | OrderStatus::Completed if authorised => {
            capture(desk, order.id, now).await?;
            Ok(true)
        }
        OrderStatus::Cancelled if authorised => {
            cancel_authorisation(desk, order, by, now).await?;
            Ok(true)
        }
        OrderStatus::Refunded
            if matches!(
                order.status,
                OrderStatus::Processing | OrderStatus::Completed
            ) =>
        {
            refund(desk, order.id, None, "", by, now).await?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// A refund the shop made outside the provider (cash, a bank transfer back), recorded
/// on the order like the provider's: notes, and the order refunded once its refunds
/// reach its total.
pub async fn manual_refund(
    desk: &Desk<'_>,
    order: &Order,
    amount: Option<i64>,
    reason: &str,
    by: &str,
    now: i64,
) -> Result<(), StaffPayError> {
    if !matches!(
        order.status,
        OrderStatus::Processing | OrderStatus::Completed | OrderStatus::OnHold
    ) {
        return Err(StaffPayError::Refused(
            "Only a paid order can be refunded.".into(),
        ));
    }
    let mail = desk.config.order_mails(&desk.base_url);
    let mut tx = desk.db.begin_write().await?;
    let already = store::payments::refunded_total(&mut tx, order.id).await?;
    let left = order.total - already;
    let amount = amount.unwrap_or(left);
    if amount <= 0 || amount > left {
        return Err(StaffPayError::Refused(format!(
            "Invalid refund amount: at most {} can be refunded.",
            desk.config
                .currency
                .format_plain(rules::money::Money { minor: left.max(0) })
        )));
    }
    // Under an id of its own: the same request repeated records one refund.
    let manual_id = format!("manual-{}-{already}-{amount}", order.id.0);
    let changed = record_refund_in(
        &mut tx, desk, order.id, &manual_id, amount, reason, by, &mail, now,
    )
    .await?;
    tx.commit().await?;
    if changed {
        mail::wake();
    }
    Ok(())
}
