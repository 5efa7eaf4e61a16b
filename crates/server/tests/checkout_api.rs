//! The Store API's checkout calls through the real server, on both databases: addresses,
//! shipping choices, coupons, placing orders, paying for orders, and the races a shop
//! must survive (the last items in stock, a coupon's last uses, a double submit).

mod common;

use common::*;
use rules::catalog::model::{ProductId, StockStatus};
use rules::pricing::coupons::{Coupon, CouponCode, CouponKind};
use rules::pricing::rules::ShopRules;
use serde_json::{json, Value};

async fn post(
    app: &TestApp,
    c: &reqwest::Client,
    nonce: &str,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let res = c
        .post(app.api(path))
        .header("Nonce", nonce)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap())
}

fn ada() -> Value {
    json!({
        "first_name": "Ada", "last_name": "Lovelace", "company": "", "address_1": "1 Main St",
        "address_2": "", "city": "San Francisco", "state": "CA", "postcode": "94110",
        "country": "US", "email": "ada@example.test", "phone": "5555550100"
    })
}

async fn save_coupon(app: &TestApp, coupon: Coupon) {
    store::coupons::save_coupon(app.db(), &coupon, 0)
        .await
        .unwrap();
}

fn coupon(code: &str, kind: CouponKind) -> Coupon {
    Coupon::new(CouponCode::parse(code).unwrap(), kind)
}

/// A shopper with `quantity` of `product` in the cart, and their nonce.
async fn shopper_with(app: &TestApp, product: i64, quantity: i64) -> (reqwest::Client, String) {
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let (status, body) = post(
        app,
        &c,
        &nonce,
        "/cart/add-item",
        json!({"id": product, "quantity": quantity}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    (c, nonce)
}

async fn checkout(app: &TestApp, c: &reqwest::Client, nonce: &str, method: &str) -> (u16, Value) {
    post(
        app,
        c,
        nonce,
        "/checkout",
        json!({
            "billing_address": ada(), "shipping_address": ada(), "payment_method": method,
            "customer_note": "Leave it at the door"
        }),
    )
    .await
}

/// Every shopper submits their checkout at the same moment; the answers, in order.
async fn checkouts_at_once(
    app: &std::sync::Arc<TestApp>,
    shoppers: Vec<(reqwest::Client, String)>,
    method: &'static str,
) -> Vec<(u16, Value)> {
    let tasks: Vec<_> = shoppers
        .into_iter()
        .map(|(c, nonce)| {
            let app = app.clone();
            tokio::spawn(async move { checkout(&app, &c, &nonce, method).await })
        })
        .collect();
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.unwrap());
    }
    answers
}

async fn update_customer_prices_the_cart_for_the_address(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_rules(&app, &ShopRules::demo()).await;
    let (c, nonce) = shopper_with(&app, BEANIE, 2).await;
    let (status, cart) = post(
        &app,
        &c,
        &nonce,
        "/cart/update-customer",
        json!({"billing_address": ada()}),
    )
    .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["billing_address"]["email"], "ada@example.test");
    // Beanie is $18.00: 2 × 1800 = 3600; CA 7.25% and San Francisco 1.25% on the items.
    assert_eq!(cart["totals"]["total_items"], "3600");
    assert_eq!(cart["totals"]["total_items_tax"], "306");
    let names: Vec<&str> = cart["totals"]["tax_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["CA State Tax", "SF Tax"]);
    let package = &cart["shipping_rates"][0];
    let ids: Vec<&str> = package["shipping_rates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rate_id"].as_str().unwrap())
        .collect();
    // Under $100 there is no free shipping in California.
    assert_eq!(ids, ["flat_rate:1", "local_pickup:3"]);
    assert_eq!(package["shipping_rates"][0]["selected"], true);
    assert_eq!(cart["totals"]["total_shipping"], "500");
    assert_eq!(
        cart["totals"]["total_price"],
        (3600 + 306 + 500).to_string()
    );
    assert_eq!(cart["has_calculated_shipping"], true);
    app.stop().await;
}

