//! The order lifecycle as rules: which status changes the shop owner (or the shop's own
//! upkeep) may make, and what each one implies — stock and coupon uses given back, the
//! payment and completion dates, and the mails that go out. No SQL and no HTTP here;
//! `orders::service` applies a `Transition` in one database transaction.

use std::fmt;

use super::model::OrderStatus;

/// A mail an order's status change sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderMail {
    /// To the shop.
    NewOrder,
    CustomerOnHold,
    CustomerProcessing,
    CustomerCompleted,
    CustomerCancelled,
    CustomerRefunded,
}

impl OrderMail {
    /// The original shop's name for the mail, kept on the outbox row.
    pub fn kind(self) -> &'static str {
        match self {
            Self::NewOrder => "new_order",
            Self::CustomerOnHold => "customer_on_hold_order",
            Self::CustomerProcessing => "customer_processing_order",
            Self::CustomerCompleted => "customer_completed_order",
            Self::CustomerCancelled => "customer_cancelled_order",
            Self::CustomerRefunded => "customer_refunded_order",
        }
    }
}

/// Which mails a status change sends (`previous` is None for an order just placed). The
/// shop hears of an order once it is placed (leaving pending, failed or cancelled for
/// on-hold, processing or completed). The customer hears when it goes on hold, when it
/// starts being processed, when it is completed, and when an order they were told about
/// (on hold or processing) is cancelled; a paid order that is refunded says so too.
pub fn mails_for(previous: Option<OrderStatus>, current: OrderStatus) -> Vec<OrderMail> {
    use OrderStatus::*;
    if previous == Some(current) {
        return Vec::new();
    }
    let from_unplaced = matches!(
        previous,
        None | Some(Pending | Failed | Cancelled | CheckoutDraft)
    );
    let mut mails = Vec::new();
    if from_unplaced && matches!(current, OnHold | Processing | Completed) {
        mails.push(OrderMail::NewOrder);
    }
    match current {
        OnHold => mails.push(OrderMail::CustomerOnHold),
        Processing if from_unplaced || previous == Some(OnHold) => {
            mails.push(OrderMail::CustomerProcessing)
        }
        Completed => mails.push(OrderMail::CustomerCompleted),
        Cancelled if matches!(previous, Some(OnHold | Processing)) => {
            mails.push(OrderMail::CustomerCancelled)
        }
        Refunded if matches!(previous, Some(Processing | Completed)) => {
            mails.push(OrderMail::CustomerRefunded)
        }
        _ => {}
    }
    mails
}

/// The statuses the shop owner may set, and the ones each may be reached from.
/// Cancelled and refunded are final: nothing leads out of them.
fn allowed_sources(target: OrderStatus) -> Option<&'static [OrderStatus]> {
    use OrderStatus::*;
    Some(match target {
        // Payment received.
        Processing => &[Pending, OnHold, Failed],
        Completed => &[Pending, OnHold, Processing],
        Cancelled => &[Pending, OnHold, Processing, Failed],
        Refunded => &[Processing, Completed],
        CheckoutDraft | Pending | OnHold | Failed => return None,
    })
}

/// The statuses an order can be set to by hand, in the order they are usually reached.
pub const SETTABLE: [OrderStatus; 4] = [
    OrderStatus::Processing,
    OrderStatus::Completed,
    OrderStatus::Cancelled,
    OrderStatus::Refunded,
];

/// An allowed status change and everything it implies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub from: OrderStatus,
    pub to: OrderStatus,
    /// Put back the stock the order's lines took (only lines that took any).
    pub restock: bool,
    /// Give back the coupon uses the order counted.
    pub release_coupon_uses: bool,
    /// Record the payment date, unless the order already has one.
    pub marks_paid: bool,
    pub marks_completed: bool,
    pub mails: Vec<OrderMail>,
}

impl Transition {
    /// What the order note says about the change.
    pub fn note(&self) -> String {
        format!(
            "Order status changed from {} to {}.",
            self.from.label(),
            self.to.label()
        )
    }
}

/// Why a status change is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The order already has that status.
    Unchanged(OrderStatus),
    /// Cancelled and refunded orders stay as they are.
    Final(OrderStatus),
    /// Not a status anyone sets by hand (pending, on hold, failed come from checkout).
    NotSettable(OrderStatus),
    NotFrom {
        from: OrderStatus,
        to: OrderStatus,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unchanged(s) => write!(f, "The order is already {}.", name(*s)),
            Self::Final(s) => write!(
                f,
                "The order is {}; its status can no longer change.",
                name(*s)
            ),
            Self::NotSettable(s) => write!(
                f,
                "An order cannot be set to {} by hand; the statuses to set are processing, completed, cancelled and refunded.",
                s.as_str()
            ),
            Self::NotFrom { from, to } => write!(
                f,
                "An order that is {} cannot be set to {}.",
                name(*from),
                to.as_str()
            ),
        }
    }
}

/// "on hold", "pending payment": the label in running text.
fn name(status: OrderStatus) -> String {
    status.label().to_lowercase()
}

