//! What the tests share: a started double with a verified webhook receiver, keys,
//! and raw form calls.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing;
use axum::Router;
use payments::webhook::{verify, DEFAULT_TOLERANCE_SECS};
use payments::{Client, CreatePaymentIntent, Currency, Event, IdempotencyKey, WebhookSecret};
use provider_double::{Double, PUBLISHABLE_KEY, SECRET_KEY};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

pub const WEBHOOK_SECRET: &str = "whsec_provider_double_tests";

/// A fresh idempotency key.
pub fn key(action: &str) -> IdempotencyKey {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    IdempotencyKey::for_order(
        i64::from(std::process::id()),
        i64::from(NEXT.fetch_add(1, Ordering::Relaxed)),
        action,
    )
}

pub fn eur(amount: i64) -> CreatePaymentIntent {
    CreatePaymentIntent::new(amount, Currency::parse("EUR").unwrap())
}

/// A webhook endpoint on loopback that takes only deliveries `verify` accepts.
pub struct Receiver {
    pub url: String,
    events: mpsc::UnboundedReceiver<Event>,
}

impl Receiver {
    pub async fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/webhooks", listener.local_addr().unwrap());
        let (sender, events) = mpsc::unbounded_channel();
        let router = Router::new()
            .route("/webhooks", routing::post(receive))
            .with_state(sender);
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        Receiver { url, events }
    }

    /// The first verified event of `event_type` about `object_id`, within ten seconds;
    /// events before it are passed over.
    pub async fn wait_for(&mut self, object_id: &str, event_type: &str) -> Event {
        let wanted = async {
            while let Some(event) = self.events.recv().await {
                if event.event_type == event_type && event.data.object["id"] == object_id {
                    return event;
                }
            }
            panic!("the receiver stopped");
        };
        tokio::time::timeout(Duration::from_secs(10), wanted)
            .await
            .unwrap_or_else(|_| panic!("no {event_type} event for {object_id}"))
    }
}

async fn receive(
    State(sender): State<mpsc::UnboundedSender<Event>>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let signature = headers
        .get("stripe-signature")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    let secret = WebhookSecret::parse(WEBHOOK_SECRET).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    match verify(&body, signature, &secret, now, DEFAULT_TOLERANCE_SECS) {
        Ok(event) => {
            let _ = sender.send(event);
            StatusCode::OK
        }
        Err(_) => StatusCode::BAD_REQUEST,
    }
}

/// A double with a registered, verifying webhook receiver.
pub async fn started() -> (Double, Client, Receiver) {
    let double = Double::start().await;
    let receiver = Receiver::start().await;
    double
        .register_webhook("tests", &receiver.url, WEBHOOK_SECRET)
        .await;
    let client = double.client();
    (double, client, receiver)
}

/// A raw call as a browser or the shop's server would make it; the status and the
/// JSON answer.
pub async fn call(
    double: &Double,
    method: reqwest::Method,
    path: &str,
    key: Option<&str>,
    fields: &[(&str, &str)],
) -> (StatusCode, Value) {
    let mut request =
        reqwest::Client::new().request(method.clone(), format!("{}{path}", double.base_url));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request = if method == reqwest::Method::GET {
        request.query(fields)
    } else {
        request.form(fields)
    };
    let response = request.send().await.unwrap();
    let status = StatusCode::from_u16(response.status().as_u16()).unwrap();
    (status, response.json().await.unwrap())
}

/// A POST with the secret key.
pub async fn post(double: &Double, path: &str, fields: &[(&str, &str)]) -> (StatusCode, Value) {
    call(
        double,
        reqwest::Method::POST,
        path,
        Some(SECRET_KEY),
        fields,
    )
    .await
}

/// A POST as the browser sends it: the publishable key in the form.
pub async fn browser_post(
    double: &Double,
    path: &str,
    fields: &[(&str, &str)],
) -> (StatusCode, Value) {
    let mut fields = fields.to_vec();
    fields.push(("key", PUBLISHABLE_KEY));
    call(double, reqwest::Method::POST, path, None, &fields).await
}

/// A client that does not follow redirects, as a test of the authorisation page needs.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The answer read as the shop's client reads it.
pub fn intent(json: Value) -> payments::PaymentIntent {
    serde_json::from_value(json).expect("an intent the shop's client reads")
}

/// A provider error's code, status and param.
pub fn refusal(error: payments::Error) -> (u16, Option<String>, Option<String>) {
    let error = error
        .provider_error()
        .cloned()
        .expect("the provider's error object");
    (error.status, error.code, error.param)
}