async fn shipping_follows_the_chosen_rate_and_refuses_unknown_ones(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_rules(&app, &ShopRules::demo()).await;
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    post(
        &app,
        &c,
        &nonce,
        "/cart/update-customer",
        json!({"billing_address": ada()}),
    )
    .await;
    let (status, cart) = post(
        &app,
        &c,
        &nonce,
        "/cart/select-shipping-rate",
        json!({"package_id": 0, "rate_id": "local_pickup:3"}),
    )
    .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["totals"]["total_shipping"], "0");
    assert_eq!(
        cart["shipping_rates"][0]["shipping_rates"][1]["selected"],
        true
    );
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/select-shipping-rate",
        json!({"package_id": 0, "rate_id": "flat_rate:99"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "woocommerce_rest_cart_invalid_rate_id");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/select-shipping-rate",
        json!({"package_id": 0}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "woocommerce_rest_cart_missing_rate_id");
    // A German address lands in the Europe zone with its own rates.
    let mut berlin = ada();
    berlin["country"] = json!("DE");
    berlin["state"] = json!("");
    berlin["city"] = json!("Berlin");
    berlin["postcode"] = json!("10115");
    let (_, cart) = post(
        &app,
        &c,
        &nonce,
        "/cart/update-customer",
        json!({"billing_address": berlin, "shipping_address": berlin}),
    )
    .await;
    assert_eq!(
        cart["shipping_rates"][0]["shipping_rates"][0]["rate_id"],
        "flat_rate:6"
    );
    assert_eq!(cart["totals"]["tax_lines"][0]["name"], "MwSt.");
    app.stop().await;
}

