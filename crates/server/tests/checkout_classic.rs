//! The classic checkout calls (`?wc-ajax=update_order_review`, `checkout`, `apply_coupon`,
//! `remove_coupon`) through the real server, on both databases.

mod common;

use common::*;
use ferroshop::checkout::ajax::{
    APPLY_COUPON_NONCE, PROCESS_CHECKOUT_NONCE, REMOVE_COUPON_NONCE, UPDATE_ORDER_REVIEW_NONCE,
};
use ferroshop::config::checkout::{demo_terms, Terms};
use rules::orders::model::{OrderId, OrderStatus};
use rules::pricing::coupons::{Coupon, CouponCode, CouponKind};
use rules::pricing::rules::ShopRules;
use serde_json::Value;

type Form = Vec<(&'static str, String)>;

async fn call(app: &TestApp, c: &reqwest::Client, name: &str, form: &Form) -> reqwest::Response {
    c.post(app.url(&format!("/?wc-ajax={name}")))
        .form(form)
        .send()
        .await
        .unwrap()
}

/// Status, Set-Cookie headers and the JSON body of a call.
async fn json_call(
    app: &TestApp,
    c: &reqwest::Client,
    name: &str,
    form: &Form,
) -> (u16, Vec<String>, Value) {
    let res = call(app, c, name, form).await;
    let status = res.status().as_u16();
    let cookies = set_cookies(&res);
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, cookies, body)
}

/// Status, Content-Type, Set-Cookie headers and the body of a call answered in HTML.
async fn html_call(
    app: &TestApp,
    c: &reqwest::Client,
    name: &str,
    form: &Form,
) -> (u16, String, Vec<String>, String) {
    let res = call(app, c, name, form).await;
    let status = res.status().as_u16();
    let content_type = res.headers()["content-type"].to_str().unwrap().to_string();
    let cookies = set_cookies(&res);
    (status, content_type, cookies, res.text().await.unwrap())
}

