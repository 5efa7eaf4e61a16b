//! The staff API (`/wp-json/wc/v3`) through the real server, on both databases: who
//! may call it, listing orders, moving them through their lifecycle with stock and
//! coupon uses given back and mails sent, notes naming who wrote them, and every
//! refusal answered in the WordPress REST shape.

mod common;

use common::*;
use reqwest::Method;
use rules::catalog::model::{ProductId, StockStatus};
use rules::pricing::coupons::{Coupon, CouponCode, CouponKind};
use rules::staff::Permissions;
use serde_json::{json, Value};

/// A staff tool's client with its key.
struct Staff<'a> {
    app: &'a TestApp,
    key: String,
    secret: String,
}

impl<'a> Staff<'a> {
    async fn new(app: &'a TestApp, permissions: Permissions) -> Staff<'a> {
        let (key, secret) = staff_key(app, "Warehouse", permissions).await;
        Staff { app, key, secret }
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, reqwest::header::HeaderMap, Value) {
        let mut req = self
            .app
            .bare()
            .request(method, self.app.staff(path))
            .basic_auth(&self.key, Some(&self.secret));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let text = res.text().await.unwrap();
        let json = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text:?}"));
        (status, headers, json)
    }

    async fn get(&self, path: &str) -> (u16, reqwest::header::HeaderMap, Value) {
        self.call(Method::GET, path, None).await
    }

    async fn put(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, _, json) = self.call(Method::PUT, path, Some(body)).await;
        (status, json)
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let (status, _, json) = self.call(Method::POST, path, Some(body)).await;
        (status, json)
    }

    /// How the order notes name this key.
    fn author(&self) -> String {
        format!("API key 'Warehouse' (…{})", &self.key[self.key.len() - 7..])
    }
}

fn total(headers: &reqwest::header::HeaderMap) -> (i64, i64) {
    let n = |h: &str| headers[h].to_str().unwrap().parse::<i64>().unwrap();
    (n("x-wp-total"), n("x-wp-totalpages"))
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect()
}

fn eve() -> Value {
    let mut a = ada_address();
    a["first_name"] = json!("Eve");
    a["email"] = json!("eve@example.test");
    a
}

