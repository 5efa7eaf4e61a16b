//! PaymentIntents: one per payment attempt of an order, from creation to capture.
//!
//! The emulator the tests run against answers 400 for several optional parameters
//! the provider accepts; they are marked below, and like every optional parameter
//! they are only sent when set.

use serde::Deserialize;
use serde_json::Value;

use crate::charges::Charge;
use crate::client::{segment, Client};
use crate::currency::Currency;
use crate::error::Error;
use crate::expandable::{Expandable, Object};
use crate::form::Form;
use crate::idempotency::IdempotencyKey;
use crate::ids::{ClientSecret, CustomerId, PaymentIntentId, PaymentMethodId};
use crate::lenient::{id_or_object, integer, null_as_default};
use crate::payment_methods::PaymentMethod;
use crate::Metadata;

string_enum! {
    pub enum PaymentIntentStatus {
        RequiresPaymentMethod = "requires_payment_method",
        RequiresConfirmation = "requires_confirmation",
        RequiresAction = "requires_action",
        Processing = "processing",
        RequiresCapture = "requires_capture",
        Canceled = "canceled",
        Succeeded = "succeeded",
    }
}

string_enum! {
    pub enum CaptureMethod {
        /// Captured when confirmed.
        Automatic = "automatic",
        /// Captured when confirmed, the charge's details settling later (the
        /// provider's default since 2024).
        AutomaticAsync = "automatic_async",
        /// Authorized when confirmed, captured by a separate call.
        Manual = "manual",
    }
}

string_enum! {
    pub enum CancellationReason {
        Duplicate = "duplicate",
        Fraudulent = "fraudulent",
        RequestedByCustomer = "requested_by_customer",
        Abandoned = "abandoned",
    }
}

string_enum! {
    pub enum SetupFutureUsage {
        OnSession = "on_session",
        OffSession = "off_session",
    }
}

/// A payment intent, with the fields the shop reads.
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentIntent {
    pub id: PaymentIntentId,
    #[serde(default)]
    pub object: String,
    /// In the currency's minor unit (cents).
    #[serde(deserialize_with = "integer")]
    pub amount: i64,
    /// Missing from the emulator's intents.
    #[serde(default)]
    pub amount_received: Option<i64>,
    /// Missing from the emulator's intents.
    #[serde(default)]
    pub amount_capturable: Option<i64>,
    pub currency: Currency,
    pub status: PaymentIntentStatus,
    #[serde(default)]
    pub client_secret: Option<ClientSecret>,
    #[serde(default, deserialize_with = "id_or_object")]
    pub customer: Option<CustomerId>,
    #[serde(default)]
    pub payment_method: Option<Expandable<PaymentMethod>>,
    #[serde(default)]
    pub capture_method: Option<CaptureMethod>,
    /// The method types the intent may be paid with (`card`, `boleto`, …).
    #[serde(default, deserialize_with = "null_as_default")]
    pub payment_method_types: Vec<String>,
    #[serde(default)]
    pub last_payment_error: Option<PaymentError>,
    #[serde(default)]
    pub next_action: Option<NextAction>,
    /// An id from the provider unless expanded; the emulator always embeds the charge.
    #[serde(default)]
    pub latest_charge: Option<Expandable<Charge>>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metadata: Metadata,
    #[serde(default)]
    pub created: Option<i64>,
    #[serde(default)]
    pub livemode: bool,
}

impl PaymentIntent {
    pub fn payment_method_id(&self) -> Option<&PaymentMethodId> {
        self.payment_method.as_ref().map(Expandable::id)
    }

    pub fn latest_charge_id(&self) -> Option<&crate::ids::ChargeId> {
        self.latest_charge.as_ref().map(Expandable::id)
    }
}

impl Object for PaymentIntent {
    type Id = PaymentIntentId;
    fn id(&self) -> &PaymentIntentId {
        &self.id
    }
}