async fn add_to_cart(app: &TestApp, c: &reqwest::Client, product: i64, quantity: i64) {
    let (status, _, body) = json_call(
        app,
        c,
        "add_to_cart",
        &vec![
            ("product_id", product.to_string()),
            ("quantity", quantity.to_string()),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

async fn add_blue_hoodie(app: &TestApp, c: &reqwest::Client) {
    let (status, _, body) = json_call(
        app,
        c,
        "add_to_cart",
        &vec![
            ("product_id", HOODIE.to_string()),
            ("variation_id", HOODIE_BLUE_M.to_string()),
            ("attribute_pa_color", "blue".into()),
            ("attribute_pa_size", "m".into()),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
}

fn percent_coupon(code: &str, percent: i64) -> Coupon {
    Coupon::new(
        CouponCode::parse(code).unwrap(),
        CouponKind::Percent {
            percent: percent * 100,
        },
    )
}

/// Ada's billing fields, as the checkout form names them.
fn ada() -> Form {
    vec![
        ("billing_first_name", "Ada".into()),
        ("billing_last_name", "Lovelace".into()),
        ("billing_company", "".into()),
        ("billing_country", "US".into()),
        ("billing_address_1", "1 Main St".into()),
        ("billing_address_2", "".into()),
        ("billing_city", "San Francisco".into()),
        ("billing_state", "CA".into()),
        ("billing_postcode", "94110".into()),
        ("billing_phone", "5555550100".into()),
        ("billing_email", "ada@example.test".into()),
    ]
}

/// The whole checkout form, paid with `method`.
async fn checkout_form(app: &TestApp, c: &reqwest::Client, method: &str) -> Form {
    let mut form = ada();
    form.extend([
        ("order_comments", "golden".to_string()),
        ("shipping_method[0]", "flat_rate:1".into()),
        ("payment_method", method.into()),
        (
            "woocommerce-process-checkout-nonce",
            classic_nonce(app, c, PROCESS_CHECKOUT_NONCE).await,
        ),
        ("_wp_http_referer", "/?wc-ajax=update_order_review".into()),
    ]);
    form
}

/// An order review for Ada's San Francisco address, as the checkout script sends it.
async fn review_form(app: &TestApp, c: &reqwest::Client, payment: &str, rate: &str) -> Form {
    let post_data = serde_urlencoded::to_string(
        ada()
            .into_iter()
            .chain([("payment_method", payment.to_string())])
            .collect::<Vec<_>>(),
    )
    .unwrap();
    vec![
        (
            "security",
            classic_nonce(app, c, UPDATE_ORDER_REVIEW_NONCE).await,
        ),
        ("payment_method", payment.into()),
        ("country", "US".into()),
        ("state", "CA".into()),
        ("postcode", "94110".into()),
        ("city", "San Francisco".into()),
        ("address", "1 Main St".into()),
        ("address_2", "".into()),
        ("s_country", "US".into()),
        ("s_state", "CA".into()),
        ("s_postcode", "94110".into()),
        ("s_city", "San Francisco".into()),
        ("s_address", "1 Main St".into()),
        ("s_address_2", "".into()),
        ("has_full_address", "true".into()),
        ("shipping_method[0]", rate.into()),
        ("post_data", post_data),
    ]
}

/// The `data-id`s of a notice list, in order.
fn field_ids(messages: &str) -> Vec<String> {
    messages
        .split("<li data-id=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

fn price(amount: &str) -> String {
    format!(
        "<span class=\"woocommerce-Price-amount amount\"><bdi><span class=\"woocommerce-Price-currencySymbol\">$</span>{amount}</bdi></span>"
    )
}

fn fragment<'a>(body: &'a Value, selector: &str) -> &'a str {
    body["fragments"][selector]
        .as_str()
        .unwrap_or_else(|| panic!("no {selector} in {body}"))
}

async fn update_order_review_renders_the_review_table_and_payment_box(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_coupon(&app, &percent_coupon("ten", 10)).await;
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 2).await;
    add_blue_hoodie(&app, &c).await;
    let (status, _, _, body) = html_call(
        &app,
        &c,
        "apply_coupon",
        &vec![
            (
                "security",
                classic_nonce(&app, &c, APPLY_COUPON_NONCE).await,
            ),
            ("coupon_code", "TEN".into()),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let (status, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "cod", "flat_rate:1").await,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"], "success");
    assert_eq!(body["messages"], "");
    assert_eq!(body["reload"], false);
    let table = fragment(&body, ".woocommerce-checkout-review-order-table");
    assert!(
        table.starts_with("<table class=\"shop_table woocommerce-checkout-review-order-table\">")
    );
    assert!(table.contains(
        "Beanie&nbsp;\t\t\t\t\t\t <strong class=\"product-quantity\">&times;&nbsp;2</strong>"
    ));
    assert!(table.contains("Hoodie - Blue, M&nbsp;"));
    assert!(table.contains(&format!(
        "<td class=\"product-total\">\n\t\t\t\t\t\t{}",
        price("36.00")
    )));
    // 2 × $18 + $45 = $81; ten percent off is $8.10.
    assert!(table.contains(&format!(
        "<tr class=\"cart-subtotal\">\n\t\t\t<th>Subtotal</th>\n\t\t\t<td>{}</td>",
        price("81.00")
    )));
    assert!(table.contains("<tr class=\"cart-discount coupon-ten\">"));
    assert!(table.contains("<th>Coupon: ten</th>"));
    assert!(table.contains(&format!(
        "<td>-<span class=\"woocommerce-Price-amount amount\"><span class=\"woocommerce-Price-currencySymbol\">$</span>8.10</span> <a href=\"{}\" class=\"woocommerce-remove-coupon\" data-coupon=\"ten\">[Remove]</a></td>",
        app.url("/checkout/?remove_coupon=ten")
    )));
    // The default rules have one free flat rate: a hidden input, no price.
    assert!(table.contains("<tr class=\"woocommerce-shipping-totals shipping\">"));
    assert!(table.contains("<input type=\"hidden\" name=\"shipping_method[0]\" data-index=\"0\" id=\"shipping_method_0_flat_rate1\" value=\"flat_rate:1\" class=\"shipping_method\" /><label for=\"shipping_method_0_flat_rate1\">Flat rate</label>"));
    assert!(!table.contains("tax-rate"));
    assert!(table.contains(&format!(
        "<tr class=\"order-total\">\n\t\t\t<th>Total</th>\n\t\t\t<td><strong>{}</strong> </td>",
        price("72.90")
    )));

    let payment = fragment(&body, ".woocommerce-checkout-payment");
    assert!(payment.starts_with("<div id=\"payment\" class=\"woocommerce-checkout-payment\">"));
    assert!(payment.contains("value=\"cod\"  checked='checked' data-order_button_text=\"\" />"));
    assert!(payment.contains("value=\"bacs\"  data-order_button_text=\"\" />"));
    assert!(payment.contains("<div class=\"payment_box payment_method_cod\" >\n\t\t\t<p>Pay with cash upon delivery.</p>"));
    assert!(
        payment.contains("<div class=\"payment_box payment_method_bacs\" style=\"display:none;\">")
    );
    assert!(payment.contains("<div class=\"woocommerce-privacy-policy-text\">"));
    assert!(!payment.contains("name=\"terms\""), "the shop has no terms");
    assert!(payment.contains("id=\"place_order\" value=\"Place order\""));
    assert!(payment.contains(&format!(
        "name=\"woocommerce-process-checkout-nonce\" value=\"{}\"",
        classic_nonce(&app, &c, PROCESS_CHECKOUT_NONCE).await
    )));

    // The session keeps the address, with the names and e-mail from the serialised form.
    let cart = cart_of(&app, &c).await;
    assert_eq!(cart["billing_address"]["first_name"], "Ada");
    assert_eq!(cart["billing_address"]["email"], "ada@example.test");
    assert_eq!(cart["billing_address"]["city"], "San Francisco");
    assert_eq!(cart["shipping_address"]["last_name"], "Lovelace");
    assert_eq!(cart["shipping_address"]["postcode"], "94110");

    // No chosen method, or an unknown one: the first method is checked.
    let (_, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "nope", "flat_rate:1").await,
    )
    .await;
    let payment = fragment(&body, ".woocommerce-checkout-payment");
    assert!(payment.contains("value=\"bacs\"  checked='checked'"));

    // A typed method is never written back: the first method is checked.
    let (_, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "<script>alert(1)</script>\"'&", "flat_rate:1").await,
    )
    .await;
    let payment = fragment(&body, ".woocommerce-checkout-payment");
    assert!(payment.contains("value=\"bacs\"  checked='checked'"));
    assert!(!payment.contains("alert(1)"), "{payment}");
    app.stop().await;
}

async fn update_order_review_offers_rates_and_itemises_taxes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_rules(&app, &ShopRules::demo()).await;
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 2).await;
    let (status, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "bacs", "local_pickup:3").await,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let table = fragment(&body, ".woocommerce-checkout-review-order-table");
    // California offers a $5 flat rate and free pickup (no free shipping under $100).
    assert!(table.contains(&format!(
        "<input type=\"radio\" name=\"shipping_method[0]\" data-index=\"0\" id=\"shipping_method_0_flat_rate1\" value=\"flat_rate:1\" class=\"shipping_method\"  /><label for=\"shipping_method_0_flat_rate1\">Flat rate: {}</label>",
        price("5.00")
    )));
    assert!(table.contains("id=\"shipping_method_0_local_pickup3\" value=\"local_pickup:3\" class=\"shipping_method\"  checked='checked' /><label for=\"shipping_method_0_local_pickup3\">Local pickup</label>"));
    // $36 of items: 7.25% state tax and 1.25% city tax.
    assert!(table.contains(&format!(
        "<tr class=\"tax-rate tax-rate-us-ca-ca-state-tax-1\">\n\t\t\t\t\t\t<th>CA State Tax</th>\n\t\t\t\t\t\t<td>{}</td>",
        price("2.61")
    )));
    assert!(table.contains(&format!(
        "<tr class=\"tax-rate tax-rate-us-ca-sf-tax-2\">\n\t\t\t\t\t\t<th>SF Tax</th>\n\t\t\t\t\t\t<td>{}</td>",
        price("0.45")
    )));
    assert!(table.contains(&format!("<td><strong>{}</strong> </td>", price("39.06"))));

    // Choosing the flat rate adds its $5.
    let (_, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "bacs", "flat_rate:1").await,
    )
    .await;
    let table = fragment(&body, ".woocommerce-checkout-review-order-table");
    assert!(table.contains("value=\"flat_rate:1\" class=\"shipping_method\"  checked='checked' />"));
    assert!(table.contains(&format!("<td><strong>{}</strong> </td>", price("44.06"))));
    app.stop().await;
}

async fn update_order_review_refuses_a_bad_nonce(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    for security in ["0123456789", ""] {
        let (status, content_type, _, body) = html_call(
            &app,
            &c,
            "update_order_review",
            &vec![
                ("security", security.into()),
                ("payment_method", "cod".into()),
            ],
        )
        .await;
        assert_eq!(status, 403);
        assert_eq!(body, "-1");
        assert!(content_type.starts_with("text/html"));
    }
    // A nonce for another call is no nonce for this one.
    let (status, _, _, body) = html_call(
        &app,
        &c,
        "update_order_review",
        &vec![(
            "security",
            classic_nonce(&app, &c, APPLY_COUPON_NONCE).await,
        )],
    )
    .await;
    assert_eq!((status, body.as_str()), (403, "-1"));
    app.stop().await;
}

async fn update_order_review_with_an_empty_cart_says_the_session_expired(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let (status, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "cod", "flat_rate:1").await,
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        fragment(&body, "form.woocommerce-checkout"),
        format!(
            "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tSorry, your session has expired. <a href=\"{}\" class=\"wc-backward\">Return to shop</a>\t\t</li>\n\t</ul>\n",
            app.url("/shop/")
        )
    );
    assert!(
        body.get("result").is_none(),
        "only the fragment, as the original"
    );
    app.stop().await;
}

