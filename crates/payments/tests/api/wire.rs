//! What goes over the wire, and what the client does when the provider fails. The
//! emulator ignores idempotency keys and the API version and never fails on its own,
//! so these run against a scripted test double of the provider on loopback
//! (`common::scripted_provider`) that records every request and answers with replies
//! written after the provider's published API shapes.

use std::time::{Duration, Instant};

use ferroshop_payments::*;
use serde_json::json;

use crate::common::client_for;
use crate::common::scripted_provider::{payment_intent_json, Reply, ScriptedProvider};

const QUICK: Duration = Duration::from_secs(5);

fn intent_params() -> CreatePaymentIntent {
    let mut params = CreatePaymentIntent::new(1200, Currency::parse("EUR").unwrap());
    params.customer = Some(CustomerId::new("cus_1"));
    params.capture_method = Some(CaptureMethod::Manual);
    params.payment_method_types = vec!["card".into()];
    params.metadata.insert("order_id".into(), "12".into());
    params.metadata.insert("note".into(), "gift & wrap".into());
    params.expand = vec!["latest_charge".into()];
    params
}

fn order_key() -> IdempotencyKey {
    IdempotencyKey::for_order(12, 3, "create-intent")
}

#[tokio::test]
async fn a_post_carries_the_key_the_api_version_the_user_agent_and_the_idempotency_key() {
    let provider = ScriptedProvider::start(vec![Reply::json(
        200,
        payment_intent_json("pi_1", "requires_capture"),
    )])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    let intent = client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap();
    assert_eq!(intent.status, PaymentIntentStatus::RequiresCapture);

    let requests = provider.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.method.as_str(), request.target.as_str()),
        ("POST", "/v1/payment_intents")
    );
    assert_eq!(
        request.header("Authorization"),
        Some("Bearer sk_test_scripted_key_123")
    );
    assert_eq!(request.header("Stripe-Version"), Some(API_VERSION));
    assert_eq!(request.header("Stripe-Version"), Some("2024-06-20"));
    assert_eq!(
        request.header("User-Agent"),
        Some(concat!("Ferroshop/", env!("CARGO_PKG_VERSION")))
    );
    assert_eq!(
        request.header("Content-Type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        request.header("Idempotency-Key"),
        Some("ferroshop-order-12-attempt-3-create-intent")
    );
}

#[tokio::test]
async fn a_created_intent_sends_exactly_the_fields_set() {
    let provider = ScriptedProvider::start(vec![
        Reply::json(200, payment_intent_json("pi_1", "requires_capture")),
        Reply::json(200, payment_intent_json("pi_2", "requires_payment_method")),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 0);

    client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap();
    let bare = CreatePaymentIntent::new(500, Currency::parse("usd").unwrap());
    client
        .create_payment_intent(&bare, &order_key())
        .await
        .unwrap();

    let requests = provider.requests();
    assert_eq!(
        requests[0].body_text(),
        "amount=1200&currency=eur&customer=cus_1&payment_method_types[0]=card&capture_method=manual\
         &metadata[note]=gift%20%26%20wrap&metadata[order_id]=12&expand[0]=latest_charge"
    );
    assert_eq!(requests[1].body_text(), "amount=500&currency=usd");
}

#[tokio::test]
async fn a_read_sends_no_idempotency_key_and_no_body() {
    let provider = ScriptedProvider::start(vec![Reply::json(
        200,
        payment_intent_json("pi_1", "succeeded"),
    )])
    .await;
    let client = client_for(&provider.base_url, QUICK, 0);

    client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_1"))
        .await
        .unwrap();

    let request = &provider.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.target.as_str()),
        ("GET", "/v1/payment_intents/pi_1")
    );
    assert_eq!(request.header("Idempotency-Key"), None);
    assert_eq!(request.header("Stripe-Version"), Some(API_VERSION));
    assert!(request.body.is_empty());
}

