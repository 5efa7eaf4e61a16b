//! A thin client of the card payment provider's REST API (Stripe, API v1): the few
//! calls the shop makes, their answers parsed leniently, retries that never charge
//! twice, and the signature check of the provider's webhooks. No shop logic lives
//! here; the server decides what a payment means for an order.
//!
//! The tests in `tests/api` run against the provider's emulator (localstripe, started
//! by `scripts/payment-emulator.py` from the `.venv` that
//! `scripts/ensure-python-tools` fills) and against a scripted test double of the
//! provider for what the emulator cannot show (retries, headers, exact bodies).
//!
//! ```no_run
//! # async fn example() -> Result<(), ferroshop_payments::Error> {
//! use ferroshop_payments::*;
//!
//! let key = SecretKey::parse("sk_test_…").expect("a secret key");
//! let client = Client::new(ClientConfig::new(key))?;
//! let mut params = CreatePaymentIntent::new(1200, Currency::parse("EUR").unwrap());
//! params.metadata.insert("order_id".into(), "12".into());
//! let intent = client
//!     .create_payment_intent(&params, &IdempotencyKey::for_order(12, 1, "create-intent"))
//!     .await?;
//! # let _ = intent;
//! # Ok(())
//! # }
//! ```

#[macro_use]
mod string_enum;

mod client;
mod currency;
mod error;
mod expandable;
mod form;
mod idempotency;
mod ids;
mod keys;
mod lenient;
mod retry;

#[cfg(feature = "emulator")]
pub mod emulator;

pub mod charges;
pub mod customers;
pub mod events;
pub mod payment_intents;
pub mod payment_methods;
pub mod refunds;
pub mod setup_intents;
pub mod webhook;

pub use charges::{Charge, ChargeStatus};
pub use client::{
    Client, ClientConfig, API_VERSION, DEFAULT_BASE_URL, DEFAULT_MAX_NETWORK_RETRIES,
    DEFAULT_TIMEOUT,
};
pub use currency::{Currency, InvalidCurrency};
pub use customers::{CreateCustomer, Customer, InvoiceSettings, UpdateCustomer};
pub use error::{Error, ErrorType, ProviderError};
pub use events::{Event, EventData, EventObject, EventObjectError, ListEvents};
pub use expandable::{Expandable, Object};
pub use form::Form;
pub use idempotency::{IdempotencyKey, InvalidIdempotencyKey};
pub use ids::{
    ChargeId, ClientSecret, CustomerId, EventId, PaymentIntentId, PaymentMethodId, RefundId,
    SetupIntentId,
};
pub use keys::{InvalidKey, PublishableKey, SecretKey, WebhookSecret};
pub use payment_intents::{
    CancelPaymentIntent, CancellationReason, CaptureMethod, CapturePaymentIntent,
    ConfirmPaymentIntent, CreatePaymentIntent, NextAction, OnlineMandate, PaymentError,
    PaymentIntent, PaymentIntentStatus, PaymentMethodOptions, SetupFutureUsage,
    UpdatePaymentIntent,
};
pub use payment_methods::{
    Address, BillingDetails, CardDetails, ListPaymentMethods, PaymentMethod,
};
pub use refunds::{CreateRefund, Refund, RefundReason, RefundStatus};
pub use setup_intents::{
    ConfirmSetupIntent, CreateSetupIntent, SetupIntent, SetupIntentStatus, SetupIntentUsage,
};

/// Free-form key-value pairs kept with an object (the shop puts its order id there).
pub type Metadata = std::collections::BTreeMap<String, String>;

/// A list page, as the provider returns it for every `GET /v1/<things>`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct List<T> {
    #[serde(default = "Vec::new")]
    pub data: Vec<T>,
    #[serde(default)]
    pub has_more: bool,
}