async fn checkout_places_the_order_and_empties_the_cart(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for (method, status) in [
        ("bacs", OrderStatus::OnHold),
        ("cod", OrderStatus::Processing),
    ] {
        let c = app.shopper();
        add_to_cart(&app, &c, BEANIE, 1).await;
        let (code, cookies, body) =
            json_call(&app, &c, "checkout", &checkout_form(&app, &c, method).await).await;
        assert_eq!(code, 200, "{body}");
        let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["result", "redirect", "order_id"], "{body}");
        assert_eq!(body["result"], "success");
        let id = body["order_id"].as_i64().unwrap();
        let order = store::orders::find_order(app.db(), OrderId(id))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            body["redirect"],
            app.url(&format!("/checkout/order-received/{id}/?key={}", order.key))
        );
        assert_eq!(order.status, status);
        assert_eq!(order.payment_method, method);
        assert_eq!(order.created_via, "checkout");
        assert_eq!(order.billing.first_name, "Ada");
        assert_eq!(order.billing.email, "ada@example.test");
        assert_eq!(order.shipping.city, "San Francisco");
        assert_eq!(order.customer_note, "golden");
        assert_eq!(order.total, 1800);
        assert!(cookies
            .iter()
            .any(|c| c.starts_with("woocommerce_items_in_cart=;") && c.contains("Max-Age=0")));
        assert!(cookies
            .iter()
            .any(|c| c.starts_with("woocommerce_cart_hash=;") && c.contains("Max-Age=0")));
        assert_eq!(cart_of(&app, &c).await["items_count"], 0);
    }
    app.stop().await;
}

