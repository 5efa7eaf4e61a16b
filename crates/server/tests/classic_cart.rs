//! The classic `?wc-ajax=` cart calls and their fragments, on both databases.

mod common;

use common::*;
use serde_json::Value;

async fn ajax(
    app: &TestApp,
    c: &reqwest::Client,
    name: &str,
    form: &[(&str, String)],
) -> (u16, Vec<String>, Value) {
    let res = c
        .post(app.url(&format!("/?wc-ajax={name}")))
        .form(form)
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    let cookies = set_cookies(&res);
    (status, cookies, res.json().await.unwrap())
}

async fn add_to_cart_answers_with_fragments_and_hash(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let (status, cookies, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[("product_id", BEANIE.to_string()), ("quantity", "2".into())],
    )
    .await;
    assert_eq!(status, 200);
    let hash = body["cart_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 32);
    assert!(cookies
        .iter()
        .any(|c| c.starts_with(&format!("woocommerce_cart_hash={hash}"))));
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("woocommerce_items_in_cart=1")));
    let f = &body["fragments"];
    let mini = f["div.widget_shopping_cart_content"].as_str().unwrap();
    assert!(mini.starts_with("<div class=\"widget_shopping_cart_content\">"));
    assert!(mini.contains("woocommerce-mini-cart-item"));
    assert!(mini.contains("remove_from_cart_button"));
    assert!(mini.contains(&format!("data-product_id=\"{BEANIE}\"")));
    assert!(mini.contains("2 &times; <span class=\"woocommerce-Price-amount amount\"><bdi><span class=\"woocommerce-Price-currencySymbol\">$</span>18.00</bdi></span>"));
    assert!(mini.contains("<strong>Subtotal:</strong> <span class=\"woocommerce-Price-amount amount\"><bdi><span class=\"woocommerce-Price-currencySymbol\">$</span>36.00"));
    assert!(f["a.cart-contents"]
        .as_str()
        .unwrap()
        .contains("<span class=\"count\">2 items</span>"));
    assert!(f["a.footer-cart-contents"]
        .as_str()
        .unwrap()
        .contains("<span class=\"count\">2</span>"));
    // The Store API sees the same cart through the same cookies.
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 2);
    // A variation with its attributes.
    let (status, _, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[
            ("product_id", HOODIE.to_string()),
            ("variation_id", HOODIE_BLUE_M.to_string()),
            ("attribute_pa_color", "blue".into()),
            ("attribute_pa_size", "m".into()),
        ],
    )
    .await;
    assert_eq!(status, 200);
    assert!(body["fragments"]["div.widget_shopping_cart_content"]
        .as_str()
        .unwrap()
        .contains("<dt>Color:</dt><dd>Blue</dd>"));
    app.stop().await;
}

async fn add_to_cart_refusals_point_to_the_product(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    for form in [
        vec![("product_id", "999999".to_string())],
        vec![("product_id", "abc".to_string())],
        vec![("quantity", "1".to_string())],
    ] {
        let (status, _, body) = ajax(&app, &c, "add_to_cart", &form).await;
        assert_eq!(status, 400, "{form:?}");
        assert_eq!(body["error"], true);
        assert_eq!(body["product_url"], false);
    }
    let beanie_url = app.url("/product/beanie/");
    for form in [
        vec![
            ("product_id", BEANIE.to_string()),
            ("quantity", "-1".to_string()),
        ],
        vec![
            ("product_id", BEANIE.to_string()),
            ("quantity", "0".to_string()),
        ],
        vec![
            ("product_id", BEANIE.to_string()),
            ("quantity", "lots".to_string()),
        ],
        vec![
            ("product_id", BEANIE.to_string()),
            ("quantity", "99999999".to_string()),
        ],
    ] {
        let (status, _, body) = ajax(&app, &c, "add_to_cart", &form).await;
        assert_eq!(status, 400, "{form:?}");
        assert_eq!(body["error"], true);
        assert_eq!(body["product_url"], beanie_url.as_str());
    }
    let (status, _, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[("product_id", HOODIE.to_string())],
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["product_url"],
        app.url("/product/hoodie/").as_str(),
        "options must be chosen on the product page"
    );
    let (_, _, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[
            ("product_id", HOODIE.to_string()),
            ("variation_id", BEANIE.to_string()),
        ],
    )
    .await;
    assert_eq!(body["error"], true);
    let (_, _, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[("product_id", PENNANT.to_string())],
    )
    .await;
    assert_eq!(body["error"], true);
    let (_, _, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[("product_id", POSTER.to_string())],
    )
    .await;
    assert_eq!(body["error"], true);
    let (_, _, body) = ajax(&app, &c, "get_refreshed_fragments", &[]).await;
    assert!(body["fragments"]["div.widget_shopping_cart_content"]
        .as_str()
        .unwrap()
        .contains("No products in the cart."));
    app.stop().await;
}