async fn calls_without_a_valid_key_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = place_order(&app, &[(BEANIE, 1)], &[], "cod", ada_address()).await;
    let anonymous = |method: Method, path: &str| app.bare().request(method, app.staff(path));
    let read = |res: reqwest::Response| async move {
        let status = res.status().as_u16();
        (status, res.json::<Value>().await.unwrap())
    };
    let (status, body) = read(anonymous(Method::GET, "/orders").send().await.unwrap()).await;
    assert_eq!(status, 401);
    assert_eq!(
        body,
        json!({"code": "woocommerce_rest_cannot_view", "message": "Sorry, you cannot list resources.", "data": {"status": 401}})
    );
    let (status, body) = read(
        anonymous(Method::PUT, &format!("/orders/{id}"))
            .json(&json!({"status": "completed"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "woocommerce_rest_cannot_edit");

    // A signed-in customer's cookie is no staff access.
    let customer = app.shopper();
    let nonce = app.nonce(&customer).await;
    let res = customer
        .post(app.url("/wp-json/ferroshop/v1/account/register"))
        .header("Nonce", &nonce)
        .json(&json!({"email": "ada@example.test", "password": "analytical engine 1843"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    let (status, body) = read(customer.get(app.staff("/orders")).send().await.unwrap()).await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "woocommerce_rest_cannot_view");

    let (key, secret) = staff_key(&app, "Warehouse", Permissions::ReadWrite).await;
    let invalid = json!({"code": "woocommerce_rest_authentication_error", "message": "Consumer key is invalid.", "data": {"status": 401}});
    let other = rules::staff::NewKey::generate();
    for (k, s) in [
        (other.consumer_key.as_str(), secret.as_str()),
        (key.as_str(), other.consumer_secret.as_str()),
        (key.as_str(), ""),
        ("ck_short", secret.as_str()),
    ] {
        let (status, body) = read(
            anonymous(Method::GET, "/orders")
                .basic_auth(k, Some(s))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!((status, &body), (401, &invalid), "{k}:{s}");
    }
    let (status, body) = read(
        anonymous(Method::GET, "/orders")
            .header("Authorization", "Basic not base64!")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((status, body), (401, invalid.clone()));
    // The right key works, until it is revoked.
    let ok = anonymous(Method::GET, "/orders")
        .basic_auth(&key, Some(&secret))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(ok.headers()["cache-control"], "no-store");
    let keys = store::staff::list(app.db()).await.unwrap();
    assert!(
        keys[0].last_access_at.is_some(),
        "the key's last use is recorded"
    );
    assert!(store::staff::revoke(app.db(), keys[0].id, 1).await.unwrap());
    let (status, body) = read(
        anonymous(Method::GET, "/orders")
            .basic_auth(&key, Some(&secret))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((status, body), (401, invalid));
    app.stop().await;
}

async fn a_read_only_key_reads_and_cannot_write(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = place_order(&app, &[(BEANIE, 1)], &[], "cod", ada_address()).await;
    let reader = Staff::new(&app, Permissions::Read).await;
    let (status, _, order) = reader.get(&format!("/orders/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(order["status"], "processing");
    let (status, body) = reader
        .put(&format!("/orders/{id}"), json!({"status": "completed"}))
        .await;
    assert_eq!(status, 401);
    assert_eq!(
        body,
        json!({"code": "woocommerce_rest_authentication_error", "message": "The API key provided does not have write permissions.", "data": {"status": 401}})
    );
    let (status, body) = reader
        .post(&format!("/orders/{id}/notes"), json!({"note": "hi"}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("woocommerce_rest_authentication_error"))
    );
    assert_eq!(status_of(&app, id).await, "processing");
    // A write-only key cannot read.
    let writer = Staff::new(&app, Permissions::Write).await;
    let (status, _, body) = writer.get("/orders").await;
    assert_eq!(status, 401);
    assert_eq!(
        body["message"],
        "The API key provided does not have read permissions."
    );
    app.stop().await;
}

async fn orders_are_listed_newest_first_with_filters_and_totals(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let first = place_order(&app, &[(BEANIE, 2)], &[], "bacs", ada_address()).await;
    let second = place_order(&app, &[(CAP, 1)], &[], "cod", eve()).await;
    let third = place_order(&app, &[(HOODIE_BLUE_M, 1)], &[], "cheque", ada_address()).await;
    sqlx::query("UPDATE orders SET customer_id = 7 WHERE id = $1")
        .bind(second)
        .execute(app.db().writer())
        .await
        .unwrap();
    let staff = Staff::new(&app, Permissions::Read).await;

    let (status, headers, list) = staff.get("/orders").await;
    assert_eq!(status, 200);
    assert_eq!(total(&headers), (3, 1));
    assert_eq!(ids(&list), vec![third, second, first]);
    // The original's order shape, amounts as decimal strings.
    let order = &list[2];
    assert_eq!(order["id"], first);
    assert_eq!(order["number"], first.to_string());
    assert_eq!(order["status"], "on-hold");
    assert_eq!(order["currency"], "USD");
    assert_eq!(order["currency_symbol"], "$");
    assert_eq!(order["total"], "36.00");
    assert_eq!(order["discount_total"], "0.00");
    assert_eq!(order["shipping_total"], "0.00");
    assert_eq!(order["cart_tax"], "0.00");
    assert_eq!(order["prices_include_tax"], false);
    assert_eq!(order["customer_id"], 0);
    assert_eq!(order["billing"]["email"], "ada@example.test");
    assert_eq!(order["shipping"]["city"], "San Francisco");
    assert!(order["shipping"].get("email").is_none());
    assert_eq!(order["payment_method"], "bacs");
    assert_eq!(order["payment_method_title"], "Direct bank transfer");
    assert_eq!(order["date_paid"], Value::Null);
    assert_eq!(order["date_completed"], Value::Null);
    let created = order["date_created"].as_str().unwrap();
    assert_eq!(created.len(), 19, "{created}");
    assert_eq!(order["date_created_gmt"], created);
    let line = &order["line_items"][0];
    assert_eq!(line["name"], "Beanie");
    assert_eq!(line["product_id"], BEANIE);
    assert_eq!(line["quantity"], 2);
    assert_eq!(line["subtotal"], "36.00");
    assert_eq!(line["total"], "36.00");
    assert_eq!(line["sku"], "sku-15");
    assert_eq!(line["price"], json!(18.0));
    for empty in [
        "fee_lines",
        "refunds",
        "meta_data",
        "tax_lines",
        "coupon_lines",
    ] {
        assert_eq!(order[empty], json!([]), "{empty}");
    }
    assert_eq!(
        order["_links"]["self"][0]["href"],
        app.staff(&format!("/orders/{first}"))
    );
    // The variation's attributes come as the line's metadata.
    assert_eq!(list[0]["line_items"][0]["variation_id"], HOODIE_BLUE_M);
    assert_eq!(
        list[0]["line_items"][0]["meta_data"][0]["display_key"],
        "Color"
    );

    let (_, headers, list) = staff.get("/orders?status=on-hold").await;
    assert_eq!((ids(&list), total(&headers)), (vec![third, first], (2, 1)));
    let (_, headers, list) = staff
        .get("/orders?status=processing,on-hold&order=asc")
        .await;
    assert_eq!(
        (ids(&list), total(&headers).0),
        (vec![first, second, third], 3)
    );
    let (_, headers, list) = staff
        .get("/orders?status=any&orderby=id&per_page=2&page=2")
        .await;
    assert_eq!((ids(&list), total(&headers)), (vec![first], (3, 2)));
    let (_, headers, list) = staff.get("/orders?search=EVE@example.test").await;
    assert_eq!((ids(&list), total(&headers).0), (vec![second], 1));
    let (_, headers, list) = staff.get("/orders?customer=7").await;
    assert_eq!((ids(&list), total(&headers).0), (vec![second], 1));
    let (_, headers, list) = staff.get("/orders?status=completed").await;
    assert_eq!((ids(&list), total(&headers)), (vec![], (0, 0)));

    for (query, param) in [
        ("per_page=500", "per_page"),
        ("page=0", "page"),
        ("per_page=ten", "per_page"),
        ("status=shipped", "status"),
        ("order=up", "order"),
        ("orderby=title", "orderby"),
        ("after=2024-01-01T00:00:00", "after"),
    ] {
        let (status, _, err) = staff.get(&format!("/orders?{query}")).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(err["code"], "rest_invalid_param", "{query}");
        assert!(err["data"]["params"].get(param).is_some(), "{query}: {err}");
        assert_eq!(err["data"]["status"], 400);
    }
    app.stop().await;
}

async fn cancelling_gives_back_stock_and_coupon_uses_and_is_final(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(app.db(), ProductId(MUG), 3, StockStatus::InStock)
        .await
        .unwrap();
    let mut coupon = Coupon::new(
        CouponCode::parse("twice").unwrap(),
        CouponKind::Percent { percent: 10_00 },
    );
    coupon.usage_limit = Some(2);
    store_coupon(&app, &coupon).await;
    let id = place_order(&app, &[(MUG, 2)], &["twice"], "bacs", ada_address()).await;
    assert_eq!(stock_of(&app, MUG).await, Some(1));
    let uses = |app: &TestApp| {
        let db = app.db().clone();
        async move {
            store::coupons::find_coupon(&db, &CouponCode::parse("twice").unwrap())
                .await
                .unwrap()
                .unwrap()
                .usage_count
        }
    };
    assert_eq!(uses(&app).await, 1);

    let staff = Staff::new(&app, Permissions::ReadWrite).await;
    let (status, order) = staff
        .put(&format!("/orders/{id}"), json!({"status": "cancelled"}))
        .await;
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["status"], "cancelled");
    assert_eq!(order["coupon_lines"][0]["code"], "twice");
    assert_eq!(order["discount_total"], "2.40");
    assert_eq!(stock_of(&app, MUG).await, Some(3));
    assert_eq!(uses(&app).await, 0);
    let mails = outbox(&app).await;
    assert_eq!(mails[0].kind, "customer_cancelled_order");

    // Cancelled is final, and nothing is given back twice.
    let (status, err) = staff
        .put(&format!("/orders/{id}"), json!({"status": "processing"}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(err["code"], "ferroshop_order_status_refused");
    assert_eq!(
        err["message"],
        "The order is cancelled; its status can no longer change."
    );
    let (status, _) = staff
        .put(&format!("/orders/{id}"), json!({"status": "cancelled"}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(stock_of(&app, MUG).await, Some(3));
    assert_eq!(uses(&app).await, 0);

    // The listing's totals follow the change.
    let (_, headers, _) = staff.get("/orders?status=cancelled").await;
    assert_eq!(total(&headers).0, 1);
    let (_, headers, _) = staff.get("/orders?status=on-hold").await;
    assert_eq!(total(&headers).0, 0);

    // Refunding a paid order gives its stock back too.
    let paid = place_order(&app, &[(MUG, 1)], &[], "cod", ada_address()).await;
    assert_eq!(stock_of(&app, MUG).await, Some(2));
    let (status, order) = staff
        .put(&format!("/orders/{paid}"), json!({"status": "refunded"}))
        .await;
    assert_eq!((status, order["status"].as_str()), (200, Some("refunded")));
    assert_eq!(stock_of(&app, MUG).await, Some(3));
    assert_eq!(outbox(&app).await[0].kind, "customer_refunded_order");
    app.stop().await;
}

async fn completing_an_order_dates_it_and_mails_the_customer(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = place_order(&app, &[(BEANIE, 1)], &[], "bacs", ada_address()).await;
    let staff = Staff::new(&app, Permissions::ReadWrite).await;
    // Payment received: the bank transfer arrived.
    let (status, order) = staff
        .post(&format!("/orders/{id}"), json!({"status": "processing"}))
        .await;
    assert_eq!(status, 200, "{order}");
    assert_ne!(order["date_paid"], Value::Null);
    assert_eq!(outbox(&app).await[0].kind, "customer_processing_order");
    let (status, order) = staff
        .call(
            Method::PATCH,
            &format!("/orders/{id}"),
            Some(json!({"status": "completed", "customer_note": "Ring twice"})),
        )
        .await
        .into_status_and_body();
    assert_eq!(status, 200, "{order}");
    assert_eq!(order["status"], "completed");
    assert_eq!(order["customer_note"], "Ring twice");
    assert_ne!(order["date_completed"], Value::Null);
    let completed = &outbox(&app).await[0];
    assert_eq!(completed.kind, "customer_completed_order");
    assert_eq!(completed.recipient, "ada@example.test");
    assert!(completed
        .text
        .contains("We have finished processing your order."));
    assert!(completed.text.contains("Beanie × 1: $18.00"));
    // The same status again is refused.
    let (status, err) = staff
        .put(&format!("/orders/{id}"), json!({"status": "completed"}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(err["message"], "The order is already completed.");
    // Every change is in the notes, with who made it.
    let (status, _, notes) = staff.get(&format!("/orders/{id}/notes")).await;
    assert_eq!(status, 200);
    let texts: Vec<(&str, &str)> = notes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["note"].as_str().unwrap(), n["author"].as_str().unwrap()))
        .collect();
    let author = staff.author();
    assert_eq!(
        texts[..3],
        [
            (
                "Order status changed from Processing to Completed.",
                author.as_str()
            ),
            ("Customer provided note changed.", author.as_str()),
            (
                "Order status changed from On hold to Processing.",
                author.as_str()
            ),
        ]
    );
    assert_eq!(
        texts.last().unwrap().1,
        "system",
        "placing the order was the shop's doing"
    );
    app.stop().await;
}

trait IntoStatusAndBody {
    fn into_status_and_body(self) -> (u16, Value);
}

impl IntoStatusAndBody for (u16, reqwest::header::HeaderMap, Value) {
    fn into_status_and_body(self) -> (u16, Value) {
        (self.0, self.2)
    }
}

async fn notes_for_the_customer_are_mailed_to_them(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = place_order(&app, &[(BEANIE, 1)], &[], "cod", ada_address()).await;
    let staff = Staff::new(&app, Permissions::ReadWrite).await;
    let mails_before = outbox(&app).await.len();
    let (status, note) = staff
        .post(
            &format!("/orders/{id}/notes"),
            json!({"note": "Packed by Sam"}),
        )
        .await;
    assert_eq!(status, 201, "{note}");
    assert_eq!(note["note"], "Packed by Sam");
    assert_eq!(note["customer_note"], false);
    assert_eq!(note["author"], staff.author());
    assert_eq!(outbox(&app).await.len(), mails_before);

    let (status, note) = staff
        .post(
            &format!("/orders/{id}/notes"),
            json!({"note": "Shipped today, tracking 1Z999", "customer_note": true}),
        )
        .await;
    assert_eq!(status, 201);
    let mail = &outbox(&app).await[0];
    assert_eq!(mail.kind, "customer_note");
    assert_eq!(mail.recipient, "ada@example.test");
    assert!(mail.text.contains("Shipped today, tracking 1Z999"));

    let (_, _, shown) = staff
        .get(&format!("/orders/{id}/notes/{}", note["id"]))
        .await;
    assert_eq!(shown, note);
    let (_, _, customer_notes) = staff
        .get(&format!("/orders/{id}/notes?type=customer"))
        .await;
    assert_eq!(customer_notes.as_array().unwrap().len(), 1);

    let (status, err) = staff
        .post(
            &format!("/orders/{id}/notes"),
            json!({"customer_note": true}),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "rest_missing_callback_param");
    let (status, err) = staff
        .post(
            &format!("/orders/{id}/notes"),
            json!({"note": "x", "customer_note": "maybe"}),
        )
        .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (400, Some("rest_invalid_param"))
    );
    let (status, _, err) = staff.get(&format!("/orders/{id}/notes/999999")).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (404, Some("woocommerce_rest_invalid_id"))
    );
    app.stop().await;
}

async fn unsupported_fields_and_bad_requests_are_answered_in_json(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = place_order(&app, &[(BEANIE, 1)], &[], "bacs", ada_address()).await;
    let staff = Staff::new(&app, Permissions::ReadWrite).await;
    let (status, err) = staff
        .put(
            &format!("/orders/{id}"),
            json!({"status": "completed", "billing": {"city": "Paris"}, "set_paid": true}),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(err["code"], "rest_invalid_param");
    assert_eq!(err["message"], "Invalid parameter(s): billing, set_paid");
    assert!(err["data"]["params"]["billing"]
        .as_str()
        .unwrap()
        .contains("status, customer_note"));
    // Nothing of a refused request is applied.
    assert_eq!(status_of(&app, id).await, "on-hold");
    let (status, err) = staff
        .put(&format!("/orders/{id}"), json!({"status": "shipped"}))
        .await;
    assert_eq!(
        (status, err["code"].as_str()),
        (400, Some("rest_invalid_param"))
    );
    let (status, err) = staff
        .put(&format!("/orders/{id}"), json!({"status": "on-hold"}))
        .await;
    assert_eq!(status, 409, "{err}");
    let (status, err) = staff
        .put("/orders/999999", json!({"status": "completed"}))
        .await;
    assert_eq!(status, 404);
    assert_eq!(
        err,
        json!({"code": "woocommerce_rest_shop_order_invalid_id", "message": "Invalid ID.", "data": {"status": 404}})
    );
    let (status, _, err) = staff.get("/orders/999999").await;
    assert_eq!(
        (status, err["code"].as_str()),
        (404, Some("woocommerce_rest_shop_order_invalid_id"))
    );

    let res = app
        .bare()
        .put(app.staff(&format!("/orders/{id}")))
        .basic_auth(&staff.key, Some(&staff.secret))
        .header("content-type", "application/json")
        .body("{\"status\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "rest_invalid_json"
    );

    // A method a route does not take is a 405 naming those it does; an unknown path
    // (or an id that is no number) a 404; both as JSON.
    for (method, path, expected) in [
        (Method::DELETE, format!("/orders/{id}"), 405),
        (Method::DELETE, "/orders".to_string(), 405),
        (Method::PUT, format!("/orders/{id}/notes"), 405),
        (Method::GET, "/orders/abc".to_string(), 404),
        (Method::GET, "/products".to_string(), 404),
    ] {
        let res = app
            .bare()
            .request(method.clone(), app.staff(&path))
            .basic_auth(&staff.key, Some(&staff.secret))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), expected, "{method} {path}");
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"));
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "rest_no_route", "{method} {path}");
    }
    app.stop().await;
}

on_both_databases!(
    calls_without_a_valid_key_are_refused,
    a_read_only_key_reads_and_cannot_write,
    orders_are_listed_newest_first_with_filters_and_totals,
    cancelling_gives_back_stock_and_coupon_uses_and_is_final,
    completing_an_order_dates_it_and_mails_the_customer,
    notes_for_the_customer_are_mailed_to_them,
    unsupported_fields_and_bad_requests_are_answered_in_json,
);