/// Why the last attempt to pay (or to set up a payment method) failed: the same
/// fields as the provider's error object, for the same mapping to the shopper's
/// message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct PaymentError {
    #[serde(rename = "type", default)]
    pub error_type: Option<crate::error::ErrorType>,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub decline_code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub param: Option<String>,
}

/// What the shopper must do before the intent can go on (3-D Secure, a redirect to
/// their bank, …). Kept whole, since the browser-side library reads it; the two
/// fields the server needs have accessors.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct NextAction(pub Value);

impl NextAction {
    /// `redirect_to_url`, `use_stripe_sdk`, `display_bank_transfer_instructions`, …
    pub fn kind(&self) -> Option<&str> {
        self.0.get("type")?.as_str()
    }

    /// Where to send the shopper, for a `redirect_to_url` action.
    pub fn redirect_url(&self) -> Option<&str> {
        self.0.get("redirect_to_url")?.get("url")?.as_str()
    }

    /// The address the action names under its own type (`redirect_to_url.url`,
    /// `alipay_handle_redirect.url`, …), if it names one.
    pub fn url(&self) -> Option<&str> {
        self.0.get(self.kind()?)?.get("url")?.as_str()
    }
}

/// The shopper's agreement to a debit from their bank account, given online in the
/// shop's checkout (`mandate_data[customer_acceptance]`): bank debits need one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnlineMandate {
    pub ip_address: String,
    pub user_agent: String,
}

impl OnlineMandate {
    pub(crate) fn push(&self, form: &mut Form) {
        let at = |field| ["mandate_data", "customer_acceptance", "online", field];
        form.push(&["mandate_data", "customer_acceptance", "type"], "online")
            .push(&at("ip_address"), &self.ip_address)
            .push(&at("user_agent"), &self.user_agent);
    }
}

/// `payment_method_options`: what some method types need besides the method.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaymentMethodOptions {
    /// `blik[code]`: the six digits from the shopper's banking app.
    pub blik_code: Option<String>,
    /// `wechat_pay[client]`: where the shopper pays (`web`).
    pub wechat_pay_client: Option<String>,
    /// `acss_debit[mandate_options]`: `payment_schedule` and `transaction_type`
    /// (`sporadic`, `personal`), with `acss_debit[verification_method]` automatic.
    pub acss_debit_mandate: Option<(String, String)>,
}

impl PaymentMethodOptions {
    pub(crate) fn push(&self, form: &mut Form) {
        const AT: &str = "payment_method_options";
        form.push_opt(&[AT, "blik", "code"], self.blik_code.as_ref())
            .push_opt(
                &[AT, "wechat_pay", "client"],
                self.wechat_pay_client.as_ref(),
            );
        if let Some((schedule, transaction)) = &self.acss_debit_mandate {
            let options = |field| [AT, "acss_debit", "mandate_options", field];
            form.push(&options("payment_schedule"), schedule)
                .push(&options("transaction_type"), transaction)
                .push(&[AT, "acss_debit", "verification_method"], "automatic");
        }
    }
}

/// `POST /v1/payment_intents`.
#[derive(Debug, Clone)]
pub struct CreatePaymentIntent {
    /// In the currency's minor unit (cents).
    pub amount: i64,
    pub currency: Currency,
    pub customer: Option<CustomerId>,
    pub payment_method: Option<PaymentMethodId>,
    /// Sent only when not empty (the emulator accepts it but does not echo it).
    pub payment_method_types: Vec<String>,
    pub capture_method: Option<CaptureMethod>,
    /// Confirm at once with `payment_method`.
    pub confirm: Option<bool>,
    /// With `confirm`: the shopper is not there to authenticate.
    pub off_session: Option<bool>,
    /// `automatic_payment_methods[enabled]`. The emulator answers 400.
    pub automatic_payment_methods: Option<bool>,
    /// The emulator answers 400.
    pub description: Option<String>,
    /// The emulator answers 400.
    pub receipt_email: Option<String>,
    /// The emulator answers 400.
    pub setup_future_usage: Option<SetupFutureUsage>,
    /// The emulator answers 400.
    pub statement_descriptor_suffix: Option<String>,
    /// Where a redirecting payment method comes back to, with `confirm`. The emulator
    /// answers 400.
    pub return_url: Option<String>,
    /// A bank debit's mandate, with `confirm`.
    pub mandate: Option<OnlineMandate>,
    pub method_options: PaymentMethodOptions,
    pub metadata: Metadata,
    /// Fields to embed in the answer, such as `latest_charge`.
    pub expand: Vec<String>,
}

