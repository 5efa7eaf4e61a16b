//! The provider's side: `payment_intent.succeeded` events for the intents the shop
//! made, delivered to its webhook endpoint signed with the endpoint's secret, as the
//! provider delivers them (a fresh `Stripe-Signature` timestamp on every delivery,
//! redeliveries included).

use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use payments::webhook;
use payments::WebhookSecret;
use reqwest::header::{HeaderValue, CONTENT_TYPE};
use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::payer::{IntentId, OrderId, OrderState};
use crate::shop::Failure;

pub struct Provider {
    client: Client,
    endpoint: String,
    secret: WebhookSecret,
}

impl Provider {
    pub fn new(client: Client, base_url: &str, secret: WebhookSecret) -> Provider {
        Provider {
            client,
            endpoint: format!("{}/?wc-api=wc_stripe", base_url.trim_end_matches('/')),
            secret,
        }
    }

    /// Delivers one event; the shop must acknowledge it with 200 `{"received":true}`,
    /// the first time and every time after.
    pub async fn deliver(&self, event: &Bytes) -> Result<(), Failure> {
        let signature = webhook::sign(event, &self.secret, unix_now());
        let res = self
            .client
            .post(&self.endpoint)
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .header("Stripe-Signature", signature)
            .body(event.clone())
            .send()
            .await?;
        let status = res.status();
        let body = res.bytes().await?;
        let acknowledged = status == StatusCode::OK
            && serde_json::from_slice::<Value>(&body).is_ok_and(|v| v["received"] == true);
        if acknowledged {
            Ok(())
        } else {
            let text = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
            Err(Failure(format!(
                "POST /?wc-api=wc_stripe answered {status}: {text}"
            )))
        }
    }
}

/// Event number `n`: the intent succeeded, with its charge, for the whole order.
pub fn payment_succeeded(n: usize, intent: &IntentId, order: OrderId, state: &OrderState) -> Bytes {
    let event = json!({
        "id": format!("evt_bench_{n}"),
        "object": "event",
        "type": "payment_intent.succeeded",
        "created": unix_now(),
        "api_version": payments::API_VERSION,
        "livemode": false,
        "data": {
            "object": {
                "id": intent.0,
                "object": "payment_intent",
                "amount": state.total,
                "amount_received": state.total,
                "currency": state.currency,
                "status": "succeeded",
                "metadata": {"order_id": order.0.to_string()},
                "latest_charge": format!("ch_bench_{n}"),
            }
        }
    });
    Bytes::from(serde_json::to_vec(&event).expect("a JSON value serialises"))
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