async fn checkout_lists_every_missing_field_with_its_id(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let (status, _, body) = json_call(
        &app,
        &c,
        "checkout",
        &vec![
            ("billing_first_name", "".into()),
            ("billing_email", "".into()),
            ("payment_method", "cod".into()),
            (
                "woocommerce-process-checkout-nonce",
                classic_nonce(&app, &c, PROCESS_CHECKOUT_NONCE).await,
            ),
        ],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["result"], "failure");
    assert_eq!(body["refresh"], false);
    assert_eq!(body["reload"], false);
    let messages = body["messages"].as_str().unwrap();
    assert!(messages.starts_with("<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li data-id=\"billing_first_name\">\n\t\t\t<strong>Billing First name</strong> is a required field.\t\t</li>"));
    // The state is required only where the country's rules say so.
    let ids: Vec<String> = field_ids(messages)
        .into_iter()
        .filter(|id| id != "billing_state")
        .collect();
    assert_eq!(
        ids,
        [
            "billing_first_name",
            "billing_last_name",
            "billing_country",
            "billing_address_1",
            "billing_city",
            "billing_postcode",
            "billing_phone",
            "billing_email",
        ]
    );
    assert!(messages.contains("<li>\n\t\t\tPlease enter an address to continue.\t\t</li>"));
    assert_eq!(
        cart_of(&app, &c).await["items_count"],
        1,
        "nothing was placed"
    );
    app.stop().await;
}

