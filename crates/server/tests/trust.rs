//! The holes an attacker would try, each closed and kept closed, on both databases:
//! forged hosts in reset links, cross-site and cross-session order placement, revoked
//! logins, cookie and header flags, rate limits under parallel attempts, coupon limits
//! per customer, checkout as one unit, concurrent writes to one cart, the shapes of
//! framework rejections, and data that is never silently lost.

mod common;

use std::sync::Arc;

use common::*;
use reqwest::header::HeaderMap;
use rules::orders::model::OrderStatus;
use rules::pricing::coupons::{Coupon, CouponCode, CouponKind};
use rules::pricing::rules::ShopRules;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PASSWORD: &str = "correct horse 1";

struct Answer {
    status: u16,
    headers: HeaderMap,
    body: Value,
}

impl Answer {
    async fn from(res: reqwest::Response) -> Answer {
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let text = res.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Answer {
            status,
            headers,
            body,
        }
    }

    fn cookies(&self) -> Vec<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect()
    }

    fn cookie(&self, name: &str) -> Option<String> {
        self.cookies()
            .into_iter()
            .find(|c| c.starts_with(&format!("{name}=")))
    }
}

fn shop_url(app: &TestApp, path: &str) -> String {
    app.url(&format!("/wp-json/ferroshop/v1{path}"))
}

async fn post_json(
    c: &reqwest::Client,
    url: String,
    nonce: &str,
    body: Value,
    extra: &[(&str, &str)],
) -> Answer {
    let mut req = c.post(url).header("Nonce", nonce).json(&body);
    for (k, v) in extra {
        req = req.header(*k, *v);
    }
    Answer::from(req.send().await.unwrap()).await
}

async fn classic(
    app: &TestApp,
    c: &reqwest::Client,
    name: &str,
    form: &[(&str, String)],
    extra: &[(&str, &str)],
) -> Answer {
    let mut req = c.post(app.url(&format!("/?wc-ajax={name}"))).form(form);
    for (k, v) in extra {
        req = req.header(*k, *v);
    }
    Answer::from(req.send().await.unwrap()).await
}

fn ada() -> Value {
    json!({
        "first_name": "Ada", "last_name": "Lovelace", "company": "", "address_1": "1 Main St",
        "address_2": "", "city": "San Francisco", "state": "CA", "postcode": "94110",
        "country": "US", "email": "ada@example.test", "phone": "5555550100"
    })
}

/// The classic checkout form for Ada, paid on delivery, with this browser's nonce.
async fn checkout_form(app: &TestApp, c: &reqwest::Client) -> Vec<(&'static str, String)> {
    vec![
        ("billing_first_name", "Ada".into()),
        ("billing_last_name", "Lovelace".into()),
        ("billing_country", "US".into()),
        ("billing_address_1", "1 Main St".into()),
        ("billing_city", "San Francisco".into()),
        ("billing_state", "CA".into()),
        ("billing_postcode", "94110".into()),
        ("billing_phone", "5555550100".into()),
        ("billing_email", "ada@example.test".into()),
        ("payment_method", "cod".into()),
        (
            "woocommerce-process-checkout-nonce",
            classic_nonce(app, c, "woocommerce-process_checkout").await,
        ),
    ]
}

async fn add_beanie(app: &TestApp, c: &reqwest::Client, quantity: i64) {
    let nonce = app.nonce(c).await;
    let a = post_json(
        c,
        app.api("/cart/add-item"),
        &nonce,
        json!({"id": BEANIE, "quantity": quantity}),
        &[],
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
}

async fn orders_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status <> 'checkout-draft'")
        .fetch_one(app.db().reader())
        .await
        .unwrap()
}

