//! Changing a placed order: the one way its status changes after checkout, whoever asks
//! (the staff API, the command line, the upkeep sweeps). Each change is one database
//! transaction holding the order's row lock: the status and its dates, the stock and
//! coupon uses given back, an order note naming who did it, and the mails it sends all
//! commit together or not at all.

use std::fmt;

use mail::order::OrderMailSettings;
pub use rules::orders::actor::Actor;
use rules::orders::lifecycle::{self, Refusal};
use rules::orders::model::{Order, OrderId, OrderNote, OrderStatus};
use store::{Db, StoreError};

/// What to change on an order; fields left None stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderEdit {
    pub status: Option<OrderStatus>,
    /// The customer's own note on the order (the one written at checkout).
    pub customer_note: Option<String>,
    /// Why, recorded in the order note with the change.
    pub reason: Option<String>,
    /// Change the order only if it still has this status when locked: a sweep picks
    /// orders before it locks them, and one may have been paid meanwhile.
    pub only_if: Option<OrderStatus>,
}

#[derive(Debug)]
pub enum EditError {
    NotFound,
    Refused(Refusal),
    /// `only_if` did not hold: the order has moved on, and nothing was done.
    Moved(OrderStatus),
    Store(StoreError),
}

impl From<StoreError> for EditError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl From<sqlx::Error> for EditError {
    fn from(e: sqlx::Error) -> Self {
        Self::Store(e.into())
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound => f.write_str("There is no such order."),
            Self::Refused(r) => r.fmt(f),
            Self::Moved(s) => write!(f, "The order is {} now; nothing was changed.", s.as_str()),
            Self::Store(e) => e.fmt(f),
        }
    }
}

/// An order as a change left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    pub order: Order,
    /// The status it had before.
    pub previous: OrderStatus,
    /// How many mails the change queued.
    pub mails_queued: usize,
}

/// A placed order named by its id and key (the thank-you, order-pay and payment
/// pages' way): None unless the key is the order's, compared in constant time.
pub async fn find_by_key(db: &Db, id: OrderId, key: &str) -> Result<Option<Order>, StoreError> {
    Ok(store::orders::find_order(db, id).await?.filter(|o| {
        o.status != OrderStatus::CheckoutDraft
            && !key.is_empty()
            && crate::session::constant_time_eq(o.key.as_bytes(), key.as_bytes())
    }))
}

/// Puts back the stock the order's lines took, once: the order remembers it gave it
/// back.
pub async fn return_stock(
    tx: &mut store::orders::Tx<'_>,
    order: &mut Order,
) -> Result<(), StoreError> {
    if !order.stock_reduced {
        return Ok(());
    }
    for item in order.lines.items.iter().filter(|i| i.reduced_stock) {
        store::orders::return_stock(tx, item.stock_id(), item.quantity).await?;
    }
    store::orders::mark_stock_returned(tx, order.id).await?;
    order.stock_reduced = false;
    Ok(())
}

/// What changing an order needs besides the database: the mail settings (shop name,
/// links, currency) its mails are written with.
pub struct OrderService<'a> {
    pub db: &'a Db,
    pub mail: &'a OrderMailSettings,
}

impl OrderService<'_> {
    /// Applies `edit` to the order and returns it as it now is.
    pub async fn edit(
        &self,
        id: OrderId,
        edit: &OrderEdit,
        actor: &Actor,
        now: i64,
    ) -> Result<Edited, EditError> {
        let mut tx = self.db.begin_write().await?;
        let mut order = store::orders::lock_order(&mut tx, self.db, id)
            .await?
            .filter(|o| o.status != OrderStatus::CheckoutDraft)
            .ok_or(EditError::NotFound)?;
        if let Some(expected) = edit.only_if {
            if order.status != expected {
                return Err(EditError::Moved(order.status));
            }
        }
        let previous = order.status;
        let mut notes = Vec::new();
        if let Some(note) = edit
            .customer_note
            .as_ref()
            .filter(|n| **n != order.customer_note)
        {
            store::orders::set_customer_note(&mut tx, id, note, now).await?;
            order.customer_note = note.clone();
            order.updated_at = now;
            notes.push("Customer provided note changed.".to_string());
        }
        let mut mails = Vec::new();
        if let Some(to) = edit.status {
            let t = lifecycle::transition(order.status, to).map_err(EditError::Refused)?;
            if t.restock {
                return_stock(&mut tx, &mut order).await?;
            }
            if t.release_coupon_uses {
                store::coupons::release_uses(&mut tx, id.0).await?;
            }
            if t.marks_paid && order.paid_at.is_none() {
                order.paid_at = Some(now);
            }
            if t.marks_completed {
                order.completed_at = Some(now);
            }
            order.status = to;
            order.hold_expires_at = None;
            order.updated_at = now;
            if !store::orders::change_status(&mut tx, &order, t.from).await? {
                // Only possible where the lock above does not hold (SQLite shared by
                // two processes): the other change wins, this one does nothing.
                return Err(EditError::Moved(t.from));
            }
            let reason = edit.reason.as_deref().map(str::trim).unwrap_or("");
            notes.push(if reason.is_empty() {
                t.note()
            } else {
                format!("{reason} {}", t.note())
            });
            mails = t.mails;
        }
        if notes.is_empty() {
            return Ok(Edited {
                order,
                previous,
                mails_queued: 0,
            });
        }
        for note in &notes {
            store::orders::add_note(&mut tx, id, note, false, actor.as_str(), now).await?;
        }
        let mails_queued = mail::order::queue_mails(&mut tx, &order, &mails, self.mail).await?;
        tx.commit().await?;
        if mails_queued > 0 {
            mail::wake();
        }
        Ok(Edited {
            order,
            previous,
            mails_queued,
        })
    }

    /// Adds a note to the order; a note for the customer is mailed to them in the same
    /// transaction.
    pub async fn add_note(
        &self,
        id: OrderId,
        text: &str,
        for_customer: bool,
        actor: &Actor,
        now: i64,
    ) -> Result<OrderNote, EditError> {
        let mut tx = self.db.begin_write().await?;
        let order = store::orders::lock_order(&mut tx, self.db, id)
            .await?
            .filter(|o| o.status != OrderStatus::CheckoutDraft)
            .ok_or(EditError::NotFound)?;
        let note_id =
            store::orders::add_note(&mut tx, id, text, for_customer, actor.as_str(), now).await?;
        let mailed = for_customer
            && mail::order::queue_customer_note(&mut tx, &order, text, self.mail).await?;
        tx.commit().await?;
        if mailed {
            mail::wake();
        }
        Ok(OrderNote {
            id: note_id,
            order_id: id,
            note: text.to_string(),
            for_customer,
            actor: actor.to_string(),
            created_at: now,
        })
    }
}
