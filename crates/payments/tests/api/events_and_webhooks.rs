//! Events read back from the emulator, and a webhook it delivers, signed, to an
//! endpoint on loopback.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ferroshop_payments::*;

use crate::common::emulator::Emulator;
use crate::common::key;
use crate::common::webhook_listener::WebhookListener;

async fn paid(client: &Client) -> PaymentIntent {
    let mut params = CreatePaymentIntent::new(1200, Currency::parse("EUR").unwrap());
    params.payment_method = Some(PaymentMethodId::new("pm_card_visa"));
    params.confirm = Some(true);
    client
        .create_payment_intent(&params, &key("create-intent"))
        .await
        .unwrap()
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

#[tokio::test]
async fn an_event_is_listed_and_retrieved() {
    let client = Emulator::shared().client();
    let intent = paid(&client).await;

    // Other tests add events beside this one: page through them all.
    let mut params = ListEvents {
        limit: Some(20),
        event_type: Some("payment_intent.succeeded".into()),
        starting_after: None,
    };
    let found = loop {
        let page = client.list_events(&params).await.unwrap();
        assert!(page
            .data
            .iter()
            .all(|e| e.event_type == "payment_intent.succeeded"));
        if let Some(event) = page.data.iter().find(|e| {
            e.payment_intent()
                .map(|i| i.id == intent.id)
                .unwrap_or(false)
        }) {
            break event.clone();
        }
        assert!(
            page.has_more,
            "no payment_intent.succeeded event for {}",
            intent.id
        );
        params.starting_after = page.data.last().map(|e| e.id.clone());
    };

    let event = client.retrieve_event(&found.id).await.unwrap();
    assert_eq!(event.id, found.id);
    assert_eq!(event.object_type(), Some("payment_intent"));
    assert!(event.created > 0);
    assert!(!event.livemode);
    let carried = event.payment_intent().unwrap();
    assert_eq!(carried.status, PaymentIntentStatus::Succeeded);
    assert_eq!(carried.amount, 1200);
}

#[tokio::test]
async fn a_succeeded_payment_is_delivered_as_a_signed_webhook_that_verifies() {
    let emulator = Emulator::shared();
    let client = emulator.client();
    let mut endpoint = WebhookListener::start().await;
    let secret_text = "whsec_ferroshop_test_endpoint";
    let secret = WebhookSecret::parse(secret_text).unwrap();
    let name = format!("endpoint-{}", std::process::id());
    emulator
        .register_webhook(&name, &endpoint.url, secret_text)
        .await;

    let intent = paid(&client).await;

    let delivery = endpoint
        .wait_for(Duration::from_secs(15), |delivery| {
            let body: serde_json::Value =
                serde_json::from_slice(&delivery.body).unwrap_or_default();
            body["type"] == "payment_intent.succeeded"
                && body["data"]["object"]["id"] == intent.id.as_str()
        })
        .await
        .expect("the payment_intent.succeeded webhook");
    assert_eq!(delivery.method, "POST");
    assert_eq!(delivery.target, "/webhooks/payments");
    let signature = delivery
        .header("Stripe-Signature")
        .expect("a signature header");

    let event = webhook::verify(
        &delivery.body,
        signature,
        &secret,
        now(),
        webhook::DEFAULT_TOLERANCE_SECS,
    )
    .expect("a signature that verifies");
    assert_eq!(event.event_type, "payment_intent.succeeded");
    let carried = event.payment_intent().unwrap();
    assert_eq!(carried.id, intent.id);
    assert_eq!(carried.status, PaymentIntentStatus::Succeeded);

    let wrong = WebhookSecret::parse("whsec_someone_else").unwrap();
    assert_eq!(
        webhook::verify(
            &delivery.body,
            signature,
            &wrong,
            now(),
            webhook::DEFAULT_TOLERANCE_SECS
        )
        .unwrap_err(),
        webhook::WebhookError::NoMatchingSignature
    );
    // The emulator signs exactly as `sign` does.
    assert_eq!(
        webhook::sign(&delivery.body, &secret, event.created),
        signature
    );
}