async fn checkout_refuses_an_invalid_email_and_an_unknown_method(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let mut form = checkout_form(&app, &c, "bitcoin").await;
    for (k, v) in form.iter_mut() {
        if *k == "billing_email" {
            *v = "ada.example.test".into();
        }
    }
    let (_, _, body) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(body["result"], "failure");
    let messages = body["messages"].as_str().unwrap();
    assert_eq!(field_ids(messages), ["billing_email"]);
    assert!(
        messages.contains("<strong>Billing Email address</strong> is not a valid email address.")
    );
    assert!(messages.contains("<li>\n\t\t\tInvalid payment method.\t\t</li>"));
    app.stop().await;
}

async fn checkout_requires_the_terms_when_the_shop_has_them(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |config| {
        config.checkout.terms = Some(Terms {
            page_url: "/terms".into(),
            ..demo_terms()
        });
    })
    .await
    else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let (_, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "cod", "flat_rate:1").await,
    )
    .await;
    let payment = fragment(&body, ".woocommerce-checkout-payment");
    assert!(payment.contains("name=\"terms\" id=\"terms\" />"));
    assert!(payment.contains("<input type=\"hidden\" name=\"terms-field\" value=\"1\" />"));
    assert!(payment.contains(&format!(
        "href=\"{}\" class=\"woocommerce-terms-and-conditions-link\"",
        app.url("/terms")
    )));

    let mut form = checkout_form(&app, &c, "cod").await;
    form.push(("terms-field", "1".into()));
    let (_, _, body) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(body["result"], "failure");
    assert_eq!(
        body["messages"],
        "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li data-id=\"terms\">\n\t\t\tPlease read and accept the terms and conditions to proceed with your order.\t\t</li>\n\t</ul>\n"
    );
    form.push(("terms", "on".into()));
    let (_, _, body) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(body["result"], "success", "{body}");
    app.stop().await;
}

async fn checkout_without_guest_checkout_asks_to_log_in(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |config| {
        config.checkout.guest_checkout = false;
        config.checkout.signup_at_checkout = false;
    })
    .await
    else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let (_, _, body) = json_call(&app, &c, "checkout", &checkout_form(&app, &c, "cod").await).await;
    assert_eq!(body["result"], "failure");
    assert!(body["messages"]
        .as_str()
        .unwrap()
        .contains("You must be logged in to checkout."));
    app.stop().await;
}

async fn checkout_creating_an_account_needs_a_password(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let mut form = checkout_form(&app, &c, "cod").await;
    form.push(("createaccount", "1".into()));
    form.push(("account_password", "".into()));
    let (_, _, body) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(body["result"], "failure");
    let messages = body["messages"].as_str().unwrap();
    assert_eq!(field_ids(messages), ["account_password"]);
    assert!(messages.contains("<strong>Create account password</strong> is a required field."));
    app.stop().await;
}

