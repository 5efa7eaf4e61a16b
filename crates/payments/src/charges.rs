//! Charges: the money movement behind a payment intent. The shop reads them (what was
//! refunded, whether the payment is disputed) and never creates them directly.

use serde::Deserialize;

use crate::expandable::Object;
use crate::ids::{ChargeId, PaymentIntentId, PaymentMethodId};
use crate::lenient::id_or_object;

string_enum! {
    pub enum ChargeStatus {
        Succeeded = "succeeded",
        Pending = "pending",
        Failed = "failed",
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct Charge {
    pub id: ChargeId,
    #[serde(default)]
    pub amount: i64,
    #[serde(default)]
    pub amount_refunded: i64,
    #[serde(default)]
    pub captured: Option<bool>,
    #[serde(default, deserialize_with = "id_or_object")]
    pub payment_intent: Option<PaymentIntentId>,
    #[serde(default, deserialize_with = "id_or_object")]
    pub payment_method: Option<PaymentMethodId>,
    /// Whether all of it was refunded.
    #[serde(default)]
    pub refunded: bool,
    #[serde(default)]
    pub disputed: bool,
    pub status: ChargeStatus,
    #[serde(default)]
    pub failure_code: Option<String>,
    #[serde(default)]
    pub failure_message: Option<String>,
}

impl Object for Charge {
    type Id = ChargeId;
    fn id(&self) -> &ChargeId {
        &self.id
    }
}