impl CreatePaymentIntent {
    /// An intent for `amount` minor units, nothing else set.
    pub fn new(amount: i64, currency: Currency) -> CreatePaymentIntent {
        CreatePaymentIntent {
            amount,
            currency,
            customer: None,
            payment_method: None,
            payment_method_types: Vec::new(),
            capture_method: None,
            confirm: None,
            off_session: None,
            automatic_payment_methods: None,
            description: None,
            receipt_email: None,
            setup_future_usage: None,
            statement_descriptor_suffix: None,
            return_url: None,
            mandate: None,
            method_options: PaymentMethodOptions::default(),
            metadata: Metadata::new(),
            expand: Vec::new(),
        }
    }

    fn form(&self) -> Form {
        let mut form = Form::new();
        form.push(&["amount"], self.amount)
            .push(&["currency"], &self.currency)
            .push_opt(&["customer"], self.customer.as_ref())
            .push_opt(&["payment_method"], self.payment_method.as_ref())
            .push_list(&["payment_method_types"], &self.payment_method_types)
            .push_opt(&["capture_method"], self.capture_method.as_ref())
            .push_opt(&["confirm"], self.confirm)
            .push_opt(&["off_session"], self.off_session)
            .push_opt(
                &["automatic_payment_methods", "enabled"],
                self.automatic_payment_methods,
            )
            .push_opt(&["description"], self.description.as_ref())
            .push_opt(&["receipt_email"], self.receipt_email.as_ref())
            .push_opt(&["setup_future_usage"], self.setup_future_usage.as_ref())
            .push_opt(
                &["statement_descriptor_suffix"],
                self.statement_descriptor_suffix.as_ref(),
            )
            .push_opt(&["return_url"], self.return_url.as_ref());
        if let Some(mandate) = &self.mandate {
            mandate.push(&mut form);
        }
        self.method_options.push(&mut form);
        form.push_map(&["metadata"], &self.metadata)
            .push_list(&["expand"], &self.expand);
        form
    }
}

/// `POST /v1/payment_intents/{id}`: only the fields set are changed (metadata keys
/// are merged, as the provider does).
#[derive(Debug, Clone, Default)]
pub struct UpdatePaymentIntent {
    pub amount: Option<i64>,
    pub currency: Option<Currency>,
    pub customer: Option<CustomerId>,
    /// How to set the method when confirming with one is not possible (the emulator
    /// answers 500 for a confirm that names a method).
    pub payment_method: Option<PaymentMethodId>,
    pub capture_method: Option<CaptureMethod>,
    /// The emulator answers 400.
    pub description: Option<String>,
    /// The emulator answers 400.
    pub receipt_email: Option<String>,
    pub metadata: Metadata,
    pub expand: Vec<String>,
}

impl UpdatePaymentIntent {
    fn form(&self) -> Form {
        let mut form = Form::new();
        form.push_opt(&["amount"], self.amount)
            .push_opt(&["currency"], self.currency.as_ref())
            .push_opt(&["customer"], self.customer.as_ref())
            .push_opt(&["payment_method"], self.payment_method.as_ref())
            .push_opt(&["capture_method"], self.capture_method.as_ref())
            .push_opt(&["description"], self.description.as_ref())
            .push_opt(&["receipt_email"], self.receipt_email.as_ref())
            .push_map(&["metadata"], &self.metadata)
            .push_list(&["expand"], &self.expand);
        form
    }
}

