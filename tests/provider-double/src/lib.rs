//! A **test double** of the card payment provider's REST API (Stripe, API v1) for the
//! payment method types the provider's emulator (localstripe) does not cover: iDEAL
//! and the other redirect methods, Alipay, vouchers (Boleto, OXXO, Multibanco),
//! WeChat Pay, Cash App Pay, BLIK and the bank debits. It answers with the
//! provider's published object shapes (PaymentIntent, SetupIntent, PaymentMethod,
//! Customer, Refund, Event, and `next_action` types such as `redirect_to_url`,
//! `boleto_display_details` or `verify_with_microdeposits`), so that the shop's own
//! client (`payments`) reads every answer, and it signs its webhooks with
//! `payments::webhook::sign`, so that the shop's webhook check accepts them.
//!
//! It is never used by the shop itself: the server's tests start it with
//! [`Double::start`], and the browser tests run its binary
//! (`cargo run -p ferroshop-provider-double -- --port 0`). Calls it does not own (a
//! card, an id it did not make) go unchanged to an upstream provider when one is
//! given, so one shop can offer cards (the emulator) and the other methods (this
//! double) in one test. Nothing settles on its own: the shopper's side (the
//! authorisation page) or a test's control call moves an intent on. State lives in
//! memory. The README next to this crate is the contract.
//!
//! ```no_run
//! # async fn example() {
//! let double = provider_double::Double::start().await;
//! let client = double.client();
//! # let _ = client;
//! let method = double.create_payment_method("ideal", &[("ideal[bank]", "abn_amro")]).await;
//! # let _ = method;
//! # }
//! ```

mod actions;
mod api;
mod auth;
mod control;
mod customers;
mod error;
mod form;
mod forwarding;
mod intents;
mod methods;
mod objects;
mod page;
mod refunds;
mod setup_intents;
mod state;
mod webhooks;

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Duration;

use axum::routing::{delete, get, post};
use axum::{middleware, Router};
use serde_json::Value;
use tokio::net::TcpListener;

use state::App;

/// A secret key the double takes (it takes any `sk_test_…`).
pub const SECRET_KEY: &str = "sk_test_ferroshop_provider_double";
/// A publishable key the double takes (it takes any `pk_test_…`).
pub const PUBLISHABLE_KEY: &str = "pk_test_ferroshop_provider_double";

/// Serves the double on `listener` until the task is dropped or the process ends.
/// `upstream`, when given, is a loopback `http://` URL that calls the double does not
/// own are forwarded to.
pub async fn serve(listener: TcpListener, upstream: Option<String>) -> std::io::Result<()> {
    let upstream = match upstream {
        Some(url) => Some(
            loopback_url(&url)
                .map_err(|reason| std::io::Error::new(std::io::ErrorKind::InvalidInput, reason))?,
        ),
        None => None,
    };
    let base_url = format!("http://{}", listener.local_addr()?);
    let router = router(Arc::new(App::new(base_url, upstream)));
    axum::serve(listener, router).await
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/_config/webhooks/{name}", post(control::register_webhook))
        .route("/_config/data", delete(control::reset))
        .route(
            "/_double/payment_intents/{id}/{action}",
            post(control::move_intent),
        )
        .route(
            "/_double/setup_intents/{id}/{action}",
            post(control::move_intent),
        )
        .route("/_double/events", get(control::events))
        .route(
            "/_double/authorize/{id}",
            get(page::show).post(page::decide),
        )
        .route("/_double/qr/{file}", get(page::qr))
        .fallback(api::handle)
        .layer(middleware::from_fn(api::cors))
        .with_state(app)
}

