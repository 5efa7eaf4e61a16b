//! Card payments end to end, against the provider's emulator on loopback: checkout,
//! 3-D Secure, declines and paying again, kept cards, the webhooks, the races between
//! them, and the staff's captures and refunds — on both databases.

mod common;

use std::time::Duration;

use common::*;
use payments::emulator::{Emulator, PUBLISHABLE_KEY, SECRET_KEY};
use payments::{PublishableKey, SecretKey, WebhookSecret};
use serde_json::{json, Value};

const WEBHOOK_SECRET: &str = "whsec_ferroshop_test_secret";

/// The shop connected to the shared emulator.
async fn spawn_paying(
    backend: Backend,
    configure: impl FnOnce(&mut ferroshop::config::Config),
) -> Option<TestApp> {
    let emulator = Emulator::shared();
    spawn_app_with(backend, |c| {
        c.payments.publishable_key = Some(PublishableKey::parse(PUBLISHABLE_KEY).unwrap());
        c.payments.secret_key = Some(SecretKey::parse(SECRET_KEY).unwrap());
        c.payments.webhook_secret = Some(WebhookSecret::parse(WEBHOOK_SECRET).unwrap());
        c.payments.api_base = emulator.base_url.clone();
        configure(c);
    })
    .await
}

/// A shopper's browser: a cookie jar and the Store API nonce.
struct Browser<'a> {
    app: &'a TestApp,
    client: reqwest::Client,
    nonce: String,
}

