//! Applying what the provider says of an order's payment. The checkout's own answer,
//! the shopper's return from 3-D Secure and the webhooks all come here; the order's row
//! is locked while its status changes, and the rules (`rules::payments::intents`) leave
//! an order alone once it moved past the news, so however the news arrives — twice, out
//! of order, from two places at once — the order changes once, sends its mails once,
//! and never takes stock twice (stock was taken when it was placed).

use mail::order::OrderMailSettings;
use rules::orders::actor::Actor;
use rules::orders::lifecycle::mails_for;
use rules::orders::model::{Order, OrderId, OrderStatus};
use rules::payments::intents::{settle, IntentStatus, Offline, PaymentNews};
use store::orders::Tx;
use store::payments::SavedMethod;
use store::{Db, StoreError};

/// What the provider said of one intent, as far as an order cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntentFacts {
    pub intent_id: String,
    pub status: IntentStatus,
    /// The charge that took the money, when there is one.
    pub charge_id: Option<String>,
    /// Why the last try failed (a decline, a failed challenge).
    pub failure: Option<String>,
    /// The payment goes on away from the shop (a voucher shown, a bank account to
    /// verify): what the order waits for.
    pub offline: Option<Offline>,
    /// A voucher's time ran out unpaid.
    pub expired: bool,
}

impl IntentFacts {
    /// Facts with nothing but a status and, maybe, a failure.
    pub fn new(intent_id: String, status: IntentStatus, failure: Option<String>) -> Self {
        Self {
            intent_id,
            status,
            charge_id: None,
            failure,
            offline: None,
            expired: false,
        }
    }

    fn news(&self) -> PaymentNews {
        if self.expired {
            return PaymentNews::Expired;
        }
        match (&self.failure, self.status, self.offline) {
            (Some(reason), IntentStatus::RequiresPaymentMethod, _) => PaymentNews::Failed {
                reason: reason.clone(),
            },
            (_, IntentStatus::RequiresAction, Some(what)) => PaymentNews::Awaiting(what),
            (_, status, _) => PaymentNews::Status(status),
        }
    }

    /// The id the order's note and transaction id name: the charge, else the intent.
    fn reference(&self) -> &str {
        self.charge_id.as_deref().unwrap_or(&self.intent_id)
    }
}

/// A method to keep for the customer once the payment went through.
pub struct KeepMethod {
    pub method: SavedMethod,
}

/// Applies `facts` to the order inside `tx` (which the caller commits). Returns the
/// order as it now is, and whether it changed. `latest`: the intent is the order's
/// latest attempt; an older attempt's failure or cancellation says nothing of the
/// order any more (its success still does: that money was taken).
pub async fn apply_in(
    tx: &mut Tx<'_>,
    db: &Db,
    order_id: OrderId,
    facts: &IntentFacts,
    latest: bool,
    mail: &OrderMailSettings,
    now: i64,
) -> Result<Option<(Order, bool)>, StoreError> {
    let Some(mut order) = store::orders::lock_order(tx, db, order_id)
        .await?
        .filter(|o| o.status != OrderStatus::CheckoutDraft)
    else {
        return Ok(None);
    };
    store::payments::set_intent_status(tx, &facts.intent_id, facts.status.as_str(), now).await?;
    let news = facts.news();
    if !latest && !matches!(news, PaymentNews::Status(s) if s.is_paid()) {
        return Ok(Some((order, false)));
    }
    let Some(change) = settle(order.status, &news, facts.reference()) else {
        return Ok(Some((order, false)));
    };
    let before = order.status;
    if change.gives_back {
        crate::orders::service::return_stock(tx, &mut order).await?;
        store::coupons::release_uses(tx, order.id.0).await?;
    }
    order.status = change.to;
    if change.marks_paid && order.paid_at.is_none() {
        order.paid_at = Some(now);
    }
    if facts.status.is_paid() || facts.status == IntentStatus::Processing {
        order.transaction_id = facts.reference().to_string();
    }
    // A failed payment keeps its stock hold for another try; anything else ends it.
    if change.to != OrderStatus::Failed {
        order.hold_expires_at = None;
    }
    order.updated_at = now;
    store::orders::update_order(tx, &order, before).await?;
    store::orders::add_note(
        tx,
        order.id,
        &format!(
            "{} Order status changed from {} to {}.",
            change.note,
            before.label(),
            change.to.label()
        ),
        false,
        Actor::system().as_str(),
        now,
    )
    .await?;
    let mails = mails_for(Some(before), change.to);
    mail::order::queue_mails(tx, &order, &mails, mail).await?;
    Ok(Some((order, true)))
}

/// `apply_in` in a transaction of its own, with the method to keep (if any) kept in
/// the same transaction once the payment went through.
pub async fn apply(
    db: &Db,
    order_id: OrderId,
    facts: &IntentFacts,
    latest: bool,
    keep: Option<KeepMethod>,
    mail: &OrderMailSettings,
    now: i64,
) -> Result<Option<(Order, bool)>, StoreError> {
    let mut tx = db.begin_write().await?;
    let applied = apply_in(&mut tx, db, order_id, facts, latest, mail, now).await?;
    if let Some(keep) = keep.filter(|_| facts.status.is_paid()) {
        store::payments::save_method(&mut tx, &keep.method).await?;
    }
    tx.commit().await?;
    if applied.as_ref().is_some_and(|(_, changed)| *changed) {
        mail::wake();
    }
    Ok(applied)
}
