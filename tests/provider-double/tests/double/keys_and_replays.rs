//! Keys (what the publishable key may do), idempotent replays, unknown ids, CORS.

use axum::http::StatusCode;
use payments::*;
use provider_double::{Double, PUBLISHABLE_KEY, SECRET_KEY};
use reqwest::Method;

use crate::common::*;

#[tokio::test]
async fn the_publishable_key_may_only_make_methods_and_read_or_confirm_with_the_client_secret() {
    let double = Double::start().await;
    let method = double.create_payment_method("ideal", &[]).await;

    // Anything else with the publishable key: 401 in the provider's error shape.
    let (status, error) = browser_post(
        &double,
        "/v1/payment_intents",
        &[
            ("amount", "100"),
            ("currency", "eur"),
            ("payment_method_types[]", "ideal"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error["error"]["type"], "invalid_request_error");
    let (status, _) = call(
        &double,
        Method::GET,
        &format!("/v1/payment_methods/{method}"),
        Some(PUBLISHABLE_KEY),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    // No key, a malformed one, a live one.
    for key in [None, Some("nonsense"), Some("sk_live_123456789012")] {
        let (status, error) = call(&double, Method::GET, "/v1/customers", key, &[]).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{key:?}");
        assert!(error["error"]["message"].is_string());
    }
    // The key as Basic authentication's user name, as curl -u sends it.
    let answer = reqwest::Client::new()
        .get(format!("{}/v1/customers", double.base_url))
        .basic_auth(SECRET_KEY, None::<&str>)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let client_error = double
        .client()
        .retrieve_payment_intent(&PaymentIntentId::new("pi_x"))
        .await
        .unwrap_err();
    assert_eq!(refusal(client_error).0, 404);

    let (status, created) = post(
        &double,
        "/v1/payment_intents",
        &[
            ("amount", "100"),
            ("currency", "eur"),
            ("payment_method_types[]", "ideal"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let created = intent(created);
    let path = format!("/v1/payment_intents/{}", created.id);
    let secret = created.client_secret.as_ref().unwrap().expose();

    let (status, _) = call(
        &double,
        Method::GET,
        &path,
        None,
        &[("key", PUBLISHABLE_KEY)],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = call(
        &double,
        Method::GET,
        &path,
        None,
        &[("key", PUBLISHABLE_KEY), ("client_secret", "pi_x_secret_y")],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, read) = call(
        &double,
        Method::GET,
        &path,
        None,
        &[("key", PUBLISHABLE_KEY), ("client_secret", secret)],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(intent(read).id, created.id);

    // Update and cancel are the server's.
    let (status, _) = browser_post(
        &double,
        &path,
        &[("client_secret", secret), ("amount", "1")],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let (status, confirmed) = browser_post(
        &double,
        &format!("{path}/confirm"),
        &[
            ("client_secret", secret),
            ("payment_method", method.as_str()),
            ("return_url", "http://127.0.0.1:9/back"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{confirmed}");
    assert_eq!(
        intent(confirmed).status,
        PaymentIntentStatus::RequiresAction
    );

    // A browser's form may also carry the method inline.
    let (status, created) = post(
        &double,
        "/v1/payment_intents",
        &[
            ("amount", "100"),
            ("currency", "eur"),
            ("payment_method_types[]", "p24"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let created = intent(created);
    let (status, confirmed) = browser_post(
        &double,
        &format!("/v1/payment_intents/{}/confirm", created.id),
        &[
            (
                "client_secret",
                created.client_secret.as_ref().unwrap().expose(),
            ),
            ("payment_method_data[type]", "p24"),
            (
                "payment_method_data[billing_details][email]",
                "jan@example.test",
            ),
            ("return_url", "http://127.0.0.1:9/back"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{confirmed}");
    let confirmed = intent(confirmed);
    assert_eq!(confirmed.status, PaymentIntentStatus::RequiresAction);
    let method = double
        .client()
        .retrieve_payment_method(confirmed.payment_method_id().unwrap())
        .await
        .unwrap();
    assert_eq!(method.method_type, "p24");
    assert_eq!(
        method.billing_details.email.as_deref(),
        Some("jan@example.test")
    );
}

#[tokio::test]
async fn the_same_idempotency_key_gets_the_first_answer_again() {
    let (double, client, _receiver) = started().await;
    let mut params = eur(700);
    params.payment_method_types = vec!["eps".into()];
    let once = key("create");
    let first = client.create_payment_intent(&params, &once).await.unwrap();
    let second = client.create_payment_intent(&params, &once).await.unwrap();
    assert_eq!(first.id, second.id);
    let created: Vec<_> = double
        .events()
        .await
        .into_iter()
        .filter(|event| event["type"] == "payment_intent.created")
        .collect();
    assert_eq!(created.len(), 1);

    // The replay says so.
    let response = reqwest::Client::new()
        .post(format!("{}/v1/payment_intents", double.base_url))
        .bearer_auth(SECRET_KEY)
        .header("Idempotency-Key", "replayed-by-hand")
        .form(&[
            ("amount", "700"),
            ("currency", "eur"),
            ("payment_method_types[]", "eps"),
        ])
        .send()
        .await
        .unwrap();
    assert!(response.headers().get("idempotent-replayed").is_none());
    assert!(response.headers()["request-id"]
        .to_str()
        .unwrap()
        .starts_with("req_"));
    let first: serde_json::Value = response.json().await.unwrap();
    let response = reqwest::Client::new()
        .post(format!("{}/v1/payment_intents", double.base_url))
        .bearer_auth(SECRET_KEY)
        .header("Idempotency-Key", "replayed-by-hand")
        .form(&[
            ("amount", "700"),
            ("currency", "eur"),
            ("payment_method_types[]", "eps"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["idempotent-replayed"], "true");
    let again: serde_json::Value = response.json().await.unwrap();
    assert_eq!(first, again);

    // The same key with other parameters is refused.
    params.amount = 701;
    let error = client
        .create_payment_intent(&params, &once)
        .await
        .unwrap_err();
    let error = error.provider_error().unwrap();
    assert_eq!(error.status, 400);
    assert_eq!(error.error_type, Some(ErrorType::IdempotencyError));
}

#[tokio::test]
async fn unknown_ids_are_missing_and_bad_parameters_refused() {
    let (_double, client, _receiver) = started().await;
    let error = client
        .retrieve_payment_intent(&PaymentIntentId::new("pi_unknown"))
        .await
        .unwrap_err();
    assert_eq!(
        refusal(error),
        (404, Some("resource_missing".into()), Some("intent".into()))
    );
    let error = client
        .retrieve_payment_method(&PaymentMethodId::new("pm_unknown"))
        .await
        .unwrap_err();
    assert_eq!(refusal(error).1.as_deref(), Some("resource_missing"));
    let error = client
        .retrieve_customer(&CustomerId::new("cus_unknown"))
        .await
        .unwrap_err();
    assert_eq!(refusal(error).0, 404);

    let mut params = eur(100);
    params.payment_method_types = vec!["carrier_pigeon".into()];
    let error = client
        .create_payment_intent(&params, &key("create"))
        .await
        .unwrap_err();
    assert_eq!(
        refusal(error),
        (400, None, Some("payment_method_types".into()))
    );
}

#[tokio::test]
async fn pages_may_call_it_directly() {
    let double = Double::start().await;
    let preflight = reqwest::Client::new()
        .request(
            Method::OPTIONS,
            format!("{}/v1/payment_methods", double.base_url),
        )
        .header("Origin", "http://127.0.0.1:3000")
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization, stripe-version",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    let allowed = preflight.headers()["access-control-allow-headers"]
        .to_str()
        .unwrap();
    for header in [
        "Authorization",
        "Content-Type",
        "Stripe-Version",
        "Idempotency-Key",
    ] {
        assert!(allowed.contains(header), "{allowed}");
    }
    let answer = reqwest::Client::new()
        .get(format!("{}/v1/customers", double.base_url))
        .bearer_auth(SECRET_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.headers()["access-control-allow-origin"], "*");
}

#[tokio::test]
async fn a_delivery_that_fails_is_tried_again_without_holding_up_the_answer() {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    // An endpoint that refuses its first delivery.
    let attempts = Arc::new(AtomicU32::new(0));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let seen = attempts.clone();
    let router = axum::Router::new().route(
        "/hook",
        axum::routing::post(move || {
            let seen = seen.clone();
            async move {
                match seen.fetch_add(1, Ordering::SeqCst) {
                    0 => StatusCode::INTERNAL_SERVER_ERROR,
                    _ => StatusCode::OK,
                }
            }
        }),
    );
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

    let double = Double::start().await;
    double.register_webhook("flaky", &url, WEBHOOK_SECRET).await;
    let (status, _) = post(
        &double,
        "/v1/payment_intents",
        &[
            ("amount", "100"),
            ("currency", "eur"),
            ("payment_method_types[]", "ideal"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The answer came before the second attempt (which waits a tenth of a second).
    assert!(attempts.load(Ordering::SeqCst) < 2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while attempts.load(Ordering::SeqCst) < 2 {
        assert!(std::time::Instant::now() < deadline, "not delivered again");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