async fn checkout_with_a_bad_nonce_asks_to_try_again(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let mut form = checkout_form(&app, &c, "cod").await;
    form.retain(|(k, _)| *k != "woocommerce-process-checkout-nonce");
    form.push(("woocommerce-process-checkout-nonce", "0123456789".into()));
    let (status, _, body) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        serde_json::json!({
            "result": "failure",
            "messages": "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tWe were unable to process your order, please try again.\t\t</li>\n\t</ul>\n",
            "refresh": true,
            "reload": false,
        })
    );
    assert_eq!(cart_of(&app, &c).await["items_count"], 1);
    app.stop().await;
}

async fn checkout_with_an_empty_cart_says_the_session_expired(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let (status, _, body) =
        json_call(&app, &c, "checkout", &checkout_form(&app, &c, "cod").await).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        serde_json::json!({
            "result": "failure",
            "messages": format!("<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tSorry, your session has expired. <a href=\"{}\" class=\"wc-backward\">Return to shop</a>\t\t</li>\n\t</ul>\n", app.url("/shop/")),
            "refresh": false,
            "reload": false,
        })
    );
    app.stop().await;
}

async fn a_resubmitted_checkout_answers_with_the_same_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, MUG, 1).await;
    let form = checkout_form(&app, &c, "cod").await;
    let (_, _, first) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(first["result"], "success", "{first}");
    let (_, _, second) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(second, first);
    // One order took one mug.
    let stock = store::catalog::find_stock(app.db(), rules::catalog::model::ProductId(MUG))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stock.quantity, Some(2));
    app.stop().await;
}

async fn checkout_reports_stock_problems_and_refreshes_the_review(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, MUG, 3).await;
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        1,
        rules::catalog::model::StockStatus::InStock,
    )
    .await
    .unwrap();
    let (_, _, body) = json_call(&app, &c, "checkout", &checkout_form(&app, &c, "cod").await).await;
    assert_eq!(body["result"], "failure", "{body}");
    assert_eq!(body["refresh"], true);
    assert!(
        body["messages"].as_str().unwrap().contains("\"Mug\""),
        "{body}"
    );
    app.stop().await;
}

async fn apply_coupon_answers_with_notices(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_coupon(&app, &percent_coupon("ten", 10)).await;
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    let nonce = classic_nonce(&app, &c, APPLY_COUPON_NONCE).await;
    let apply = |code: &str| {
        vec![
            ("security", nonce.clone()),
            ("coupon_code", code.to_string()),
        ]
    };
    let (status, content_type, cookies, body) =
        html_call(&app, &c, "apply_coupon", &apply("TEN")).await;
    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/html"));
    assert_eq!(
        body,
        "\n\t<div class=\"woocommerce-message\" role=\"alert\">\n\t\tCoupon code applied successfully.\t</div>\n"
    );
    let cart = cart_of(&app, &c).await;
    assert_eq!(cart["coupons"][0]["code"], "ten");
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("woocommerce_cart_hash=")
            && !c.starts_with("woocommerce_cart_hash=;")));

    let (_, _, _, body) = html_call(&app, &c, "apply_coupon", &apply("TEN")).await;
    assert_eq!(
        body,
        "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tCoupon code already applied!\t\t</li>\n\t</ul>\n"
    );
    let (_, _, cookies, body) = html_call(&app, &c, "apply_coupon", &apply("NOPE")).await;
    assert_eq!(
        body,
        "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tCoupon \"nope\" does not exist!\t\t</li>\n\t</ul>\n"
    );
    assert!(cookies.is_empty(), "a refusal changes nothing");
    let (_, _, _, body) = html_call(&app, &c, "apply_coupon", &apply("  ")).await;
    assert!(body.contains("<li>\n\t\t\tPlease enter a coupon code.\t\t</li>"));
    let (_, _, _, body) = html_call(&app, &c, "apply_coupon", &apply("<b>x</b>")).await;
    assert!(
        body.contains("Coupon \"&lt;b&gt;x&lt;/b&gt;\" does not exist!"),
        "{body}"
    );

    let (status, _, _, body) = html_call(
        &app,
        &c,
        "apply_coupon",
        &vec![
            ("security", "0123456789".into()),
            ("coupon_code", "TEN".into()),
        ],
    )
    .await;
    assert_eq!((status, body.as_str()), (403, "-1"));
    app.stop().await;
}