async fn register(app: &TestApp, c: &reqwest::Client, email: &str) -> Answer {
    let nonce = app.nonce(c).await;
    let a = post_json(
        c,
        shop_url(app, "/account/register"),
        &nonce,
        json!({"email": email, "password": PASSWORD, "first_name": "Ada"}),
        &[],
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    a
}

// 1. Password-reset poisoning.

async fn a_forged_host_gets_no_reset_link_and_no_mail(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    register(&app, &c, "ada@example.test").await;
    let t = app.shopper();
    let nonce = app.nonce(&t).await;
    let ask = json!({"user_login": "ada@example.test"});
    let forged = post_json(
        &t,
        shop_url(&app, "/account/lost-password"),
        &nonce,
        ask.clone(),
        &[("Host", "evil.example")],
    )
    .await;
    assert_eq!(forged.status, 400, "{}", forged.body);
    assert_eq!(forged.body["code"], "ferroshop_unknown_host");
    let forwarded = post_json(
        &t,
        shop_url(&app, "/account/lost-password"),
        &nonce,
        ask.clone(),
        &[("X-Forwarded-Host", "evil.example")],
    )
    .await;
    assert_eq!(forwarded.status, 400, "{}", forwarded.body);
    assert!(outbox(&app)
        .await
        .iter()
        .all(|m| m.kind != "customer_reset_password"));
    // Pages answer the same way: no canonical link to the attacker's host.
    let page = Answer::from(
        t.get(app.url("/shop"))
            .header("Host", "evil.example")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(page.status, 400);
    assert!(!page.body.to_string().contains("evil.example"));

    let honest = post_json(
        &t,
        shop_url(&app, "/account/lost-password"),
        &nonce,
        ask,
        &[],
    )
    .await;
    assert_eq!(honest.status, 200, "{}", honest.body);
    let mails = outbox(&app).await;
    let reset = mails
        .iter()
        .find(|m| m.kind == "customer_reset_password")
        .expect("the reset mail");
    let link = format!("http://{}/my-account/lost-password/?key=", app.addr);
    assert!(reset.text.contains(&link), "{}", reset.text);
    assert!(!reset.text.contains("evil.example"));
    app.stop().await;
}

async fn reset_links_use_the_public_url_whatever_host_is_named(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.public_url = Some("https://shop.example".into());
    })
    .await
    else {
        return;
    };
    let c = app.shopper();
    register(&app, &c, "ada@example.test").await;
    let nonce = app.nonce(&c).await;
    let a = post_json(
        &c,
        shop_url(&app, "/account/lost-password"),
        &nonce,
        json!({"user_login": "ada@example.test"}),
        &[("Host", "localhost")],
    )
    .await;
    // "localhost" on another port is not one of the shop's hosts.
    assert_eq!(a.status, 400);
    let a = post_json(
        &c,
        shop_url(&app, "/account/lost-password"),
        &nonce,
        json!({"user_login": "ada@example.test"}),
        &[],
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let reset = outbox(&app)
        .await
        .into_iter()
        .find(|m| m.kind == "customer_reset_password")
        .unwrap();
    assert!(reset
        .text
        .contains("https://shop.example/my-account/lost-password/?key="));
    assert!(!reset.text.contains("127.0.0.1"));
    app.stop().await;
}

// 2. Cross-site order placement.

async fn another_shoppers_nonce_places_no_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let victim = app.shopper();
    add_beanie(&app, &victim, 1).await;
    let attacker = app.shopper();
    add_beanie(&app, &attacker, 1).await;
    let attackers_form = checkout_form(&app, &attacker).await;
    let a = classic(&app, &victim, "checkout", &attackers_form, &[]).await;
    assert_eq!(a.body["result"], "failure", "{}", a.body);
    assert_eq!(orders_count(&app).await, 0);
    // The Store API's nonce is the session's too.
    let attackers_nonce = app.nonce(&attacker).await;
    let a = post_json(
        &victim,
        app.api("/checkout"),
        &attackers_nonce,
        json!({"billing_address": ada(), "payment_method": "cod"}),
        &[],
    )
    .await;
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.body["code"], "woocommerce_rest_invalid_nonce");
    assert_eq!(orders_count(&app).await, 0);
    // The victim's own nonce works.
    let own = checkout_form(&app, &victim).await;
    let a = classic(&app, &victim, "checkout", &own, &[]).await;
    assert_eq!(a.body["result"], "success", "{}", a.body);
    app.stop().await;
}

