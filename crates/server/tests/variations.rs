//! A variable product's variation form (swatches and the variations the page carries)
//! and the classic `get_variation` call, through the real server, on both databases.

mod common;

use common::*;
use rules::catalog::model::{ProductId, StockStatus};
use serde_json::Value;

async fn form(app: &TestApp, id: i64) -> (reqwest::StatusCode, Value) {
    let res = app
        .bare()
        .get(app.url(&format!(
            "/wp-json/ferroshop/v1/products/{id}/variation-form"
        )))
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap())
}

async fn get_variation(app: &TestApp, fields: &[(&str, &str)]) -> (reqwest::StatusCode, Value) {
    let res = app
        .bare()
        .post(app.url("/?wc-ajax=get_variation"))
        .form(fields)
        .send()
        .await
        .unwrap();
    let status = res.status();
    (status, res.json().await.unwrap())
}

async fn the_form_offers_swatches_and_carries_every_variation(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(app.db(), ProductId(HOODIE_BLUE_L), 3, StockStatus::InStock)
        .await
        .unwrap();
    // The snapshot picks the stock up within about a second.
    let mut body = Value::Null;
    for _ in 0..40 {
        body = form(&app, HOODIE).await.1;
        let counted = body["variations"]
            .as_array()
            .and_then(|vs| vs.iter().find(|v| v["variation_id"] == HOODIE_BLUE_L))
            .is_some_and(|v| v["variation_stock_left"] == 3);
        if counted {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (status, body) = (reqwest::StatusCode::OK, body);
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["product_id"], HOODIE);
    let attributes = body["attributes"].as_array().unwrap();
    assert_eq!(attributes.len(), 2);
    let color = &attributes[0];
    assert_eq!(color["name"], "Color");
    assert_eq!(color["field"], "attribute_pa_color");
    assert_eq!(color["swatch"], "color");
    assert_eq!(color["options"][0]["value"], "blue");
    assert_eq!(color["options"][0]["label"], "Blue");
    assert_eq!(color["options"][0]["color"], "#1d4ed8");
    assert!(color["options"][1]["image"]["src"]
        .as_str()
        .unwrap()
        .contains("/media/"));
    assert_eq!(attributes[1]["swatch"], "label");
    assert_eq!(attributes[1]["options"][1]["value"], "l");

    let variations = body["variations"].as_array().expect("embedded");
    assert_eq!(variations.len(), 3);
    assert_eq!(body["variation_count"], 3);
    assert_eq!(body["stock_label_threshold"], 5);
    let find = |id: i64| {
        variations
            .iter()
            .find(|v| v["variation_id"] == id)
            .unwrap_or_else(|| panic!("variation {id} in {body}"))
    };
    let blue_l = find(HOODIE_BLUE_L);
    assert_eq!(blue_l["attributes"]["attribute_pa_color"], "blue");
    assert_eq!(blue_l["attributes"]["attribute_pa_size"], "l");
    assert_eq!(blue_l["is_in_stock"], true);
    assert_eq!(blue_l["variation_stock_left"], 3);
    assert_eq!(blue_l["max_qty"], 3);
    assert_eq!(blue_l["min_qty"], 1);
    let green_m = find(HOODIE_GREEN_M);
    assert_eq!(green_m["is_in_stock"], false);
    assert_eq!(green_m["variation_stock_left"], Value::Null);
    assert!(green_m["availability_html"]
        .as_str()
        .unwrap()
        .contains("Out of stock"));
    // Stock not counted: no number left, and no limit on the quantity.
    let blue_m = find(HOODIE_BLUE_M);
    assert_eq!(blue_m["variation_stock_left"], Value::Null);
    assert_eq!(blue_m["max_qty"], "");
    assert!(blue_m["prices"]["price"]
        .as_str()
        .unwrap()
        .parse::<i64>()
        .is_ok());
    app.stop().await;
}

async fn above_the_threshold_the_page_asks_per_choice(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.catalog.ajax_threshold = 2).await else {
        return;
    };
    let (status, body) = form(&app, HOODIE).await;
    assert_eq!(status, 200);
    assert_eq!(body["variations"], false);
    assert_eq!(body["variation_count"], 3);
    assert_eq!(body["attributes"].as_array().unwrap().len(), 2);

    let hoodie = HOODIE.to_string();
    let (status, found) = get_variation(
        &app,
        &[
            ("product_id", &hoodie),
            ("attribute_pa_color", "green"),
            ("attribute_pa_size", "m"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["variation_id"], HOODIE_GREEN_M);
    assert_eq!(found["is_in_stock"], false);
    assert_eq!(found["attributes"]["attribute_pa_color"], "green");
    // A combination no variation has, and an incomplete one: false, as in the original.
    for fields in [
        vec![
            ("product_id", hoodie.as_str()),
            ("attribute_pa_color", "green"),
            ("attribute_pa_size", "l"),
        ],
        vec![
            ("product_id", hoodie.as_str()),
            ("attribute_pa_color", "blue"),
        ],
    ] {
        let (status, none) = get_variation(&app, &fields).await;
        assert_eq!(status, 200);
        assert_eq!(none, Value::Bool(false), "{fields:?}");
    }
    app.stop().await;
}

async fn bad_products_and_methods_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for id in [BEANIE, 999_999, -1] {
        let (status, body) = form(&app, id).await;
        assert_eq!(status, 404, "{id}: {body}");
        assert_eq!(body["code"], "woocommerce_rest_product_invalid_id");
    }
    let res = app
        .bare()
        .get(app.url("/wp-json/ferroshop/v1/products/abc/variation-form"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    for fields in [
        vec![],
        vec![("product_id", "abc")],
        vec![("product_id", "15")],
        vec![("product_id", "999999")],
    ] {
        let (status, body) = get_variation(&app, &fields).await;
        assert_eq!(status, 400, "{fields:?}: {body}");
        assert_eq!(body["data"]["code"], "invalid_product");
    }
    // A read, but the original takes it by POST only.
    let res = app
        .bare()
        .get(app.url(&format!("/?wc-ajax=get_variation&product_id={HOODIE}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    app.stop().await;
}

on_both_databases!(
    the_form_offers_swatches_and_carries_every_variation,
    above_the_threshold_the_page_asks_per_choice,
    bad_products_and_methods_are_refused,
);