async fn remove_coupon_answers_with_notices(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store_coupon(&app, &percent_coupon("ten", 10)).await;
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 1).await;
    html_call(
        &app,
        &c,
        "apply_coupon",
        &vec![
            (
                "security",
                classic_nonce(&app, &c, APPLY_COUPON_NONCE).await,
            ),
            ("coupon_code", "ten".into()),
        ],
    )
    .await;
    let nonce = classic_nonce(&app, &c, REMOVE_COUPON_NONCE).await;
    let remove = |code: &str| vec![("security", nonce.clone()), ("coupon", code.to_string())];
    let (status, _, _, body) = html_call(&app, &c, "remove_coupon", &remove("TEN")).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        "\n\t<div class=\"woocommerce-message\" role=\"alert\">\n\t\tCoupon has been removed.\t</div>\n"
    );
    assert_eq!(cart_of(&app, &c).await["coupons"], serde_json::json!([]));
    let (_, _, _, body) = html_call(&app, &c, "remove_coupon", &remove("")).await;
    assert_eq!(
        body,
        "<ul class=\"woocommerce-error\" role=\"alert\">\n\t\t\t<li>\n\t\t\tSorry there was a problem removing this coupon.\t\t</li>\n\t</ul>\n"
    );
    let (status, _, _, body) = html_call(
        &app,
        &c,
        "remove_coupon",
        &vec![
            (
                "security",
                classic_nonce(&app, &c, APPLY_COUPON_NONCE).await,
            ),
            ("coupon", "ten".into()),
        ],
    )
    .await;
    assert_eq!((status, body.as_str()), (403, "-1"));
    app.stop().await;
}

