//! SetupIntents: saving a shopper's payment method for later payments without taking
//! money now (3-D Secure included, so that later off-session payments pass).
//!
//! The emulator answers 400 for `payment_method`, `confirm` and `return_url` at
//! creation: there the method is given when confirming.

use serde::Deserialize;

use crate::client::{segment, Client};
use crate::error::Error;
use crate::expandable::{Expandable, Object};
use crate::form::Form;
use crate::idempotency::IdempotencyKey;
use crate::ids::{ClientSecret, CustomerId, PaymentMethodId, SetupIntentId};
use crate::lenient::{id_or_object, null_as_default};
use crate::payment_intents::{NextAction, OnlineMandate, PaymentError};
use crate::payment_methods::PaymentMethod;
use crate::Metadata;

string_enum! {
    pub enum SetupIntentStatus {
        RequiresPaymentMethod = "requires_payment_method",
        RequiresConfirmation = "requires_confirmation",
        RequiresAction = "requires_action",
        Processing = "processing",
        Canceled = "canceled",
        Succeeded = "succeeded",
    }
}

string_enum! {
    pub enum SetupIntentUsage {
        OnSession = "on_session",
        OffSession = "off_session",
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct SetupIntent {
    pub id: SetupIntentId,
    pub status: SetupIntentStatus,
    #[serde(default)]
    pub client_secret: Option<ClientSecret>,
    #[serde(default, deserialize_with = "id_or_object")]
    pub customer: Option<CustomerId>,
    #[serde(default)]
    pub payment_method: Option<Expandable<PaymentMethod>>,
    #[serde(default)]
    pub next_action: Option<NextAction>,
    /// Missing from the emulator's setup intents.
    #[serde(default)]
    pub last_setup_error: Option<PaymentError>,
    #[serde(default)]
    pub usage: Option<SetupIntentUsage>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: Metadata,
    #[serde(default)]
    pub created: Option<i64>,
    #[serde(default)]
    pub livemode: bool,
}

impl SetupIntent {
    pub fn payment_method_id(&self) -> Option<&PaymentMethodId> {
        self.payment_method.as_ref().map(Expandable::id)
    }
}

impl Object for SetupIntent {
    type Id = SetupIntentId;
    fn id(&self) -> &SetupIntentId {
        &self.id
    }
}

/// `POST /v1/setup_intents`.
#[derive(Debug, Clone, Default)]
pub struct CreateSetupIntent {
    pub customer: Option<CustomerId>,
    /// The emulator answers 400.
    pub payment_method: Option<PaymentMethodId>,
    /// Sent only when not empty; the provider's default is `card`.
    pub payment_method_types: Vec<String>,
    /// `off_session` (the provider's default) for charging later without the shopper.
    pub usage: Option<SetupIntentUsage>,
    /// Confirm at once with `payment_method`. The emulator answers 400.
    pub confirm: Option<bool>,
    /// The emulator answers 400.
    pub return_url: Option<String>,
    pub metadata: Metadata,
    pub expand: Vec<String>,
}

/// `POST /v1/setup_intents/{id}/confirm`.
#[derive(Debug, Clone, Default)]
pub struct ConfirmSetupIntent {
    pub payment_method: Option<PaymentMethodId>,
    /// The emulator answers 400.
    pub return_url: Option<String>,
    /// A bank debit's mandate.
    pub mandate: Option<OnlineMandate>,
    pub expand: Vec<String>,
}

impl Client {
    pub async fn create_setup_intent(
        &self,
        params: &CreateSetupIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<SetupIntent, Error> {
        let mut form = Form::new();
        form.push_opt(&["customer"], params.customer.as_ref())
            .push_opt(&["payment_method"], params.payment_method.as_ref())
            .push_list(&["payment_method_types"], &params.payment_method_types)
            .push_opt(&["usage"], params.usage.as_ref())
            .push_opt(&["confirm"], params.confirm)
            .push_opt(&["return_url"], params.return_url.as_ref())
            .push_map(&["metadata"], &params.metadata)
            .push_list(&["expand"], &params.expand);
        self.post("/v1/setup_intents", &form, idempotency_key).await
    }

    pub async fn confirm_setup_intent(
        &self,
        id: &SetupIntentId,
        params: &ConfirmSetupIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<SetupIntent, Error> {
        let path = format!("/v1/setup_intents/{}/confirm", segment(id.as_str()));
        let mut form = Form::new();
        form.push_opt(&["payment_method"], params.payment_method.as_ref())
            .push_opt(&["return_url"], params.return_url.as_ref());
        if let Some(mandate) = &params.mandate {
            mandate.push(&mut form);
        }
        form.push_list(&["expand"], &params.expand);
        self.post(&path, &form, idempotency_key).await
    }

    pub async fn retrieve_setup_intent(&self, id: &SetupIntentId) -> Result<SetupIntent, Error> {
        let path = format!("/v1/setup_intents/{}", segment(id.as_str()));
        self.get(&path, &Form::new()).await
    }
}
