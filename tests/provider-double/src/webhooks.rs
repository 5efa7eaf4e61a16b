//! Events and their webhooks. Every change the double makes is an event, kept for
//! `GET /v1/events` and `GET /_double/events` and queued for every registered endpoint.
//! Each endpoint has one delivery task that sends its events in the order they
//! happened, signed with the shop's own `payments::webhook::sign`, so that
//! `payments::webhook::verify` accepts them. A delivery is tried a few times with
//! short timeouts; no call ever waits for one.

use std::time::Duration;

use payments::WebhookSecret;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::error::{Answer, ApiError};
use crate::methods::list_page;
use crate::objects::{new_id, now};
use crate::state::{Ctx, State};

/// How many times one event is sent to one endpoint before it is given up.
const ATTEMPTS: u32 = 4;
/// The limit for one attempt, from connecting to the last byte of the answer.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);

/// A registered webhook endpoint and the queue of its delivery task.
pub(crate) struct Endpoint {
    queue: mpsc::UnboundedSender<Vec<u8>>,
}

impl State {
    /// Records an event about `object` and queues it for every endpoint.
    pub(crate) fn emit(&mut self, event_type: &str, object: Value) {
        let event = json!({
            "id": new_id("evt"),
            "object": "event",
            "api_version": payments::API_VERSION,
            "created": now(),
            "data": { "object": object },
            "livemode": false,
            "pending_webhooks": self.endpoints.len(),
            "request": { "id": null, "idempotency_key": null },
            "type": event_type,
        });
        let payload = serde_json::to_vec(&event).expect("JSON values serialize");
        for endpoint in self.endpoints.values() {
            // A closed queue means the runtime is going away.
            let _ = endpoint.queue.send(payload.clone());
        }
        self.events.push(event);
    }
}

/// `POST /_config/webhooks/{name}`: events from now on go to `url`, signed with
/// `secret`. The same name again replaces the endpoint. Must run inside the tokio
/// runtime that serves the double (it starts the delivery task).
pub(crate) fn register(
    state: &mut State,
    http: &reqwest::Client,
    name: &str,
    url: &str,
    secret: &str,
) -> Result<(), ApiError> {
    let url = crate::loopback_url(url).map_err(|reason| ApiError::invalid_param("url", reason))?;
    let secret = WebhookSecret::parse(secret)
        .map_err(|error| ApiError::invalid_param("secret", error.to_string()))?;
    let (queue, deliveries) = mpsc::unbounded_channel();
    tokio::spawn(deliver(
        http.clone(),
        name.to_owned(),
        url,
        secret,
        deliveries,
    ));
    state.endpoints.insert(name.to_owned(), Endpoint { queue });
    Ok(())
}

/// One endpoint's delivery task: its events one after the other.
async fn deliver(
    http: reqwest::Client,
    name: String,
    url: String,
    secret: WebhookSecret,
    mut deliveries: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(payload) = deliveries.recv().await {
        let mut last_problem = String::new();
        for attempt in 1..=ATTEMPTS {
            // Signed afresh for each attempt, as the provider does.
            let signature = payments::webhook::sign(&payload, &secret, now());
            let sent = http
                .post(&url)
                .header("Content-Type", "application/json; charset=utf-8")
                .header("Stripe-Signature", signature)
                .timeout(ATTEMPT_TIMEOUT)
                .body(payload.clone())
                .send()
                .await;
            match sent {
                Ok(answer) if answer.status().is_success() => {
                    last_problem.clear();
                    break;
                }
                Ok(answer) => last_problem = format!("HTTP {}", answer.status().as_u16()),
                Err(error) => last_problem = error.to_string(),
            }
            if attempt < ATTEMPTS {
                tokio::time::sleep(Duration::from_millis(100 * 4u64.pow(attempt - 1))).await;
            }
        }
        if !last_problem.is_empty() {
            eprintln!(
                "provider double: webhook endpoint {name:?} ({url}) did not take an event after {ATTEMPTS} attempts: {last_problem}"
            );
        }
    }
}

/// Events newest first, filtered by `type`, for `GET /v1/events`.
pub(crate) fn matching<'s>(
    state: &'s State,
    ctx: &Ctx,
) -> impl Iterator<Item = &'s Value> + use<'s> {
    let wanted = ctx.params.string(&["type"]);
    state.events.iter().rev().filter(move |event| {
        wanted
            .as_deref()
            .is_none_or(|wanted| event["type"] == wanted)
    })
}

/// `GET /v1/events`, when there is no upstream to merge with.
pub(crate) fn list(state: &mut State, ctx: &Ctx) -> Answer {
    ctx.require_secret()?;
    list_page(ctx.params, "/v1/events", matching(state, ctx).cloned())
}

/// `GET /v1/events/{id}`.
pub(crate) fn retrieve(state: &mut State, ctx: &Ctx, id: &str) -> Answer {
    ctx.require_secret()?;
    state
        .events
        .iter()
        .find(|event| event["id"] == id)
        .cloned()
        .ok_or_else(|| ApiError::no_such("event", id, "id"))
}