async fn changing_classic_calls_are_post_only_and_take_no_query_fields(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let victim = app.shopper();
    add_beanie(&app, &victim, 1).await;
    let form = checkout_form(&app, &victim).await;
    let query = serde_urlencoded::to_string(&form).unwrap();
    // A plain link, even carrying the victim's own nonce.
    let link = Answer::from(
        victim
            .get(app.url(&format!(
                "/?wc-ajax=checkout&{query}&createaccount=1&account_password=attacker-pass"
            )))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(link.status, 405, "{}", link.body);
    assert_eq!(link.headers["allow"], "POST");
    assert_eq!(link.body["success"], false);
    for name in [
        "add_to_cart",
        "remove_from_cart",
        "update_order_review",
        "apply_coupon",
        "remove_coupon",
    ] {
        let res = victim
            .get(app.url(&format!("/?wc-ajax={name}&product_id={BEANIE}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 405, "{name}");
    }
    // Fragments can still be read by GET.
    let res = victim
        .get(app.url("/?wc-ajax=get_refreshed_fragments"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    // Fields in the query string of a POST are not taken.
    let a = Answer::from(
        victim
            .post(app.url(&format!("/?wc-ajax=checkout&{query}")))
            .form(&[("x", "1")])
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.body["result"], "failure", "{}", a.body);
    let a = Answer::from(
        victim
            .post(app.api(&format!("/cart/add-item?id={CAP}&quantity=3")))
            .header("Nonce", app.nonce(&victim).await)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(orders_count(&app).await, 0);
    assert_eq!(cart_of(&app, &victim).await["items_count"], 1);
    app.stop().await;
}

async fn writes_from_another_site_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let victim = app.shopper();
    add_beanie(&app, &victim, 1).await;
    let form = checkout_form(&app, &victim).await;
    for cross in [
        [
            ("Sec-Fetch-Site", "cross-site"),
            ("Origin", "https://evil.example"),
        ],
        [
            ("Origin", "https://evil.example"),
            ("Referer", "https://evil.example/"),
        ],
        [
            ("Sec-Fetch-Site", "same-site"),
            ("Origin", "http://evil.localhost"),
        ],
    ] {
        let a = classic(&app, &victim, "checkout", &form, &cross).await;
        assert_eq!(a.status, 403, "{}", a.body);
        assert_eq!(a.body["data"]["code"], "ferroshop_cross_site_request");
        let nonce = app.nonce(&victim).await;
        let a = post_json(
            &victim,
            app.api("/cart/add-item"),
            &nonce,
            json!({"id": CAP}),
            &cross,
        )
        .await;
        assert_eq!(a.status, 403, "{}", a.body);
        assert_eq!(a.body["code"], "ferroshop_cross_site_request");
        let a = post_json(
            &victim,
            shop_url(&app, "/account/login"),
            &nonce,
            json!({"username": "ada@example.test", "password": PASSWORD}),
            &cross,
        )
        .await;
        assert_eq!(a.status, 403, "{}", a.body);
    }
    assert_eq!(orders_count(&app).await, 0);
    assert_eq!(cart_of(&app, &victim).await["items_count"], 1);
    // The shop's own pages, and programs that send no such headers, are served.
    let a = classic(
        &app,
        &victim,
        "checkout",
        &form,
        &[("Sec-Fetch-Site", "same-origin")],
    )
    .await;
    assert_eq!(a.body["result"], "success", "{}", a.body);
    // A headless client naming its cart by Cart-Token may call from anywhere.
    let token = app.cart_token().await;
    let a = Answer::from(
        app.bare()
            .post(app.api("/cart/add-item"))
            .header("Cart-Token", &token)
            .header("Sec-Fetch-Site", "cross-site")
            .header("Origin", "https://headless.example")
            .json(&json!({"id": CAP}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.body);
    app.stop().await;
}

// 3. Revoked logins.

async fn a_copied_login_cookie_stops_working_at_logout(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let a = app.shopper();
    let registered = register(&app, &a, "ada@example.test").await;
    let customer = registered.body["user"]["id"].as_i64().unwrap();
    // The customer's own order, left waiting for payment.
    add_beanie(&app, &a, 1).await;
    let nonce = app.nonce(&a).await;
    let placed = post_json(
        &a,
        app.api("/checkout"),
        &nonce,
        json!({"billing_address": ada(), "payment_method": "bacs"}),
        &[],
    )
    .await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let order_id = placed.body["order_id"].as_i64().unwrap();
    let key = placed.body["order_key"].as_str().unwrap().to_string();
    sqlx::query("UPDATE orders SET status = $1 WHERE id = $2")
        .bind(OrderStatus::Pending.as_str())
        .bind(order_id)
        .execute(app.db().writer())
        .await
        .unwrap();
    // Someone copies the login cookie, then the customer logs out.
    let login = registered.cookie("wordpress_logged_in_ferroshop").unwrap();
    let copied_cookie = login.split(';').next().unwrap().to_string();
    let nonce = app.nonce(&a).await;
    let out = post_json(
        &a,
        shop_url(&app, "/account/logout"),
        &nonce,
        json!({}),
        &[],
    )
    .await;
    assert_eq!(out.status, 200);

    let thief = app.bare();
    let with_cookie = |req: reqwest::RequestBuilder| req.header("Cookie", copied_cookie.clone());
    let seen = Answer::from(
        with_cookie(thief.get(app.api("/cart")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(seen.headers["user-id"], "0", "a revoked login is a guest");
    assert!(seen
        .cookie("wordpress_logged_in_ferroshop")
        .is_some_and(|c| c.contains("Max-Age=0")));
    let token = seen.headers["cart-token"].to_str().unwrap().to_string();
    // Paying the customer's order as them is refused.
    let pay = Answer::from(
        with_cookie(thief.post(app.api(&format!(
            "/checkout/{order_id}?key={key}&billing_email=someone%40else.test"
        ))))
        .header("Cart-Token", &token)
        .json(&json!({"payment_method": "cod"}))
        .send()
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(pay.status, 403, "{}", pay.body);
    // An order placed with the copied cookie is no order of the customer's.
    let add = Answer::from(
        with_cookie(thief.post(app.api("/cart/add-item")))
            .header("Cart-Token", &token)
            .json(&json!({"id": BEANIE}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(add.status, 201);
    let mut billing = ada();
    billing["email"] = json!("thief@example.test");
    let placed = Answer::from(
        with_cookie(thief.post(app.api("/checkout")))
            .header("Cart-Token", &token)
            .json(&json!({"billing_address": billing, "payment_method": "cod"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let owner: Option<i64> = sqlx::query_scalar("SELECT customer_id FROM orders WHERE id = $1")
        .bind(placed.body["order_id"].as_i64().unwrap())
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(owner, None);
    let theirs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE customer_id = $1")
        .bind(customer)
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(theirs, 1);
    app.stop().await;
}

// 4. Cookie and header flags.

async fn cookies_are_secure_and_headers_strict_over_https(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.public_url = Some("https://shop.example".into());
    })
    .await
    else {
        return;
    };
    let c = app.shopper();
    let first = Answer::from(c.get(app.api("/cart")).send().await.unwrap()).await;
    let session = first.cookie("wp_woocommerce_session_ferroshop").unwrap();
    assert!(
        session.contains("Secure") && session.contains("HttpOnly"),
        "{session}"
    );
    assert_eq!(
        first.headers["strict-transport-security"],
        "max-age=31536000"
    );
    assert_eq!(first.headers["x-content-type-options"], "nosniff");
    assert_eq!(
        first.headers["referrer-policy"],
        "strict-origin-when-cross-origin"
    );
    assert!(first.headers["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("frame-ancestors 'self'"));
    // A browser does not send Secure cookies over plain http, as this test talks to the
    // shop; a Cart-Token names the cart instead.
    let token = first.headers["cart-token"].to_str().unwrap().to_string();
    let registered = Answer::from(
        app.bare()
            .post(shop_url(&app, "/account/register"))
            .header("Cart-Token", &token)
            .json(&json!({"email": "ada@example.test", "password": PASSWORD}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(registered.status, 201, "{}", registered.body);
    let login = registered.cookie("wordpress_logged_in_ferroshop").unwrap();
    assert!(
        login.contains("Secure") && login.contains("HttpOnly"),
        "{login}"
    );
    let page = Answer::from(c.get(app.url("/")).send().await.unwrap()).await;
    assert_eq!(
        page.headers["strict-transport-security"],
        "max-age=31536000"
    );
    assert_eq!(page.headers["x-frame-options"], "SAMEORIGIN");
    app.stop().await;

    let Some(plain) = spawn_app(backend).await else {
        return;
    };
    let first = Answer::from(plain.bare().get(plain.api("/cart")).send().await.unwrap()).await;
    let session = first.cookie("wp_woocommerce_session_ferroshop").unwrap();
    assert!(!session.contains("Secure"), "{session}");
    assert!(!first.headers.contains_key("strict-transport-security"));
    // A client cannot claim https on its own.
    let claimed = Answer::from(
        plain
            .bare()
            .get(plain.api("/cart"))
            .header("X-Forwarded-Proto", "https")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(!claimed.headers.contains_key("strict-transport-security"));
    plain.stop().await;

    let Some(proxied) = spawn_app_with(backend, |c| c.trust_proxy = true).await else {
        return;
    };
    let behind = Answer::from(
        proxied
            .bare()
            .get(proxied.api("/cart"))
            .header("X-Forwarded-Proto", "https")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert!(behind
        .cookie("wp_woocommerce_session_ferroshop")
        .unwrap()
        .contains("Secure"));
    assert_eq!(
        behind.headers["strict-transport-security"],
        "max-age=31536000"
    );
    proxied.stop().await;
}

// 5. Rate limits that hold, counted before the work, across instances.

/// Fires `n` requests at once, alternating between two instances; their statuses.
async fn at_once(
    urls: [String; 2],
    n: usize,
    make: impl Fn(usize, &reqwest::Client, String) -> reqwest::RequestBuilder,
) -> Vec<u16> {
    let client = reqwest::Client::new();
    all_at_once(
        (0..n)
            .map(|i| make(i, &client, urls[i % 2].clone()))
            .collect(),
    )
    .await
}

fn count(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|&&s| s == status).count()
}

async fn fifty_parallel_guesses_let_at_most_the_limit_through(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let second = app.second_instance().await;
    register(&app, &app.shopper(), "ada@example.test").await;
    let token = app.cart_token().await;
    let urls = [
        shop_url(&app, "/account/login"),
        format!("http://{}/wp-json/ferroshop/v1/account/login", second.addr),
    ];
    let statuses = at_once(urls.clone(), 50, |_, c, url| {
        c.post(url)
            .header("Cart-Token", &token)
            .json(&json!({"username": "ada@example.test", "password": "a wrong guess"}))
    })
    .await;
    assert_eq!(count(&statuses, 401), 5, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 45, "{statuses:?}");
    // The right password is refused too until the window ends.
    let statuses = at_once(urls, 2, |_, c, url| {
        c.post(url)
            .header("Cart-Token", &token)
            .json(&json!({"username": "ada@example.test", "password": PASSWORD}))
    })
    .await;
    assert_eq!(statuses, vec![429, 429]);
    second.shutdown().await.unwrap();
    app.stop().await;
}

async fn mail_flooding_registrations_and_order_lookups_are_limited(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let second = app.second_instance().await;
    let other = |path: &str| format!("http://{}/wp-json/ferroshop/v1{path}", second.addr);
    register(&app, &app.shopper(), "ada@example.test").await;
    let token = app.cart_token().await;
    let statuses = at_once(
        [
            shop_url(&app, "/account/lost-password"),
            other("/account/lost-password"),
        ],
        50,
        |_, c, url| {
            c.post(url)
                .header("Cart-Token", &token)
                .json(&json!({"user_login": "ada@example.test"}))
        },
    )
    .await;
    assert_eq!(count(&statuses, 200), 3, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 47, "{statuses:?}");
    let resets = outbox(&app)
        .await
        .iter()
        .filter(|m| m.kind == "customer_reset_password")
        .count();
    assert_eq!(resets, 3);

    let statuses = at_once(
        [
            shop_url(&app, "/account/register"),
            other("/account/register"),
        ],
        50,
        |i, c, url| {
            c.post(url)
                .header("Cart-Token", &token)
                .json(&json!({"email": format!("new{i}@example.test"), "password": PASSWORD}))
        },
    )
    .await;
    // One registration was made above, from this same address.
    assert_eq!(count(&statuses, 201), 9, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 41, "{statuses:?}");

    let statuses = at_once(
        [shop_url(&app, "/orders/lookup"), other("/orders/lookup")],
        50,
        |i, c, url| {
            c.post(url).header("Cart-Token", &token).json(
                &json!({"order_number": (i + 1).to_string(), "billing_email": "ada@example.test"}),
            )
        },
    )
    .await;
    assert_eq!(count(&statuses, 404), 10, "{statuses:?}");
    assert_eq!(count(&statuses, 429), 40, "{statuses:?}");
    second.shutdown().await.unwrap();
    app.stop().await;
}

// 7. Coupon limits per customer count the account and its e-mail alike.

async fn a_once_per_customer_coupon_cannot_be_used_again_as_a_guest(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut vip = Coupon::new(
        CouponCode::parse("vip").unwrap(),
        CouponKind::Percent { percent: 20_00 },
    );
    vip.usage_limit_per_user = Some(1);
    store_coupon(&app, &vip).await;
    let c = app.shopper();
    register(&app, &c, "ada@example.test").await;
    add_beanie(&app, &c, 1).await;
    let nonce = app.nonce(&c).await;
    let applied = post_json(
        &c,
        app.api("/cart/apply-coupon"),
        &nonce,
        json!({"code": "vip"}),
        &[],
    )
    .await;
    assert_eq!(applied.status, 200, "{}", applied.body);
    let placed = post_json(
        &c,
        app.api("/checkout"),
        &nonce,
        json!({"billing_address": ada(), "payment_method": "cod"}),
        &[],
    )
    .await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let nonce = app.nonce(&c).await;
    post_json(
        &c,
        shop_url(&app, "/account/logout"),
        &nonce,
        json!({}),
        &[],
    )
    .await;

    // The same person as a guest with the same address.
    let guest = app.shopper();
    add_beanie(&app, &guest, 1).await;
    let nonce = app.nonce(&guest).await;
    let applied = post_json(
        &guest,
        app.api("/cart/apply-coupon"),
        &nonce,
        json!({"code": "vip"}),
        &[],
    )
    .await;
    assert_eq!(applied.status, 200, "no e-mail known yet: {}", applied.body);
    let placed = post_json(
        &guest,
        app.api("/checkout"),
        &nonce,
        json!({"billing_address": ada(), "payment_method": "cod"}),
        &[],
    )
    .await;
    assert_eq!(placed.status, 400, "{}", placed.body);
    assert_eq!(
        placed.body["message"],
        "Coupon usage limit has been reached."
    );
    // Once the address is known, applying it is refused too (case does not matter).
    let mut shouting = ada();
    shouting["email"] = json!("ADA@Example.test");
    let updated = post_json(
        &guest,
        app.api("/cart/update-customer"),
        &nonce,
        json!({"billing_address": shouting}),
        &[],
    )
    .await;
    assert_eq!(updated.status, 200, "{}", updated.body);
    let removed = post_json(
        &guest,
        app.api("/cart/remove-coupon"),
        &nonce,
        json!({"code": "vip"}),
        &[],
    )
    .await;
    assert_eq!(removed.status, 200);
    let applied = post_json(
        &guest,
        app.api("/cart/apply-coupon"),
        &nonce,
        json!({"code": "vip"}),
        &[],
    )
    .await;
    assert_eq!(applied.status, 400, "{}", applied.body);

    // And the other way round: used as a guest, then signed in under another address.
    let bob_guest = app.shopper();
    add_beanie(&app, &bob_guest, 1).await;
    let nonce = app.nonce(&bob_guest).await;
    post_json(
        &bob_guest,
        app.api("/cart/apply-coupon"),
        &nonce,
        json!({"code": "vip"}),
        &[],
    )
    .await;
    let mut bob = ada();
    bob["email"] = json!("bob@example.test");
    let placed = post_json(
        &bob_guest,
        app.api("/checkout"),
        &nonce,
        json!({"billing_address": bob, "payment_method": "cod"}),
        &[],
    )
    .await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let account = app.shopper();
    register(&app, &account, "bob@example.test").await;
    add_beanie(&app, &account, 1).await;
    let nonce = app.nonce(&account).await;
    let applied = post_json(
        &account,
        app.api("/cart/apply-coupon"),
        &nonce,
        json!({"code": "vip"}),
        &[],
    )
    .await;
    assert_eq!(
        applied.status, 400,
        "the account's own address used it: {}",
        applied.body
    );
    assert_eq!(
        applied.body["message"],
        "Coupon usage limit has been reached."
    );
    app.stop().await;
}

// 8. Checkout is one unit.

async fn a_checkout_whose_order_fails_creates_no_account(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let added = post_json(
        &c,
        app.api("/cart/add-item"),
        &nonce,
        json!({"id": MUG, "quantity": 3}),
        &[],
    )
    .await;
    assert_eq!(added.status, 201);
    // The last mugs go elsewhere before the shopper submits.
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        0,
        rules::catalog::model::StockStatus::OutOfStock,
    )
    .await
    .unwrap();
    let mut form = checkout_form(&app, &c).await;
    form.push(("createaccount", "1".into()));
    form.push(("account_password", PASSWORD.into()));
    let refused = classic(&app, &c, "checkout", &form, &[]).await;
    assert_eq!(refused.body["result"], "failure", "{}", refused.body);
    assert!(refused.cookie("wordpress_logged_in_ferroshop").is_none());
    let accounts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customers")
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(accounts, 0, "no account without its order");
    assert!(outbox(&app).await.is_empty(), "no welcome mail either");
    let api = post_json(
        &c,
        app.api("/checkout"),
        &nonce,
        json!({"billing_address": ada(), "payment_method": "cod", "create_account": true, "customer_password": PASSWORD}),
        &[],
    )
    .await;
    assert_eq!(api.status, 400, "{}", api.body);
    let accounts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM customers")
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(accounts, 0);

    // With the mugs back, the order and the account come together, signed in.
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        3,
        rules::catalog::model::StockStatus::InStock,
    )
    .await
    .unwrap();
    let placed = classic(&app, &c, "checkout", &form, &[]).await;
    assert_eq!(placed.body["result"], "success", "{}", placed.body);
    assert!(placed.cookie("wordpress_logged_in_ferroshop").is_some());
    let owner: Option<i64> = sqlx::query_scalar("SELECT customer_id FROM orders WHERE id = $1")
        .bind(placed.body["order_id"].as_i64().unwrap())
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert!(owner.is_some());
    let me = Answer::from(c.get(shop_url(&app, "/account")).send().await.unwrap()).await;
    assert_eq!(me.status, 200, "{}", me.body);
    assert_eq!(me.body["user"]["id"].as_i64(), owner);
    assert!(outbox(&app)
        .await
        .iter()
        .any(|m| m.kind == "customer_new_account"));
    app.stop().await;
}

// 9. Concurrent writes to one cart.

/// Sends `n` requests at once; their statuses.
async fn all_at_once(reqs: Vec<reqwest::RequestBuilder>) -> Vec<u16> {
    let barrier = Arc::new(tokio::sync::Barrier::new(reqs.len()));
    let tasks: Vec<_> = reqs
        .into_iter()
        .map(|req| {
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                req.send().await.unwrap().status().as_u16()
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap());
    }
    out
}

async fn thirty_two_writes_at_once_to_one_cart_all_apply(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_rules(&app, &ShopRules::demo()).await;
    let c = app.bare();
    let token = app.cart_token().await;
    let store = |path: &str, body: Value| {
        c.post(app.api(path))
            .header("Cart-Token", &token)
            .json(&body)
    };
    let statuses = all_at_once(
        (0..32)
            .map(|_| store("/cart/add-item", json!({"id": BEANIE})))
            .collect(),
    )
    .await;
    assert!(statuses.iter().all(|&s| s == 201), "{statuses:?}");
    let cart: Value = c
        .get(app.api("/cart"))
        .header("Cart-Token", &token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 32, "every add applied once");
    let key = cart["items"][0]["key"].as_str().unwrap().to_string();
    let statuses = all_at_once(
        (1..=32)
            .map(|q| store("/cart/update-item", json!({"key": key, "quantity": q})))
            .collect(),
    )
    .await;
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
    let statuses = all_at_once(
        (0..32)
            .map(|i| {
                let mut a = ada();
                a["city"] = json!(format!("City {i}"));
                store(
                    "/cart/update-customer",
                    json!({"billing_address": a, "shipping_address": a}),
                )
            })
            .collect(),
    )
    .await;
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
    let statuses = all_at_once(
        (0..32)
            .map(|_| {
                store(
                    "/cart/select-shipping-rate",
                    json!({"package_id": 0, "rate_id": "flat_rate:1"}),
                )
            })
            .collect(),
    )
    .await;
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
    let cart: Value = c
        .get(app.api("/cart"))
        .header("Cart-Token", &token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items"].as_array().unwrap().len(), 1);
    let quantity = cart["items"][0]["quantity"].as_i64().unwrap();
    assert!((1..=32).contains(&quantity));

    // The classic calls, from one browser.
    let b = app.shopper();
    let first = classic(
        &app,
        &b,
        "add_to_cart",
        &[("product_id", CAP.to_string())],
        &[],
    )
    .await;
    assert_eq!(first.status, 200);
    let statuses = all_at_once(
        (0..32)
            .map(|_| {
                b.post(app.url("/?wc-ajax=add_to_cart"))
                    .form(&[("product_id", CAP.to_string())])
            })
            .collect(),
    )
    .await;
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(cart_of(&app, &b).await["items_count"], 33);
    let review_nonce = classic_nonce(&app, &b, "update-order-review").await;
    let statuses = all_at_once(
        (0..32)
            .map(|i| {
                b.post(app.url("/?wc-ajax=update_order_review")).form(&[
                    ("security", review_nonce.clone()),
                    ("country", "US".into()),
                    ("state", "CA".into()),
                    ("postcode", "94110".into()),
                    ("city", format!("City {i}")),
                    ("shipping_method[0]", "flat_rate:1".into()),
                ])
            })
            .collect(),
    )
    .await;
    assert!(statuses.iter().all(|&s| s == 200), "{statuses:?}");
    assert_eq!(cart_of(&app, &b).await["items_count"], 33);
    app.stop().await;
}

// 11. Every answer in its surface's shape, rejections by the framework included.

/// Sends raw bytes and returns the status and the body of the answer.
async fn raw(app: &TestApp, request: &[u8]) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        stream.read_to_end(&mut answer),
    )
    .await;
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn is_api_error(body: &str, status: u16) -> bool {
    serde_json::from_str::<Value>(body)
        .is_ok_and(|v| v["data"]["status"] == status && v["code"].is_string())
}

async fn rejections_by_the_framework_are_json(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let host = format!("Host: {}\r\n", app.addr);
    let long = format!(
        "GET /wp-json/wc/store/v1/products?x={} HTTP/1.1\r\n{host}\r\n",
        "a".repeat(100_000)
    );
    let (status, body) = raw(&app, long.as_bytes()).await;
    assert_eq!(status, 414);
    assert!(is_api_error(&body, 414), "{body}");
    let control = format!("GET /wp-json/wc/store/v1/cart HTTP/1.1\r\n{host}X-Note: a\x01b\r\n\r\n");
    let (status, body) = raw(&app, control.as_bytes()).await;
    assert_eq!(status, 400);
    assert!(is_api_error(&body, 400), "{body}");
    let big = format!(
        "GET /wp-json/wc/store/v1/cart HTTP/1.1\r\n{host}X-Big: {}\r\n\r\n",
        "a".repeat(600_000)
    );
    let (status, body) = raw(&app, big.as_bytes()).await;
    assert_eq!(status, 431);
    assert!(is_api_error(&body, 431), "{body}");
    let (status, body) = raw(&app, b"NONSENSE\r\n\r\n").await;
    assert_eq!(status, 400);
    assert!(is_api_error(&body, 400), "{body}");
    // Path parameters that are not UTF-8.
    for path in [
        "/wp-json/wc/store/v1/products/%FF",
        "/wp-json/wc/store/v1/cart/items/%C3%28",
        "/wp-json/ferroshop/v1/orders/%FE?key=x",
    ] {
        let (status, body) = raw(
            &app,
            format!("GET {path} HTTP/1.1\r\n{host}Connection: close\r\n\r\n").as_bytes(),
        )
        .await;
        assert_eq!(status, 404, "{path}");
        assert!(is_api_error(&body, 404), "{path}: {body}");
    }
    // Wrong methods, on every kind of route.
    for (method, path) in [
        ("POST", "/wp-json/ferroshop/v1/account"),
        ("GET", "/wp-json/ferroshop/v1/account/login"),
        ("DELETE", "/wp-json/ferroshop/v1/orders/1"),
        ("PUT", "/wp-json/ferroshop/v1/orders/lookup"),
        ("GET", "/wp-json/ferroshop/v1/account/address/billing"),
        ("PATCH", "/wp-json/ferroshop/v1/address-locale"),
        ("DELETE", "/wp-json/wc/store/v1/cart"),
    ] {
        let (status, body) = raw(
            &app,
            format!(
                "{method} {path} HTTP/1.1\r\n{host}Content-Length: 0\r\nConnection: close\r\n\r\n"
            )
            .as_bytes(),
        )
        .await;
        assert_eq!(status, 405, "{method} {path}");
        assert!(is_api_error(&body, 405), "{method} {path}: {body}");
    }
    app.stop().await;
}

// 12. No silent loss.

async fn an_unreadable_cart_is_kept_and_said_so(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.bare();
    let token = app.cart_token().await;
    let add = |id: i64| {
        c.post(app.api("/cart/add-item"))
            .header("Cart-Token", &token)
            .json(&json!({"id": id}))
    };
    assert_eq!(add(BEANIE).send().await.unwrap().status(), 201);
    let broken = r#"{"items": "these were three lamps"}"#;
    sqlx::query("UPDATE sessions SET cart = $1")
        .bind(broken)
        .execute(app.db().writer())
        .await
        .unwrap();
    // A write does not overwrite it; it says what happened.
    let a = Answer::from(add(CAP).send().await.unwrap()).await;
    assert_eq!(a.status, 500, "{}", a.body);
    assert_eq!(a.body["code"], "ferroshop_cart_unreadable");
    let kept: Vec<String> = sqlx::query_scalar("SELECT cart FROM unreadable_carts")
        .fetch_all(app.db().reader())
        .await
        .unwrap();
    assert_eq!(kept, vec![broken.to_string()]);
    // The shopper goes on with an empty cart.
    let a = Answer::from(
        c.get(app.api("/cart"))
            .header("Cart-Token", &token)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.body["items_count"], 0);
    assert_eq!(add(CAP).send().await.unwrap().status(), 201);
    app.stop().await;
}

async fn a_form_that_cannot_be_read_is_refused_not_emptied(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_beanie(&app, &c, 1).await;
    let nonce = app.nonce(&c).await;
    let bad = Answer::from(
        c.post(app.api("/cart/update-item"))
            .header("Nonce", &nonce)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("key=abc&quantity=%FF%FE")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.body["code"], "ferroshop_invalid_form");
    let form_nonce = classic_nonce(&app, &c, "woocommerce-process_checkout").await;
    let bad = Answer::from(
        c.post(app.url("/?wc-ajax=checkout"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!(
                "woocommerce-process-checkout-nonce={form_nonce}&billing_first_name=%C3%28&payment_method=cod"
            ))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(bad.body["result"], "failure");
    assert_eq!(orders_count(&app).await, 0);
    assert_eq!(cart_of(&app, &c).await["items_count"], 1);
    app.stop().await;
}

on_both_databases!(
    a_forged_host_gets_no_reset_link_and_no_mail,
    reset_links_use_the_public_url_whatever_host_is_named,
    another_shoppers_nonce_places_no_order,
    changing_classic_calls_are_post_only_and_take_no_query_fields,
    writes_from_another_site_are_refused,
    a_copied_login_cookie_stops_working_at_logout,
    cookies_are_secure_and_headers_strict_over_https,
    fifty_parallel_guesses_let_at_most_the_limit_through,
    mail_flooding_registrations_and_order_lookups_are_limited,
    a_once_per_customer_coupon_cannot_be_used_again_as_a_guest,
    a_checkout_whose_order_fails_creates_no_account,
    thirty_two_writes_at_once_to_one_cart_all_apply,
    rejections_by_the_framework_are_json,
    an_unreadable_cart_is_kept_and_said_so,
    a_form_that_cannot_be_read_is_refused_not_emptied,
);
