//! Express checkout (Apple Pay, Google Pay, Link) end to end, against the provider's
//! emulator: the button's params, the wallet sheet's calls and their refusals, a
//! purchase from a product page in a cart of its own (the shopper's cart left as it
//! was), one from the cart, the wallet named on the order, and paying an order with a
//! wallet's shipping address — on both databases.

mod common;

use common::*;
use payments::emulator::{Emulator, PUBLISHABLE_KEY, SECRET_KEY};
use payments::{PublishableKey, SecretKey};
use rules::orders::model::{Order, OrderId};
use rules::pricing::rules::ShopRules;
use serde_json::{json, Value};

/// The shop connected to the shared emulator, with the demo's taxes and shipping.
async fn spawn_express(
    backend: Backend,
    configure: impl FnOnce(&mut ferroshop::config::Config),
) -> Option<TestApp> {
    let emulator = Emulator::shared();
    let app = spawn_app_with(backend, |c| {
        c.payments.publishable_key = Some(PublishableKey::parse(PUBLISHABLE_KEY).unwrap());
        c.payments.secret_key = Some(SecretKey::parse(SECRET_KEY).unwrap());
        c.payments.api_base = emulator.base_url.clone();
        configure(c);
    })
    .await?;
    store_rules(&app, &ShopRules::demo()).await;
    Some(app)
}

/// A shopper's browser (a cookie jar and the Store API nonce), or the product page's
/// own cart (no cookies, its `Cart-Token`).
struct Client<'a> {
    app: &'a TestApp,
    http: reqwest::Client,
    nonce: String,
    token: Option<String>,
}

