//! The Store API's cart calls, sessions and nonces, through the real server, on both
//! databases.

mod common;

use common::*;
use serde_json::{json, Value};

/// A Store API write with the shopper's nonce.
async fn post(
    app: &TestApp,
    c: &reqwest::Client,
    nonce: &str,
    path: &str,
    body: Value,
) -> reqwest::Response {
    c.post(app.api(path))
        .header("Nonce", nonce)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn add(app: &TestApp, c: &reqwest::Client, nonce: &str, body: Value) -> (u16, Value) {
    let res = post(app, c, nonce, "/cart/add-item", body).await;
    (res.status().as_u16(), res.json().await.unwrap())
}

async fn a_new_cart_is_empty_and_carries_a_nonce_and_token(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app.bare().get(app.api("/cart")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["nonce"].len(), 10);
    assert!(
        res.headers()["cart-token"]
            .to_str()
            .unwrap()
            .split('.')
            .count()
            == 3
    );
    assert_eq!(res.headers()["user-id"], "0");
    let cart: Value = res.json().await.unwrap();
    assert_eq!(cart["items"], json!([]));
    assert_eq!(cart["items_count"], 0);
    assert_eq!(cart["totals"]["total_price"], "0");
    assert_eq!(cart["totals"]["currency_code"], "USD");
    assert_eq!(cart["needs_payment"], false);
    for key in [
        "coupons",
        "shipping_rates",
        "billing_address",
        "shipping_address",
        "errors",
        "items_weight",
        "needs_shipping",
    ] {
        assert!(cart.get(key).is_some(), "{key}");
    }
    app.stop().await;
}

async fn writes_need_a_valid_nonce(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let res = c
        .post(app.api("/cart/add-item"))
        .json(&json!({"id": BEANIE, "quantity": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "woocommerce_rest_missing_nonce");
    assert_eq!(
        body["message"],
        "Missing the Nonce header. This endpoint requires a valid nonce."
    );
    assert_eq!(body["data"]["status"], 401);
    let (status, body) = add(&app, &c, "0123456789", json!({"id": BEANIE})).await;
    assert_eq!(status, 403);
    assert_eq!(body["code"], "woocommerce_rest_invalid_nonce");
    assert_eq!(body["message"], "Nonce is invalid.");
    // The legacy header name works too.
    let nonce = app.nonce(&c).await;
    let res = c
        .post(app.api("/cart/add-item"))
        .header("X-WC-Store-API-Nonce", &nonce)
        .json(&json!({"id": BEANIE}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    app.stop().await;
}

async fn adding_an_item_keeps_it_in_the_session(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/add-item",
        json!({"id": BEANIE, "quantity": 2}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let cookies: Vec<String> = set_cookies(&res);
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("woocommerce_items_in_cart=1")));
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("woocommerce_cart_hash=") && c.len() > 40));
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("wp_woocommerce_session_") && c.contains("HttpOnly")));
    let cart: Value = res.json().await.unwrap();
    assert_eq!(cart["items_count"], 2);
    let item = &cart["items"][0];
    assert_eq!(item["id"], BEANIE);
    assert_eq!(item["quantity"], 2);
    assert_eq!(item["key"].as_str().unwrap().len(), 32);
    assert_eq!(item["prices"]["price"], "1800");
    assert_eq!(item["totals"]["line_total"], "3600");
    assert_eq!(item["quantity_limits"]["maximum"], 9999);
    assert_eq!(cart["totals"]["total_items"], "3600");
    assert_eq!(cart["totals"]["total_price"], "3600");
    assert_eq!(cart["needs_payment"], true);
    assert_eq!(cart["needs_shipping"], true);
    assert_eq!(cart["items_weight"], 0.4);
    // The same product again lands on the same line.
    let (status, cart) = add(&app, &c, &nonce, json!({"id": BEANIE, "quantity": 1})).await;
    assert_eq!(status, 201);
    assert_eq!(cart["items"].as_array().unwrap().len(), 1);
    assert_eq!(cart["items"][0]["quantity"], 3);
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 3);
    let items: Value = c
        .get(app.api("/cart/items"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(items.as_array().unwrap().len(), 1);
    // Another shopper has a cart of their own.
    let other: Value = app
        .shopper()
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(other["items_count"], 0);
    app.stop().await;
}

async fn a_cart_token_names_the_cart_without_cookies(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.bare();
    let res = c.get(app.api("/cart")).send().await.unwrap();
    let token = res.headers()["cart-token"].to_str().unwrap().to_string();
    // With a valid Cart-Token no nonce is needed.
    let res = c
        .post(app.api("/cart/add-item"))
        .header("Cart-Token", &token)
        .json(&json!({"id": CAP}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert!(res.headers()["cart-token"].to_str().unwrap().len() > 20);
    let cart: Value = c
        .get(app.api("/cart"))
        .header("Cart-Token", &token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 1);
    assert_eq!(cart["items"][0]["id"], CAP);
    // A bad token is a new, empty cart, and no longer skips the nonce.
    let res = c
        .get(app.api("/cart"))
        .header("Cart-Token", "not.a.token")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["items_count"], 0);
    let res = c
        .post(app.api("/cart/add-item"))
        .header("Cart-Token", "not.a.token")
        .json(&json!({"id": CAP}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    app.stop().await;
}

async fn variations_are_added_by_id_or_by_attributes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let (status, cart) = add(
        &app,
        &c,
        &nonce,
        json!({"id": HOODIE_BLUE_L, "quantity": 1}),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(cart["items"][0]["id"], HOODIE_BLUE_L);
    assert_eq!(cart["items"][0]["name"], "Hoodie");
    assert_eq!(
        cart["items"][0]["variation"],
        json!([{"attribute":"Color","value":"Blue"},{"attribute":"Size","value":"L"}])
    );
    assert_eq!(cart["items"][0]["prices"]["price"], "4200");
    let (status, cart) = add(
        &app,
        &c,
        &nonce,
        json!({"id": HOODIE, "quantity": 1, "variation": [{"attribute": "pa_color", "value": "blue"}, {"attribute": "Size", "value": "m"}]}),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(cart["items"].as_array().unwrap().len(), 2);
    assert_eq!(cart["items"][1]["id"], HOODIE_BLUE_M);
    let (status, body) = add(&app, &c, &nonce, json!({"id": HOODIE, "quantity": 1})).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["code"],
        "woocommerce_rest_variation_id_from_variation_data"
    );
    assert_eq!(body["message"], "No matching variation found.");
    let (status, body) = add(&app, &c, &nonce, json!({"id": HOODIE_GREEN_M})).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "woocommerce_rest_product_out_of_stock");
    app.stop().await;
}

async fn bad_additions_get_clear_errors(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let cases: Vec<(Value, u16, &str)> = vec![
        (
            json!({"id": 999999, "quantity": 1}),
            400,
            "woocommerce_rest_cart_invalid_product",
        ),
        (
            json!({"quantity": 1}),
            400,
            "woocommerce_rest_cart_invalid_product",
        ),
        (json!({"id": "abc"}), 400, "rest_invalid_param"),
        (
            json!({"id": BEANIE, "quantity": "abc"}),
            400,
            "rest_invalid_param",
        ),
        (
            json!({"id": BEANIE, "quantity": 1.5}),
            400,
            "rest_invalid_param",
        ),
        (
            json!({"id": BEANIE, "quantity": 0}),
            400,
            "rest_invalid_param",
        ),
        (
            json!({"id": BEANIE, "quantity": -1}),
            400,
            "rest_invalid_param",
        ),
        (
            json!({"id": BEANIE, "quantity": 1_000_000_000_000i64}),
            400,
            "woocommerce_rest_cart_invalid_quantity",
        ),
        (
            json!({"id": BEANIE, "variation": "blue"}),
            400,
            "rest_invalid_param",
        ),
        (
            json!({"id": PENNANT}),
            400,
            "woocommerce_rest_product_not_purchasable",
        ),
        (
            json!({"id": POSTER}),
            400,
            "woocommerce_rest_product_out_of_stock",
        ),
        (
            json!({"id": MUG, "quantity": 4}),
            400,
            "woocommerce_rest_product_partially_out_of_stock",
        ),
        (
            json!({"id": SOCKS, "quantity": 1}),
            400,
            "woocommerce_rest_cart_invalid_quantity",
        ),
        (
            json!({"id": GIFT_CARD, "quantity": 2}),
            400,
            "woocommerce_rest_cart_product_sold_individually",
        ),
    ];
    for (body, status, code) in cases {
        let (got, answer) = add(&app, &c, &nonce, body.clone()).await;
        assert_eq!(
            (got, answer["code"].as_str().unwrap()),
            (status, code),
            "{body}"
        );
        assert_eq!(answer["data"]["status"], status, "{body}");
        assert!(!answer["message"].as_str().unwrap().is_empty());
    }
    let (_, body) = add(&app, &c, &nonce, json!({"id": PENNANT})).await;
    assert_eq!(
        body["message"],
        "&quot;Pennant&quot; is not available for purchase."
    );
    let (_, body) = add(&app, &c, &nonce, json!({"id": BEANIE, "quantity": "abc"})).await;
    assert_eq!(
        body["data"]["params"]["quantity"],
        "quantity is not of type integer."
    );
    // Malformed JSON, a form body, and an oversized body.
    let res = c
        .post(app.api("/cart/add-item"))
        .header("Nonce", &nonce)
        .header("content-type", "application/json")
        .body("{\"id\": 15, \"quantity\":")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "rest_invalid_json");
    assert_eq!(body["message"], "Invalid JSON body passed.");
    let res = c
        .post(app.api("/cart/add-item"))
        .header("Nonce", &nonce)
        .header("content-type", "application/json")
        .body("[1,2]")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let res = c
        .post(app.api("/cart/add-item"))
        .header("Nonce", &nonce)
        .form(&[("id", CAP.to_string()), ("quantity", "2".into())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let huge = format!("{{\"id\":15,\"pad\":\"{}\"}}", "x".repeat(200_000));
    // The server stops reading an oversized body, so it gets a connection (and a
    // cart) of its own.
    let token = app.cart_token().await;
    let res = app
        .bare()
        .post(app.api("/cart/add-item"))
        .header("Cart-Token", &token)
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    assert_eq!(res.json::<Value>().await.unwrap()["data"]["status"], 413);
    // Nothing refused reached the cart; backorders are allowed for the lamp.
    let (status, _) = add(&app, &c, &nonce, json!({"id": PREORDER, "quantity": 5})).await;
    assert_eq!(status, 201);
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ids: Vec<i64> = cart["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![CAP, PREORDER]);
    app.stop().await;
}

async fn stock_counts_what_the_cart_already_holds(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    assert_eq!(
        add(&app, &c, &nonce, json!({"id": MUG, "quantity": 2}))
            .await
            .0,
        201
    );
    let (status, body) = add(&app, &c, &nonce, json!({"id": MUG, "quantity": 2})).await;
    assert_eq!(status, 400);
    assert_eq!(
        body["message"],
        "You cannot add that amount to the cart &mdash; we have 3 in stock and you already have 2 in your cart."
    );
    assert_eq!(
        add(&app, &c, &nonce, json!({"id": MUG, "quantity": 1}))
            .await
            .0,
        201
    );
    app.stop().await;
}

async fn items_are_updated_and_removed_by_key(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let (_, cart) = add(&app, &c, &nonce, json!({"id": BEANIE})).await;
    let key = cart["items"][0]["key"].as_str().unwrap().to_string();
    add(&app, &c, &nonce, json!({"id": MUG})).await;
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/update-item",
        json!({"key": key, "quantity": 5}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let cart: Value = res.json().await.unwrap();
    assert_eq!(cart["items"][0]["quantity"], 5);
    assert_eq!(cart["items_count"], 6);
    let mug_key = cart["items"][1]["key"].as_str().unwrap().to_string();
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/update-item",
        json!({"key": mug_key, "quantity": 4}),
    )
    .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "woocommerce_rest_product_partially_out_of_stock"
    );
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/update-item",
        json!({"key": key, "quantity": 0}),
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/update-item",
        json!({"key": "0123456789abcdef0123456789abcdef", "quantity": 1}),
    )
    .await;
    assert_eq!(res.status(), 409);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "woocommerce_rest_cart_invalid_key");
    assert_eq!(body["data"]["cart"]["items_count"], 6);
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/update-item",
        json!({"quantity": 1}),
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = post(&app, &c, &nonce, "/cart/remove-item", json!({"key": key})).await;
    assert_eq!(res.status(), 200);
    let cart: Value = res.json().await.unwrap();
    assert_eq!(cart["items_count"], 1);
    let res = post(&app, &c, &nonce, "/cart/remove-item", json!({"key": key})).await;
    assert_eq!(res.status(), 409);
    assert_eq!(
        res.json::<Value>().await.unwrap()["message"],
        "Cart item no longer exists or is invalid."
    );
    let res = post(
        &app,
        &c,
        &nonce,
        "/cart/remove-item",
        json!({"key": mug_key}),
    )
    .await;
    let cookies: Vec<String> = set_cookies(&res);
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("woocommerce_items_in_cart=;") && c.contains("Max-Age=0")));
    assert_eq!(res.json::<Value>().await.unwrap()["items_count"], 0);
    app.stop().await;
}