/// Whether an order may go from `from` to `to`, and what that implies.
pub fn transition(from: OrderStatus, to: OrderStatus) -> Result<Transition, Refusal> {
    use OrderStatus::*;
    if from == to {
        return Err(Refusal::Unchanged(from));
    }
    if matches!(from, Cancelled | Refunded) {
        return Err(Refusal::Final(from));
    }
    let sources = allowed_sources(to).ok_or(Refusal::NotSettable(to))?;
    if !sources.contains(&from) {
        return Err(Refusal::NotFrom { from, to });
    }
    let gives_back = matches!(to, Cancelled | Refunded);
    Ok(Transition {
        from,
        to,
        restock: gives_back,
        release_coupon_uses: gives_back,
        marks_paid: matches!(to, Processing | Completed),
        marks_completed: to == Completed,
        mails: mails_for(Some(from), to),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderMail::*;
    use OrderStatus::*;

    #[test]
    fn payment_received_moves_an_unpaid_order_to_processing() {
        for from in [Pending, OnHold, Failed] {
            let t = transition(from, Processing).unwrap();
            assert!(t.marks_paid);
            assert!(!t.restock && !t.release_coupon_uses && !t.marks_completed);
        }
        assert_eq!(
            transition(OnHold, Processing).unwrap().mails,
            vec![CustomerProcessing]
        );
        // The shop had not heard of a pending order yet.
        assert_eq!(
            transition(Pending, Processing).unwrap().mails,
            vec![NewOrder, CustomerProcessing]
        );
    }

    #[test]
    fn completing_dates_the_order_and_tells_the_customer() {
        for from in [Pending, OnHold, Processing] {
            let t = transition(from, Completed).unwrap();
            assert!(t.marks_completed && t.marks_paid);
            assert!(t.mails.contains(&CustomerCompleted));
        }
        assert_eq!(
            transition(Processing, Completed).unwrap().mails,
            vec![CustomerCompleted]
        );
        assert_eq!(
            transition(Failed, Completed),
            Err(Refusal::NotFrom {
                from: Failed,
                to: Completed
            })
        );
    }

    #[test]
    fn cancelling_gives_stock_and_coupon_uses_back() {
        for from in [Pending, OnHold, Processing, Failed] {
            let t = transition(from, Cancelled).unwrap();
            assert!(t.restock && t.release_coupon_uses);
            assert!(!t.marks_paid && !t.marks_completed);
        }
        assert_eq!(
            transition(OnHold, Cancelled).unwrap().mails,
            vec![CustomerCancelled]
        );
        // A shopper who never finished paying was never told of the order.
        assert_eq!(transition(Pending, Cancelled).unwrap().mails, vec![]);
        assert!(transition(Completed, Cancelled).is_err());
    }

    #[test]
    fn refunding_is_for_paid_orders_and_gives_back_too() {
        for from in [Processing, Completed] {
            let t = transition(from, Refunded).unwrap();
            assert!(t.restock && t.release_coupon_uses);
            assert_eq!(t.mails, vec![CustomerRefunded]);
        }
        for from in [Pending, OnHold, Failed] {
            assert_eq!(
                transition(from, Refunded),
                Err(Refusal::NotFrom { from, to: Refunded })
            );
        }
    }

    #[test]
    fn cancelled_and_refunded_are_final() {
        for from in [Cancelled, Refunded] {
            for to in SETTABLE.into_iter().filter(|&to| to != from) {
                assert_eq!(transition(from, to), Err(Refusal::Final(from)));
            }
        }
        assert_eq!(
            transition(Cancelled, Processing).unwrap_err().to_string(),
            "The order is cancelled; its status can no longer change."
        );
    }

    #[test]
    fn setting_the_current_status_again_is_refused() {
        for s in OrderStatus::ALL {
            assert_eq!(transition(s, s), Err(Refusal::Unchanged(s)));
        }
        assert_eq!(
            transition(OnHold, OnHold).unwrap_err().to_string(),
            "The order is already on hold."
        );
    }

    #[test]
    fn checkout_statuses_are_not_set_by_hand() {
        for to in [Pending, OnHold, Failed, CheckoutDraft] {
            assert_eq!(transition(Processing, to), Err(Refusal::NotSettable(to)));
        }
        assert_eq!(
            transition(Processing, OnHold).unwrap_err().to_string(),
            "An order cannot be set to on-hold by hand; the statuses to set are processing, completed, cancelled and refunded."
        );
        assert!(transition(CheckoutDraft, Processing).is_err());
    }

    #[test]
    fn the_note_names_both_statuses() {
        assert_eq!(
            transition(OnHold, Completed).unwrap().note(),
            "Order status changed from On hold to Completed."
        );
    }

    #[test]
    fn the_status_change_decides_the_mails() {
        assert_eq!(mails_for(None, OnHold), vec![NewOrder, CustomerOnHold]);
        assert_eq!(
            mails_for(None, Processing),
            vec![NewOrder, CustomerProcessing]
        );
        assert_eq!(mails_for(None, Pending), vec![]);
        assert_eq!(
            mails_for(Some(Pending), Processing),
            vec![NewOrder, CustomerProcessing]
        );
        assert_eq!(
            mails_for(Some(OnHold), Processing),
            vec![CustomerProcessing]
        );
        assert_eq!(
            mails_for(Some(Processing), Completed),
            vec![CustomerCompleted]
        );
        assert_eq!(
            mails_for(Some(Processing), Cancelled),
            vec![CustomerCancelled]
        );
        assert_eq!(mails_for(Some(Failed), Cancelled), vec![]);
        assert_eq!(mails_for(Some(Completed), Refunded), vec![CustomerRefunded]);
        assert_eq!(mails_for(Some(OnHold), OnHold), vec![]);
        assert_eq!(mails_for(Some(Completed), Completed), vec![]);
    }
}