/// `POST /v1/payment_intents/{id}/confirm`.
#[derive(Debug, Clone, Default)]
pub struct ConfirmPaymentIntent {
    /// The emulator answers 500 ("Not implemented"): set the method at creation or
    /// with an update there.
    pub payment_method: Option<PaymentMethodId>,
    /// The emulator answers 400.
    pub return_url: Option<String>,
    /// The emulator answers 400.
    pub off_session: Option<bool>,
    pub expand: Vec<String>,
}

impl ConfirmPaymentIntent {
    fn form(&self) -> Form {
        let mut form = Form::new();
        form.push_opt(&["payment_method"], self.payment_method.as_ref())
            .push_opt(&["return_url"], self.return_url.as_ref())
            .push_opt(&["off_session"], self.off_session)
            .push_list(&["expand"], &self.expand);
        form
    }
}

/// `POST /v1/payment_intents/{id}/capture`.
#[derive(Debug, Clone, Default)]
pub struct CapturePaymentIntent {
    /// Less than authorized to capture part (the rest is released); all of it when
    /// not set.
    pub amount_to_capture: Option<i64>,
    pub expand: Vec<String>,
}

/// `POST /v1/payment_intents/{id}/cancel`.
#[derive(Debug, Clone, Default)]
pub struct CancelPaymentIntent {
    /// The emulator answers 400.
    pub cancellation_reason: Option<CancellationReason>,
}