#[tokio::test]
async fn ids_cannot_reach_another_path() {
    let provider = ScriptedProvider::start(vec![Reply::json(200, json!({"id": "cus_1"}))]).await;
    let client = client_for(&provider.base_url, QUICK, 0);

    client
        .retrieve_customer(&CustomerId::new("cus_1/../../v1/balance?x"))
        .await
        .unwrap();

    assert_eq!(
        provider.requests()[0].target,
        "/v1/customers/cus_1%2F..%2F..%2Fv1%2Fbalance%3Fx"
    );
}

#[tokio::test]
async fn a_server_error_is_retried_with_the_same_idempotency_key() {
    let provider = ScriptedProvider::start(vec![
        Reply::error(
            500,
            json!({"type": "api_error", "message": "Something went wrong."}),
        ),
        Reply::text(503, "<html>Service Unavailable</html>"),
        Reply::json(200, payment_intent_json("pi_1", "succeeded")),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    let intent = client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap();
    assert_eq!(intent.id.as_str(), "pi_1");

    let requests = provider.requests();
    assert_eq!(requests.len(), 3);
    for request in &requests {
        assert_eq!(
            request.header("Idempotency-Key"),
            Some("ferroshop-order-12-attempt-3-create-intent")
        );
        assert_eq!(request.body, requests[0].body);
    }
}

#[tokio::test]
async fn a_rate_limited_request_is_retried() {
    let provider = ScriptedProvider::start(vec![
        Reply::error(429, json!({"type": "invalid_request_error", "code": "rate_limit", "message": "Too many requests."})),
        Reply::json(200, payment_intent_json("pi_1", "succeeded")),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_1"))
        .await
        .unwrap();
    assert_eq!(provider.requests().len(), 2);
}

#[tokio::test]
async fn a_client_error_is_not_retried_and_keeps_the_providers_details() {
    let provider = ScriptedProvider::start(vec![
        Reply::error(
            402,
            json!({
                "type": "card_error", "code": "card_declined", "decline_code": "insufficient_funds",
                "message": "Your card has insufficient funds.", "charge": "ch_9",
                "payment_intent": payment_intent_json("pi_9", "requires_payment_method"),
                "doc_url": "https://docs.stripe.com/error-codes/card-declined"
            }),
        ),
        Reply::json(200, payment_intent_json("pi_9", "succeeded")),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    let error = client
        .confirm_payment_intent(
            &PaymentIntentId::new("pi_9"),
            &ConfirmPaymentIntent::default(),
            &order_key(),
        )
        .await
        .unwrap_err();

    assert_eq!(provider.requests().len(), 1);
    let refused = error.provider_error().expect("the provider's error object");
    assert_eq!(refused.status, 402);
    assert_eq!(refused.error_type, Some(ErrorType::CardError));
    assert_eq!(refused.code.as_deref(), Some("card_declined"));
    assert_eq!(refused.decline_code.as_deref(), Some("insufficient_funds"));
    assert_eq!(
        refused.message.as_deref(),
        Some("Your card has insufficient funds.")
    );
    assert_eq!(
        refused.payment_intent.as_ref().map(|id| id.as_str()),
        Some("pi_9")
    );
    assert_eq!(refused.charge.as_ref().map(|id| id.as_str()), Some("ch_9"));
    assert_eq!(refused.request_id.as_deref(), Some("req_scripted_402"));
}

#[tokio::test]
async fn a_bad_parameter_is_not_retried_and_names_the_parameter() {
    let provider = ScriptedProvider::start(vec![Reply::error(
        400,
        json!({
            "type": "invalid_request_error", "code": "parameter_invalid_integer", "param": "amount",
            "message": "Invalid integer: abc"
        }),
    )])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    let error = client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap_err();

    assert_eq!(provider.requests().len(), 1);
    let refused = error.provider_error().unwrap();
    assert_eq!(
        (refused.status, refused.param.as_deref()),
        (400, Some("amount"))
    );
    assert!(!refused.is_card_error());
}

#[tokio::test]
async fn the_providers_should_retry_header_decides_over_the_status() {
    let provider = ScriptedProvider::start(vec![
        Reply::error(
            409,
            json!({"type": "invalid_request_error", "code": "lock_timeout"}),
        )
        .with_header("Stripe-Should-Retry", "true"),
        Reply::json(200, payment_intent_json("pi_1", "succeeded")),
        Reply::error(
            500,
            json!({"type": "api_error", "message": "The charge went through."}),
        )
        .with_header("Stripe-Should-Retry", "false"),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap();
    assert_eq!(provider.requests().len(), 2);

    let error = client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap_err();
    assert_eq!(provider.requests().len(), 3);
    assert_eq!(error.provider_error().unwrap().status, 500);
}

#[tokio::test]
async fn retries_stop_after_the_configured_number() {
    let failure = || Reply::error(503, json!({"type": "api_error", "message": "Unavailable."}));
    let provider = ScriptedProvider::start(vec![failure(), failure(), failure(), failure()]).await;
    let client = client_for(&provider.base_url, QUICK, 2);

    let error = client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_1"))
        .await
        .unwrap_err();

    assert_eq!(provider.requests().len(), 3);
    assert_eq!(provider.replies_left(), 1);
    let refused = error.provider_error().unwrap();
    assert_eq!(
        (refused.status, refused.error_type.clone()),
        (503, Some(ErrorType::ApiError))
    );
}

#[tokio::test]
async fn a_request_that_times_out_is_retried_then_reported() {
    let slow =
        || Reply::json(200, payment_intent_json("pi_1", "succeeded")).after(Duration::from_secs(3));
    let provider = ScriptedProvider::start(vec![slow(), slow()]).await;
    let client = client_for(&provider.base_url, Duration::from_millis(300), 1);

    let started = Instant::now();
    let error = client
        .create_payment_intent(&intent_params(), &order_key())
        .await
        .unwrap_err();

    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    match error {
        Error::Network {
            attempts,
            timed_out,
            ..
        } => assert_eq!((attempts, timed_out), (2, true)),
        other => panic!("{other:?}"),
    }
    let requests = provider.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[0].header("Idempotency-Key"),
        requests[1].header("Idempotency-Key")
    );
}

#[tokio::test]
async fn an_unreachable_provider_is_a_network_error_after_every_attempt() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let client = client_for(&format!("http://127.0.0.1:{port}"), QUICK, 2);

    let error = client.check_account().await.unwrap_err();

    match &error {
        Error::Network {
            attempts,
            timed_out,
            ..
        } => assert_eq!((*attempts, *timed_out), (3, false)),
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().contains("3 attempts"), "{error}");
}

#[tokio::test]
async fn an_answer_that_is_not_the_documented_shape_is_unreadable() {
    let provider = ScriptedProvider::start(vec![
        Reply::text(200, "<html>captive portal</html>"),
        Reply::text(404, "<html>Not Found</html>"),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    let error = client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_1"))
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::UnreadableResponse { status: 200, .. }),
        "{error:?}"
    );

    let error = client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_1"))
        .await
        .unwrap_err();
    match error {
        Error::UnreadableResponse { status, reason, .. } => {
            assert_eq!(status, 404);
            assert!(reason.contains("Not Found"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(provider.requests().len(), 2);
}

#[tokio::test]
async fn the_key_check_lists_one_customer_and_reports_a_refused_key() {
    let provider = ScriptedProvider::start(vec![
        Reply::json(200, json!({"object": "list", "url": "/v1/customers", "has_more": true, "data": [{"id": "cus_1", "object": "customer"}]})),
        Reply::error(401, json!({"type": "invalid_request_error", "message": "Invalid API Key provided: sk_test_****_123"})),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 2);

    client.check_account().await.unwrap();
    let error = client.check_account().await.unwrap_err();

    let requests = provider.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        (requests[0].method.as_str(), requests[0].target.as_str()),
        ("GET", "/v1/customers?limit=1")
    );
    assert!(error.provider_error().unwrap().is_authentication_failure());
}

#[tokio::test]
async fn list_and_action_calls_send_their_parameters() {
    let list = json!({"object": "list", "has_more": false, "data": []});
    let method =
        json!({"id": "pm_1", "object": "payment_method", "type": "card", "customer": "cus_1"});
    let provider = ScriptedProvider::start(vec![
        Reply::json(200, list.clone()),
        Reply::json(200, list),
        Reply::json(200, method.clone()),
        Reply::json(200, method),
        Reply::json(200, payment_intent_json("pi_1", "succeeded")),
        Reply::json(200, payment_intent_json("pi_1", "canceled")),
        Reply::json(200, json!({"id": "re_1", "amount": 300, "status": "pending", "payment_intent": "pi_1"})),
        Reply::json(200, json!({"id": "cus_1", "invoice_settings": {"default_payment_method": {"id": "pm_1", "object": "payment_method"}}})),
    ])
    .await;
    let client = client_for(&provider.base_url, QUICK, 0);
    let key = order_key();
    let intent = PaymentIntentId::new("pi_1");

    let mut methods = ListPaymentMethods::cards_of(CustomerId::new("cus_1"));
    methods.limit = Some(5);
    client.list_payment_methods(&methods).await.unwrap();
    let events = ListEvents {
        limit: Some(3),
        event_type: Some("payment_intent.succeeded".into()),
        starting_after: Some(EventId::new("evt_0")),
    };
    client.list_events(&events).await.unwrap();
    client
        .attach_payment_method(
            &PaymentMethodId::new("pm_1"),
            &CustomerId::new("cus_1"),
            &key,
        )
        .await
        .unwrap();
    client
        .detach_payment_method(&PaymentMethodId::new("pm_1"), &key)
        .await
        .unwrap();
    let capture = CapturePaymentIntent {
        amount_to_capture: Some(800),
        ..Default::default()
    };
    client
        .capture_payment_intent(&intent, &capture, &key)
        .await
        .unwrap();
    let cancel = CancelPaymentIntent {
        cancellation_reason: Some(CancellationReason::Abandoned),
    };
    client
        .cancel_payment_intent(&intent, &cancel, &key)
        .await
        .unwrap();
    let refund = CreateRefund {
        amount: Some(300),
        reason: Some(RefundReason::RequestedByCustomer),
        ..CreateRefund::new(intent.clone())
    };
    let refund = client.create_refund(&refund, &key).await.unwrap();
    assert_eq!(refund.status, RefundStatus::Pending);
    let update = UpdateCustomer {
        default_payment_method: Some(PaymentMethodId::new("pm_1")),
        ..Default::default()
    };
    let customer = client
        .update_customer(&CustomerId::new("cus_1"), &update, &key)
        .await
        .unwrap();
    assert_eq!(
        customer.invoice_settings.default_payment_method,
        Some(PaymentMethodId::new("pm_1"))
    );

    let sent: Vec<(String, String, String)> = provider
        .requests()
        .into_iter()
        .map(|r| (r.method.clone(), r.target.clone(), r.body_text().to_owned()))
        .collect();
    let expected = [
        (
            "GET",
            "/v1/payment_methods?customer=cus_1&type=card&limit=5",
            "",
        ),
        (
            "GET",
            "/v1/events?limit=3&type=payment_intent.succeeded&starting_after=evt_0",
            "",
        ),
        ("POST", "/v1/payment_methods/pm_1/attach", "customer=cus_1"),
        ("POST", "/v1/payment_methods/pm_1/detach", ""),
        (
            "POST",
            "/v1/payment_intents/pi_1/capture",
            "amount_to_capture=800",
        ),
        (
            "POST",
            "/v1/payment_intents/pi_1/cancel",
            "cancellation_reason=abandoned",
        ),
        (
            "POST",
            "/v1/refunds",
            "payment_intent=pi_1&amount=300&reason=requested_by_customer",
        ),
        (
            "POST",
            "/v1/customers/cus_1",
            "invoice_settings[default_payment_method]=pm_1",
        ),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(m, t, b)| (m.to_string(), t.to_string(), b.to_string()))
        .collect();
    assert_eq!(sent, expected);
}