async fn remove_from_cart_answers_with_fragments(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    ajax(&app, &c, "add_to_cart", &[("product_id", CAP.to_string())]).await;
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let key = cart["items"][0]["key"].as_str().unwrap().to_string();
    let (status, _, body) = ajax(
        &app,
        &c,
        "remove_from_cart",
        &[("cart_item_key", "0123456789abcdef".into())],
    )
    .await;
    assert!((400..500).contains(&status));
    assert_eq!(body["success"], false);
    assert!(
        body.get("fragments").is_none(),
        "a failure has no fragments, so the client follows the link"
    );
    let (status, cookies, body) =
        ajax(&app, &c, "remove_from_cart", &[("cart_item_key", key)]).await;
    assert_eq!(status, 200);
    assert!(body["fragments"]["div.widget_shopping_cart_content"]
        .as_str()
        .unwrap()
        .contains("No products in the cart."));
    assert_eq!(body["cart_hash"], "");
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("woocommerce_cart_hash=;")));
    let (status, _, _) = ajax(&app, &c, "remove_from_cart", &[]).await;
    assert_eq!(status, 400);
    app.stop().await;
}

async fn fragments_work_without_a_session_and_by_get(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app
        .bare()
        .get(app.url("/?wc-ajax=get_refreshed_fragments"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["cart_hash"], "");
    assert!(body["fragments"]["a.cart-contents"]
        .as_str()
        .unwrap()
        .contains("0 items"));
    // Any path answers a wc-ajax call, as in the original.
    let res = app
        .bare()
        .post(app.url("/shop/?wc-ajax=get_refreshed_fragments"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    app.stop().await;
}

async fn an_unknown_call_name_is_a_client_error(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let res = app
        .bare()
        .post(app.url("/?wc-ajax=nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<Value>().await.unwrap()["success"], false);
    app.stop().await;
}

async fn fragment_markup_escapes_product_names(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let (_, _, body) = ajax(
        &app,
        &c,
        "add_to_cart",
        &[("product_id", ODD_NAME.to_string())],
    )
    .await;
    let mini = body["fragments"]["div.widget_shopping_cart_content"]
        .as_str()
        .unwrap();
    assert!(mini.contains("Tom &amp; Jerry &lt;Mug&gt;"));
    assert!(!mini.contains("<Mug>"));
    app.stop().await;
}

async fn the_no_script_remove_link_removes_the_item(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let (_, _, body) = ajax(&app, &c, "add_to_cart", &[("product_id", CAP.to_string())]).await;
    let mini = body["fragments"]["div.widget_shopping_cart_content"]
        .as_str()
        .unwrap();
    let start = mini.find("/cart/?remove_item=").unwrap();
    let end = start + mini[start..].find('"').unwrap();
    let link = mini[start..end].replace("&amp;", "&");
    // A forged nonce changes nothing.
    let forged = link.split("&_wpnonce=").next().unwrap().to_string() + "&_wpnonce=0000000000";
    let res = c.get(app.url(&forged)).send().await.unwrap();
    assert_eq!(res.status(), 303);
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 1);
    // Without a nonce the page is served and the storefront removes the line itself.
    let bare = link.split("&_wpnonce=").next().unwrap();
    let res = c.get(app.url(bare)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("<div id=\"root\"></div>"));
    let res = c.get(app.url(&link)).send().await.unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/cart");
    let cart: Value = c
        .get(app.api("/cart"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(cart["items_count"], 0);
    app.stop().await;
}

/// Without scripts: the product form posted to its page, the `?add-to-cart=ID` link
/// (only from the shop's own pages), and the cart page's form with its nonce.
async fn the_forms_and_links_work_without_scripts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    // The product form: the page answers with what happened in its settings' notices.
    let res = c
        .post(app.url("/product/beanie/"))
        .form(&[
            ("add-to-cart", BEANIE.to_string()),
            ("quantity", "2".into()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(set_cookies(&res)
        .iter()
        .any(|c| c.starts_with("woocommerce_items_in_cart=1")));
    assert_eq!(cart_of(&app, &c).await["items_count"], 2);
    // The link adds, then sends the shopper to the page without it.
    let res = c
        .get(app.url(&format!("/shop/?orderby=price&add-to-cart={CAP}")))
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(
        res.headers()["location"],
        format!("/shop/?orderby=price&added-to-cart={CAP}")
    );
    assert_eq!(cart_of(&app, &c).await["items_count"], 3);
    let settings = settings_of(&app, &c, &format!("/shop/?added-to-cart={CAP}")).await;
    assert_eq!(settings["notices"][0]["kind"], "success");
    assert_eq!(
        settings["notices"][0]["message"],
        "\u{201c}Cap\u{201d} has been added to your cart."
    );
    // From another site the link adds nothing.
    let res = c
        .get(app.url(&format!("/shop/?add-to-cart={CAP}")))
        .header("sec-fetch-site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/shop/");
    assert_eq!(cart_of(&app, &c).await["items_count"], 3);
    // The cart form needs the cart page's nonce.
    let cart = cart_of(&app, &c).await;
    let key = cart["items"][0]["key"].as_str().unwrap().to_string();
    let field = format!("cart[{key}][qty]");
    let res = c
        .post(app.url("/cart/"))
        .form(&[
            (field.as_str(), "5"),
            ("update_cart", "Update cart"),
            ("woocommerce-cart-nonce", "stale"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(cart_of(&app, &c).await["items"][0]["quantity"], 2);
    let nonce = settings_of(&app, &c, "/cart/").await["cart_nonce"]
        .as_str()
        .unwrap()
        .to_string();
    c.post(app.url("/cart/"))
        .form(&[
            (field.as_str(), "5"),
            ("update_cart", "Update cart"),
            ("woocommerce-cart-nonce", nonce.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(cart_of(&app, &c).await["items"][0]["quantity"], 5);
    c.post(app.url("/cart/"))
        .form(&[
            ("remove_item", key.as_str()),
            ("woocommerce-cart-nonce", nonce.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(cart_of(&app, &c).await["items_count"], 1);
    // A form posted from another site is refused before it is read.
    let res = c
        .post(app.url("/product/beanie/"))
        .header("origin", "https://elsewhere.example")
        .form(&[("add-to-cart", BEANIE.to_string())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    // A page takes only the forms it has.
    let res = c
        .post(app.url("/my-account/"))
        .form(&[("add-to-cart", BEANIE.to_string())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(cart_of(&app, &c).await["items_count"], 1);
    app.stop().await;
}

on_both_databases!(
    add_to_cart_answers_with_fragments_and_hash,
    add_to_cart_refusals_point_to_the_product,
    remove_from_cart_answers_with_fragments,
    fragments_work_without_a_session_and_by_get,
    an_unknown_call_name_is_a_client_error,
    fragment_markup_escapes_product_names,
    the_no_script_remove_link_removes_the_item,
    the_forms_and_links_work_without_scripts,
);