impl<'a> Client<'a> {
    async fn browser(app: &'a TestApp) -> Client<'a> {
        let http = app.shopper();
        let nonce = app.nonce(&http).await;
        Client {
            app,
            http,
            nonce,
            token: None,
        }
    }

    /// The product page's cart, named by the token its params handed out.
    fn token_cart(app: &'a TestApp, token: &str) -> Client<'a> {
        Client {
            app,
            http: app.bare(),
            nonce: String::new(),
            token: Some(token.to_string()),
        }
    }

    fn with_token(&self, req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => req.header("Cart-Token", t),
            None => req.header("Nonce", &self.nonce),
        }
    }

    async fn store_post(&self, path: &str, body: Value) -> (u16, Value) {
        self.store_post_with(path, body, &[]).await
    }

    async fn store_post_with(
        &self,
        path: &str,
        body: Value,
        headers: &[(&str, &str)],
    ) -> (u16, Value) {
        let mut req = self.with_token(self.http.post(self.app.api(path)).json(&body));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn add(&self, product: i64, quantity: i64) {
        let (status, body) = self
            .store_post(
                "/cart/add-item",
                json!({"id": product, "quantity": quantity}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }

    async fn cart(&self) -> Value {
        let req = self.with_token(self.http.get(self.app.api("/cart")));
        req.send().await.unwrap().json().await.unwrap()
    }

    async fn params(&self, query: &str) -> (u16, Value) {
        let url = self.app.url(&format!(
            "/wp-json/ferroshop/v1/payments/express-checkout-params?{query}"
        ));
        let res = self.with_token(self.http.get(url)).send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    /// A sheet's call, form-encoded as the original's script sends it.
    async fn ajax(&self, name: &str, form: &[(&str, &str)]) -> (u16, Value) {
        let req = self
            .http
            .post(self.app.url(&format!("/?wc-ajax={name}")))
            .form(form);
        let req = match &self.token {
            Some(t) => req.header("Cart-Token", t),
            None => req,
        };
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }
}

fn nonce_of(params: &Value, key: &str) -> String {
    params["nonce"][key].as_str().unwrap().to_string()
}

/// The wallet's addresses as its sheet hands them over: a full name in one field, the
/// state by name, a formatted phone number.
fn wallet_address(state: &str, city: &str, postcode: &str) -> Value {
    json!({
        "first_name": "Ada Lovelace", "last_name": "", "company": "", "address_1": "1 Main St",
        "address_2": "", "city": city, "state": state, "postcode": postcode,
        "country": "US", "email": "ada@example.test", "phone": "(555) 010-0100"
    })
}

fn express_payment(method: &str, wallet: &str) -> Value {
    json!([
        {"key": "wc-stripe-payment-method", "value": method},
        {"key": "wc-stripe-is-deferred-intent", "value": true},
        {"key": "express_checkout_type", "value": wallet},
    ])
}

async fn order(app: &TestApp, id: i64) -> Order {
    store::orders::find_order(app.db(), OrderId(id))
        .await
        .unwrap()
        .unwrap()
}

fn amount_of(items: &Value, label: &str) -> i64 {
    items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("no {label} in {items}"))["amount"]
        .as_i64()
        .unwrap()
}

fn minor(v: &Value) -> i64 {
    v.as_str().unwrap().parse().unwrap()
}

async fn params_carry_the_key_the_nonces_and_the_amount(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 2).await;
    let (status, p) = b.params("context=cart").await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["enabled"], true);
    assert_eq!(p["ajax_url"], "/?wc-ajax=%%endpoint%%");
    assert_eq!(p["stripe"]["publishable_key"], PUBLISHABLE_KEY);
    assert_eq!(p["is_cart_page"], true);
    assert_eq!(p["is_product_page"], false);
    assert_eq!(p["checkout"]["currency_code"], "usd");
    assert_eq!(p["checkout"]["country_code"], "US");
    assert_eq!(p["checkout"]["needs_shipping"], "yes");
    for key in [
        "shipping",
        "update_shipping",
        "normalize_address",
        "wc_store_api",
        "wc_store_api_express_checkout",
        "get_cart_details",
        "add_to_cart",
        "clear_cart",
        "get_selected_product_data",
        "update_failed_order",
    ] {
        assert_eq!(nonce_of(&p, key).len(), 10, "{key}");
    }
    assert_eq!(p["stripe"]["apiVersion"], payments::API_VERSION);
    // The Store API's own nonce, as the cart hands it out.
    assert_eq!(nonce_of(&p, "wc_store_api"), app.nonce(&b.http).await);
    let cart = b.cart().await;
    assert_eq!(
        p["cart"]["order_data"]["total"]["amount"].as_i64().unwrap(),
        minor(&cart["totals"]["total_price"])
    );
    assert!(p.get("cart_token").is_none());
    assert!(!p.to_string().contains(SECRET_KEY));

    // The product page: a cart of its own, and the product priced alone.
    let (status, p) = b
        .params(&format!("context=product&product_id={BEANIE}"))
        .await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["is_product_page"], true);
    let token = p["cart_token"].as_str().unwrap();
    assert!(!token.is_empty());
    assert_eq!(p["product"]["displayItems"][0]["label"], "Beanie");
    assert_eq!(p["product"]["displayItems"][0]["amount"], 1800);
    assert_eq!(p["product"]["requestShipping"], true);
    assert_eq!(p["product"]["total"]["pending"], true);
    // Its nonces are the token cart's, not the shopper's.
    assert_ne!(nonce_of(&p, "wc_store_api"), app.nonce(&b.http).await);
    // Asked again with the token, the same cart.
    let page = Client::token_cart(&app, token);
    let (_, again) = page
        .params(&format!("context=product&product_id={BEANIE}"))
        .await;
    assert_eq!(again["cart_token"].as_str().unwrap().len(), token.len());
    assert_eq!(nonce_of(&again, "add_to_cart"), nonce_of(&p, "add_to_cart"));
    // A variable product shows its lowest price until a variation is chosen.
    let (_, hoodie) = b
        .params(&format!("context=product&product_id={HOODIE}"))
        .await;
    assert_eq!(hoodie["product"]["displayItems"][0]["amount"], 4200);
    assert_eq!(hoodie["product"]["validVariationSelected"], false);

    for query in [
        "context=somewhere",
        "context=product",
        "context=product&product_id=abc",
        "context=%ZZ",
    ] {
        let (status, body) = b.params(query).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["code"], "rest_invalid_param");
    }
    let (status, _) = b.params("context=product&product_id=999999").await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn switched_off_or_unconnected_the_button_is_not_offered(backend: Backend) {
    let Some(app) = spawn_express(backend, |c| c.payments.express_checkout = false).await else {
        return;
    };
    let b = Client::browser(&app).await;
    let (status, p) = b.params("context=cart").await;
    assert_eq!(status, 200);
    assert_eq!(p["enabled"], false);
    let (status, body) = b
        .ajax("wc_stripe_get_cart_details", &[("security", "x")])
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["success"], false);
    app.stop().await;

    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let b = Client::browser(&app).await;
    let (_, p) = b.params("context=checkout").await;
    assert_eq!(p["enabled"], false);
    let (status, _) = b
        .ajax("wc_stripe_get_cart_details", &[("security", "x")])
        .await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn each_call_answers_in_its_shape(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 2).await;
    let (_, p) = b.params("context=cart").await;