async fn hostile_input_gets_the_usual_answers(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    add_to_cart(&app, &c, ODD_NAME, 1).await;
    // Arrays where text is expected.
    let (status, _, _, body) = html_call(
        &app,
        &c,
        "apply_coupon",
        &vec![
            (
                "security[]",
                classic_nonce(&app, &c, APPLY_COUPON_NONCE).await,
            ),
            ("coupon_code", "x".into()),
        ],
    )
    .await;
    assert_eq!((status, body.as_str()), (403, "-1"));
    let (_, _, _, body) = html_call(
        &app,
        &c,
        "apply_coupon",
        &vec![
            (
                "security",
                classic_nonce(&app, &c, APPLY_COUPON_NONCE).await,
            ),
            ("coupon_code[a]", "x".into()),
        ],
    )
    .await;
    assert!(body.contains("Please enter a coupon code."));
    let mut form = checkout_form(&app, &c, "cod").await;
    form.retain(|(k, _)| *k != "billing_first_name" && *k != "payment_method");
    form.push(("billing_first_name[]", "Ada".into()));
    form.push(("payment_method[x]", "cod".into()));
    form.push(("billing_city", "x".repeat(20_000)));
    let (status, _, body) = json_call(&app, &c, "checkout", &form).await;
    assert_eq!(status, 200);
    assert_eq!(body["result"], "failure");
    let messages = body["messages"].as_str().unwrap();
    assert!(field_ids(messages).contains(&"billing_first_name".to_string()));
    assert!(messages.contains("Invalid payment method."));
    // A review with odd values still answers with fragments, names escaped.
    let mut review = review_form(&app, &c, "cod", "flat_rate:1").await;
    review.retain(|(k, _)| *k != "post_data" && *k != "shipping_method[0]");
    review.push(("post_data[]", "x".into()));
    review.push(("shipping_method", "flat_rate:1".into()));
    review.push(("city", "<script>".repeat(1000)));
    let (status, _, body) = json_call(&app, &c, "update_order_review", &review).await;
    assert_eq!(status, 200, "{body}");
    let table = fragment(&body, ".woocommerce-checkout-review-order-table");
    assert!(table.contains("Tom &amp; Jerry &lt;Mug&gt;&nbsp;"));
    assert!(!table.contains("<script>"));
    // A body over the size limit is refused as such, in the call's own shape; it is
    // never read as an empty form.
    let mut huge = review_form(&app, &c, "cod", "flat_rate:1").await;
    huge.push(("address_2", "x".repeat(200_000)));
    let (status, _, body) = json_call(&app, &c, "update_order_review", &huge).await;
    assert_eq!(status, 413);
    assert_eq!(body["result"], "failure");
    assert!(body["messages"]
        .as_str()
        .unwrap()
        .contains("The request body is larger than 65536 bytes."));
    // A body that is no form at all. (A fresh connection: the server may close the
    // one whose oversized body it did not read.)
    let res = app
        .bare()
        .post(app.url("/?wc-ajax=checkout"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["result"], "failure");
    assert!(body["messages"]
        .as_str()
        .unwrap()
        .contains("Invalid JSON body passed."));
    app.stop().await;
}

async fn a_typed_coupon_code_is_escaped_in_the_review_and_the_notices(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let typed = "<script>alert(1)</script>\"'&";
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#039;&amp;";
    store_coupon(&app, &percent_coupon(typed, 10)).await;
    let c = app.shopper();
    add_to_cart(&app, &c, BEANIE, 2).await;
    let apply = |code: &'static str| {
        let (app, c) = (&app, &c);
        async move {
            let form = vec![
                ("security", classic_nonce(app, c, APPLY_COUPON_NONCE).await),
                ("coupon_code", code.to_string()),
            ];
            html_call(app, c, "apply_coupon", &form).await
        }
    };
    let (_, _, _, body) = apply("<script>alert(2)</script>\"'&").await;
    assert!(!body.contains("<script>"), "{body}");
    assert!(
        body.contains("Coupon \"&lt;script&gt;alert(2)&lt;/script&gt;\"'&amp;\" does not exist!"),
        "{body}"
    );
    let (status, _, _, body) = apply(typed).await;
    assert_eq!(status, 200, "{body}");

    let (status, _, body) = json_call(
        &app,
        &c,
        "update_order_review",
        &review_form(&app, &c, "cod", "flat_rate:1").await,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let table = fragment(&body, ".woocommerce-checkout-review-order-table");
    assert!(!table.contains("<script>"), "{table}");
    assert!(
        table.contains(&format!("<th>Coupon: {escaped}</th>")),
        "{table}"
    );
    assert!(table.contains(&format!("data-coupon=\"{escaped}\">[Remove]</a>")));
    assert!(table.contains("<tr class=\"cart-discount coupon-scriptalert1script\">"));
    app.stop().await;
}

on_both_databases!(
    update_order_review_renders_the_review_table_and_payment_box,
    update_order_review_offers_rates_and_itemises_taxes,
    update_order_review_refuses_a_bad_nonce,
    update_order_review_with_an_empty_cart_says_the_session_expired,
    checkout_places_the_order_and_empties_the_cart,
    checkout_lists_every_missing_field_with_its_id,
    checkout_refuses_an_invalid_email_and_an_unknown_method,
    checkout_requires_the_terms_when_the_shop_has_them,
    checkout_without_guest_checkout_asks_to_log_in,
    checkout_creating_an_account_needs_a_password,
    checkout_with_a_bad_nonce_asks_to_try_again,
    checkout_with_an_empty_cart_says_the_session_expired,
    a_resubmitted_checkout_answers_with_the_same_order,
    checkout_reports_stock_problems_and_refreshes_the_review,
    apply_coupon_answers_with_notices,
    a_typed_coupon_code_is_escaped_in_the_review_and_the_notices,
    remove_coupon_answers_with_notices,
    hostile_input_gets_the_usual_answers,
);
