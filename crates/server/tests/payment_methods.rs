//! The provider's other payment method types end to end, against the provider's test
//! double (`tests/provider-double`: the emulator covers cards only): each flow's
//! intent, the answer the shopper's page reads (a return fragment or the provider's
//! page), and the webhooks that settle the order later — redirects, vouchers that
//! expire, wallets, bank debits that succeed or fail days later, BLIK — on both
//! databases.

mod common;

use std::time::Duration;

use common::*;
use payments::{PublishableKey, SecretKey, WebhookSecret};
use provider_double::Double;
use serde_json::{json, Value};

const WEBHOOK_SECRET: &str = "whsec_ferroshop_methods_secret";
const SECRET: &str = "sk_test_ferroshop_double";
const PUBLISHABLE: &str = "pk_test_ferroshop_double";

/// A shop in `currency` offering `methods`, connected to its own double, which
/// delivers its webhooks to the shop.
async fn spawn_with(
    backend: Backend,
    currency: &str,
    methods: &[&str],
) -> Option<(TestApp, Double)> {
    let double = Double::start().await;
    let methods: Vec<_> = methods
        .iter()
        .map(|m| rules::payments::methods::MethodType::parse(m).unwrap())
        .collect();
    let base = double.base_url.clone();
    let currency = currency.to_string();
    let app = spawn_app_with(backend, move |c| {
        c.currency.code = currency;
        c.payments.publishable_key = Some(PublishableKey::parse(PUBLISHABLE).unwrap());
        c.payments.secret_key = Some(SecretKey::parse(SECRET).unwrap());
        c.payments.webhook_secret = Some(WebhookSecret::parse(WEBHOOK_SECRET).unwrap());
        c.payments.api_base = base;
        c.payments.methods = methods;
    })
    .await?;
    double
        .register_webhook("shop", &app.url("/?wc-api=wc_stripe"), WEBHOOK_SECRET)
        .await;
    Some((app, double))
}

struct Shopper<'a> {
    app: &'a TestApp,
    client: reqwest::Client,
    nonce: String,
}