/// Sends one add-item per id at once, all for the cart named by `token`; the statuses.
async fn add_all_at_once(app: &TestApp, token: &str, ids: &[i64]) -> Vec<u16> {
    let c = app.bare();
    let tasks: Vec<_> = ids
        .iter()
        .map(|&id| {
            let request = c
                .post(app.api("/cart/add-item"))
                .header("Cart-Token", token)
                .json(&json!({ "id": id }));
            tokio::spawn(async move { request.send().await.unwrap().status().as_u16() })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    statuses
}

async fn cart_by_token(app: &TestApp, token: &str) -> Value {
    let res = app
        .bare()
        .get(app.api("/cart"))
        .header("Cart-Token", token)
        .send()
        .await
        .unwrap();
    res.json().await.unwrap()
}

async fn simultaneous_additions_to_one_cart_are_all_kept(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let token = app.cart_token().await;
    let ids: Vec<i64> = (0..20)
        .map(|i| if i % 2 == 0 { BEANIE } else { CAP })
        .collect();
    assert!(add_all_at_once(&app, &token, &ids)
        .await
        .iter()
        .all(|&s| s == 201));
    let cart = cart_by_token(&app, &token).await;
    assert_eq!(cart["items_count"], 20);
    assert_eq!(cart["items"][0]["quantity"], 10);
    assert_eq!(cart["items"][1]["quantity"], 10);
    app.stop().await;
}

async fn simultaneous_additions_never_pass_the_stock(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let token = app.cart_token().await;
    let statuses = add_all_at_once(&app, &token, &[MUG; 10]).await;
    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        3,
        "three mugs are in stock"
    );
    assert!(statuses.iter().all(|&s| s == 201 || s == 400));
    let cart = cart_by_token(&app, &token).await;
    assert_eq!(cart["items"][0]["quantity"], 3);
    app.stop().await;
}

async fn the_cart_suggests_its_products_cross_sells(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let (status, cart) = add(&app, &c, &nonce, json!({"id": BEANIE})).await;
    assert_eq!(status, 201);
    // The beanie suggests the sold-out poster, the mug and the cap: the poster is left out.
    let ids: Vec<i64> = cart["cross_sells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![MUG, CAP]);
    assert_eq!(cart["cross_sells"][0]["name"], "Mug");
    assert!(cart["cross_sells"][0]["prices"]["price"].is_string());
    // What the cart already holds is not suggested again.
    let (_, cart) = add(&app, &c, &nonce, json!({"id": MUG})).await;
    let ids: Vec<i64> = cart["cross_sells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![CAP]);
    // The product page's suggestions ride in the product's extensions.
    let beanie: Value = app
        .bare()
        .get(app.api(&format!("/products/{BEANIE}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        beanie["extensions"]["ferroshop"]["upsell_ids"],
        json!([CAP])
    );
    let cap: Value = app
        .bare()
        .get(app.api(&format!("/products/{CAP}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cap["extensions"], json!({}));
    app.stop().await;
}

on_both_databases!(
    the_cart_suggests_its_products_cross_sells,
    a_new_cart_is_empty_and_carries_a_nonce_and_token,
    writes_need_a_valid_nonce,
    adding_an_item_keeps_it_in_the_session,
    a_cart_token_names_the_cart_without_cookies,
    variations_are_added_by_id_or_by_attributes,
    bad_additions_get_clear_errors,
    stock_counts_what_the_cart_already_holds,
    items_are_updated_and_removed_by_key,
    simultaneous_additions_to_one_cart_are_all_kept,
    simultaneous_additions_never_pass_the_stock,
);
