//! What the provider's word on a payment means for the order it pays. Every path that
//! learns an intent's status — the checkout's own answer, the shopper's return after
//! 3-D Secure, a webhook, the staff capturing — asks `settle` what to do, so they
//! agree, and an order already moved on is left alone (a late or repeated word is not
//! acted on twice).

use crate::orders::model::OrderStatus;

/// A payment or setup intent's status as the provider names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntentStatus {
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    Processing,
    RequiresCapture,
    Canceled,
    Succeeded,
}

impl IntentStatus {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "requires_payment_method" => Self::RequiresPaymentMethod,
            "requires_confirmation" => Self::RequiresConfirmation,
            "requires_action" => Self::RequiresAction,
            "processing" => Self::Processing,
            "requires_capture" => Self::RequiresCapture,
            "canceled" => Self::Canceled,
            "succeeded" => Self::Succeeded,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::RequiresPaymentMethod => "requires_payment_method",
            Self::RequiresConfirmation => "requires_confirmation",
            Self::RequiresAction => "requires_action",
            Self::Processing => "processing",
            Self::RequiresCapture => "requires_capture",
            Self::Canceled => "canceled",
            Self::Succeeded => "succeeded",
        }
    }

    /// The payment went through (taken, or authorised to be taken later).
    pub fn is_paid(self) -> bool {
        matches!(self, Self::Succeeded | Self::RequiresCapture)
    }
}

/// What the provider said about an order's payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentNews {
    Status(IntentStatus),
    /// The attempt failed (a decline, a failed challenge), with the provider's reason.
    Failed {
        reason: String,
    },
    /// The payment is in the shopper's hands away from the shop: a voucher to pay at a
    /// shop or bank, a bank account to verify. The order waits on hold.
    Awaiting(Offline),
    /// A voucher's time ran out unpaid.
    Expired,
}

/// What an order waits for when its payment goes on away from the shop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offline {
    /// A voucher (boleto, OXXO, Multibanco) paid later.
    Voucher,
    /// Micro-deposits to the shopper's bank account, which they confirm.
    BankVerification,
}

/// The change an order takes, and the note that records why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settlement {
    pub to: OrderStatus,
    pub note: String,
    /// Record the payment date.
    pub marks_paid: bool,
    /// Give back the stock and coupon uses the order held.
    pub gives_back: bool,
}

