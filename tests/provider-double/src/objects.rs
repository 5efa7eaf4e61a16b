//! The provider's objects as this test double keeps them (payment intents, setup
//! intents, payment methods, customers, charges, refunds), the payment method types it
//! knows, and the JSON each object is answered as, in the provider's published shapes
//! (`livemode: false` always).

use std::time::{SystemTime, UNIX_EPOCH};

use rand::distributions::Alphanumeric;
use rand::Rng;
use serde_json::{json, Map, Value};

use crate::state::State;

/// Seconds since the Unix epoch.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs() as i64)
        .unwrap_or(0)
}

/// Random letters and digits.
pub(crate) fn random_text(len: usize) -> String {
    rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(len)
        .map(char::from)
        .collect()
}

/// Random decimal digits (voucher numbers, references).
pub(crate) fn random_digits(len: usize) -> String {
    let mut rng = rand::thread_rng();
    (0..len)
        .map(|_| char::from(b'0' + rng.gen_range(0..10u8)))
        .collect()
}

/// An id the provider's way: `pi_` and 24 letters and digits.
pub(crate) fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", random_text(24))
}

/// `{intent id}_secret_{24 letters and digits}`.
pub(crate) fn new_client_secret(intent_id: &str) -> String {
    format!("{intent_id}_secret_{}", random_text(24))
}

/// How a payment method type behaves when an intent is confirmed with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Succeeds at once (or declines): only without an upstream.
    Card,
    /// `redirect_to_url` to the authorisation page.
    Redirect,
    /// `alipay_handle_redirect` to the authorisation page.
    Alipay,
    /// `{type}_display_details`: a voucher paid later (boleto, OXXO, Multibanco).
    Voucher,
    /// `wechat_pay_display_qr_code`.
    WechatPay,
    /// `cashapp_handle_redirect_or_display_qr_code`.
    Cashapp,
    /// `blik_authorize`, after a six-digit code.
    Blik,
    /// A debit under a mandate: `processing` at once.
    BankDebit,
    /// An ACH debit: `processing`, or microdeposits first.
    UsBankAccount,
}

/// One payment method type.
#[derive(Debug)]
pub(crate) struct MethodType {
    pub name: &'static str,
    /// As the authorisation page names it.
    pub label: &'static str,
    pub flow: Flow,
    /// Whether a setup intent can save it for later payments.
    pub reusable: bool,
}

impl MethodType {
    /// Money taken by debit, whose refunds stay `pending` for a while.
    pub(crate) fn is_bank_debit(&self) -> bool {
        matches!(self.flow, Flow::BankDebit | Flow::UsBankAccount)
    }
}

macro_rules! method_types {
    ($( $name:literal, $label:literal, $flow:ident, $reusable:literal; )*) => {
        pub(crate) const METHOD_TYPES: &[MethodType] = &[
            $( MethodType { name: $name, label: $label, flow: Flow::$flow, reusable: $reusable }, )*
        ];
    };
}

method_types! {
    "card", "Card", Card, true;
    "sepa_debit", "SEPA Direct Debit", BankDebit, true;
    "au_becs_debit", "BECS Direct Debit", BankDebit, true;
    "bacs_debit", "Bacs Direct Debit", BankDebit, true;
    "acss_debit", "Pre-authorized debit", BankDebit, true;
    "us_bank_account", "ACH Direct Debit", UsBankAccount, true;
    "ideal", "iDEAL", Redirect, true;
    "bancontact", "Bancontact", Redirect, true;
    "sofort", "Sofort", Redirect, true;
    "eps", "EPS", Redirect, false;
    "giropay", "giropay", Redirect, false;
    "p24", "Przelewy24", Redirect, false;
    "klarna", "Klarna", Redirect, false;
    "affirm", "Affirm", Redirect, false;
    "afterpay_clearpay", "Afterpay / Clearpay", Redirect, false;
    "alipay", "Alipay", Alipay, false;
    "boleto", "Boleto", Voucher, false;
    "oxxo", "OXXO", Voucher, false;
    "multibanco", "Multibanco", Voucher, false;
    "wechat_pay", "WeChat Pay", WechatPay, false;
    "cashapp", "Cash App Pay", Cashapp, true;
    "blik", "BLIK", Blik, false;
}

