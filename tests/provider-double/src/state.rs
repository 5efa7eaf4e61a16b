//! The test double's memory: every object it made, the events it sent, the answers
//! kept for idempotency keys and the webhook endpoints. One `std::sync::Mutex` guards
//! it all; no call holds it across an `await`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard, PoisonError};

use axum::http::StatusCode;
use indexmap::IndexMap;
use serde_json::Value;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::form::Params;
use crate::objects::{Charge, Customer, PaymentIntent, PaymentMethod, Refund, SetupIntent};
use crate::webhooks::Endpoint;

/// What the server's handlers share.
pub(crate) struct App {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub base_url: String,
    /// Where calls the double does not own go, without a trailing slash.
    pub upstream: Option<String>,
    /// For forwarding and webhook deliveries (loopback only, no proxy).
    pub http: reqwest::Client,
    state: Mutex<State>,
}

impl App {
    pub(crate) fn new(base_url: String, upstream: Option<String>) -> App {
        let http = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(std::time::Duration::from_secs(2))
            .build()
            .expect("an HTTP client without TLS settings builds");
        App {
            base_url,
            upstream,
            http,
            state: Mutex::new(State::default()),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// An answer kept for an `Idempotency-Key`, with what it answered.
#[derive(Debug, Clone)]
pub(crate) struct Saved {
    pub method: String,
    pub path: String,
    pub body: Vec<u8>,
    pub status: StatusCode,
    pub answer: Value,
}

/// Objects in the order they were made (lists answer newest first).
#[derive(Default)]
pub(crate) struct State {
    pub payment_intents: IndexMap<String, PaymentIntent>,
    pub setup_intents: IndexMap<String, SetupIntent>,
    pub payment_methods: IndexMap<String, PaymentMethod>,
    pub customers: IndexMap<String, Customer>,
    pub charges: IndexMap<String, Charge>,
    pub refunds: IndexMap<String, Refund>,
    /// Every event sent, oldest first.
    pub events: Vec<Value>,
    /// By (API key, idempotency key).
    pub idempotency: HashMap<(String, String), Saved>,
    /// Webhook endpoints by name.
    pub endpoints: BTreeMap<String, Endpoint>,
}

impl State {
    /// Forgets every object and event; webhook endpoints stay.
    pub(crate) fn reset(&mut self) {
        let endpoints = std::mem::take(&mut self.endpoints);
        *self = State {
            endpoints,
            ..State::default()
        };
    }
}

/// One call being answered here.
pub(crate) struct Ctx<'a> {
    pub caller: &'a Caller,
    pub params: &'a Params,
    /// Where the shopper's browser reaches this double (see `api::public_base`).
    pub public_base: &'a str,
    /// Whether an upstream holds the customers and the card objects.
    pub has_upstream: bool,
}

impl Ctx<'_> {
    pub(crate) fn require_secret(&self) -> Result<(), ApiError> {
        self.caller.require_secret()
    }
}