/// Checks that `url` is plain `http://` on a loopback address (`127.0.0.1`, `::1`,
/// `localhost`): the only places the double forwards to or delivers webhooks to.
/// Gives it back without a trailing slash.
pub fn loopback_url(url: &str) -> Result<String, String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|error| format!("{url:?} is not a URL: {error}"))?;
    let loopback = parsed.host_str().is_some_and(|host| {
        host.eq_ignore_ascii_case("localhost")
            || host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    });
    if parsed.scheme() != "http"
        || !loopback
        || !parsed.username().is_empty()
        || parsed.password().is_some()
    {
        return Err(format!(
            "{url:?}: the test double only talks plain http:// to loopback addresses (127.0.0.1, [::1], localhost)"
        ));
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// The double serving in the current tokio runtime on a free loopback port; stopped
/// when dropped. The convenience methods are the control calls and the browser's
/// calls a test makes; each panics with the answer when the double refuses.
pub struct Double {
    /// `http://127.0.0.1:PORT`: the `base_url` of the shop's provider client.
    pub base_url: String,
    http: reqwest::Client,
    server: tokio::task::AbortHandle,
}

impl Double {
    /// A double that owns every call (cards included: a card payment simply succeeds).
    pub async fn start() -> Double {
        Double::launch(None).await
    }

    /// A double that forwards what it does not own (cards, customers,
    /// ids it did not make) to `upstream`, a loopback `http://` URL.
    pub async fn start_with_upstream(upstream: &str) -> Double {
        let upstream = loopback_url(upstream).unwrap_or_else(|reason| panic!("{reason}"));
        Double::launch(Some(upstream)).await
    }

    async fn launch(upstream: Option<String>) -> Double {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .await
            .expect("a free loopback port for the provider double");
        let base_url = format!(
            "http://{}",
            listener.local_addr().expect("a bound listener's address")
        );
        let router = router(Arc::new(App::new(base_url.clone(), upstream)));
        let server = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, router).await {
                eprintln!("provider double: the server stopped: {error}");
            }
        })
        .abort_handle();
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("an HTTP client without TLS settings builds");
        Double {
            base_url,
            http,
            server,
        }
    }

    /// The shop's own client, pointed at this double with [`SECRET_KEY`], short
    /// timeouts and no retries.
    pub fn client(&self) -> payments::Client {
        let key = payments::SecretKey::parse(SECRET_KEY).expect("a secret key of the right shape");
        let mut config = payments::ClientConfig::new(key);
        config.base_url = self.base_url.clone();
        config.timeout = Duration::from_secs(10);
        config.max_network_retries = 0;
        payments::Client::new(config).expect("a client of a loopback http URL")
    }

    /// `POST /_config/webhooks/{name}`: every event from now on is delivered to `url`
    /// (loopback `http://`), signed with `secret` (`whsec_…`).
    pub async fn register_webhook(&self, name: &str, url: &str, secret: &str) {
        let path = format!(
            "/_config/webhooks/{}",
            percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC)
        );
        self.post(&path, &[("url", url), ("secret", secret)]).await;
    }

    /// `POST /_double/payment_intents/{id}/succeed` (a setup intent's id works too):
    /// the intent as it is now.
    pub async fn succeed(&self, intent_id: &str) -> Value {
        self.move_intent(intent_id, "succeed", &[]).await
    }

    /// `POST /_double/payment_intents/{id}/process`.
    pub async fn process(&self, intent_id: &str) -> Value {
        self.move_intent(intent_id, "process", &[]).await
    }

    /// `POST /_double/payment_intents/{id}/fail`, with the `last_payment_error` code
    /// and message when given.
    pub async fn fail(&self, intent_id: &str, code: Option<&str>, message: Option<&str>) -> Value {
        let mut fields = Vec::new();
        if let Some(code) = code {
            fields.push(("code", code));
        }
        if let Some(message) = message {
            fields.push(("message", message));
        }
        self.move_intent(intent_id, "fail", &fields).await
    }

    /// `POST /_double/payment_intents/{id}/expire`: a voucher's time ran out.
    pub async fn expire(&self, intent_id: &str) -> Value {
        self.move_intent(intent_id, "expire", &[]).await
    }

    /// `GET /_double/events`: every event sent, oldest first.
    pub async fn events(&self) -> Vec<Value> {
        let response = self
            .http
            .get(format!("{}/_double/events", self.base_url))
            .send()
            .await
            .expect("the provider double answers");
        let list: Value = response.json().await.expect("a JSON list of events");
        list["data"].as_array().cloned().unwrap_or_default()
    }

    /// `POST /v1/payment_methods` as the shopper's browser makes it (with the
    /// publishable key): `method_type` and that type's fields, such as
    /// `("au_becs_debit[account_number]", "000123456")`. Gives the method's id.
    pub async fn create_payment_method(
        &self,
        method_type: &str,
        params: &[(&str, &str)],
    ) -> String {
        let mut fields = vec![("type", method_type), ("key", PUBLISHABLE_KEY)];
        fields.extend_from_slice(params);
        let method = self.post("/v1/payment_methods", &fields).await;
        method["id"]
            .as_str()
            .expect("a payment method has an id")
            .to_owned()
    }

    /// `DELETE /_config/data`: every object and event forgotten (webhook endpoints stay).
    pub async fn reset(&self) {
        let response = self
            .http
            .delete(format!("{}/_config/data", self.base_url))
            .send()
            .await
            .expect("the provider double answers");
        assert!(
            response.status().is_success(),
            "reset: {}",
            response.status()
        );
    }

    async fn move_intent(&self, intent_id: &str, action: &str, fields: &[(&str, &str)]) -> Value {
        let kind = if intent_id.starts_with("seti_") {
            "setup_intents"
        } else {
            "payment_intents"
        };
        let path = format!(
            "/_double/{kind}/{}/{action}",
            percent_encoding::utf8_percent_encode(intent_id, percent_encoding::NON_ALPHANUMERIC)
        );
        self.post(&path, fields).await
    }

    async fn post(&self, path: &str, fields: &[(&str, &str)]) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.base_url))
            .form(fields)
            .send()
            .await
            .expect("the provider double answers");
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        assert!(status.is_success(), "POST {path}: HTTP {status}: {body}");
        serde_json::from_str(&body).unwrap_or(Value::Null)
    }
}

impl Drop for Double {
    fn drop(&mut self) {
        self.server.abort();
    }
}