    let (status, details) = b
        .ajax(
            "wc_stripe_get_cart_details",
            &[("security", &nonce_of(&p, "get_cart_details"))],
        )
        .await;
    assert_eq!(status, 200, "{details}");
    assert_eq!(details["shipping_required"], true);
    let order_data = &details["order_data"];
    assert_eq!(order_data["currency"], "usd");
    assert_eq!(order_data["country_code"], "US");
    assert_eq!(amount_of(&order_data["displayItems"], "Subtotal"), 3600);
    assert!(order_data["total"]["amount"].as_i64().unwrap() >= 3600);

    // California: a flat rate and local pickup.
    let shipping = nonce_of(&p, "shipping");
    let (status, options) = b
        .ajax(
            "wc_stripe_get_shipping_options",
            &[
                ("security", &shipping),
                ("country", "US"),
                ("state", "California"),
                ("postcode", "94110"),
                ("city", "San Francisco"),
                ("address", "1 Main St"),
                ("address_2", ""),
                ("is_product_page", "0"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{options}");
    assert_eq!(options["result"], "success");
    let ids: Vec<&str> = options["shipping_options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["flat_rate:1", "local_pickup:3"]);
    let first = &options["shipping_options"][0];
    assert_eq!(first["label"], "Flat rate");
    assert_eq!(first["amount"], 500);
    assert_eq!(first["detail"], "");
    let items = &options["displayItems"];
    assert_eq!(amount_of(items, "Subtotal"), 3600);
    assert_eq!(amount_of(items, "Shipping"), 500);
    // California's and San Francisco's taxes on the goods (8.5%), none on shipping.
    assert_eq!(amount_of(items, "Tax"), 306);
    assert_eq!(options["total"]["amount"], 3600 + 500 + 306);
    // The cart now ships to the wallet's address, its state as the shop's code.
    let cart = b.cart().await;
    assert_eq!(cart["shipping_address"]["state"], "CA");
    assert_eq!(cart["shipping_address"]["city"], "San Francisco");

    let (status, updated) = b
        .ajax(
            "wc_stripe_update_shipping_method",
            &[
                ("security", &nonce_of(&p, "update_shipping")),
                ("shipping_method[]", "local_pickup:3"),
                ("is_product_page", "1"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["result"], "success");
    assert_eq!(amount_of(&updated["displayItems"], "Beanie (x2)"), 3600);
    assert_eq!(amount_of(&updated["displayItems"], "Shipping"), 0);
    assert_eq!(updated["total"]["amount"], 3600 + 306);
    // The rate chosen stays first when the address changes within the zone.
    let (_, again) = b
        .ajax(
            "wc_stripe_get_shipping_options",
            &[
                ("security", &shipping),
                ("country", "US"),
                ("state", "CA"),
                ("postcode", "94110"),
                ("city", "San Francisco"),
            ],
        )
        .await;
    assert_eq!(again["shipping_options"][0]["id"], "local_pickup:3");
    // A rate the address does not offer.
    let (status, refused) = b
        .ajax(
            "wc_stripe_update_shipping_method",
            &[
                ("security", &nonce_of(&p, "update_shipping")),
                ("shipping_method[0]", "flat_rate:6"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["result"], "invalid_shipping_method");
    // Nowhere the shop knows.
    let (status, nowhere) = b
        .ajax(
            "wc_stripe_get_shipping_options",
            &[("security", &shipping), ("country", "XX")],
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(nowhere["result"], "invalid_shipping_address");

    let (status, normalized) = b
        .ajax(
            "wc_stripe_normalize_address",
            &[
                ("security", &nonce_of(&p, "normalize_address")),
                ("data[billing_address][first_name]", "Ada Lovelace"),
                ("data[billing_address][state]", "New York"),
                ("data[billing_address][country]", "us"),
                ("data[billing_address][postcode]", "100011234"),
                ("data[billing_address][phone]", "(555) 010-0100"),
                ("data[shipping_address][country]", "IE"),
                ("data[shipping_address][state]", "Co. Dublin"),
                ("data[shipping_address][city]", "Dublin"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{normalized}");
    let billing = &normalized["billing_address"];
    assert_eq!(billing["first_name"], "Ada");
    assert_eq!(billing["last_name"], "Lovelace");
    assert_eq!(billing["state"], "NY");
    assert_eq!(billing["country"], "US");
    assert_eq!(billing["postcode"], "10001-1234");
    assert_eq!(billing["phone"], "5550100100");
    assert_eq!(normalized["shipping_address"]["state"], "D");
    assert!(normalized["shipping_address"].get("email").is_none());

    let selected = nonce_of(&p, "get_selected_product_data");
    let (status, hoodie) = b
        .ajax(
            "wc_stripe_get_selected_product_data",
            &[
                ("security", &selected),
                ("product_id", &HOODIE.to_string()),
                ("qty", "2"),
                ("attributes[attribute_pa_color]", "blue"),
                ("attributes[attribute_pa_size]", "m"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{hoodie}");
    assert_eq!(hoodie["currency"], "usd");
    assert_eq!(hoodie["needs_shipping"], true);
    assert_eq!(hoodie["requestShipping"], true);
    assert_eq!(
        amount_of(&hoodie["displayItems"], "Hoodie - Blue, M (x2)"),
        9000
    );
    let tax = amount_of(&hoodie["displayItems"], "Tax");
    assert_eq!(hoodie["total"]["amount"], 9000 + tax);
    let (status, refused) = b
        .ajax(
            "wc_stripe_get_selected_product_data",
            &[("security", &selected), ("product_id", &POSTER.to_string())],
        )
        .await;
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("out of stock"));
    // Looking changed nothing.
    assert_eq!(b.cart().await["items_count"], 2);

    // On the shopper's own cart the button's add replaces what it holds, as in the
    // original (a product page uses a cart of its own: see below).
    let (status, added) = b
        .ajax(
            "wc_stripe_add_to_cart",
            &[
                ("security", &nonce_of(&p, "add_to_cart")),
                ("product_id", &CAP.to_string()),
            ],
        )
        .await;
    assert_eq!(status, 200, "{added}");
    assert_eq!(added["result"], "success");
    assert_eq!(amount_of(&added["displayItems"], "Subtotal"), 1600);
    let cart = b.cart().await;
    assert_eq!(cart["items_count"], 1);
    assert_eq!(cart["items"][0]["id"], CAP);
    let (status, cleared) = b
        .ajax(
            "wc_stripe_clear_cart",
            &[
                ("security", &nonce_of(&p, "clear_cart")),
                ("booking_id", "7"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{cleared}");
    assert_eq!(cleared["result"], "success");
    assert_eq!(b.cart().await["items_count"], 0);
    app.stop().await;
}

async fn calls_without_their_nonce_or_by_get_or_from_another_site_are_refused(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 1).await;
    let (_, p) = b.params("context=cart").await;
    let other = Client::browser(&app).await;
    let (_, theirs) = other.params("context=cart").await;
    let calls = [
        ("wc_stripe_get_cart_details", "get_cart_details"),
        ("wc_stripe_get_shipping_options", "shipping"),
        ("wc_stripe_update_shipping_method", "update_shipping"),
        ("wc_stripe_normalize_address", "normalize_address"),
        ("wc_stripe_add_to_cart", "add_to_cart"),
        ("wc_stripe_clear_cart", "clear_cart"),
        (
            "wc_stripe_get_selected_product_data",
            "get_selected_product_data",
        ),
    ];
    for (name, key) in calls {
        // Missing, wrong, another call's, another shopper's.
        let wrong_call = if key == "shipping" {
            "clear_cart"
        } else {
            "shipping"
        };
        for given in [
            None,
            Some("0123456789".to_string()),
            Some(nonce_of(&p, wrong_call)),
            Some(nonce_of(&theirs, key)),
        ] {
            let mut form = vec![("product_id", BEANIE.to_string())];
            if let Some(n) = &given {
                form.push(("security", n.clone()));
            }
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let (status, body) = b.ajax(name, &form).await;
            assert_eq!(status, 403, "{name} {given:?}: {body}");
            assert_eq!(body["success"], false);
            assert_eq!(
                body["data"]["error"]["message"],
                "We were unable to process your request. Please refresh the page and try again."
            );
        }
        // Its own nonce works, by POST only, from the shop's own pages only.
        let res = b
            .http
            .get(app.url(&format!("/?wc-ajax={name}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 405, "{name}");
        assert_eq!(res.headers()["allow"], "POST");
        let res = b
            .http
            .post(app.url(&format!("/?wc-ajax={name}")))
            .header("Sec-Fetch-Site", "cross-site")
            .form(&[("security", nonce_of(&p, key))])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 403, "{name}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["data"]["code"], "ferroshop_cross_site_request");
    }
    // Nothing was changed by the refused calls.
    assert_eq!(b.cart().await["items_count"], 1);
    app.stop().await;
}

async fn a_product_page_purchase_leaves_the_shoppers_cart_as_it_was(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    // The shopper's cart, with an address of their own.
    let b = Client::browser(&app).await;
    b.add(CAP, 1).await;
    let (status, _) = b
        .store_post(
            "/cart/update-customer",
            json!({"shipping_address": ada_address(), "billing_address": ada_address()}),
        )
        .await;
    assert_eq!(status, 200);
    let before = b.cart().await;

    // The product page's button: a cart of its own.
    let (_, p) = b
        .params(&format!("context=product&product_id={BEANIE}"))
        .await;
    let page = Client::token_cart(&app, p["cart_token"].as_str().unwrap());
    let (status, added) = page
        .ajax(
            "wc_stripe_add_to_cart",
            &[
                ("security", &nonce_of(&p, "add_to_cart")),
                ("product_id", &BEANIE.to_string()),
                ("qty", "2"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{added}");
    assert!(added.get("data").is_none(), "{added}");
    let (status, options) = page
        .ajax(
            "wc_stripe_get_shipping_options",
            &[
                ("security", &nonce_of(&p, "shipping")),
                ("country", "US"),
                ("state", "New York"),
                ("postcode", "10001"),
                ("city", "New York"),
                ("is_product_page", "1"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{options}");
    assert_eq!(options["result"], "success");
    assert_eq!(options["shipping_options"][0]["id"], "flat_rate:4");
    let (status, sheet) = page
        .ajax(
            "wc_stripe_update_shipping_method",
            &[
                ("security", &nonce_of(&p, "update_shipping")),
                ("shipping_method[]", "flat_rate:4"),
                ("is_product_page", "1"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{sheet}");
    // The Store API sees the page's cart through its token: the beanies only.
    let own = page.cart().await;
    assert_eq!(own["items_count"], 2);
    assert_eq!(own["items"][0]["id"], BEANIE);
    // The shopper's nonces do not work on the page's cart.
    let (status, _) = page
        .ajax(
            "wc_stripe_clear_cart",
            &[(
                "security",
                &nonce_of(&b.params("context=cart").await.1, "clear_cart"),
            )],
        )
        .await;
    assert_eq!(status, 403);

    // The wallet pays: the Store API's checkout with the token and the express headers.
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let wallet = wallet_address("New York", "New York", "10001");
    let (status, placed) = page
        .store_post_with(
            "/checkout",
            json!({
                "billing_address": wallet, "shipping_address": wallet,
                "customer_note": "Leave it with the doorman",
                "payment_method": "stripe",
                "payment_data": express_payment(pm.as_str(), "apple_pay"),
            }),
            &[
                ("X-WCSTRIPE-EXPRESS-CHECKOUT", "true"),
                (
                    "X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE",
                    &nonce_of(&p, "wc_store_api_express_checkout"),
                ),
            ],
        )
        .await;
    assert_eq!(status, 200, "{placed}");
    assert_eq!(placed["status"], "processing");
    assert_eq!(placed["billing_address"]["state"], "NY");
    assert_eq!(placed["billing_address"]["first_name"], "Ada");
    assert_eq!(placed["billing_address"]["last_name"], "Lovelace");
    let id = placed["order_id"].as_i64().unwrap();
    let paid = order(&app, id).await;
    assert_eq!(paid.payment_method, "stripe");
    assert_eq!(paid.payment_method_title, "Apple Pay (Stripe)");
    assert_eq!(paid.customer_note, "Leave it with the doorman");
    assert_eq!(paid.total, sheet["total"]["amount"].as_i64().unwrap());
    assert_eq!(paid.lines.items.len(), 1);
    assert_eq!(paid.lines.items[0].quantity, 2);

    // The shopper's cart is as it was: its line, its hash, its addresses.
    let after = b.cart().await;
    assert_eq!(after["items"], before["items"]);
    assert_eq!(after["totals"], before["totals"]);
    assert_eq!(after["shipping_address"], before["shipping_address"]);
    assert_eq!(after["billing_address"], before["billing_address"]);
    // The page's cart is spent.
    assert_eq!(page.cart().await["items_count"], 0);
    app.stop().await;
}

async fn a_cart_page_purchase_pays_the_shoppers_cart_at_the_checkouts_prices(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 2).await;
    b.add(HOODIE_BLUE_L, 1).await;
    let (_, p) = b.params("context=cart").await;
    let (status, options) = b
        .ajax(
            "wc_stripe_get_shipping_options",
            &[
                ("security", &nonce_of(&p, "shipping")),
                ("country", "US"),
                ("state", "new york"),
                ("postcode", "10001"),
                ("city", "New York"),
                ("is_product_page", "0"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{options}");

    // Another shopper's checkout of the same goods to the same address.
    let c = Client::browser(&app).await;
    c.add(BEANIE, 2).await;
    c.add(HOODIE_BLUE_L, 1).await;
    let mut ny = ada_address();
    ny["state"] = json!("NY");
    ny["city"] = json!("New York");
    ny["postcode"] = json!("10001");
    let (status, theirs) = c
        .store_post(
            "/cart/update-customer",
            json!({"billing_address": ny, "shipping_address": ny}),
        )
        .await;
    assert_eq!(status, 200, "{theirs}");
    let totals = &theirs["totals"];
    let items = &options["displayItems"];
    assert_eq!(amount_of(items, "Subtotal"), minor(&totals["total_items"]));
    assert_eq!(
        amount_of(items, "Shipping"),
        minor(&totals["total_shipping"])
    );
    assert_eq!(amount_of(items, "Tax"), minor(&totals["total_tax"]));
    assert_eq!(
        options["total"]["amount"].as_i64().unwrap(),
        minor(&totals["total_price"])
    );
    // New York taxes the goods and the shipping.
    assert!(minor(&totals["total_shipping_tax"]) > 0);

    // The wallet pays the shopper's cart, with the shopper's nonce.
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let wallet = wallet_address("New York", "New York", "10001");
    let (status, placed) = b
        .store_post_with(
            "/checkout",
            json!({
                "billing_address": wallet, "shipping_address": wallet,
                "payment_method": "stripe",
                "payment_data": express_payment(pm.as_str(), "google_pay"),
            }),
            &[
                ("X-WCSTRIPE-EXPRESS-CHECKOUT", "true"),
                (
                    "X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE",
                    &nonce_of(&p, "wc_store_api_express_checkout"),
                ),
            ],
        )
        .await;
    assert_eq!(status, 200, "{placed}");
    assert_eq!(placed["status"], "processing");
    let paid = order(&app, placed["order_id"].as_i64().unwrap()).await;
    assert_eq!(paid.payment_method_title, "Google Pay (Stripe)");
    assert_eq!(paid.total, minor(&totals["total_price"]));
    assert_eq!(paid.total_tax, minor(&totals["total_tax"]));
    assert_eq!(paid.shipping_total, minor(&totals["total_shipping"]));
    assert_eq!(b.cart().await["items_count"], 0);
    app.stop().await;
}

async fn a_wrong_express_nonce_places_nothing(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 1).await;
    let pm = Emulator::shared().create_card("4242424242424242").await;
    let body = json!({
        "billing_address": ada_address(), "shipping_address": ada_address(),
        "payment_method": "stripe", "payment_data": express_payment(pm.as_str(), "link"),
    });
    let (status, refused) = b
        .store_post_with(
            "/checkout",
            body.clone(),
            &[
                ("X-WCSTRIPE-EXPRESS-CHECKOUT", "true"),
                ("X-WCSTRIPE-EXPRESS-CHECKOUT-NONCE", "0123456789"),
            ],
        )
        .await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["code"], "woocommerce_rest_invalid_nonce");
    assert_eq!(b.cart().await["items_count"], 1);
    // Without the express headers the same payment goes through, naming the wallet.
    let (status, placed) = b.store_post("/checkout", body).await;
    assert_eq!(status, 200, "{placed}");
    let paid = order(&app, placed["order_id"].as_i64().unwrap()).await;
    assert_eq!(paid.payment_method_title, "Link (Stripe)");
    app.stop().await;
}

async fn the_buttons_store_api_calls_work_on_its_own_cart(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(CAP, 1).await;
    let (_, p) = b
        .params(&format!("context=product&product_id={BEANIE}"))
        .await;
    let page = Client::token_cart(&app, p["cart_token"].as_str().unwrap());
    // add-item's quantity is 1 unless given; remove-item takes the booking id along.
    let (status, cart) = page
        .store_post("/cart/add-item", json!({"id": BEANIE}))
        .await;
    assert_eq!(status, 201, "{cart}");
    assert_eq!(cart["items"][0]["quantity"], 1);
    let key = cart["items"][0]["key"].as_str().unwrap().to_string();
    let (status, cart) = page
        .store_post("/cart/remove-item", json!({"key": key, "booking_id": 12}))
        .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["items_count"], 0);
    assert_eq!(b.cart().await["items_count"], 1);
    app.stop().await;
}

async fn an_order_paid_with_a_wallet_keeps_its_shipping_address(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 1).await;
    let (status, body) = b
        .store_post(
            "/checkout",
            json!({
                "billing_address": ada_address(), "payment_method": "stripe",
                "payment_data": [{"key": "wc-stripe-payment-method", "value": "pm_card_chargeCustomerFail"}],
            }),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let id = body["data"]["order_id"].as_i64().unwrap();
    let key = order(&app, id).await.key;

    let pm = Emulator::shared().create_card("4242424242424242").await;
    let mut ship_to = ada_address();
    ship_to["address_1"] = json!("2 Harbour Rd");
    ship_to["city"] = json!("Los Angeles");
    ship_to["postcode"] = json!("90001");
    let (status, paid) = b
        .store_post(
            &format!("/checkout/{id}?key={key}&billing_email=ada%40example.test"),
            json!({
                "payment_method": "stripe",
                "shipping_address": ship_to,
                "payment_data": [
                    {"key": "wc-stripe-payment-method", "value": pm.as_str()},
                    {"key": "wc-stripe-is-deferred-intent", "value": true},
                    {"key": "express_payment_type", "value": "google_pay"},
                ],
            }),
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["status"], "processing");
    let paid = order(&app, id).await;
    assert_eq!(paid.shipping.city, "Los Angeles");
    assert_eq!(paid.shipping.address_1, "2 Harbour Rd");
    assert_eq!(paid.payment_method_title, "Google Pay (Stripe)");
    // A shipping address that is not one is refused before anything is charged.
    let (status, body) = b
        .store_post(
            &format!("/checkout/{id}?key={key}&billing_email=ada%40example.test"),
            json!({"payment_method": "stripe", "shipping_address": "somewhere"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    app.stop().await;
}

/// A sheet's call, the params' nonce it takes, and the fields sent with it.
type BadCall<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>);

async fn malformed_input_is_answered_in_the_calls_shape_never_with_a_500(backend: Backend) {
    let Some(app) = spawn_express(backend, |_| {}).await else {
        return;
    };
    let b = Client::browser(&app).await;
    b.add(BEANIE, 1).await;
    let (_, p) = b.params("context=cart").await;
    let long = "x".repeat(5000);
    let cases: Vec<BadCall> = vec![
        (
            "wc_stripe_get_shipping_options",
            "shipping",
            vec![("country[]", "US")],
        ),
        (
            "wc_stripe_get_shipping_options",
            "shipping",
            vec![("country", "US"), ("state[a]", "b")],
        ),
        (
            "wc_stripe_get_shipping_options",
            "shipping",
            vec![("country", "US"), ("city", &long)],
        ),
        (
            "wc_stripe_get_shipping_options",
            "shipping",
            vec![("country", "\u{0}"), ("postcode", "🏴‍☠️")],
        ),
        (
            "wc_stripe_update_shipping_method",
            "update_shipping",
            vec![],
        ),
        (
            "wc_stripe_update_shipping_method",
            "update_shipping",
            vec![("shipping_method[a][b]", "c")],
        ),
        (
            "wc_stripe_update_shipping_method",
            "update_shipping",
            vec![("shipping_method[99]", "flat_rate:1")],
        ),
        (
            "wc_stripe_update_shipping_method",
            "update_shipping",
            vec![("shipping_method", &long)],
        ),
        ("wc_stripe_normalize_address", "normalize_address", vec![]),
        (
            "wc_stripe_normalize_address",
            "normalize_address",
            vec![("data", "text")],
        ),
        (
            "wc_stripe_normalize_address",
            "normalize_address",
            vec![("data[billing_address]", "text")],
        ),
        (
            "wc_stripe_normalize_address",
            "normalize_address",
            vec![("data[billing_address][state][x]", "y")],
        ),
        ("wc_stripe_add_to_cart", "add_to_cart", vec![]),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "abc")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "15"), ("qty", "0")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "15"), ("qty", "-3")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "15"), ("qty", "99999999999999999999")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "15"), ("attributes", "blue")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![
                ("product_id", "12"),
                ("attributes[attribute_pa_color][x]", "blue"),
            ],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "12")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "34")],
        ),
        (
            "wc_stripe_add_to_cart",
            "add_to_cart",
            vec![("product_id", "999999")],
        ),
        (
            "wc_stripe_clear_cart",
            "clear_cart",
            vec![("booking_id", "soon")],
        ),
        (
            "wc_stripe_get_selected_product_data",
            "get_selected_product_data",
            vec![("product_id", "999999")],
        ),
        (
            "wc_stripe_get_selected_product_data",
            "get_selected_product_data",
            vec![
                ("product_id", "12"),
                ("attributes[attribute_pa_color]", "purple"),
            ],
        ),
        (
            "wc_stripe_get_selected_product_data",
            "get_selected_product_data",
            vec![("product_id", "15"), ("qty", "1.5")],
        ),
    ];
    for (name, key, fields) in cases {
        let nonce = nonce_of(&p, key);
        let mut form = vec![("security", nonce.as_str())];
        form.extend(fields.iter().copied());
        let (status, body) = b.ajax(name, &form).await;
        assert!(
            (400..500).contains(&status) || (status == 200 && body.get("result").is_some()),
            "{name} {fields:?}: {status} {body}"
        );
        assert!(body.is_object(), "{name} {fields:?}: {body}");
    }
    // Bodies that are not forms at all.
    for (content_type, raw) in [
        ("application/json", "[1, 2]"),
        ("application/json", "{\"security\": {\"a\": 1}}"),
        ("application/x-www-form-urlencoded", "security=%FF%FE"),
        ("text/plain", "hello"),
    ] {
        let res = b
            .http
            .post(app.url("/?wc-ajax=wc_stripe_get_shipping_options"))
            .header("content-type", content_type)
            .body(raw)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        assert!((400..500).contains(&status), "{raw}: {status}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["success"], false, "{raw}");
    }
    // The shopper's cart went through all that unharmed.
    assert_eq!(b.cart().await["items_count"], 1);
    app.stop().await;
}

on_both_databases!(
    params_carry_the_key_the_nonces_and_the_amount,
    switched_off_or_unconnected_the_button_is_not_offered,
    each_call_answers_in_its_shape,
    calls_without_their_nonce_or_by_get_or_from_another_site_are_refused,
    a_product_page_purchase_leaves_the_shoppers_cart_as_it_was,
    a_cart_page_purchase_pays_the_shoppers_cart_at_the_checkouts_prices,
    a_wrong_express_nonce_places_nothing,
    the_buttons_store_api_calls_work_on_its_own_cart,
    an_order_paid_with_a_wallet_keeps_its_shipping_address,
    malformed_input_is_answered_in_the_calls_shape_never_with_a_500,
);
