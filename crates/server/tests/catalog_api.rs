//! The Store API's catalogue calls, through the real server, on both databases.

mod common;

use common::*;
use serde_json::Value;

async fn get_json(
    app: &TestApp,
    path: &str,
) -> (reqwest::StatusCode, reqwest::header::HeaderMap, Value) {
    let res = app.bare().get(app.api(path)).send().await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    (status, headers, res.json().await.unwrap())
}

fn ids(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

async fn listing_reports_totals_and_pages(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (status, headers, body) = get_json(&app, "/products?per_page=4").await;
    assert_eq!(status, 200);
    assert_eq!(
        headers["x-wp-total"],
        TOP_LEVEL_PRODUCTS.to_string().as_str()
    );
    assert_eq!(headers["x-wp-totalpages"], "3");
    assert!(headers["link"].to_str().unwrap().contains("rel=\"next\""));
    assert_eq!(body.as_array().unwrap().len(), 4);
    let (_, _, last) = get_json(&app, "/products?per_page=4&page=3").await;
    assert_eq!(last.as_array().unwrap().len(), 2);
    let (_, _, beyond) = get_json(&app, "/products?per_page=4&page=9").await;
    assert_eq!(beyond.as_array().unwrap().len(), 0);
    // Variations are not listed as products of their own.
    let (_, _, all) = get_json(&app, "/products?per_page=100").await;
    assert!(!ids(&all).contains(&HOODIE_BLUE_M));
    app.stop().await;
}

async fn listing_sorts_by_price_and_menu_order(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (_, _, asc) = get_json(&app, "/products?per_page=100&orderby=price&order=asc").await;
    let prices: Vec<i64> = asc
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["prices"]["price"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
    let (_, _, desc) = get_json(&app, "/products?per_page=100&orderby=price&order=desc").await;
    // The hoodie sorts by its dearest variation when dearest come first.
    assert_eq!(ids(&desc)[0], PREORDER);
    assert_eq!(ids(&desc)[1], GIFT_CARD);
    assert_eq!(ids(&desc)[2], HOODIE);
    let (_, _, menu) = get_json(&app, "/products?per_page=100&orderby=menu_order&order=asc").await;
    assert_eq!(ids(&menu)[0], CAP, "the lowest menu_order comes first");
    let (_, _, popular) = get_json(&app, "/products?per_page=3&orderby=popularity").await;
    assert_eq!(ids(&popular), vec![ODD_NAME, PREORDER, SOCKS]);
    app.stop().await;
}

async fn listing_filters_by_category_brand_search_and_sale(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // A parent category includes its subcategories' products.
    let (_, h, clothing) = get_json(&app, "/products?category=clothing&per_page=100").await;
    let mut c = ids(&clothing);
    c.sort();
    assert_eq!(c, vec![HOODIE, BEANIE, CAP, SOCKS]);
    assert_eq!(h["x-wp-total"], "4");
    let (_, _, hoodies) = get_json(&app, "/products?category=3").await;
    let mut h = ids(&hoodies);
    h.sort();
    assert_eq!(h, vec![HOODIE, CAP]);
    let (_, _, lumen) = get_json(&app, "/products?brand=lumen").await;
    let mut l = ids(&lumen);
    l.sort();
    assert_eq!(l, vec![BEANIE, PENNANT]);
    let (_, _, search) = get_json(&app, "/products?search=BEAN").await;
    assert_eq!(ids(&search), vec![BEANIE]);
    let (_, _, sale) = get_json(&app, "/products?on_sale=true&per_page=100").await;
    let mut s = ids(&sale);
    s.sort();
    assert_eq!(s, vec![HOODIE, BEANIE]);
    let (_, _, cheap) =
        get_json(&app, "/products?min_price=1000&max_price=1700&per_page=100").await;
    let mut ch = ids(&cheap);
    ch.sort();
    assert_eq!(ch, vec![CAP, PENNANT, MUG]);
    let (_, _, slug) = get_json(&app, "/products?slug=beanie").await;
    assert_eq!(ids(&slug), vec![BEANIE]);
    let (_, h, none) = get_json(&app, "/products?category=no-such-category").await;
    assert_eq!(none.as_array().unwrap().len(), 0);
    assert_eq!(h["x-wp-total"], "0");
    app.stop().await;
}

async fn bad_listing_parameters_get_rest_invalid_param(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    for q in [
        "per_page=0",
        "per_page=1000",
        "page=-1",
        "page=x",
        "orderby=colour",
        "order=sideways",
        "on_sale=maybe",
        "min_price=ten",
    ] {
        let (status, _, body) = get_json(&app, &format!("/products?{q}")).await;
        assert_eq!(status, 400, "{q}");
        assert_eq!(body["code"], "rest_invalid_param", "{q}");
        assert_eq!(body["data"]["status"], 400, "{q}");
    }
    app.stop().await;
}

async fn a_product_shows_prices_images_and_stock(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (status, _, p) = get_json(&app, &format!("/products/{BEANIE}")).await;
    assert_eq!(status, 200);
    assert_eq!(p["type"], "simple");
    assert_eq!(p["on_sale"], true);
    assert_eq!(p["prices"]["price"], "1800");
    assert_eq!(p["prices"]["regular_price"], "2000");
    assert_eq!(p["prices"]["sale_price"], "1800");
    assert_eq!(p["prices"]["currency_code"], "USD");
    assert_eq!(p["prices"]["currency_minor_unit"], 2);
    assert_eq!(p["prices"]["currency_prefix"], "$");
    assert!(p["price_html"].as_str().unwrap().contains("<del"));
    assert_eq!(p["permalink"], app.url("/product/beanie/"));
    assert_eq!(p["images"][0]["src"], app.url("/media/teal-square.svg"));
    assert_eq!(p["images"][0]["alt"], "A teal square");
    assert_eq!(p["images"][0]["width"], 800);
    assert_eq!(p["categories"][0]["slug"], "clothing");
    assert_eq!(p["brands"][0]["slug"], "lumen");
    assert_eq!(p["is_purchasable"], true);
    assert_eq!(p["is_in_stock"], true);
    assert_eq!(p["add_to_cart"]["minimum"], 1);
    assert_eq!(p["add_to_cart"]["maximum"], 9999);
    let (_, _, mug) = get_json(&app, &format!("/products/{MUG}")).await;
    assert_eq!(mug["low_stock_remaining"], 3);
    assert_eq!(mug["add_to_cart"]["maximum"], 3);
    let (_, _, poster) = get_json(&app, &format!("/products/{POSTER}")).await;
    assert_eq!(poster["is_in_stock"], false);
    assert_eq!(poster["add_to_cart"]["text"], "Read more");
    let (_, _, pennant) = get_json(&app, &format!("/products/{PENNANT}")).await;
    assert_eq!(pennant["type"], "external");
    assert_eq!(pennant["is_purchasable"], false);
    assert_eq!(pennant["add_to_cart"]["url"], "https://example.com/pennant");
    assert_eq!(pennant["add_to_cart"]["text"], "Buy from the maker");
    let (_, _, socks) = get_json(&app, &format!("/products/{SOCKS}")).await;
    assert_eq!(socks["add_to_cart"]["minimum"], 2);
    app.stop().await;
}

async fn a_variable_product_lists_its_variations(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (_, _, p) = get_json(&app, &format!("/products/{HOODIE}")).await;
    assert_eq!(p["type"], "variable");
    assert_eq!(p["has_options"], true);
    assert_eq!(p["prices"]["price_range"]["min_amount"], "4200");
    assert_eq!(p["prices"]["price_range"]["max_amount"], "4500");
    assert_eq!(p["attributes"][0]["taxonomy"], "pa_color");
    assert_eq!(p["attributes"][0]["has_variations"], true);
    assert_eq!(p["attributes"][0]["terms"].as_array().unwrap().len(), 2);
    let variations = p["variations"].as_array().unwrap();
    assert_eq!(variations.len(), 3);
    let blue_m = variations
        .iter()
        .find(|v| v["id"] == HOODIE_BLUE_M)
        .unwrap();
    assert_eq!(blue_m["attributes"][0]["name"], "Color");
    assert_eq!(blue_m["attributes"][0]["value"], "blue");
    let (_, _, v) = get_json(&app, &format!("/products/{HOODIE_BLUE_L}")).await;
    assert_eq!(v["type"], "variation");
    assert_eq!(v["parent"], HOODIE);
    assert_eq!(v["variation"], "Color: Blue, Size: L");
    assert_eq!(v["prices"]["price"], "4200");
    assert_eq!(v["permalink"], app.url("/product/hoodie/"));
    assert_eq!(
        v["images"][0]["name"], "teal-square.svg",
        "a variation without an image shows its parent's"
    );
    let (_, _, green) = get_json(&app, &format!("/products/{HOODIE_GREEN_M}")).await;
    assert_eq!(green["is_in_stock"], false);
    app.stop().await;
}

async fn unknown_products_and_routes_are_404(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (status, _, body) = get_json(&app, "/products/999999").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "woocommerce_rest_product_invalid_id");
    assert_eq!(body["message"], "Invalid product ID.");
    let (status, _, body) = get_json(&app, "/products/abc").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "rest_no_route");
    let (status, _, body) = get_json(&app, "/no-such-call").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "rest_no_route");
    // A method a route does not take: 405 naming the ones it does, in the API's shape.
    let res = app
        .bare()
        .delete(app.api("/products"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "GET,HEAD");
    assert_eq!(res.json::<Value>().await.unwrap()["code"], "rest_no_route");
    app.stop().await;
}

