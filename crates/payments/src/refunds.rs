//! Refunds: money given back on a payment intent, whole or in part.

use serde::Deserialize;

use crate::client::Client;
use crate::currency::Currency;
use crate::error::Error;
use crate::expandable::Object;
use crate::form::Form;
use crate::idempotency::IdempotencyKey;
use crate::ids::{ChargeId, PaymentIntentId, RefundId};
use crate::lenient::{id_or_object, null_as_default};
use crate::Metadata;

string_enum! {
    pub enum RefundStatus {
        Pending = "pending",
        RequiresAction = "requires_action",
        Succeeded = "succeeded",
        Failed = "failed",
        Canceled = "canceled",
    }
}

string_enum! {
    pub enum RefundReason {
        Duplicate = "duplicate",
        Fraudulent = "fraudulent",
        RequestedByCustomer = "requested_by_customer",
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Refund {
    pub id: RefundId,
    pub amount: i64,
    #[serde(default)]
    pub currency: Option<Currency>,
    pub status: RefundStatus,
    #[serde(default, deserialize_with = "id_or_object")]
    pub payment_intent: Option<PaymentIntentId>,
    #[serde(default, deserialize_with = "id_or_object")]
    pub charge: Option<ChargeId>,
    #[serde(default)]
    pub reason: Option<RefundReason>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: Metadata,
    #[serde(default)]
    pub created: Option<i64>,
}

impl Object for Refund {
    type Id = RefundId;
    fn id(&self) -> &RefundId {
        &self.id
    }
}

/// `POST /v1/refunds`.
#[derive(Debug, Clone)]
pub struct CreateRefund {
    pub payment_intent: PaymentIntentId,
    /// Part of the payment, in minor units; all that is left of it when not set.
    pub amount: Option<i64>,
    /// The emulator answers 400.
    pub reason: Option<RefundReason>,
    pub metadata: Metadata,
}

impl CreateRefund {
    /// A refund of all that is left of the payment.
    pub fn new(payment_intent: PaymentIntentId) -> CreateRefund {
        CreateRefund {
            payment_intent,
            amount: None,
            reason: None,
            metadata: Metadata::new(),
        }
    }
}

impl Client {
    pub async fn create_refund(
        &self,
        params: &CreateRefund,
        idempotency_key: &IdempotencyKey,
    ) -> Result<Refund, Error> {
        let mut form = Form::new();
        form.push(&["payment_intent"], &params.payment_intent)
            .push_opt(&["amount"], params.amount)
            .push_opt(&["reason"], params.reason.as_ref())
            .push_map(&["metadata"], &params.metadata);
        self.post("/v1/refunds", &form, idempotency_key).await
    }
}