impl<'a> Shopper<'a> {
    async fn new(app: &'a TestApp) -> Shopper<'a> {
        let client = app.shopper();
        let nonce = app.nonce(&client).await;
        Shopper { app, client, nonce }
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

    /// Checks out one beanie billed in `country`, paying with `method` (a type) and
    /// the payment method `pm`, plus `extra` payment fields.
    async fn checkout(
        &mut self,
        country: &str,
        method: &str,
        pm: &str,
        extra: &[(&str, &str)],
    ) -> (u16, Value) {
        let (status, body) = self
            .post(
                self.app.api("/cart/add-item"),
                json!({"id": BEANIE, "quantity": 1}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let mut address = ada_address();
        address["country"] = json!(country);
        address["state"] = json!(state_of(country));
        address["postcode"] = json!(postcode_of(country));
        let mut data = vec![
            json!({"key": "wc-stripe-payment-method", "value": pm}),
            json!({"key": "wc-stripe-payment-type", "value": method}),
            json!({"key": "wc-stripe-is-deferred-intent", "value": "1"}),
        ];
        data.extend(extra.iter().map(|(k, v)| json!({"key": k, "value": v})));
        let gateway = rules::payments::methods::MethodType::parse(method)
            .unwrap()
            .gateway_id();
        self.post(
            self.app.api("/checkout"),
            json!({
                "billing_address": address, "shipping_address": address,
                "payment_method": gateway, "payment_data": data,
            }),
        )
        .await
    }

    /// A `wc-ajax` payment call, form-encoded.
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

/// A state the shop's form takes for `country`: the first of its list, if it has one.
fn state_of(country: &str) -> String {
    use rules::address::locale::{states, CountryCode, StateList};
    match states(CountryCode::parse(country).unwrap()) {
        StateList::Some(list) => list[0].0.clone(),
        StateList::None | StateList::Unknown => String::new(),
    }
}

impl Shopper<'_> {
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

    /// Keeps a new method in the account area, as its page does.
    async fn keep(&self, method: &str, pm: &str) -> Value {
        let settings = self.page_settings("context=add-payment-method").await;
        let nonce = settings["createAndConfirmSetupIntentNonce"]
            .as_str()
            .unwrap()
            .to_string();
        let res = self
            .client
            .post(self.app.url("/wp-admin/admin-ajax.php"))
            .form(&[
                ("action", "wc_stripe_create_and_confirm_setup_intent"),
                ("wc-stripe-payment-method", pm),
                ("wc-stripe-payment-type", method),
                ("_ajax_nonce", nonce.as_str()),
            ])
            .send()
            .await
            .unwrap();
        res.json().await.unwrap()
    }
}

/// A postcode the shop's form takes for `country`.
fn postcode_of(country: &str) -> &'static str {
    match country {
        "NL" => "1011 AB",
        "DE" | "MX" => "10115",
        "BR" => "01310-100",
        "AT" | "BE" => "1010",
        "PL" => "00-950",
        "PT" => "1000-001",
        "GB" => "SW1A 1AA",
        "CA" => "M5V 3L9",
        "AU" => "2000",
        _ => "94110",
    }
}

fn order_id(body: &Value) -> i64 {
    body["order_id"]
        .as_i64()
        .unwrap_or_else(|| panic!("an order id: {body}"))
}

fn redirect(body: &Value) -> String {
    body["payment_result"]["redirect_url"]
        .as_str()
        .unwrap()
        .to_string()
}

fn intent_of(secret: &str) -> String {
    secret.split("_secret_").next().unwrap().to_string()
}

/// Waits until the order is `status` (webhooks arrive on their own time).
async fn until_status(app: &TestApp, order: i64, status: &str) {
    for _ in 0..200 {
        if status_of(app, order).await == status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "order {order} stayed {} (wanted {status})",
        status_of(app, order).await
    );
}

async fn notes(app: &TestApp, order: i64) -> Vec<String> {
    sqlx::query_scalar("SELECT note FROM order_notes WHERE order_id = $1 ORDER BY id")
        .bind(order)
        .fetch_all(app.db().reader())
        .await
        .unwrap()
}

/// The browser's side of a voucher or wallet: the provider's script confirms the
/// intent with the publishable key and the client secret.
async fn confirm_in_browser(double: &Double, secret: &str) -> Value {
    confirm_in_browser_with(double, secret, &[]).await
}

async fn confirm_in_browser_with(double: &Double, secret: &str, extra: &[(&str, &str)]) -> Value {
    let mut form = vec![("key", PUBLISHABLE), ("client_secret", secret)];
    form.extend_from_slice(extra);
    let res = reqwest::Client::new()
        .post(format!(
            "{}/v1/payment_intents/{}/confirm",
            double.base_url,
            intent_of(secret)
        ))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    res.json().await.unwrap()
}

/// Places an order paid by a redirect method, authorises it on the provider's page and
/// checks the shopper is sent back to the order's page; gives the order and its intent.
async fn pay_at_the_bank(
    app: &TestApp,
    double: &Double,
    method: &str,
    country: &str,
) -> (i64, String) {
    let mut s = Shopper::new(app).await;
    let pm = double.create_payment_method(method, &[]).await;
    let (status, body) = s.checkout(country, method, &pm, &[]).await;
    assert_eq!(status, 200, "{method}: {body}");
    assert_eq!(body["payment_result"]["payment_status"], "pending");
    let id = order_id(&body);
    let url = redirect(&body);
    assert!(
        url.starts_with(&format!("{}/_double/authorize/pi_", double.base_url)),
        "{url}"
    );
    assert_eq!(status_of(app, id).await, "pending");
    // The shopper authorises at the bank and comes back to the order's page.
    let intent = url
        .rsplit('/')
        .next()
        .unwrap()
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let back = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(&url)
        .form(&[("outcome", "authorize")])
        .send()
        .await
        .unwrap();
    let location = back.headers()["location"].to_str().unwrap().to_string();
    assert!(
        location.starts_with(&app.url(&format!("/checkout/order-received/{id}/?key="))),
        "{method}: {location}"
    );
    assert!(
        location.contains(&format!("payment_intent={intent}")),
        "{location}"
    );
    (id, intent)
}

async fn redirect_methods_leave_for_the_bank_and_the_webhook_settles(backend: Backend) {
    let Some((app, double)) = spawn_with(
        backend,
        "EUR",
        &[
            "ideal",
            "bancontact",
            "eps",
            "giropay",
            "sofort",
            "p24",
            "klarna",
            "alipay",
        ],
    )
    .await
    else {
        return;
    };
    for (method, country) in [
        ("ideal", "NL"),
        ("bancontact", "BE"),
        ("eps", "AT"),
        ("giropay", "DE"),
        ("p24", "PL"),
        ("klarna", "NL"),
        ("alipay", "NL"),
    ] {
        let (id, _) = pay_at_the_bank(&app, &double, method, country).await;
        until_status(&app, id, "processing").await;
        let gateway: String = sqlx::query_scalar("SELECT payment_method FROM orders WHERE id = $1")
            .bind(id)
            .fetch_one(app.db().reader())
            .await
            .unwrap();
        assert_eq!(gateway, format!("stripe_{method}"));
    }
    // Sofort is under way first, paid days later.
    let (id, intent) = pay_at_the_bank(&app, &double, "sofort", "DE").await;
    until_status(&app, id, "on-hold").await;
    double.succeed(&intent).await;
    until_status(&app, id, "processing").await;
    app.stop().await;

    // Buy now, pay later in dollars.
    let Some((app, double)) = spawn_with(backend, "USD", &["affirm", "afterpay_clearpay"]).await
    else {
        return;
    };
    for method in ["affirm", "afterpay_clearpay"] {
        let (id, _) = pay_at_the_bank(&app, &double, method, "US").await;
        until_status(&app, id, "processing").await;
    }
    app.stop().await;
}

async fn an_abandoned_redirect_is_paid_again_on_the_order_pay_page(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "EUR", &["ideal"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let pm = double.create_payment_method("ideal", &[]).await;
    let (_, body) = s.checkout("NL", "ideal", &pm, &[]).await;
    let id = order_id(&body);
    let first = redirect(&body);
    let first_intent = first.rsplit('/').next().unwrap().to_string();
    assert_eq!(status_of(&app, id).await, "pending");
    // The shopper closes the bank's page and pays again from the order-pay page.
    let key: String = sqlx::query_scalar("SELECT order_key FROM orders WHERE id = $1")
        .bind(id)
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    let pm = double.create_payment_method("ideal", &[]).await;
    let (status, again) = s
        .post(
            app.api(&format!(
                "/checkout/{id}?key={key}&billing_email=ada@example.test"
            )),
            json!({"payment_method": "stripe_ideal", "payment_data": [
                {"key": "wc-stripe-payment-method", "value": pm},
                {"key": "wc-stripe-payment-type", "value": "ideal"},
            ]}),
        )
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(order_id(&again), id, "the same order");
    let second = redirect(&again);
    assert_ne!(second, first);
    // The abandoned attempt was cancelled at the provider: it cannot be paid as well.
    let events = double.events().await;
    assert!(
        events.iter().any(|e| e["type"] == "payment_intent.canceled"
            && e["data"]["object"]["id"] == first_intent.as_str()),
        "{events:?}"
    );
    assert_eq!(status_of(&app, id).await, "pending");
    app.stop().await;
}

async fn a_voucher_puts_the_order_on_hold_until_paid_or_expired(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "BRL", &["boleto"]).await else {
        return;
    };
    let stock_before = stock_of(&app, BEANIE).await;
    let mut s = Shopper::new(&app).await;
    let pm = double
        .create_payment_method("boleto", &[("boleto[tax_id]", "00000000000")])
        .await;
    let (status, body) = s.checkout("BR", "boleto", &pm, &[]).await;
    assert_eq!(status, 200, "{body}");
    let id = order_id(&body);
    let url = redirect(&body);
    let (_, fragment) = url
        .split_once("#wc-stripe-voucher-")
        .expect("a voucher fragment");
    let parts: Vec<&str> = fragment.split(':').collect();
    assert_eq!(parts.len(), 4, "{url}");
    assert_eq!(parts[0], id.to_string());
    assert_eq!(parts[1], "boleto");
    let return_url = urlencoding_decode(parts[3]);
    assert!(
        return_url.starts_with(&app.url(&format!("/checkout/order-received/{id}/?key="))),
        "{return_url}"
    );
    assert_eq!(
        status_of(&app, id).await,
        "pending",
        "on hold only once the voucher is shown"
    );
    // The page shows the voucher: the provider's script confirms the intent.
    let shown = confirm_in_browser(&double, parts[2]).await;
    assert_eq!(shown["next_action"]["type"], "boleto_display_details");
    until_status(&app, id, "on-hold").await;
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Awaiting payment.")));
    assert_eq!(stock_of(&app, BEANIE).await, stock_before.map(|s| s - 1));
    // Unpaid in time: cancelled, the stock back.
    double.expire(&intent_of(parts[2])).await;
    until_status(&app, id, "cancelled").await;
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Payment not completed in time.")));
    assert_eq!(stock_of(&app, BEANIE).await, stock_before);

    // Another voucher is paid at the shop.
    let mut s = Shopper::new(&app).await;
    let pm = double
        .create_payment_method("boleto", &[("boleto[tax_id]", "00000000000")])
        .await;
    let (_, body) = s.checkout("BR", "boleto", &pm, &[]).await;
    let id = order_id(&body);
    let url = redirect(&body);
    let secret = url
        .split_once("#wc-stripe-voucher-")
        .unwrap()
        .1
        .split(':')
        .nth(2)
        .unwrap()
        .to_string();
    confirm_in_browser(&double, &secret).await;
    until_status(&app, id, "on-hold").await;
    double.succeed(&intent_of(&secret)).await;
    until_status(&app, id, "processing").await;
    app.stop().await;
}

async fn oxxo_and_multibanco_vouchers_name_their_method(backend: Backend) {
    for (currency, method, country) in [("MXN", "oxxo", "MX"), ("EUR", "multibanco", "PT")] {
        let Some((app, double)) = spawn_with(backend, currency, &[method]).await else {
            return;
        };
        let mut s = Shopper::new(&app).await;
        let pm = double.create_payment_method(method, &[]).await;
        let (status, body) = s.checkout(country, method, &pm, &[]).await;
        assert_eq!(status, 200, "{body}");
        let url = redirect(&body);
        let fragment = url
            .split_once("#wc-stripe-voucher-")
            .expect("a voucher fragment")
            .1;
        assert_eq!(fragment.split(':').nth(1), Some(method));
        let shown = confirm_in_browser(&double, fragment.split(':').nth(2).unwrap()).await;
        assert_eq!(
            shown["next_action"]["type"],
            format!("{method}_display_details")
        );
        until_status(&app, order_id(&body), "on-hold").await;
        app.stop().await;
    }
}

async fn wallets_hand_off_and_the_shop_is_told_with_the_fragments_nonce(backend: Backend) {
    for (currency, method, country) in [("USD", "cashapp", "US"), ("EUR", "wechat_pay", "DE")] {
        let Some((app, double)) = spawn_with(backend, currency, &[method]).await else {
            return;
        };
        let mut s = Shopper::new(&app).await;
        let pm = double.create_payment_method(method, &[]).await;
        let (status, body) = s.checkout(country, method, &pm, &[]).await;
        assert_eq!(status, 200, "{body}");
        let id = order_id(&body);
        let url = redirect(&body);
        let fragment = url
            .split_once("#wc-stripe-wallet-")
            .expect("a wallet fragment")
            .1;
        let parts: Vec<&str> = fragment.split(':').collect();
        assert_eq!(parts.len(), 6, "{url}");
        assert_eq!(
            (parts[0], parts[1], parts[2]),
            (id.to_string().as_str(), method, "payment_intent")
        );
        // As the provider's script confirms each wallet.
        let return_url = urlencoding_decode(parts[4]);
        let extra: &[(&str, &str)] = if method == "cashapp" {
            &[("return_url", &return_url)]
        } else {
            &[("payment_method_options[wechat_pay][client]", "web")]
        };
        let shown = confirm_in_browser_with(&double, parts[3], extra).await;
        let expected = if method == "cashapp" {
            "cashapp_handle_redirect_or_display_qr_code"
        } else {
            "wechat_pay_display_qr_code"
        };
        assert_eq!(shown["next_action"]["type"], expected);
        assert_eq!(status_of(&app, id).await, "pending");
        // The shopper pays in the app; the page tells the shop with the fragment's nonce.
        let intent = intent_of(parts[3]);
        double.succeed(&intent).await;
        let (status, told) = s
            .ajax(
                "wc_stripe_confirm_change_payment",
                &[
                    ("order_id", parts[0]),
                    ("intent_id", &intent),
                    ("payment_method_id", ""),
                    ("nonce", parts[5]),
                ],
            )
            .await;
        assert_eq!(status, 200, "{told}");
        assert_eq!(told["success"], true, "{told}");
        assert!(told["data"]["return_url"]
            .as_str()
            .unwrap()
            .contains(&format!("/checkout/order-received/{id}/")));
        until_status(&app, id, "processing").await;
        // A forged nonce is refused.
        let (status, _) = s
            .ajax(
                "wc_stripe_confirm_change_payment",
                &[
                    ("order_id", parts[0]),
                    ("intent_id", &intent),
                    ("nonce", "forged"),
                ],
            )
            .await;
        assert_eq!(status, 403);
        app.stop().await;
    }
}

async fn bank_debits_carry_a_mandate_and_settle_days_later(backend: Backend) {
    for (currency, method, country, extra) in [
        (
            "EUR",
            "sepa_debit",
            "DE",
            vec![("sepa_debit[iban]", "DE89370400440532013000")],
        ),
        (
            "AUD",
            "au_becs_debit",
            "AU",
            vec![
                ("au_becs_debit[bsb_number]", "000000"),
                ("au_becs_debit[account_number]", "000123456"),
            ],
        ),
        (
            "GBP",
            "bacs_debit",
            "GB",
            vec![
                ("bacs_debit[sort_code]", "108800"),
                ("bacs_debit[account_number]", "00012345"),
            ],
        ),
        (
            "CAD",
            "acss_debit",
            "CA",
            vec![
                ("acss_debit[account_number]", "000123456789"),
                ("acss_debit[institution_number]", "000"),
                ("acss_debit[transit_number]", "11000"),
            ],
        ),
        (
            "USD",
            "us_bank_account",
            "US",
            vec![("us_bank_account[account_number]", "000123456789")],
        ),
    ] {
        let Some((app, double)) = spawn_with(backend, currency, &[method]).await else {
            return;
        };
        let stock_before = stock_of(&app, BEANIE).await;
        let mut s = Shopper::new(&app).await;
        let pm = double.create_payment_method(method, &extra).await;
        let (status, body) = s.checkout(country, method, &pm, &[]).await;
        assert_eq!(status, 200, "{method}: {body}");
        assert_eq!(
            body["payment_result"]["payment_status"], "success",
            "{body}"
        );
        let id = order_id(&body);
        assert!(redirect(&body).contains(&format!("/checkout/order-received/{id}/")));
        assert_eq!(
            status_of(&app, id).await,
            "on-hold",
            "{method}: processing at the bank"
        );
        assert!(notes(&app, id)
            .await
            .iter()
            .any(|n| n.starts_with("Stripe charge awaiting payment")));
        // The intent was made with the mandate the shopper agreed to.
        let events = double.events().await;
        let processing = events
            .iter()
            .find(|e| e["type"] == "payment_intent.processing")
            .expect("a processing event");
        let intent = processing["data"]["object"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        if method == "bacs_debit" {
            // Refused by the bank days later: the order fails and keeps its stock for another try.
            double
                .fail(
                    &intent,
                    Some("insufficient_funds"),
                    Some("The bank account has insufficient funds."),
                )
                .await;
            until_status(&app, id, "failed").await;
            assert_eq!(stock_of(&app, BEANIE).await, stock_before.map(|s| s - 1));
        } else {
            // Paid days later.
            double.succeed(&intent).await;
            until_status(&app, id, "processing").await;
        }
        app.stop().await;
    }
}

async fn an_account_that_needs_micro_deposits_waits_on_hold(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "USD", &["us_bank_account"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let pm = double
        .create_payment_method(
            "us_bank_account",
            &[("us_bank_account[account_number]", "000123450000")],
        )
        .await;
    let (status, body) = s.checkout("US", "us_bank_account", &pm, &[]).await;
    assert_eq!(status, 200, "{body}");
    let id = order_id(&body);
    assert!(redirect(&body).contains(&format!("/checkout/order-received/{id}/")));
    assert_eq!(status_of(&app, id).await, "on-hold");
    assert!(notes(&app, id)
        .await
        .iter()
        .any(|n| n.starts_with("Awaiting verification of the bank account.")));
    app.stop().await;
}

async fn blik_needs_six_digits_and_is_approved_in_the_banking_app(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "PLN", &["blik"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let pm = double.create_payment_method("blik", &[]).await;
    for bad in ["", "12345", "abcdef"] {
        let (status, body) = s
            .checkout("PL", "blik", &pm, &[("wc-stripe-blik-code", bad)])
            .await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["message"], "BLIK Code is invalid");
    }
    let orders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status <> 'checkout-draft'")
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    assert_eq!(orders, 0, "nothing placed without a code");
    let (status, body) = s
        .checkout("PL", "blik", &pm, &[("wc-stripe-blik-code", "123456")])
        .await;
    assert_eq!(status, 200, "{body}");
    let id = order_id(&body);
    let url = redirect(&body);
    let fragment = url
        .split_once("#wc-stripe-confirm-pi:")
        .expect("a confirm fragment")
        .1;
    let secret = fragment.split(':').nth(1).unwrap();
    double.succeed(&intent_of(secret)).await;
    until_status(&app, id, "processing").await;
    app.stop().await;
}

async fn a_method_is_refused_outside_its_countries(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "EUR", &["ideal"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let pm = double.create_payment_method("ideal", &[]).await;
    let (status, body) = s.checkout("DE", "ideal", &pm, &[]).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["message"],
        "The selected payment method type is invalid."
    );
    app.stop().await;
}

async fn bank_accounts_and_wallets_are_kept_in_the_account_area(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "EUR", &["sepa_debit", "ideal"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    s.register("ada@example.test").await;
    // A SEPA debit is set up under the mandate the shopper agrees to, and kept.
    let pm = double
        .create_payment_method(
            "sepa_debit",
            &[("sepa_debit[iban]", "DE89370400440532013000")],
        )
        .await;
    let answer = s.keep("sepa_debit", &pm).await;
    assert_eq!(answer["success"], true, "{answer}");
    assert_eq!(answer["data"]["status"], "succeeded", "{answer}");
    let kept = s.page_settings("context=checkout").await["savedPaymentMethods"].clone();
    assert_eq!(kept.as_array().unwrap().len(), 1, "{kept}");
    // iDEAL leaves for the bank and comes back to the account's methods.
    let pm = double.create_payment_method("ideal", &[]).await;
    let answer = s.keep("ideal", &pm).await;
    assert_eq!(answer["data"]["status"], "requires_action", "{answer}");
    assert_eq!(answer["data"]["next_action"]["type"], "redirect_to_url");
    assert!(answer["data"]["return_url"]
        .as_str()
        .unwrap()
        .ends_with("/my-account/payment-methods/"));
    app.stop().await;
    // Cash App is confirmed by its own sheet in the page: left unconfirmed here.
    let Some((app, double)) = spawn_with(backend, "USD", &["cashapp"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    s.register("grace@example.test").await;
    let pm = double.create_payment_method("cashapp", &[]).await;
    let answer = s.keep("cashapp", &pm).await;
    assert_eq!(answer["success"], true, "{answer}");
    assert_eq!(answer["data"]["payment_type"], "cashapp");
    assert_eq!(
        answer["data"]["status"], "requires_confirmation",
        "{answer}"
    );
    app.stop().await;
}

async fn a_checkout_sent_again_after_a_failed_wallet_leads_to_the_order_pay_page(backend: Backend) {
    let Some((app, double)) = spawn_with(backend, "USD", &["cashapp"]).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let pm = double.create_payment_method("cashapp", &[]).await;
    let (_, body) = s.checkout("US", "cashapp", &pm, &[]).await;
    let id = order_id(&body);
    let url = redirect(&body);
    let secret = url
        .split_once("#wc-stripe-wallet-")
        .unwrap()
        .1
        .split(':')
        .nth(3)
        .unwrap()
        .to_string();
    let return_url = urlencoding_decode(
        url.split_once("#wc-stripe-wallet-")
            .unwrap()
            .1
            .split(':')
            .nth(4)
            .unwrap(),
    );
    confirm_in_browser_with(&double, &secret, &[("return_url", &return_url)]).await;
    double.fail(&intent_of(&secret), None, None).await;
    until_status(&app, id, "failed").await;
    // "Place order" again: the cart became the order, which is not thanked for but
    // sent to its payment page.
    let (status, again) = s
        .post(
            app.api("/checkout"),
            json!({"billing_address": ada_address(), "payment_method": "", "payment_data": []}),
        )
        .await;
    assert_eq!(status, 400, "{again}");
    assert_eq!(
        again["code"],
        "woocommerce_rest_checkout_process_payment_error"
    );
    assert_eq!(again["data"]["order_id"], id);
    assert!(again["data"]["pay_url"]
        .as_str()
        .unwrap()
        .contains(&format!("/checkout/order-pay/{id}/")));
    app.stop().await;
}

/// Decodes the percent-encoding of a fragment's return URL.
fn urlencoding_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .unwrap()
        .into_owned()
}

on_both_databases!(
    redirect_methods_leave_for_the_bank_and_the_webhook_settles,
    an_abandoned_redirect_is_paid_again_on_the_order_pay_page,
    a_voucher_puts_the_order_on_hold_until_paid_or_expired,
    oxxo_and_multibanco_vouchers_name_their_method,
    wallets_hand_off_and_the_shop_is_told_with_the_fragments_nonce,
    bank_debits_carry_a_mandate_and_settle_days_later,
    an_account_that_needs_micro_deposits_waits_on_hold,
    blik_needs_six_digits_and_is_approved_in_the_banking_app,
    a_method_is_refused_outside_its_countries,
    bank_accounts_and_wallets_are_kept_in_the_account_area,
    a_checkout_sent_again_after_a_failed_wallet_leads_to_the_order_pay_page,
);