pub(crate) fn method_type(name: &str) -> Option<&'static MethodType> {
    METHOD_TYPES.iter().find(|kind| kind.name == name)
}

/// The types left to the upstream (the emulator) when there is one: cards. SEPA
/// debits stay here, since the emulator refuses the mandate a debit is confirmed with.
pub(crate) fn is_upstream_type(name: &str) -> bool {
    name == "card"
}

/// The names of every known type, for an error message.
pub(crate) fn type_names() -> String {
    METHOD_TYPES
        .iter()
        .map(|kind| kind.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    Processing,
    RequiresCapture,
    Canceled,
    Succeeded,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::RequiresPaymentMethod => "requires_payment_method",
            Status::RequiresConfirmation => "requires_confirmation",
            Status::RequiresAction => "requires_action",
            Status::Processing => "processing",
            Status::RequiresCapture => "requires_capture",
            Status::Canceled => "canceled",
            Status::Succeeded => "succeeded",
        }
    }
}

/// Fields to embed whole instead of by id (`expand[]=latest_charge`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Expand(Vec<String>);

impl Expand {
    pub(crate) fn new(fields: Vec<String>) -> Expand {
        Expand(fields)
    }

    pub(crate) fn has(&self, field: &str) -> bool {
        self.0.iter().any(|wanted| wanted == field)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct PaymentMethod {
    pub id: String,
    pub kind: &'static MethodType,
    /// The type's own hash (`ideal: {bank, bic}`, `au_becs_debit: {bsb_number, last4}`, …).
    pub details: Value,
    pub billing_details: Value,
    pub customer: Option<String>,
    pub metadata: Map<String, Value>,
    pub created: i64,
    /// The mandate it debits under, once it has one (bank debits).
    pub mandate: Option<String>,
    /// A card that every payment declines.
    pub declines: bool,
    /// An ACH account ending `0000` that has not been verified yet.
    pub needs_microdeposits: bool,
}

impl PaymentMethod {
    pub(crate) fn to_json(&self) -> Value {
        let mut object = json!({
            "id": self.id,
            "object": "payment_method",
            "allow_redisplay": "unspecified",
            "billing_details": self.billing_details,
            "created": self.created,
            "customer": self.customer,
            "livemode": false,
            "metadata": self.metadata,
            "type": self.kind.name,
        });
        object[self.kind.name] = self.details.clone();
        object
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Customer {
    pub id: String,
    pub email: Option<String>,
    pub name: Option<String>,
    pub phone: Option<String>,
    pub description: Option<String>,
    pub default_payment_method: Option<String>,
    pub metadata: Map<String, Value>,
    pub created: i64,
}

impl Customer {
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "object": "customer",
            "address": null,
            "balance": 0,
            "created": self.created,
            "currency": null,
            "default_source": null,
            "delinquent": false,
            "description": self.description,
            "email": self.email,
            "invoice_prefix": null,
            "invoice_settings": {
                "custom_fields": null,
                "default_payment_method": self.default_payment_method,
                "footer": null,
                "rendering_options": null,
            },
            "livemode": false,
            "metadata": self.metadata,
            "name": self.name,
            "phone": self.phone,
            "preferred_locales": [],
            "shipping": null,
            "tax_exempt": "none",
            "test_clock": null,
        })
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Charge {
    pub id: String,
    pub amount: i64,
    pub amount_captured: i64,
    pub amount_refunded: i64,
    pub captured: bool,
    pub currency: String,
    pub customer: Option<String>,
    pub payment_intent: String,
    pub payment_method: Option<String>,
    pub method_type: &'static str,
    pub billing_details: Value,
    /// `pending`, `succeeded` or `failed`.
    pub status: &'static str,
    pub failure_code: Option<String>,
    pub failure_message: Option<String>,
    pub created: i64,
    /// Ids of its refunds, oldest first.
    pub refunds: Vec<String>,
}

impl Charge {
    /// What can still be refunded.
    pub(crate) fn refundable(&self) -> i64 {
        self.amount_captured - self.amount_refunded
    }

    pub(crate) fn to_json(&self, state: &State) -> Value {
        let refunds: Vec<Value> = self
            .refunds
            .iter()
            .rev()
            .filter_map(|id| state.refunds.get(id))
            .map(Refund::to_json)
            .collect();
        let mut details = json!({ "type": self.method_type });
        details[self.method_type] = json!({});
        json!({
            "id": self.id,
            "object": "charge",
            "amount": self.amount,
            "amount_captured": self.amount_captured,
            "amount_refunded": self.amount_refunded,
            "balance_transaction": null,
            "billing_details": self.billing_details,
            "captured": self.captured,
            "created": self.created,
            "currency": self.currency,
            "customer": self.customer,
            "description": null,
            "disputed": false,
            "failure_code": self.failure_code,
            "failure_message": self.failure_message,
            "livemode": false,
            "metadata": {},
            "paid": self.status == "succeeded",
            "payment_intent": self.payment_intent,
            "payment_method": self.payment_method,
            "payment_method_details": details,
            "refunded": self.amount_captured > 0 && self.amount_refunded >= self.amount_captured,
            "refunds": {
                "object": "list",
                "data": refunds,
                "has_more": false,
                "total_count": self.refunds.len(),
                "url": format!("/v1/charges/{}/refunds", self.id),
            },
            "status": self.status,
        })
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Refund {
    pub id: String,
    pub amount: i64,
    pub charge: String,
    pub currency: String,
    pub payment_intent: String,
    pub reason: Option<String>,
    /// `succeeded`, or `pending` for a bank debit.
    pub status: &'static str,
    pub metadata: Map<String, Value>,
    pub created: i64,
}

impl Refund {
    pub(crate) fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "object": "refund",
            "amount": self.amount,
            "balance_transaction": null,
            "charge": self.charge,
            "created": self.created,
            "currency": self.currency,
            "metadata": self.metadata,
            "payment_intent": self.payment_intent,
            "reason": self.reason,
            "receipt_number": null,
            "source_transfer_reversal": null,
            "status": self.status,
            "transfer_reversal": null,
        })
    }
}

#[derive(Debug, Clone)]
pub(crate) struct PaymentIntent {
    pub id: String,
    pub client_secret: String,
    pub amount: i64,
    pub amount_capturable: i64,
    pub amount_received: i64,
    pub currency: String,
    pub status: Status,
    /// `automatic`, `automatic_async` (the default) or `manual`.
    pub capture_method: String,
    pub customer: Option<String>,
    pub description: Option<String>,
    pub receipt_email: Option<String>,
    pub payment_method: Option<String>,
    pub payment_method_types: Vec<String>,
    /// As sent (`payment_method_options[blik][code]`, …); never answered back.
    pub options: Map<String, Value>,
    pub mandate_data: Option<Value>,
    pub setup_future_usage: Option<String>,
    pub return_url: Option<String>,
    pub metadata: Map<String, Value>,
    pub next_action: Option<Value>,
    pub last_payment_error: Option<Value>,
    pub latest_charge: Option<String>,
    pub canceled_at: Option<i64>,
    pub cancellation_reason: Option<String>,
    pub created: i64,
}

impl PaymentIntent {
    pub(crate) fn to_json(&self, state: &State, expand: &Expand) -> Value {
        let latest_charge = match (&self.latest_charge, expand.has("latest_charge")) {
            (Some(id), true) => state
                .charges
                .get(id)
                .map_or_else(|| json!(id), |charge| charge.to_json(state)),
            (id, _) => json!(id),
        };
        json!({
            "id": self.id,
            "object": "payment_intent",
            "amount": self.amount,
            "amount_capturable": self.amount_capturable,
            "amount_details": { "tip": {} },
            "amount_received": self.amount_received,
            "application": null,
            "application_fee_amount": null,
            "automatic_payment_methods": null,
            "canceled_at": self.canceled_at,
            "cancellation_reason": self.cancellation_reason,
            "capture_method": self.capture_method,
            "client_secret": self.client_secret,
            "confirmation_method": "automatic",
            "created": self.created,
            "currency": self.currency,
            "customer": customer_field(state, &self.customer, expand),
            "description": self.description,
            "invoice": null,
            "last_payment_error": self.last_payment_error,
            "latest_charge": latest_charge,
            "livemode": false,
            "metadata": self.metadata,
            "next_action": self.next_action,
            "on_behalf_of": null,
            "payment_method": method_field(state, &self.payment_method, expand),
            "payment_method_configuration_details": null,
            "payment_method_options": options_field(&self.payment_method_types),
            "payment_method_types": self.payment_method_types,
            "processing": null,
            "receipt_email": self.receipt_email,
            "review": null,
            "setup_future_usage": self.setup_future_usage,
            "shipping": null,
            "source": null,
            "statement_descriptor": null,
            "statement_descriptor_suffix": null,
            "status": self.status.as_str(),
            "transfer_data": null,
            "transfer_group": null,
        })
    }
}

#[derive(Debug, Clone)]
pub(crate) struct SetupIntent {
    pub id: String,
    pub client_secret: String,
    pub status: Status,
    pub customer: Option<String>,
    pub description: Option<String>,
    pub payment_method: Option<String>,
    pub payment_method_types: Vec<String>,
    pub options: Map<String, Value>,
    pub mandate_data: Option<Value>,
    pub mandate: Option<String>,
    /// `off_session` (the default) or `on_session`.
    pub usage: String,
    pub return_url: Option<String>,
    pub metadata: Map<String, Value>,
    pub next_action: Option<Value>,
    pub last_setup_error: Option<Value>,
    pub cancellation_reason: Option<String>,
    pub created: i64,
}

impl SetupIntent {
    pub(crate) fn to_json(&self, state: &State, expand: &Expand) -> Value {
        json!({
            "id": self.id,
            "object": "setup_intent",
            "application": null,
            "automatic_payment_methods": null,
            "cancellation_reason": self.cancellation_reason,
            "client_secret": self.client_secret,
            "created": self.created,
            "customer": customer_field(state, &self.customer, expand),
            "description": self.description,
            "flow_directions": null,
            "last_setup_error": self.last_setup_error,
            "latest_attempt": null,
            "livemode": false,
            "mandate": self.mandate,
            "metadata": self.metadata,
            "next_action": self.next_action,
            "on_behalf_of": null,
            "payment_method": method_field(state, &self.payment_method, expand),
            "payment_method_configuration_details": null,
            "payment_method_options": options_field(&self.payment_method_types),
            "payment_method_types": self.payment_method_types,
            "single_use_mandate": null,
            "status": self.status.as_str(),
            "usage": self.usage,
        })
    }
}

/// The customer's id, or the customer when expanded and kept here.
fn customer_field(state: &State, id: &Option<String>, expand: &Expand) -> Value {
    match (id, expand.has("customer")) {
        (Some(id), true) => state
            .customers
            .get(id)
            .map_or_else(|| json!(id), Customer::to_json),
        (id, _) => json!(id),
    }
}

/// The payment method's id, or the method when expanded.
fn method_field(state: &State, id: &Option<String>, expand: &Expand) -> Value {
    match (id, expand.has("payment_method")) {
        (Some(id), true) => state
            .payment_methods
            .get(id)
            .map_or_else(|| json!(id), PaymentMethod::to_json),
        (id, _) => json!(id),
    }
}

/// `payment_method_options`: an empty hash per type (what was sent, such as a BLIK
/// code, is not answered back).
fn options_field(types: &[String]) -> Value {
    let options: Map<String, Value> = types.iter().map(|name| (name.clone(), json!({}))).collect();
    Value::Object(options)
}