/// What `news` about the intent `reference` (a charge or intent id) does to an order
/// that is `current`; `None` when the order stays as it is — it already moved past
/// what the news says, or the news asks nothing of it (a challenge still open).
pub fn settle(current: OrderStatus, news: &PaymentNews, reference: &str) -> Option<Settlement> {
    use OrderStatus::*;
    let awaiting = matches!(current, Pending | Failed);
    let change = |to, note: String, marks_paid, gives_back| {
        Some(Settlement {
            to,
            note,
            marks_paid,
            gives_back,
        })
    };
    match news {
        PaymentNews::Status(IntentStatus::Succeeded) if awaiting || current == OnHold => change(
            Processing,
            format!("Stripe charge complete (Charge ID: {reference})"),
            true,
            false,
        ),
        PaymentNews::Status(IntentStatus::RequiresCapture) if awaiting => change(
            OnHold,
            format!(
                "Stripe charge authorized (Charge ID: {reference}). Process order to take payment, or cancel to remove the pre-authorization. Attempting to refund the order in part or in full will release the authorization and cancel the payment."
            ),
            false,
            false,
        ),
        PaymentNews::Status(IntentStatus::Processing) if awaiting => change(
            OnHold,
            format!("Stripe charge awaiting payment: {reference}."),
            false,
            false,
        ),
        PaymentNews::Status(IntentStatus::Canceled) if awaiting || current == OnHold => change(
            Cancelled,
            "Stripe SCA authentication failed or the payment was canceled.".to_string(),
            false,
            true,
        ),
        PaymentNews::Awaiting(what) if awaiting => change(
            OnHold,
            match what {
                Offline::Voucher => "Awaiting payment.".to_string(),
                Offline::BankVerification => {
                    "Awaiting verification of the bank account.".to_string()
                }
            },
            false,
            false,
        ),
        PaymentNews::Expired if awaiting || current == OnHold => change(
            Cancelled,
            "Payment not completed in time.".to_string(),
            false,
            true,
        ),
        // A failure after the money was taken (a late webhook from an earlier attempt)
        // says nothing about this order any more.
        PaymentNews::Failed { reason } if current == Pending || current == OnHold => change(
            Failed,
            format!("Sorry, we are unable to process your payment at this time. Reason: {reason}"),
            false,
            false,
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderStatus::*;

    fn status(s: IntentStatus) -> PaymentNews {
        PaymentNews::Status(s)
    }

    #[test]
    fn a_successful_charge_moves_an_unpaid_order_to_processing_once() {
        for from in [Pending, Failed, OnHold] {
            let s = settle(from, &status(IntentStatus::Succeeded), "ch_1").unwrap();
            assert_eq!(s.to, Processing);
            assert!(s.marks_paid && !s.gives_back);
            assert_eq!(s.note, "Stripe charge complete (Charge ID: ch_1)");
        }
        for already in [Processing, Completed, Refunded, Cancelled] {
            assert_eq!(
                settle(already, &status(IntentStatus::Succeeded), "ch_1"),
                None
            );
        }
    }

    #[test]
    fn an_authorisation_puts_the_order_on_hold_until_captured() {
        let s = settle(Pending, &status(IntentStatus::RequiresCapture), "pi_1").unwrap();
        assert_eq!(s.to, OnHold);
        assert!(!s.marks_paid);
        assert!(s
            .note
            .starts_with("Stripe charge authorized (Charge ID: pi_1)."));
        assert_eq!(
            settle(OnHold, &status(IntentStatus::RequiresCapture), "pi_1"),
            None
        );
    }

    #[test]
    fn an_open_challenge_leaves_the_order_waiting() {
        for s in [
            IntentStatus::RequiresAction,
            IntentStatus::RequiresConfirmation,
            IntentStatus::RequiresPaymentMethod,
        ] {
            assert_eq!(settle(Pending, &status(s), "pi_1"), None);
        }
    }

    #[test]
    fn a_failure_fails_a_waiting_order_but_never_a_paid_one() {
        let news = PaymentNews::Failed {
            reason: "The card was declined.".into(),
        };
        let s = settle(Pending, &news, "pi_1").unwrap();
        assert_eq!(s.to, Failed);
        assert_eq!(
            s.note,
            "Sorry, we are unable to process your payment at this time. Reason: The card was declined."
        );
        assert_eq!(settle(Failed, &news, "pi_1"), None);
        assert_eq!(settle(Processing, &news, "pi_1"), None);
    }

    #[test]
    fn a_canceled_intent_cancels_the_order_and_gives_its_stock_back() {
        let s = settle(OnHold, &status(IntentStatus::Canceled), "pi_1").unwrap();
        assert_eq!(s.to, Cancelled);
        assert!(s.gives_back);
        assert_eq!(
            settle(Processing, &status(IntentStatus::Canceled), "pi_1"),
            None
        );
    }

    #[test]
    fn a_voucher_or_a_bank_check_puts_a_waiting_order_on_hold_once() {
        for from in [Pending, Failed] {
            let s = settle(from, &PaymentNews::Awaiting(Offline::Voucher), "pi_1").unwrap();
            assert_eq!((s.to, s.note.as_str()), (OnHold, "Awaiting payment."));
            assert!(!s.marks_paid && !s.gives_back);
        }
        let s = settle(
            Pending,
            &PaymentNews::Awaiting(Offline::BankVerification),
            "pi_1",
        )
        .unwrap();
        assert_eq!(s.note, "Awaiting verification of the bank account.");
        for already in [OnHold, Processing, Cancelled] {
            assert_eq!(
                settle(already, &PaymentNews::Awaiting(Offline::Voucher), "pi_1"),
                None
            );
        }
    }

    #[test]
    fn an_expired_voucher_cancels_the_order_and_gives_its_stock_back() {
        for from in [OnHold, Pending, Failed] {
            let s = settle(from, &PaymentNews::Expired, "pi_1").unwrap();
            assert_eq!(
                (s.to, s.note.as_str()),
                (Cancelled, "Payment not completed in time.")
            );
            assert!(s.gives_back && !s.marks_paid);
        }
        for paid in [Processing, Completed, Refunded, Cancelled] {
            assert_eq!(settle(paid, &PaymentNews::Expired, "pi_1"), None);
        }
    }

    #[test]
    fn statuses_read_back_as_the_provider_writes_them() {
        for s in [
            "requires_payment_method",
            "requires_confirmation",
            "requires_action",
            "processing",
            "requires_capture",
            "canceled",
            "succeeded",
        ] {
            assert_eq!(IntentStatus::parse(s).unwrap().as_str(), s);
        }
        assert_eq!(IntentStatus::parse("cancelled"), None);
    }
}