async fn coupons_apply_discount_and_come_off_again(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    save_coupon(&app, coupon("ten", CouponKind::Percent { percent: 10_00 })).await;
    let (c, nonce) = shopper_with(&app, BEANIE, 3).await;
    let (status, cart) = post(
        &app,
        &c,
        &nonce,
        "/cart/apply-coupon",
        json!({"code": "TEN"}),
    )
    .await;
    assert_eq!(status, 200, "{cart}");
    assert_eq!(cart["coupons"][0]["code"], "ten");
    assert_eq!(cart["coupons"][0]["discount_type"], "percent");
    assert_eq!(cart["coupons"][0]["totals"]["total_discount"], "540");
    assert_eq!(cart["totals"]["total_discount"], "540");
    assert_eq!(cart["items"][0]["totals"]["line_total"], "4860");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/apply-coupon",
        json!({"code": "ten"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "woocommerce_rest_cart_coupon_error");
    assert_eq!(err["message"], "Coupon code already applied!");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/apply-coupon",
        json!({"code": "NOPE"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["message"], "Coupon \"nope\" does not exist!");
    let (status, cart) = post(
        &app,
        &c,
        &nonce,
        "/cart/remove-coupon",
        json!({"code": "ten"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(cart["coupons"], json!([]));
    assert_eq!(cart["totals"]["total_price"], "5400");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/remove-coupon",
        json!({"code": "ten"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "woocommerce_rest_cart_coupon_invalid_code");
    app.stop().await;
}

async fn checkout_needs_a_nonce_and_shows_the_draft(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let res = c.get(app.api("/checkout")).send().await.unwrap();
    assert_eq!(res.status(), 401);
    let res = c
        .get(app.api("/checkout"))
        .header("Nonce", &nonce)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let draft: Value = res.json().await.unwrap();
    assert_eq!(draft["status"], "checkout-draft");
    assert!(draft["order_key"]
        .as_str()
        .unwrap()
        .starts_with("wc_order_"));
    let (status, order) = checkout(&app, &c, &nonce, "cod").await;
    assert_eq!(status, 200, "{order}");
    // The draft becomes the order: same number, same key.
    assert_eq!(order["order_id"], draft["order_id"]);
    assert_eq!(order["order_key"], draft["order_key"]);
    assert_eq!(order["status"], "processing");
    app.stop().await;
}

async fn a_guest_checkout_places_an_order_and_empties_the_cart(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 2).await;
    let res = c
        .post(app.api("/checkout"))
        .header("Nonce", &nonce)
        .json(&json!({"billing_address": ada(), "shipping_address": ada(), "payment_method": "bacs", "customer_note": "golden"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let cookies = set_cookies(&res);
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with("woocommerce_items_in_cart=;") && c.contains("Max-Age=0")),
        "{cookies:?}"
    );
    let order: Value = res.json().await.unwrap();
    assert_eq!(order["status"], "on-hold");
    assert_eq!(order["customer_note"], "golden");
    assert_eq!(order["payment_method"], "bacs");
    assert_eq!(order["payment_result"]["payment_status"], "success");
    let id = order["order_id"].as_i64().unwrap();
    let key = order["order_key"].as_str().unwrap();
    let redirect = order["payment_result"]["redirect_url"].as_str().unwrap();
    assert_eq!(
        redirect,
        app.url(&format!("/checkout/order-received/{id}/?key={key}"))
    );
    // The sale counts towards the product's popularity (the fixture starts it at its id).
    let sales: i64 = sqlx::query_scalar("SELECT total_sales FROM products WHERE id = $1")
        .bind(BEANIE)
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(sales, BEANIE + 2);
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 0);
    // The thank-you page's data, with the bank details of a bank transfer.
    let shown: Value = app
        .bare()
        .get(app.url(&format!("/wp-json/ferroshop/v1/orders/{id}?key={key}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shown["number"], id.to_string());
    assert_eq!(shown["items"][0]["name"], "Beanie");
    assert_eq!(shown["items"][0]["quantity"], 2);
    assert_eq!(shown["totals"]["total"], "3600");
    assert_eq!(shown["bank_accounts"].as_array().unwrap().len(), 1);
    let wrong = app
        .bare()
        .get(app.url(&format!(
            "/wp-json/ferroshop/v1/orders/{id}?key=wc_order_nope"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 404);
    // Guest lookup by number and billing e-mail.
    let n = app.nonce(&c).await;
    let res = c
        .post(app.url("/wp-json/ferroshop/v1/orders/lookup"))
        .header("Nonce", &n)
        .json(&json!({"order_number": id.to_string(), "billing_email": "ADA@example.test"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = c
        .post(app.url("/wp-json/ferroshop/v1/orders/lookup"))
        .header("Nonce", &n)
        .json(&json!({"order_number": id.to_string(), "billing_email": "eve@example.test"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    app.stop().await;
}

async fn checkout_refuses_bad_input_in_the_originals_shapes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let (status, err) = checkout(&app, &c, &nonce, "nope").await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "rest_invalid_param");
    assert_eq!(
        err["data"]["params"]["payment_method"],
        "payment_method is not one of bacs, cheque, and cod."
    );
    let mut bad = ada();
    bad["email"] = json!("not-an-email");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/checkout",
        json!({"billing_address": bad, "payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        err["data"]["params"]["billing_address"],
        "The provided email address is not valid"
    );
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/checkout",
        json!({"billing_address": {"first_name": "Ada"}, "payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "rest_invalid_param");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/checkout",
        json!({"billing_address": "Ada", "payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "rest_invalid_param");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/checkout",
        json!({"billing_address": ada()}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        err["code"],
        "woocommerce_rest_checkout_missing_payment_method"
    );
    let res = c
        .post(app.api("/checkout"))
        .header("Nonce", &nonce)
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let empty = app.shopper();
    let n = app.nonce(&empty).await;
    let (status, err) = checkout(&app, &empty, &n, "cod").await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "woocommerce_rest_cart_empty");
    assert_eq!(err["message"], "Cannot create order from empty cart.");
    // Nothing was placed by any of these.
    let placed: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status <> 'checkout-draft'")
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    assert_eq!(placed, 0);
    app.stop().await;
}

async fn the_last_ten_in_stock_go_to_exactly_ten_of_fifty_checkouts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(app.db(), ProductId(MUG), 10, StockStatus::InStock)
        .await
        .unwrap();
    let mut shoppers = Vec::new();
    for _ in 0..50 {
        shoppers.push(shopper_with(&app, MUG, 1).await);
    }
    let app = std::sync::Arc::new(app);
    let mut placed = 0;
    let mut refused = 0;
    for (status, body) in checkouts_at_once(&app, shoppers, "cod").await {
        match status {
            200 => placed += 1,
            400 => {
                assert_eq!(
                    body["code"], "woocommerce_rest_product_out_of_stock",
                    "{body}"
                );
                assert!(
                    body["message"]
                        .as_str()
                        .unwrap()
                        .contains("is not in stock"),
                    "{body}"
                );
                refused += 1;
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!((placed, refused), (10, 40));
    let stock = store::catalog::find_stock(app.db(), ProductId(MUG))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stock.quantity, Some(0));
    assert_eq!(stock.status, StockStatus::OutOfStock);
    let orders: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status = 'processing'")
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(orders, 10);
    std::sync::Arc::into_inner(app).unwrap().stop().await;
}

async fn a_coupon_limited_to_five_uses_is_used_five_times_by_thirty_checkouts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut five = coupon("five", CouponKind::FixedCart { amount: 100 });
    five.usage_limit = Some(5);
    save_coupon(&app, five).await;
    let mut shoppers = Vec::new();
    for _ in 0..30 {
        let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
        let (status, body) = post(
            &app,
            &c,
            &nonce,
            "/cart/apply-coupon",
            json!({"code": "five"}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        shoppers.push((c, nonce));
    }
    let app = std::sync::Arc::new(app);
    let mut placed = 0;
    for (status, body) in checkouts_at_once(&app, shoppers, "cod").await {
        if status == 200 {
            placed += 1;
        } else {
            assert_eq!(body["code"], "woocommerce_rest_cart_coupon_error", "{body}");
            assert_eq!(body["message"], "Coupon usage limit has been reached.");
        }
    }
    assert_eq!(placed, 5);
    let used: i64 = sqlx::query_scalar("SELECT usage_count FROM coupons WHERE code = 'five'")
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(used, 5);
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM coupon_usages WHERE code = 'five'")
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(rows, 5);
    std::sync::Arc::into_inner(app).unwrap().stop().await;
}

async fn the_same_checkout_submitted_ten_times_at_once_makes_one_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let app = std::sync::Arc::new(app);
    let same = vec![(c, nonce); 10];
    let mut ids = Vec::new();
    for (status, body) in checkouts_at_once(&app, same, "bacs").await {
        assert_eq!(status, 200, "{body}");
        ids.push(body["order_id"].as_i64().unwrap());
    }
    ids.dedup();
    assert_eq!(ids.len(), 1, "every submission answers with the one order");
    let orders: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM orders WHERE status <> 'checkout-draft'")
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    assert_eq!(orders, 1);
    std::sync::Arc::into_inner(app).unwrap().stop().await;
}

async fn a_customer_may_use_a_coupon_only_as_often_as_it_allows(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut once = coupon("once", CouponKind::Percent { percent: 5_00 });
    once.usage_limit_per_user = Some(1);
    save_coupon(&app, once).await;
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    post(
        &app,
        &c,
        &nonce,
        "/cart/apply-coupon",
        json!({"code": "once"}),
    )
    .await;
    let (status, _) = checkout(&app, &c, &nonce, "cod").await;
    assert_eq!(status, 200);
    // The same e-mail comes back with another cart.
    let (c, nonce) = shopper_with(&app, CAP, 1).await;
    post(
        &app,
        &c,
        &nonce,
        "/cart/update-customer",
        json!({"billing_address": ada()}),
    )
    .await;
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/apply-coupon",
        json!({"code": "once"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["message"], "Coupon usage limit has been reached.");
    app.stop().await;
}

/// What the upkeep task does every minute: cancel pending orders whose hold ran out.
async fn release_expired_holds(app: &TestApp) -> usize {
    let mail = order_mail(app);
    let orders = ferroshop::orders::service::OrderService {
        db: app.db(),
        mail: &mail,
    };
    ferroshop::orders::expiry::release_expired_holds(&orders, rules::clock::now())
        .await
        .unwrap()
}

async fn unpaid_orders_give_back_their_stock_when_the_hold_runs_out(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(app.db(), ProductId(MUG), 3, StockStatus::InStock)
        .await
        .unwrap();
    let (c, nonce) = shopper_with(&app, MUG, 2).await;
    let (status, order) = checkout(&app, &c, &nonce, "bacs").await;
    assert_eq!(status, 200);
    let id = order["order_id"].as_i64().unwrap();
    assert_eq!(
        store::catalog::find_stock(app.db(), ProductId(MUG))
            .await
            .unwrap()
            .unwrap()
            .quantity,
        Some(1)
    );
    // Make it an unpaid order whose hold ended a minute ago.
    sqlx::query("UPDATE orders SET status = 'pending', hold_expires_at = $1 WHERE id = $2")
        .bind(rules::clock::now() - 60)
        .bind(id)
        .execute(app.db().writer())
        .await
        .unwrap();
    let released = release_expired_holds(&app).await;
    assert_eq!(released, 1);
    assert_eq!(
        store::catalog::find_stock(app.db(), ProductId(MUG))
            .await
            .unwrap()
            .unwrap()
            .quantity,
        Some(3)
    );
    let status: String = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
        .bind(id)
        .fetch_one(app.db().reader())
        .await
        .unwrap();
    assert_eq!(status, "cancelled");
    // Running it again changes nothing.
    let again = release_expired_holds(&app).await;
    assert_eq!(again, 0);
    assert_eq!(
        store::catalog::find_stock(app.db(), ProductId(MUG))
            .await
            .unwrap()
            .unwrap()
            .quantity,
        Some(3)
    );
    app.stop().await;
}

async fn a_pending_order_can_be_paid_once_on_the_order_pay_page(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let (_, order) = checkout(&app, &c, &nonce, "bacs").await;
    let id = order["order_id"].as_i64().unwrap();
    let key = order["order_key"].as_str().unwrap().to_string();
    sqlx::query("UPDATE orders SET status = 'pending' WHERE id = $1")
        .bind(id)
        .execute(app.db().writer())
        .await
        .unwrap();
    let pay = |email: &str| format!("/checkout/{id}?key={key}&billing_email={email}");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        &pay("eve@example.test"),
        json!({"payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 403, "{err}");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        &format!("/checkout/{id}?key=wc_order_wrong&billing_email=ada@example.test"),
        json!({"payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 404, "{err}");
    let (status, paid) = post(
        &app,
        &c,
        &nonce,
        &pay("ada@example.test"),
        json!({"payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["status"], "processing");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        &pay("ada@example.test"),
        json!({"payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "woocommerce_rest_order_cannot_be_paid");
    app.stop().await;
}

async fn checkout_can_create_an_account_and_sign_it_in(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let res = c
        .post(app.api("/checkout"))
        .header("Nonce", &nonce)
        .json(&json!({
            "billing_address": ada(), "payment_method": "cod",
            "create_account": true, "customer_password": "analytical engine 1843"
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let user: i64 = res.headers()["user-id"].to_str().unwrap().parse().unwrap();
    assert!(user > 0, "the answer's nonce is for the new customer");
    assert!(set_cookies(&res)
        .iter()
        .any(|c| c.starts_with("wordpress_logged_in_ferroshop=")));
    let order: Value = res.json().await.unwrap();
    assert_eq!(order["customer_id"], user);
    // Signed in: the account area lists the order, and the account has the address.
    let orders: Value = c
        .get(app.url("/wp-json/ferroshop/v1/account/orders"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(orders[0]["id"], order["order_id"]);
    let account: Value = c
        .get(app.url("/wp-json/ferroshop/v1/account"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(account["billing"]["city"], "San Francisco");
    // The same e-mail cannot open a second account at checkout.
    let (c2, n2) = shopper_with(&app, CAP, 1).await;
    let (status, err) = post(
        &app,
        &c2,
        &n2,
        "/checkout",
        json!({
            "billing_address": ada(), "payment_method": "cod",
            "create_account": true, "customer_password": "another password 1"
        }),
    )
    .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "registration-error-email-exists");
    app.stop().await;
}

async fn checkout_without_guest_checkout_needs_an_account(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.checkout.guest_checkout = false).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let (status, err) = checkout(&app, &c, &nonce, "cod").await;
    assert_eq!(status, 403, "{err}");
    assert_eq!(err["message"], "You must be logged in to checkout.");
    app.stop().await;
}

async fn placing_an_order_queues_its_emails(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    let (status, order) = checkout(&app, &c, &nonce, "bacs").await;
    assert_eq!(status, 200);
    let mails = outbox(&app).await;
    let kinds: Vec<(&str, &str)> = mails
        .iter()
        .map(|m| (m.kind.as_str(), m.recipient.as_str()))
        .collect();
    assert!(kinds.iter().any(|(k, _)| *k == "new_order"), "{kinds:?}");
    let on_hold = mails
        .iter()
        .find(|m| m.kind == "customer_on_hold_order")
        .expect("the customer hears their order is on hold");
    assert!(on_hold.recipient.contains("ada@example.test"));
    assert!(on_hold.text.contains(&order["order_id"].to_string()));
    // Bank transfer: the bank details are in the mail.
    assert!(
        on_hold.text.contains("GB33BUKB20201555555555"),
        "{}",
        on_hold.text
    );
    app.stop().await;
}

async fn checkout_names_every_field_at_fault_at_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (c, nonce) = shopper_with(&app, BEANIE, 1).await;
    // Missing fields in both addresses come in one answer.
    let mut billing = ada();
    billing["first_name"] = json!("");
    let mut shipping = ada();
    shipping["city"] = json!("");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/checkout",
        json!({"billing_address": billing, "shipping_address": shipping, "payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(err["code"], "rest_invalid_param");
    let params = &err["data"]["params"];
    assert_eq!(params["billing_first_name"], "First name is required");
    assert_eq!(params["shipping_city"], "City is required");
    assert!(params["billing_address"].is_string(), "{err}");
    assert!(params.get("billing_last_name").is_none(), "{err}");

    // A malformed field is named next to its address, which keeps its first problem as
    // in the original.
    let mut billing = ada();
    billing["postcode"] = json!("ABC");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/checkout",
        json!({"billing_address": billing, "payment_method": "cod"}),
    )
    .await;
    assert_eq!(status, 400, "{err}");
    let params = &err["data"]["params"];
    assert_eq!(
        params["billing_address"],
        "The provided postcode / ZIP is not valid"
    );
    assert_eq!(params["billing_postcode"], params["billing_address"]);
    assert_eq!(
        err["data"]["details"]["billing_postcode"]["code"],
        "invalid_postcode"
    );

    // A refresh for an address that does not hold together names the field too, and
    // leaves fields that are merely empty alone.
    let mut switched = ada();
    switched["country"] = json!("GB");
    switched["state"] = json!("");
    switched["city"] = json!("");
    let (status, err) = post(
        &app,
        &c,
        &nonce,
        "/cart/update-customer",
        json!({"billing_address": switched, "shipping_address": switched}),
    )
    .await;
    assert_eq!(status, 400, "{err}");
    assert_eq!(
        err["message"],
        "Invalid parameter(s): billing_address, shipping_address"
    );
    let params = &err["data"]["params"];
    assert_eq!(params["billing_address"], params["billing_postcode"]);
    assert!(params["shipping_postcode"].is_string(), "{err}");
    assert!(params.get("billing_city").is_none(), "{err}");
    app.stop().await;
}

on_both_databases!(
    update_customer_prices_the_cart_for_the_address,
    shipping_follows_the_chosen_rate_and_refuses_unknown_ones,
    coupons_apply_discount_and_come_off_again,
    checkout_needs_a_nonce_and_shows_the_draft,
    a_guest_checkout_places_an_order_and_empties_the_cart,
    checkout_refuses_bad_input_in_the_originals_shapes,
    the_last_ten_in_stock_go_to_exactly_ten_of_fifty_checkouts,
    a_coupon_limited_to_five_uses_is_used_five_times_by_thirty_checkouts,
    the_same_checkout_submitted_ten_times_at_once_makes_one_order,
    a_customer_may_use_a_coupon_only_as_often_as_it_allows,
    unpaid_orders_give_back_their_stock_when_the_hold_runs_out,
    a_pending_order_can_be_paid_once_on_the_order_pay_page,
    checkout_can_create_an_account_and_sign_it_in,
    checkout_without_guest_checkout_needs_an_account,
    placing_an_order_queues_its_emails,
    checkout_names_every_field_at_fault_at_once,
);