async fn categories_and_brands_count_their_products(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (status, _, cats) = get_json(&app, "/products/categories").await;
    assert_eq!(status, 200);
    let clothing = cats
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slug"] == "clothing")
        .unwrap();
    assert_eq!(clothing["count"], 4);
    assert_eq!(clothing["parent"], 0);
    assert_eq!(clothing["link"], app.url("/product-category/clothing/"));
    assert_eq!(clothing["image"]["name"], "teal-square.svg");
    let hoodies = cats
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["slug"] == "hoodies")
        .unwrap();
    assert_eq!(hoodies["parent"], 2);
    let (_, _, brands) = get_json(&app, "/products/brands").await;
    let lumen = brands
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slug"] == "lumen")
        .unwrap();
    assert_eq!(lumen["count"], 2);
    let (status, _, one) = get_json(&app, "/products/categories/4").await;
    assert_eq!(status, 200);
    assert_eq!(one["name"], "Decor");
    let (status, _, _) = get_json(&app, "/products/brands/99").await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn attributes_list_their_terms_with_product_counts(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (status, _, attributes) = get_json(&app, "/products/attributes").await;
    assert_eq!(status, 200);
    let color = attributes
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["taxonomy"] == "pa_color")
        .unwrap()
        .clone();
    assert_eq!(color["name"], "Color");
    assert_eq!(color["count"], 2, "Color has two terms");
    let id = color["id"].as_i64().unwrap();
    let (status, _, one) = get_json(&app, &format!("/products/attributes/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(one, color);

    let (status, _, terms) = get_json(&app, &format!("/products/attributes/{id}/terms")).await;
    assert_eq!(status, 200);
    let slugs: Vec<_> = terms
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["slug"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(slugs, ["blue", "green"], "terms come in display order");
    // Each term counts the products a filter on it lists.
    for term in terms.as_array().unwrap() {
        let (_, headers, _) = get_json(
            &app,
            &format!(
                "/products?attributes[0][attribute]=pa_color&attributes[0][slug]={}",
                term["slug"].as_str().unwrap()
            ),
        )
        .await;
        assert_eq!(
            headers["x-wp-total"],
            term["count"].to_string().as_str(),
            "{}",
            term["slug"]
        );
        assert!(term["count"].as_i64().unwrap() > 0);
    }

    for path in ["/products/attributes/99", "/products/attributes/99/terms"] {
        let (status, _, body) = get_json(&app, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["code"], "woocommerce_rest_taxonomy_invalid", "{path}");
    }
    app.stop().await;
}

async fn stock_changes_reach_the_catalogue(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // Listings and filter counts are kept per catalogue snapshot: asked for before
    // the change, they must not be served from before it after.
    const COUNTS: &str = "/products/collection-data?calculate_stock_status_counts=true";
    let out_of_stock = |data: &Value| -> i64 {
        data["stock_status_counts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["status"] == "outofstock")
            .map_or(0, |c| c["count"].as_i64().unwrap())
    };
    let (_, _, before) = get_json(&app, COUNTS).await;
    let (_, _, again) = get_json(&app, COUNTS).await;
    assert_eq!(before, again, "the same counts, from the snapshot's cache");
    let listing = "/products?stock_status=outofstock&per_page=100";
    let (_, headers, _) = get_json(&app, listing).await;
    let listed_before: i64 = headers["x-wp-total"].to_str().unwrap().parse().unwrap();
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        0,
        rules::catalog::model::StockStatus::OutOfStock,
    )
    .await
    .unwrap();
    // The snapshot reloads within about a second of the version change.
    let mut seen = false;
    for _ in 0..40 {
        let (_, _, mug) = get_json(&app, &format!("/products/{MUG}")).await;
        if mug["is_in_stock"] == false {
            seen = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(seen, "the catalogue did not pick up the stock change");
    let (_, _, after) = get_json(&app, COUNTS).await;
    assert_eq!(out_of_stock(&after), out_of_stock(&before) + 1, "{after}");
    let (_, headers, _) = get_json(&app, listing).await;
    assert_eq!(
        headers["x-wp-total"].to_str().unwrap(),
        (listed_before + 1).to_string()
    );
    app.stop().await;
}

async fn collection_data_counts_what_the_filters_match(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let (status, _, all) = get_json(&app, "/products?per_page=100").await;
    assert_eq!(status, 200);
    let products = all.as_array().unwrap();
    let (status, _, data) = get_json(
        &app,
        "/products/collection-data?calculate_price_range=true&calculate_stock_status_counts=true\
         &calculate_rating_counts=true&calculate_taxonomy_counts=product_cat,product_brand\
         &calculate_attribute_counts[0][taxonomy]=pa_color&calculate_attribute_counts[0][query_type]=or\
         &calculate_price_bands=true",
    )
    .await;
    assert_eq!(status, 200, "{data}");

    // The price range spans the listed products' prices.
    let prices = |p: &Value, key: &str| -> i64 {
        let range = &p["prices"]["price_range"];
        let value = if range.is_null() {
            &p["prices"]["price"]
        } else {
            &range[key]
        };
        value.as_str().unwrap().parse().unwrap()
    };
    let lowest = products
        .iter()
        .map(|p| prices(p, "min_amount"))
        .min()
        .unwrap();
    let highest = products
        .iter()
        .map(|p| prices(p, "max_amount"))
        .max()
        .unwrap();
    assert_eq!(
        data["price_range"]["min_price"],
        lowest.to_string().as_str()
    );
    assert_eq!(
        data["price_range"]["max_price"],
        highest.to_string().as_str()
    );
    assert_eq!(data["price_range"]["currency_code"], "USD");

    // Stock counts add up to the listing, and match the products' own flags.
    let stock: i64 = data["stock_status_counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_i64().unwrap())
        .sum();
    assert_eq!(stock as usize, products.len());
    let out = products
        .iter()
        .filter(|p| p["is_in_stock"] == false)
        .count() as i64;
    let out_count = data["stock_status_counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["status"] == "outofstock")
        .map_or(0, |c| c["count"].as_i64().unwrap());
    assert_eq!(out_count, out);

    // Category counts are those of the categories call.
    let (_, _, categories) = get_json(&app, "/products/categories").await;
    for c in categories.as_array().unwrap() {
        let counted = data["taxonomy_counts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["term"] == c["id"])
            .map_or(0, |t| t["count"].as_i64().unwrap());
        assert_eq!(counted, c["count"].as_i64().unwrap(), "{}", c["slug"]);
    }

    // Attribute counts: each colour term counts the products offering it, and
    // filtering by one colour keeps the others' counts ("or" leaves its own filter out).
    let colours = data["attribute_counts"].as_array().unwrap().clone();
    assert!(!colours.is_empty());
    let (term, count) = (
        colours[0]["term"].as_i64().unwrap(),
        colours[0]["count"].as_i64().unwrap(),
    );
    let (_, headers, _) = get_json(
        &app,
        &format!("/products?attributes[0][attribute]=pa_color&attributes[0][term_id]={term}"),
    )
    .await;
    assert_eq!(headers["x-wp-total"], count.to_string().as_str());
    let (_, _, filtered) = get_json(
        &app,
        &format!(
            "/products/collection-data?attributes[0][attribute]=pa_color&attributes[0][term_id]={term}\
             &calculate_attribute_counts[0][taxonomy]=pa_color&calculate_attribute_counts[0][query_type]=or"
        ),
    )
    .await;
    assert_eq!(filtered["attribute_counts"], Value::Array(colours));
    assert!(filtered["price_range"].is_null());

    // Bands cover every product once at least, and name round prices.
    let bands = data["price_bands"].as_array().unwrap();
    assert!(!bands.is_empty() && bands.len() <= 6);
    let in_bands: i64 = bands.iter().map(|b| b["count"].as_i64().unwrap()).sum();
    assert!(in_bands >= products.len() as i64);

    let (status, _, bad) = get_json(
        &app,
        "/products/collection-data?calculate_taxonomy_counts=nope",
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(bad["code"], "rest_invalid_param");
    app.stop().await;
}

/// Waits up to 1.5 s for `check` to hold on `path`'s JSON.
async fn within_a_second(
    client: &reqwest::Client,
    url: &str,
    check: impl Fn(&Value) -> bool,
) -> bool {
    within_seconds(1, client, url, check).await
}

/// Waits up to `seconds` and a half for `check` to hold on `url`'s JSON.
async fn within_seconds(
    seconds: u64,
    client: &reqwest::Client,
    url: &str,
    check: impl Fn(&Value) -> bool,
) -> bool {
    for _ in 0..(seconds * 20 + 10) {
        let body: Value = client.get(url).send().await.unwrap().json().await.unwrap();
        if check(&body) {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    false
}

async fn a_sale_shows_on_every_instance_without_a_catalogue_reload(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(
        app.db(),
        rules::catalog::model::ProductId(MUG),
        1,
        rules::catalog::model::StockStatus::InStock,
    )
    .await
    .unwrap();
    let other = app.second_instance().await;
    let other_url = format!("http://{}/wp-json/wc/store/v1/products/{MUG}", other.addr);
    assert!(
        within_a_second(&app.bare(), &other_url, |p| p["is_in_stock"] == true).await,
        "the second instance sees the restock"
    );
    let version = store::catalog::catalog_version(app.db()).await.unwrap();

    // The last mug is sold through this instance.
    place_order(&app, &[(MUG, 1)], &[], "cod", ada_address()).await;
    assert_eq!(
        store::catalog::catalog_version(app.db()).await.unwrap(),
        version,
        "an order does not change the catalogue"
    );
    assert!(
        within_a_second(&app.bare(), &other_url, |p| p["is_in_stock"] == false).await,
        "the other instance shows the mug sold out within a second"
    );
    let listing = app.api("/products?stock_status=outofstock&per_page=100");
    assert!(
        within_a_second(&app.bare(), &listing, |list| list
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == MUG))
        .await,
        "listings filter by the new stock status"
    );
    other.shutdown().await.unwrap();
    app.stop().await;
}

async fn a_product_change_reaches_another_instance_alone(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let other = app.second_instance().await;
    let url = |id: i64| format!("http://{}/wp-json/wc/store/v1/products/{id}", other.addr);
    let before: Value = app
        .bare()
        .get(url(POSTER))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();

    // The mug's price changes in the database, logged as a change to it alone.
    let mut mug =
        store::catalog::load_products(app.db(), Some(&[rules::catalog::model::ProductId(MUG)]))
            .await
            .unwrap()
            .remove(0);
    mug.name = "Enamel mug".into();
    mug.regular_price = Some(1234);
    store::catalog::save_product(app.db(), &mug).await.unwrap();
    let (_, changes) = store::catalog::changes_since(
        app.db(),
        store::catalog::catalog_version(app.db()).await.unwrap() - 1,
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        changes,
        vec![store::catalog::Change::Product(
            rules::catalog::model::ProductId(MUG)
        )]
    );
    assert!(
        within_a_second(&app.bare(), &url(MUG), |p| p["name"] == "Enamel mug"
            && p["prices"]["price"] == "1234")
        .await,
        "the change shows on the other instance"
    );
    let after: Value = app
        .bare()
        .get(url(POSTER))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(before, after, "other products are as they were");
    other.shutdown().await.unwrap();
    app.stop().await;
}

async fn search_ranks_matches_and_forgives_typos(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // The index builds in the background at start: wait for a typo to find its word.
    let typo = app.api("/products?search=hodie");
    assert!(
        within_seconds(3, &app.bare(), &typo, |list| ids(list).first()
            == Some(&HOODIE))
        .await,
        "a typo finds the hoodie"
    );
    // A name match ranks above a match in the category ("Hoodies" holds the cap).
    let (_, headers, found) = get_json(&app, "/products?search=hoodie").await;
    assert_eq!(ids(&found), vec![HOODIE, CAP]);
    assert_eq!(headers["x-wp-total"], "2");
    // An explicit order still applies to the matches.
    let (_, _, by_id) = get_json(&app, "/products?search=hoodie&orderby=id&order=asc").await;
    assert_eq!(ids(&by_id), vec![HOODIE, CAP]);
    // Attribute terms are searchable, and the start of a word finds it.
    let (_, _, green) = get_json(&app, "/products?search=gree").await;
    assert!(ids(&green).contains(&HOODIE), "{green}");
    // Facets count the matches.
    let (_, _, facets) = get_json(
        &app,
        "/products/collection-data?search=hoodie&calculate_taxonomy_counts=product_cat",
    )
    .await;
    let hoodies = facets["taxonomy_counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["term"] == 3)
        .unwrap()["count"]
        .as_i64()
        .unwrap();
    assert_eq!(hoodies, 2);
    // Nothing to search for finds nothing rather than failing.
    let (status, _, none) = get_json(&app, "/products?search=%21%21%21").await;
    assert_eq!(status, 200);
    assert_eq!(none.as_array().unwrap().len(), 0);
    app.stop().await;
}

/// Drafts and private products (and disabled variations) answer every shopper-facing
/// call as if they did not exist: no name, price or page leaks, and none can be bought.
async fn unpublished_products_answer_as_missing(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // A shopper put the beanie in the cart before it went back to a draft.
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let add = |id: i64| {
        c.post(app.api("/cart/add-item"))
            .header("Nonce", &nonce)
            .json(&serde_json::json!({"id": id, "quantity": 1}))
            .send()
    };
    assert_eq!(add(BEANIE).await.unwrap().status(), 201);

    let mut changed = store::catalog::load_products(
        app.db(),
        Some(&[
            rules::catalog::model::ProductId(BEANIE),
            rules::catalog::model::ProductId(CAP),
            rules::catalog::model::ProductId(HOODIE_BLUE_M),
        ]),
    )
    .await
    .unwrap();
    for p in &mut changed {
        p.status = if p.id.0 == BEANIE {
            rules::catalog::model::ProductStatus::Draft
        } else {
            rules::catalog::model::ProductStatus::Private
        };
        store::catalog::save_product(app.db(), p).await.unwrap();
    }
    reload_catalog(&app).await;

    for id in [BEANIE, CAP, HOODIE_BLUE_M] {
        let (status, _, body) = get_json(&app, &format!("/products/{id}")).await;
        assert_eq!(status, 404, "product {id}");
        assert_eq!(body["code"], "woocommerce_rest_product_invalid_id");
        assert_eq!(body["message"], "Invalid product ID.");
    }
    let (_, _, listed) = get_json(&app, "/products?per_page=100").await;
    assert!(!ids(&listed).contains(&BEANIE) && !ids(&listed).contains(&CAP));
    let (_, _, by_slug) = get_json(&app, "/products?slug=cap").await;
    assert_eq!(by_slug, serde_json::json!([]));
    let (_, _, hoodie) = get_json(&app, &format!("/products/{HOODIE}")).await;
    let variations: Vec<i64> = hoodie["variations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_i64().unwrap())
        .collect();
    assert!(variations.contains(&HOODIE_BLUE_L));

    // Their pages are 404s that do not name them.
    for slug in ["beanie", "cap"] {
        let res = app
            .bare()
            .get(app.url(&format!("/product/{slug}/")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 404, "{slug}");
        let html = res.text().await.unwrap();
        assert!(!html.contains("The Cap.") && !html.contains("The Beanie."));
    }

    // Neither call adds them, and the refusals do not name them.
    for id in [CAP, HOODIE_BLUE_M] {
        let res = add(id).await.unwrap();
        assert_eq!(res.status(), 400, "product {id}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["code"], "woocommerce_rest_cart_invalid_product");
        assert_eq!(body["message"], "This product cannot be added to the cart.");
    }
    let res = c
        .post(app.url("/?wc-ajax=add_to_cart"))
        .form(&[("product_id", CAP.to_string())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], true);
    assert_eq!(
        body["product_url"], false,
        "no address of the draft is given"
    );
    let settings = settings_of(&app, &c, &format!("/shop/?added-to-cart={CAP}")).await;
    assert_eq!(settings["notices"], serde_json::json!([]));

    // The line already in the cart is no longer priced or sold.
    let cart = cart_of(&app, &c).await;
    assert_eq!(cart["items"], serde_json::json!([]));
    assert_eq!(cart["totals"]["total_price"], "0");
    let res = c
        .post(app.api("/checkout"))
        .header("Nonce", &nonce)
        .json(&serde_json::json!({
            "billing_address": ada_address(), "shipping_address": ada_address(),
            "payment_method": "cod",
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400, "{}", res.text().await.unwrap());
    app.stop().await;
}

on_both_databases!(
    unpublished_products_answer_as_missing,
    search_ranks_matches_and_forgives_typos,
    collection_data_counts_what_the_filters_match,
    a_sale_shows_on_every_instance_without_a_catalogue_reload,
    a_product_change_reaches_another_instance_alone,
    listing_reports_totals_and_pages,
    listing_sorts_by_price_and_menu_order,
    listing_filters_by_category_brand_search_and_sale,
    bad_listing_parameters_get_rest_invalid_param,
    a_product_shows_prices_images_and_stock,
    a_variable_product_lists_its_variations,
    unknown_products_and_routes_are_404,
    categories_and_brands_count_their_products,
    attributes_list_their_terms_with_product_counts,
    stock_changes_reach_the_catalogue,
);