impl<'a> Browser<'a> {
    async fn new(app: &'a TestApp) -> Browser<'a> {
        let client = app.shopper();
        let nonce = app.nonce(&client).await;
        Browser { app, client, nonce }
    }

    async fn post(&mut self, url: String, body: Value) -> (u16, Value) {
        let res = self
            .client
            .post(url)
            .header("Nonce", &self.nonce)
            .json(&body)
            .send()
            .await
            .unwrap();
        if let Some(n) = res.headers().get("nonce") {
            self.nonce = n.to_str().unwrap().to_string();
        }
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn add(&mut self, product: i64, quantity: i64) {
        let (status, body) = self
            .post(
                self.app.api("/cart/add-item"),
                json!({"id": product, "quantity": quantity}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }

    /// Checks out the cart paying with `data` (the card method's payment_data).
    async fn checkout(&mut self, data: Value) -> (u16, Value) {
        self.post(
            self.app.api("/checkout"),
            json!({
                "billing_address": ada_address(), "shipping_address": ada_address(),
                "payment_method": "stripe", "payment_data": data,
            }),
        )
        .await
    }

    async fn register(&mut self, email: &str) {
        let (status, body) = self
            .post(
                self.app.url("/wp-json/ferroshop/v1/account/register"),
                json!({"email": email, "password": "a long enough passphrase 42", "first_name": "Ada", "last_name": "Lovelace"}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }

    async fn page_settings(&self, query: &str) -> Value {
        self.client
            .get(self.app.url(&format!(
                "/wp-json/ferroshop/v1/payments/page-settings?{query}"
            )))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// A `wc-ajax` payment call, form-encoded as the original's script sends it.
    async fn ajax(&self, name: &str, form: &[(&str, &str)]) -> (u16, Value) {
        let res = self
            .client
            .post(self.app.url(&format!("/?wc-ajax={name}")))
            .form(form)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }
}

fn card(method: &str) -> Value {
    json!([
        {"key": "wc-stripe-payment-method", "value": method},
        {"key": "wc-stripe-is-deferred-intent", "value": "1"},
        {"key": "wc-stripe-payment-type", "value": "card"},
    ])
}

fn card_kept(method: &str) -> Value {
    json!([
        {"key": "wc-stripe-payment-method", "value": method},
        {"key": "wc-stripe-new-payment-method", "value": "true"},
    ])
}

async fn notes(app: &TestApp, order: i64) -> Vec<String> {
    sqlx::query_scalar("SELECT note FROM order_notes WHERE order_id = $1 ORDER BY id")
        .bind(order)
        .fetch_all(app.db().reader())
        .await
        .unwrap()
}

async fn mails_of_kind(app: &TestApp, kind: &str) -> usize {
    outbox(app).await.iter().filter(|m| m.kind == kind).count()
}

async fn count(app: &TestApp, sql: &str, order: i64) -> i64 {
    sqlx::query_scalar(sql)
        .bind(order)
        .fetch_one(app.db().reader())
        .await
        .unwrap()
}

/// The `#wc-stripe-confirm-pi:` fragment's parts: order, client secret, nonce.
fn fragment(redirect: &str) -> (i64, String, String) {
    let (_, tail) = redirect
        .split_once("#wc-stripe-confirm-pi:")
        .expect("a confirm fragment");
    let parts: Vec<&str> = tail.split(':').collect();
    assert_eq!(parts.len(), 3, "{redirect}");
    (
        parts[0].parse().unwrap(),
        parts[1].to_string(),
        parts[2].to_string(),
    )
}

fn intent_of(secret: &str) -> String {
    secret.split("_secret_").next().unwrap().to_string()
}

async fn authenticate(intent: &str, secret: &str, success: bool) {
    let emulator = Emulator::shared();
    let res = reqwest::Client::new()
        .post(format!(
            "{}/v1/payment_intents/{intent}/_authenticate?success={success}",
            emulator.base_url
        ))
        .form(&[("key", PUBLISHABLE_KEY), ("client_secret", secret)])
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
}

/// The provider's event about an intent, signed as the provider signs it.
async fn signed_event(kind: &str, intent: &str, event_id: &str, at: i64) -> (String, String) {
    let object: Value = reqwest::Client::new()
        .get(format!(
            "{}/v1/payment_intents/{intent}",
            Emulator::shared().base_url
        ))
        .bearer_auth(SECRET_KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let body = json!({
        "id": event_id, "object": "event", "type": kind, "created": at,
        "api_version": "2024-06-20", "livemode": false, "data": {"object": object},
    })
    .to_string();
    let header = payments::webhook::sign(
        body.as_bytes(),
        &WebhookSecret::parse(WEBHOOK_SECRET).unwrap(),
        at,
    );
    (body, header)
}

async fn deliver(app: &TestApp, body: &str, signature: &str) -> u16 {
    reqwest::Client::new()
        .post(app.url("/?wc-api=wc_stripe"))
        .header("Stripe-Signature", signature)
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn a_card_pays_the_order_at_checkout_once(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let stock_before = stock_of(&app, BEANIE).await;
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 2).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let (status, order) = b.checkout(card(pm.as_str())).await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["status"], "processing");
    assert_eq!(order["payment_method"], "stripe");
    assert_eq!(order["payment_result"]["payment_status"], "success");
    let id = order["order_id"].as_i64().unwrap();
    assert!(order["payment_result"]["redirect_url"]
        .as_str()
        .unwrap()
        .contains(&format!("/checkout/order-received/{id}/")));
    assert_eq!(
        stock_of(&app, BEANIE).await,
        stock_before.map(|s| s - 2),
        "stock taken once"
    );
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Stripe charge complete (Charge ID: ")));
    assert_eq!(mails_of_kind(&app, "customer_processing_order").await, 1);
    assert_eq!(mails_of_kind(&app, "new_order").await, 1);
    let transaction: String = sqlx::query_scalar("SELECT transaction_id FROM orders WHERE id = $1")
        .bind(id)
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert!(!transaction.is_empty());
    app.stop().await;
}

async fn a_checkout_without_card_details_places_nothing(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    for data in [json!([]), card("card_123"), card("pm_<b>")] {
        let (status, body) = b.checkout(data).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["message"], "Invalid or missing payment details. Please ensure the provided payment method is correctly entered.");
    }
    let orders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status <> 'checkout-draft'")
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    assert_eq!(orders, 0);
    app.stop().await;
}

async fn a_declined_card_fails_the_order_and_it_is_paid_again_without_a_second_order(
    backend: Backend,
) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let stock_before = stock_of(&app, BEANIE).await;
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let (status, body) = b.checkout(card("pm_card_chargeCustomerFail")).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["code"],
        "woocommerce_rest_checkout_process_payment_error"
    );
    assert_eq!(body["message"], "The card was declined.");
    let id = body["data"]["order_id"].as_i64().unwrap();
    let pay_url = body["data"]["pay_url"].as_str().unwrap().to_string();
    assert!(pay_url.contains(&format!("/checkout/order-pay/{id}/")));
    assert_eq!(status_of(&app, id).await, "failed");
    assert_eq!(
        stock_of(&app, BEANIE).await,
        stock_before.map(|s| s - 1),
        "the failed order keeps its stock"
    );
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.contains("Reason: The card was declined.")));

    // Paying again on the order-pay page: the same order, stock taken once.
    let key = pay_url.split("key=").nth(1).unwrap().to_string();
    let good = Emulator::shared().create_card("4242424242424242").await;
    let (status, paid) = b
        .post(
            app.api(&format!(
                "/checkout/{id}?key={key}&billing_email=ada@example.test"
            )),
            json!({"payment_method": "stripe", "payment_data": card(good.as_str())}),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["status"], "processing");
    assert_eq!(paid["order_id"], id);
    let orders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status <> 'checkout-draft'")
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    assert_eq!(orders, 1);
    assert_eq!(stock_of(&app, BEANIE).await, stock_before.map(|s| s - 1));
    assert_eq!(
        count(
            &app,
            "SELECT payment_attempts FROM orders WHERE id = $1",
            id
        )
        .await,
        2
    );
    app.stop().await;
}

async fn three_d_secure_is_finished_in_the_page_and_only_the_providers_word_moves_the_order(
    backend: Backend,
) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4000000000003220").await;
    let (status, order) = b.checkout(card(pm.as_str())).await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["status"], "pending");
    assert_eq!(order["payment_result"]["payment_status"], "pending");
    let (id, secret, nonce) = fragment(order["payment_result"]["redirect_url"].as_str().unwrap());
    assert_eq!(id, order["order_id"].as_i64().unwrap());
    let intent = intent_of(&secret);
    let order_id = id.to_string();

    // Saying it is done before the challenge is passed changes nothing.
    let form = [
        ("order_id", order_id.as_str()),
        ("intent_id", intent.as_str()),
        ("payment_method_id", ""),
        ("_ajax_nonce", nonce.as_str()),
    ];
    let (status, answer) = b.ajax("wc_stripe_update_order_status", &form).await;
    assert_ne!(status, 200, "{answer}");
    assert_eq!(answer["success"], false);
    assert_eq!(status_of(&app, id).await, "pending");
    // A wrong nonce is refused.
    let bad = [
        ("order_id", order_id.as_str()),
        ("intent_id", intent.as_str()),
        ("_ajax_nonce", "0000000000"),
    ];
    assert_eq!(b.ajax("wc_stripe_update_order_status", &bad).await.0, 403);

    authenticate(&intent, &secret, true).await;
    let (status, answer) = b.ajax("wc_stripe_update_order_status", &form).await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer["data"]["return_url"]
        .as_str()
        .unwrap()
        .contains(&format!("/checkout/order-received/{id}/")));
    assert_eq!(status_of(&app, id).await, "processing");
    app.stop().await;
}