impl Client {
    pub async fn create_payment_intent(
        &self,
        params: &CreatePaymentIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentIntent, Error> {
        self.post("/v1/payment_intents", &params.form(), idempotency_key)
            .await
    }

    pub async fn update_payment_intent(
        &self,
        id: &PaymentIntentId,
        params: &UpdatePaymentIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentIntent, Error> {
        let path = format!("/v1/payment_intents/{}", segment(id.as_str()));
        self.post(&path, &params.form(), idempotency_key).await
    }

    /// A declined card comes back as `Error::Provider` (HTTP 402); the intent is then
    /// `requires_payment_method` with its `last_payment_error`.
    pub async fn confirm_payment_intent(
        &self,
        id: &PaymentIntentId,
        params: &ConfirmPaymentIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentIntent, Error> {
        let path = format!("/v1/payment_intents/{}/confirm", segment(id.as_str()));
        self.post(&path, &params.form(), idempotency_key).await
    }

    pub async fn retrieve_payment_intent(
        &self,
        id: &PaymentIntentId,
    ) -> Result<PaymentIntent, Error> {
        let path = format!("/v1/payment_intents/{}", segment(id.as_str()));
        self.get(&path, &Form::new()).await
    }

    pub async fn capture_payment_intent(
        &self,
        id: &PaymentIntentId,
        params: &CapturePaymentIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentIntent, Error> {
        let path = format!("/v1/payment_intents/{}/capture", segment(id.as_str()));
        let mut form = Form::new();
        form.push_opt(&["amount_to_capture"], params.amount_to_capture)
            .push_list(&["expand"], &params.expand);
        self.post(&path, &form, idempotency_key).await
    }

    pub async fn cancel_payment_intent(
        &self,
        id: &PaymentIntentId,
        params: &CancelPaymentIntent,
        idempotency_key: &IdempotencyKey,
    ) -> Result<PaymentIntent, Error> {
        let path = format!("/v1/payment_intents/{}/cancel", segment(id.as_str()));
        let mut form = Form::new();
        form.push_opt(
            &["cancellation_reason"],
            params.cancellation_reason.as_ref(),
        );
        self.post(&path, &form, idempotency_key).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_required_fields_are_sent_by_default() {
        let params = CreatePaymentIntent::new(1200, Currency::parse("EUR").unwrap());
        assert_eq!(params.form().encode(), "amount=1200&currency=eur");
        assert!(UpdatePaymentIntent::default().form().is_empty());
        assert!(ConfirmPaymentIntent::default().form().is_empty());
    }

    #[test]
    fn an_emulator_intent_with_an_embedded_charge_is_read() {
        let json = r#"{
            "amount": 1200, "capture_method": "automatic_async", "charges": {"data": [], "object": "list"},
            "client_secret": "pi_1_secret_x", "created": 1700000000, "currency": "eur", "customer": null,
            "id": "pi_1", "invoice": null, "last_payment_error": null,
            "latest_charge": {"amount": 1200, "amount_refunded": 0, "captured": true, "id": "ch_1",
                "object": "charge", "payment_intent": "pi_1", "refunded": false, "status": "succeeded",
                "refunds": {"data": [], "object": "list"}},
            "livemode": false, "metadata": {"order_id": "12"}, "next_action": null,
            "object": "payment_intent", "payment_method": "pm_card_visa", "status": "succeeded"
        }"#;
        let intent: PaymentIntent = serde_json::from_str(json).unwrap();
        assert_eq!(intent.status, PaymentIntentStatus::Succeeded);
        assert_eq!(intent.latest_charge_id().unwrap().as_str(), "ch_1");
        assert_eq!(
            intent
                .latest_charge
                .as_ref()
                .unwrap()
                .as_object()
                .unwrap()
                .amount,
            1200
        );
        assert_eq!(intent.payment_method_id().unwrap().as_str(), "pm_card_visa");
        assert_eq!(intent.metadata["order_id"], "12");
        assert_eq!(intent.amount_received, None);
        assert_eq!(intent.capture_method, Some(CaptureMethod::AutomaticAsync));
    }

    #[test]
    fn an_amount_the_emulator_stored_as_text_is_read() {
        let json = r#"{"id": "pi_4", "amount": "450", "currency": "eur", "status": "requires_confirmation"}"#;
        let intent: PaymentIntent = serde_json::from_str(json).unwrap();
        assert_eq!(intent.amount, 450);
        let json = r#"{"id": "pi_4", "amount": "4.5", "currency": "eur", "status": "requires_confirmation"}"#;
        assert!(serde_json::from_str::<PaymentIntent>(json).is_err());
    }

    #[test]
    fn a_provider_intent_with_ids_and_a_redirect_is_read() {
        let json = r#"{
            "id": "pi_2", "object": "payment_intent", "amount": 500, "amount_received": 0,
            "amount_capturable": 0, "currency": "EUR", "status": "requires_action",
            "customer": {"id": "cus_1", "object": "customer"},
            "payment_method": {"id": "pm_1", "object": "payment_method", "type": "ideal"},
            "latest_charge": "ch_2", "metadata": null, "livemode": true,
            "next_action": {"type": "redirect_to_url", "redirect_to_url": {"url": "https://bank.example/auth", "return_url": "https://shop.example/back"}},
            "status_new_field": 1
        }"#;
        let intent: PaymentIntent = serde_json::from_str(json).unwrap();
        assert_eq!(intent.status, PaymentIntentStatus::RequiresAction);
        assert_eq!(intent.currency.as_str(), "eur");
        assert_eq!(intent.customer.as_ref().unwrap().as_str(), "cus_1");
        assert_eq!(intent.payment_method_id().unwrap().as_str(), "pm_1");
        assert_eq!(intent.latest_charge_id().unwrap().as_str(), "ch_2");
        assert!(intent.metadata.is_empty());
        let next_action = intent.next_action.unwrap();
        assert_eq!(next_action.kind(), Some("redirect_to_url"));
        assert_eq!(
            next_action.redirect_url(),
            Some("https://bank.example/auth")
        );
    }

    #[test]
    fn an_unknown_status_is_kept() {
        let json = r#"{"id": "pi_3", "amount": 1, "currency": "eur", "status": "requires_source"}"#;
        let intent: PaymentIntent = serde_json::from_str(json).unwrap();
        assert_eq!(
            intent.status,
            PaymentIntentStatus::Other("requires_source".into())
        );
        assert_eq!(intent.status.as_str(), "requires_source");
    }
}