async fn a_failed_challenge_fails_the_order(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4000000000003220").await;
    let (_, order) = b.checkout(card(pm.as_str())).await;
    let (id, secret, nonce) = fragment(order["payment_result"]["redirect_url"].as_str().unwrap());
    let intent = intent_of(&secret);
    authenticate(&intent, &secret, false).await;
    let order_id = id.to_string();
    let (status, answer) = b
        .ajax(
            "wc_stripe_update_order_status",
            &[
                ("order_id", &order_id),
                ("intent_id", &intent),
                ("_ajax_nonce", &nonce),
            ],
        )
        .await;
    assert_eq!(status, 402, "{answer}");
    assert_eq!(
        answer["data"]["error"]["message"],
        "We are unable to authenticate your payment method. Please choose a different payment method and try again."
    );
    assert_eq!(status_of(&app, id).await, "failed");
    app.stop().await;
}

async fn the_webhook_and_the_return_racing_change_the_order_once(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let stock_before = stock_of(&app, BEANIE).await;
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4000000000003220").await;
    let (_, order) = b.checkout(card(pm.as_str())).await;
    let (id, secret, nonce) = fragment(order["payment_result"]["redirect_url"].as_str().unwrap());
    let intent = intent_of(&secret);
    authenticate(&intent, &secret, true).await;
    let now = rules::clock::now();
    let (body, signature) = signed_event(
        "payment_intent.succeeded",
        &intent,
        &format!("evt_{intent}"),
        now,
    )
    .await;
    let order_id = id.to_string();
    let form = [
        ("order_id", order_id.as_str()),
        ("intent_id", intent.as_str()),
        ("_ajax_nonce", nonce.as_str()),
    ];
    // The shopper's return and the same webhook delivered five times, all at once.
    let url = app.url("/?wc-api=wc_stripe");
    let tasks: Vec<_> = (0..5)
        .map(|_| {
            let (url, body, signature) = (url.clone(), body.clone(), signature.clone());
            tokio::spawn(async move {
                reqwest::Client::new()
                    .post(url)
                    .header("Stripe-Signature", signature)
                    .body(body)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    let returned = b.ajax("wc_stripe_update_order_status", &form).await;
    let mut delivered = Vec::new();
    for t in tasks {
        delivered.push(t.await.unwrap());
    }
    assert_eq!(returned.0, 200, "{}", returned.1);
    assert!(delivered.iter().all(|&s| s == 200), "{delivered:?}");
    assert_eq!(status_of(&app, id).await, "processing");
    assert_eq!(mails_of_kind(&app, "customer_processing_order").await, 1);
    assert_eq!(mails_of_kind(&app, "new_order").await, 1);
    let changes = notes(&app, id)
        .await
        .iter()
        .filter(|n| n.contains("to Processing"))
        .count();
    assert_eq!(changes, 1);
    assert_eq!(stock_of(&app, BEANIE).await, stock_before.map(|s| s - 1));
    // A late failure about the paid intent, delivered afterwards, is noted and ignored.
    let (late, late_signature) = signed_event(
        "payment_intent.payment_failed",
        &intent,
        &format!("evt_late_{intent}"),
        now,
    )
    .await;
    assert_eq!(deliver(&app, &late, &late_signature).await, 200);
    assert_eq!(status_of(&app, id).await, "processing");
    app.stop().await;
}

async fn webhooks_need_a_good_signature_and_a_fresh_timestamp(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4000000000003220").await;
    let (_, order) = b.checkout(card(pm.as_str())).await;
    let (id, secret, _) = fragment(order["payment_result"]["redirect_url"].as_str().unwrap());
    let intent = intent_of(&secret);
    authenticate(&intent, &secret, true).await;
    let now = rules::clock::now();
    let (body, signature) =
        signed_event("payment_intent.succeeded", &intent, "evt_signed", now).await;
    // Tampered, unsigned, signed with another secret, too old.
    assert_eq!(
        deliver(&app, &body.replace("succeeded", "canceled"), &signature).await,
        400
    );
    assert_eq!(deliver(&app, &body, "").await, 400);
    let other = payments::webhook::sign(
        body.as_bytes(),
        &WebhookSecret::parse("whsec_other").unwrap(),
        now,
    );
    assert_eq!(deliver(&app, &body, &other).await, 400);
    let (old, old_signature) =
        signed_event("payment_intent.succeeded", &intent, "evt_old", now - 600).await;
    assert_eq!(deliver(&app, &old, &old_signature).await, 400);
    assert_eq!(
        status_of(&app, id).await,
        "pending",
        "nothing refused was acted on"
    );
    // Several v1 values, one of them right.
    let both = format!("{signature},v1={}", "0".repeat(64));
    assert_eq!(deliver(&app, &body, &both).await, 200);
    assert_eq!(status_of(&app, id).await, "processing");
    // GET is not taken.
    let res = reqwest::Client::new()
        .get(app.url("/?wc-api=wc_stripe"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    app.stop().await;
}

async fn the_emulators_own_deliveries_are_verified_and_noted(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let emulator = Emulator::shared();
    let name = format!("shop{}", app.addr.port());
    emulator
        .register_webhook(&name, &app.url("/?wc-api=wc_stripe"), WEBHOOK_SECRET)
        .await;
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = emulator.create_card("4242424242424242").await;
    let (_, order) = b.checkout(card(pm.as_str())).await;
    let id = order["order_id"].as_i64().unwrap();
    let mut seen = 0;
    for _ in 0..50 {
        seen = count(
            &app,
            "SELECT COUNT(*) FROM payment_events WHERE event_type = 'payment_intent.succeeded' AND object_id IN (SELECT intent_id FROM payment_intents WHERE order_id = $1)",
            id,
        )
        .await;
        if seen > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(seen, 1, "the emulator's signed delivery was taken");
    assert_eq!(status_of(&app, id).await, "processing");
    assert_eq!(mails_of_kind(&app, "customer_processing_order").await, 1);
    app.stop().await;
}

async fn two_tabs_paying_one_order_charge_once(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let (_, body) = b.checkout(card("pm_card_chargeCustomerFail")).await;
    let id = body["data"]["order_id"].as_i64().unwrap();
    let key = body["data"]["pay_url"]
        .as_str()
        .unwrap()
        .split("key=")
        .nth(1)
        .unwrap()
        .to_string();
    let url = app.api(&format!(
        "/checkout/{id}?key={key}&billing_email=ada@example.test"
    ));
    let emulator = Emulator::shared();
    let (one, two) = (
        emulator.create_card("4242424242424242").await,
        emulator.create_card("4242424242424242").await,
    );
    let nonce = b.nonce.clone();
    let pay = |pm: String| {
        b.client
            .post(url.clone())
            .header("Nonce", nonce.clone())
            .json(&json!({"payment_method": "stripe", "payment_data": card(&pm)}))
            .send()
    };
    let (first, second) =
        tokio::join!(pay(one.as_str().to_string()), pay(two.as_str().to_string()));
    let statuses = [
        first.unwrap().status().as_u16(),
        second.unwrap().status().as_u16(),
    ];
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(status_of(&app, id).await, "processing");
    let paid = count(
        &app,
        "SELECT COUNT(*) FROM payment_intents WHERE order_id = $1 AND status = 'succeeded'",
        id,
    )
    .await;
    assert_eq!(paid, 1, "one charge");
    assert_eq!(mails_of_kind(&app, "customer_processing_order").await, 1);
    app.stop().await;
}

async fn a_kept_card_pays_a_later_order_and_can_be_deleted(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.register("ada@example.test").await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let (status, order) = b.checkout(card_kept(pm.as_str())).await;
    assert_eq!(status, 200, "{order}");
    let kept: Value = b
        .client
        .get(app.url("/wp-json/ferroshop/v1/account/payment-methods"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(kept.as_array().unwrap().len(), 1, "{kept}");
    assert_eq!(kept[0]["last4"], "4242");
    assert_eq!(kept[0]["brand"], "visa");
    assert_eq!(kept[0]["is_default"], true);
    let token = kept[0]["id"].as_i64().unwrap().to_string();
    let settings = b.page_settings("context=checkout").await;
    assert_eq!(settings["savedPaymentMethods"][0]["last4"], "4242");

    b.add(CAP, 1).await;
    let (status, second) = b
        .checkout(json!([{"key": "wc-stripe-payment-token", "value": token}]))
        .await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(second["status"], "processing");

    // Someone else's card number is no card at all.
    let mut other = Browser::new(&app).await;
    other.register("grace@example.test").await;
    other.add(CAP, 1).await;
    let (status, _) = other
        .checkout(json!([{"key": "wc-stripe-payment-token", "value": token}]))
        .await;
    assert_eq!(status, 400);

    // A second card kept, then made the default: here and at the provider.
    b.add(CAP, 1).await;
    let another = Emulator::shared().create_card("4242424242424242").await;
    let (status, _) = b.checkout(card_kept(another.as_str())).await;
    assert_eq!(status, 200);
    let settings = b.page_settings("context=checkout").await;
    let second = settings["savedPaymentMethods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["is_default"] == false)
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let (status, list) = b
        .post(
            app.url(&format!(
                "/wp-json/ferroshop/v1/account/payment-methods/{second}/default"
            )),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list[0]["id"], second);
    assert_eq!(list[0]["is_default"], true);
    assert_eq!(list[1]["is_default"], false);
    let customer: Option<String> = sqlx::query_scalar(
        "SELECT provider_customer_id FROM customers WHERE email_key = 'ada@example.test'",
    )
    .fetch_one(app.db().reader())
    .await
    .unwrap();
    let method: String =
        sqlx::query_scalar("SELECT provider_method_id FROM saved_payment_methods WHERE id = $1")
            .bind(second)
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    let at_provider: Value = reqwest::Client::new()
        .get(format!(
            "{}/v1/customers/{}",
            Emulator::shared().base_url,
            customer.unwrap()
        ))
        .bearer_auth(SECRET_KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        at_provider["invoice_settings"]["default_payment_method"],
        method.as_str()
    );

    for id in [token.parse::<i64>().unwrap(), second] {
        let (status, _) = b
            .post(
                app.url(&format!(
                    "/wp-json/ferroshop/v1/account/payment-methods/{id}/delete"
                )),
                json!({}),
            )
            .await;
        assert_eq!(status, 200);
    }
    let (status, left) = b
        .post(
            app.url(&format!(
                "/wp-json/ferroshop/v1/account/payment-methods/{second}/delete"
            )),
            json!({}),
        )
        .await;
    assert_eq!(status, 404, "{left}");
    let settings = b.page_settings("context=checkout").await;
    assert_eq!(settings["savedPaymentMethods"], json!([]));
    app.stop().await;
}

async fn a_guest_cannot_keep_a_card(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let (status, _) = b.checkout(card_kept(pm.as_str())).await;
    assert_eq!(status, 200);
    let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM saved_payment_methods")
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(kept, 0);
    app.stop().await;
}

async fn a_card_is_added_in_the_account_area(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    // Only for the signed-in.
    let settings = b.page_settings("context=add-payment-method").await;
    assert_eq!(settings["code"], "woocommerce_rest_missing_login");
    b.register("ada@example.test").await;
    let settings = b.page_settings("context=add-payment-method").await;
    assert_eq!(settings["cartTotal"], 0);
    let nonce = settings["createAndConfirmSetupIntentNonce"]
        .as_str()
        .unwrap()
        .to_string();
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let res = b
        .client
        .post(app.url("/wp-admin/admin-ajax.php"))
        .form(&[
            ("action", "wc_stripe_create_and_confirm_setup_intent"),
            ("wc-stripe-payment-method", pm.as_str()),
            ("wc-stripe-payment-type", "card"),
            ("_ajax_nonce", nonce.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let answer: Value = res.json().await.unwrap();
    assert_eq!(answer["success"], true, "{answer}");
    assert_eq!(answer["data"]["status"], "succeeded");
    assert!(answer["data"]["id"].as_str().unwrap().starts_with("seti_"));
    let kept = b.page_settings("context=checkout").await["savedPaymentMethods"].clone();
    assert_eq!(kept.as_array().unwrap().len(), 1, "{kept}");
    // A card the issuer refuses is not kept.
    let declined = Emulator::shared().create_card("4000000000000002").await;
    let res = b
        .client
        .post(app.url("/wp-admin/admin-ajax.php"))
        .form(&[
            ("action", "wc_stripe_create_and_confirm_setup_intent"),
            ("wc-stripe-payment-method", declined.as_str()),
            ("_ajax_nonce", nonce.as_str()),
        ])
        .send()
        .await
        .unwrap();
    let answer: Value = res.json().await.unwrap();
    assert_eq!(answer["success"], false, "{answer}");
    assert_eq!(
        b.page_settings("context=checkout").await["savedPaymentMethods"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    app.stop().await;
}

async fn a_customer_changes_an_orders_payment_method_to_a_new_card(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.register("ada@example.test").await;
    b.add(BEANIE, 1).await;
    let (status, order) = b
        .post(
            app.api("/checkout"),
            json!({"billing_address": ada_address(), "shipping_address": ada_address(), "payment_method": "cheque"}),
        )
        .await;
    assert_eq!(status, 200, "{order}");
    let id = order["order_id"].as_i64().unwrap();
    let key = order["order_key"].as_str().unwrap().to_string();
    let settings = b
        .page_settings(&format!("context=change-payment&order_id={id}&key={key}"))
        .await;
    assert_eq!(settings["isChangingPayment"], true);
    // The new card is set up first, as on the add-payment-method page.
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let res = b
        .client
        .post(app.url("/wp-admin/admin-ajax.php"))
        .form(&[
            ("action", "wc_stripe_create_and_confirm_setup_intent"),
            ("wc-stripe-payment-method", pm.as_str()),
            (
                "_ajax_nonce",
                settings["createAndConfirmSetupIntentNonce"]
                    .as_str()
                    .unwrap(),
            ),
        ])
        .send()
        .await
        .unwrap();
    let setup: Value = res.json().await.unwrap();
    let seti = setup["data"]["id"].as_str().unwrap().to_string();
    let order_id = id.to_string();
    let nonce = settings["confirmChangePaymentNonce"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, answer) = b
        .ajax(
            "wc_stripe_confirm_change_payment",
            &[
                ("order_id", &order_id),
                ("intent_id", &seti),
                ("payment_method_id", pm.as_str()),
                ("_ajax_nonce", &nonce),
            ],
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer["data"]["return_url"]
        .as_str()
        .unwrap()
        .ends_with(&format!("/my-account/view-order/{id}/")));
    let method: String = sqlx::query_scalar("SELECT payment_method FROM orders WHERE id = $1")
        .bind(id)
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(method, "stripe");
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n == "Payment method changed to visa ending in 4242."));
    // Another customer cannot change it.
    let mut other = Browser::new(&app).await;
    other.register("grace@example.test").await;
    let (status, _) = other
        .ajax(
            "wc_stripe_confirm_change_payment",
            &[
                ("order_id", &order_id),
                ("intent_id", &seti),
                ("_ajax_nonce", &nonce),
            ],
        )
        .await;
    assert!(status == 403 || status == 404, "{status}");
    app.stop().await;
}

async fn intents_for_a_guests_order_are_made_only_for_whoever_placed_it_or_holds_its_key(
    backend: Backend,
) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let (_, body) = b.checkout(card("pm_card_chargeCustomerFail")).await;
    let id = body["data"]["order_id"].as_i64().unwrap().to_string();
    let key = body["data"]["pay_url"]
        .as_str()
        .unwrap()
        .split("key=")
        .nth(1)
        .unwrap()
        .to_string();
    let nonce = |settings: &Value| {
        settings["createPaymentIntentNonce"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mine = nonce(&b.page_settings("context=checkout").await);
    let (status, answer) = b
        .ajax(
            "wc_stripe_create_payment_intent",
            &[("stripe_order_id", &id), ("_ajax_nonce", &mine)],
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert!(answer["data"]["client_secret"]
        .as_str()
        .unwrap()
        .contains("_secret_"));
    let stranger = Browser::new(&app).await;
    let theirs = nonce(&stranger.page_settings("context=checkout").await);
    let (status, _) = stranger
        .ajax(
            "wc_stripe_create_payment_intent",
            &[("stripe_order_id", &id), ("_ajax_nonce", &theirs)],
        )
        .await;
    assert_eq!(
        status, 404,
        "another session cannot pay a guest's order by its number"
    );
    let (status, _) = stranger
        .ajax(
            "wc_stripe_create_payment_intent",
            &[
                ("stripe_order_id", &id),
                ("key", &key),
                ("_ajax_nonce", &theirs),
            ],
        )
        .await;
    assert_eq!(status, 200, "the order's key is enough");
    app.stop().await;
}

async fn page_settings_carry_the_key_methods_nonces_and_messages(backend: Backend) {
    let Some(app) = spawn_paying(backend, |_| {}).await else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let s = b.page_settings("context=checkout").await;
    assert_eq!(s["enabled"], true);
    assert_eq!(s["key"], PUBLISHABLE_KEY);
    assert_eq!(s["gatewayId"], "stripe");
    assert_eq!(s["isCheckout"], true);
    assert_eq!(s["paymentMethodsConfig"]["card"]["isReusable"], true);
    assert_eq!(
        s["paymentMethodsConfig"]["card"]["supportsDeferredIntent"],
        true
    );
    assert!(s["cartTotal"].as_i64().unwrap() > 0);
    assert_eq!(s["ajax_url"], "/?wc-ajax=%%endpoint%%");
    assert_eq!(s["card_declined"], "The card was declined.");
    assert_eq!(s["OCLayout"], "accordion");
    assert_eq!(s["createPaymentIntentNonce"].as_str().unwrap().len(), 10);
    let settings = page_settings(&app, &b.client).await;
    assert!(settings["checkout"]["gateways"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == "stripe"));
    // The secret never reaches a page.
    assert!(!s.to_string().contains(SECRET_KEY));
    // The provider's script and frames are allowed, and nothing else from elsewhere.
    let res = b.client.get(app.url("/checkout/")).send().await.unwrap();
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.contains("script-src 'self' https://js.stripe.com"),
        "{csp}"
    );
    assert!(csp.contains("frame-src https://js.stripe.com"), "{csp}");
    app.stop().await;
}

async fn without_keys_the_card_method_is_not_offered(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let b = Browser::new(&app).await;
    let s = b.page_settings("context=checkout").await;
    assert_eq!(s["enabled"], false);
    let res = b.client.get(app.url("/checkout/")).send().await.unwrap();
    let csp = res.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(!csp.contains("stripe"), "{csp}");
    let settings = page_settings(&app, &b.client).await;
    assert!(!settings["checkout"]["gateways"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == "stripe"));
    let (status, _) = b
        .ajax("wc_stripe_update_order_status", &[("order_id", "1")])
        .await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn an_unreachable_provider_leaves_the_order_to_pay_later(backend: Backend) {
    let port = free_port();
    let Some(app) = spawn_paying(backend, |c| {
        c.payments.api_base = format!("http://127.0.0.1:{port}")
    })
    .await
    else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let (status, body) = b.checkout(card("pm_card_visa")).await;
    assert_eq!(status, 502, "{body}");
    assert_eq!(
        body["message"],
        "An error occurred while connecting to the server. Please try again."
    );
    let id = body["data"]["order_id"].as_i64().unwrap();
    assert_eq!(status_of(&app, id).await, "pending");
    // The attempt got no answer: the next one repeats its idempotency key.
    assert_eq!(
        count(
            &app,
            "SELECT payment_attempts FROM orders WHERE id = $1",
            id
        )
        .await,
        0
    );
    app.stop().await;
}

async fn staff_capture_an_authorised_payment_and_refund_it(backend: Backend) {
    let Some(app) = spawn_paying(backend, |c| {
        c.payments.capture = ferroshop::config::payments::Capture::Manual
    })
    .await
    else {
        return;
    };
    let stock_before = stock_of(&app, BEANIE).await;
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 2).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let (status, order) = b.checkout(card(pm.as_str())).await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["status"], "on-hold", "authorised, not yet taken");
    let id = order["order_id"].as_i64().unwrap();
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Stripe charge authorized")));

    let (key, secret) = staff_key(&app, "payments", rules::staff::Permissions::ReadWrite).await;
    let staff = reqwest::Client::new();
    let res = staff
        .put(app.staff(&format!("/orders/{id}")))
        .basic_auth(&key, Some(&secret))
        .json(&json!({"status": "processing"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    assert_eq!(status_of(&app, id).await, "processing");
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Stripe charge complete")));

    // A part, then the rest.
    let res = staff
        .post(app.staff(&format!("/orders/{id}/refunds")))
        .basic_auth(&key, Some(&secret))
        .json(&json!({"amount": "5.00", "reason": "Scratched"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    assert_eq!(status_of(&app, id).await, "processing");
    let res = staff
        .post(app.staff(&format!("/orders/{id}/refunds")))
        .basic_auth(&key, Some(&secret))
        .json(&json!({"amount": "100000.00"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400, "more than was paid");
    let res = staff
        .post(app.staff(&format!("/orders/{id}/refunds")))
        .basic_auth(&key, Some(&secret))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    assert_eq!(status_of(&app, id).await, "refunded");
    assert_eq!(
        stock_of(&app, BEANIE).await,
        stock_before,
        "a refunded order gives its stock back"
    );
    assert_eq!(mails_of_kind(&app, "customer_refunded_order").await, 1);
    let refunds: Value = staff
        .get(app.staff(&format!("/orders/{id}/refunds")))
        .basic_auth(&key, Some(&secret))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(refunds.as_array().unwrap().len(), 2);
    assert_eq!(refunds[1]["amount"], "5.00");
    assert_eq!(refunds[1]["reason"], "Scratched");
    assert_eq!(refunds[0]["refunded_payment"], true);
    app.stop().await;
}

/// Runs `ferroshop ARGS --database …` connected to the emulator; its output and status.
async fn command(app: &TestApp, args: &[&str]) -> (i32, String) {
    let database = config(app).database_url.clone();
    let base = Emulator::shared().base_url.clone();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let dir = app.dir.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_ferroshop"))
            .args(&args)
            .arg("--database")
            .arg(database)
            .current_dir(dir)
            .env_remove("FERROSHOP_CONFIG")
            .env("FERROSHOP_STRIPE_PUBLISHABLE_KEY", PUBLISHABLE_KEY)
            .env("FERROSHOP_STRIPE_SECRET_KEY", SECRET_KEY)
            .env("FERROSHOP_STRIPE_API_BASE", base)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

async fn the_command_line_captures_and_refunds_card_orders_and_records_other_refunds(
    backend: Backend,
) {
    let Some(app) = spawn_paying(backend, |c| {
        c.payments.capture = ferroshop::config::payments::Capture::Manual
    })
    .await
    else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let (_, order) = b.checkout(card(pm.as_str())).await;
    let id = order["order_id"].as_i64().unwrap();
    assert_eq!(status_of(&app, id).await, "on-hold");
    let (code, out) = command(
        &app,
        &["orders", "set-status", &id.to_string(), "processing"],
    )
    .await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(status_of(&app, id).await, "processing");
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Stripe charge complete")));
    let (code, out) = command(
        &app,
        &[
            "orders",
            "refund",
            &id.to_string(),
            "5.00",
            "--reason",
            "Scratched",
        ],
    )
    .await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("$5.00 refunded in all"), "{out}");
    assert_eq!(status_of(&app, id).await, "processing");
    let (code, out) = command(&app, &["orders", "refund", &id.to_string()]).await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(status_of(&app, id).await, "refunded");
    let (code, out) = command(&app, &["orders", "refund", &id.to_string()]).await;
    assert_eq!(code, 1, "nothing is left to refund: {out}");

    // Cash on delivery: the refund is recorded by hand.
    let cash = place_order(&app, &[(CAP, 1)], &[], "cod", ada_address()).await;
    let (code, out) = command(&app, &["orders", "refund", &cash.to_string()]).await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(status_of(&app, cash).await, "refunded");
    app.stop().await;
}

async fn cancelling_an_authorised_order_releases_the_payment(backend: Backend) {
    let Some(app) = spawn_paying(backend, |c| {
        c.payments.capture = ferroshop::config::payments::Capture::Manual
    })
    .await
    else {
        return;
    };
    let mut b = Browser::new(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let (_, order) = b.checkout(card(pm.as_str())).await;
    let id = order["order_id"].as_i64().unwrap();
    let (key, secret) = staff_key(&app, "payments", rules::staff::Permissions::ReadWrite).await;
    let res = reqwest::Client::new()
        .put(app.staff(&format!("/orders/{id}")))
        .basic_auth(&key, Some(&secret))
        .json(&json!({"status": "cancelled"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    assert_eq!(status_of(&app, id).await, "cancelled");
    let canceled = count(
        &app,
        "SELECT COUNT(*) FROM payment_intents WHERE order_id = $1 AND status = 'canceled'",
        id,
    )
    .await;
    assert_eq!(canceled, 1);
    app.stop().await;
}

#[tokio::test]
async fn the_payments_check_asks_the_provider_and_names_what_is_missing() {
    use ferroshop::payments::cli::{check, Finding};
    let emulator = Emulator::shared();
    let mut config = ferroshop::config::Config::default();
    let findings = check(&config).await;
    assert!(
        matches!(&findings[..], [Finding::Problem(p)] if p.contains("FERROSHOP_STRIPE_SECRET_KEY"))
    );
    config.payments.publishable_key = Some(PublishableKey::parse(PUBLISHABLE_KEY).unwrap());
    config.payments.secret_key = Some(SecretKey::parse(SECRET_KEY).unwrap());
    config.payments.api_base = emulator.base_url.clone();
    let findings = check(&config).await;
    assert!(
        findings
            .iter()
            .any(|f| matches!(f, Finding::Ok(t) if t.starts_with("the secret key is accepted"))),
        "{findings:?}"
    );
    assert!(findings.iter().any(
        |f| matches!(f, Finding::Problem(t) if t.contains("FERROSHOP_STRIPE_WEBHOOK_SECRET"))
    ));
    assert!(findings
        .iter()
        .any(|f| matches!(f, Finding::Problem(t) if t.contains("FERROSHOP_PUBLIC_URL"))));
    config.payments.webhook_secret = Some(WebhookSecret::parse(WEBHOOK_SECRET).unwrap());
    config.public_url = Some("https://shop.example".into());
    let findings = check(&config).await;
    assert!(
        findings.iter().all(|f| matches!(f, Finding::Ok(_))),
        "{findings:?}"
    );
    assert!(findings.iter().any(
        |f| matches!(f, Finding::Ok(t) if t.contains("https://shop.example/?wc-api=wc_stripe"))
    ));
    config.payments.api_base = format!("http://127.0.0.1:{}", free_port());
    let findings = check(&config).await;
    assert!(
        findings
            .iter()
            .any(|f| matches!(f, Finding::Problem(t) if t.contains("could not be reached"))),
        "{findings:?}"
    );
}

on_both_databases!(
    a_card_pays_the_order_at_checkout_once,
    a_checkout_without_card_details_places_nothing,
    a_declined_card_fails_the_order_and_it_is_paid_again_without_a_second_order,
    three_d_secure_is_finished_in_the_page_and_only_the_providers_word_moves_the_order,
    a_failed_challenge_fails_the_order,
    the_webhook_and_the_return_racing_change_the_order_once,
    webhooks_need_a_good_signature_and_a_fresh_timestamp,
    the_emulators_own_deliveries_are_verified_and_noted,
    two_tabs_paying_one_order_charge_once,
    a_kept_card_pays_a_later_order_and_can_be_deleted,
    a_guest_cannot_keep_a_card,
    a_card_is_added_in_the_account_area,
    a_customer_changes_an_orders_payment_method_to_a_new_card,
    page_settings_carry_the_key_methods_nonces_and_messages,
    intents_for_a_guests_order_are_made_only_for_whoever_placed_it_or_holds_its_key,
    without_keys_the_card_method_is_not_offered,
    an_unreachable_provider_leaves_the_order_to_pay_later,
    staff_capture_an_authorised_payment_and_refund_it,
    cancelling_an_authorised_order_releases_the_payment,
    the_command_line_captures_and_refunds_card_orders_and_records_other_refunds,
);
