//! Wishlists through the real server, on both databases: adding from a page (form
//! posted to the page's own address), the table's calls at `/?wc-ajax=tinvwl`, the
//! storefront's JSON reads, the pages, the guest's lists merging into an account at
//! login; and every refusal (no nonce, another session's nonce, another site, GET on a
//! write, unknown products and variations, someone else's list, bodies too large, too
//! many ids, pages too long), the limits under concurrent adds, and the cleanup of idle
//! guest lists.

mod common;

use common::*;
use serde_json::{json, Value};

const WP: &str = "/wp-json/ferroshop/v1";

/// The wishlist's page settings for this client (its `wp_rest` nonce among them).
async fn wl_settings(app: &TestApp, c: &reqwest::Client) -> Value {
    settings_of(app, c, "/wishlist/").await["wishlist"].clone()
}

async fn wl_nonce(app: &TestApp, c: &reqwest::Client) -> String {
    wl_settings(app, c).await["nonce"]
        .as_str()
        .unwrap()
        .to_string()
}

struct Answer {
    status: u16,
    body: Value,
    cookies: Vec<String>,
}

async fn answer(res: reqwest::Response) -> Answer {
    let status = res.status().as_u16();
    let cookies = set_cookies(&res);
    let text = res.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Answer {
        status,
        body,
        cookies,
    }
}

/// The add call as the plugin's client sends it: multipart, to a product's page.
async fn add(
    app: &TestApp,
    c: &reqwest::Client,
    nonce: Option<&str>,
    fields: &[(&str, &str)],
) -> Answer {
    let mut parts = vec![
        Part::Text("form[quantity]", "1"),
        Part::Text("tinv_wishlist_name", ""),
        Part::Text("product_type", "simple"),
        Part::Text("redirect", "http://shop/product/beanie/"),
    ];
    let has = |n: &str| fields.iter().any(|(k, _)| *k == n);
    if !has("tinv_wishlist_id") {
        parts.push(Part::Text("tinv_wishlist_id", ""));
    }
    if !has("product_action") {
        parts.push(Part::Text("product_action", "addto"));
    }
    for (k, v) in fields {
        parts.push(Part::Text(k, v));
    }
    let mut req = c
        .post(app.url("/product/beanie/"))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart(&parts));
    if let Some(n) = nonce {
        req = req.header("X-WP-Nonce", n);
    }
    answer(req.send().await.unwrap()).await
}

async fn add_product(app: &TestApp, c: &reqwest::Client, nonce: &str, id: i64) -> Answer {
    add(app, c, Some(nonce), &[("product_id", &id.to_string())]).await
}

/// A table call, form-encoded as jQuery sends it.
async fn ajax(app: &TestApp, c: &reqwest::Client, fields: &[(&str, &str)]) -> Answer {
    let body = serde_urlencoded::to_string(fields).unwrap();
    let res = c
        .post(app.url("/?wc-ajax=tinvwl"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    answer(res).await
}

async fn get(c: &reqwest::Client, url: String) -> Answer {
    answer(c.get(url).send().await.unwrap()).await
}

fn cookie<'a>(a: &'a Answer, name: &str) -> Option<&'a String> {
    a.cookies
        .iter()
        .find(|c| c.starts_with(&format!("{name}=")))
}

async fn item_rows(app: &TestApp, list: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM wishlist_items WHERE wishlist_id = $1")
        .bind(list)
        .fetch_one(app.db().writer())
        .await
        .unwrap()
}

async fn guest_adds_and_everyone_reads_the_shared_list(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let settings = wl_settings(&app, &c).await;
    assert_eq!(settings["wc_ajax_url"], "/?wc-ajax=tinvwl");
    assert_eq!(settings["page_url"], "/wishlist/");
    assert_eq!(settings["simple_flow"], false);
    assert_eq!(settings["redirect"], true);
    assert_eq!(settings["popup_timer"], 6000);
    assert!(settings["hash_key"]
        .as_str()
        .unwrap()
        .starts_with("ti_wishlist_data_"));
    assert_eq!(settings["hash_key"].as_str().unwrap().len(), 17 + 32);
    let nonce = settings["nonce"].as_str().unwrap().to_string();

    // Nothing yet: no lists, an empty default list.
    let none = get(&c, app.url(&format!("{WP}/wishlists"))).await;
    assert_eq!((none.status, none.body.clone()), (200, json!([])));
    let empty = get(&c, app.url(&format!("{WP}/wishlists/default"))).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert_eq!(empty.body["ID"], 0);
    assert_eq!(empty.body["items"], json!([]));

    let a = add_product(&app, &c, &nonce, BEANIE).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["status"], true);
    assert_eq!(a.body["icon"], "icon_big_heart_check");
    assert_eq!(a.body["action"], "add_to_wishlist");
    let msg = a.body["msg"].as_str().unwrap();
    assert!(
        msg.contains("<div class=\"tinv-txt\">Beanie added to Default wishlist</div>"),
        "{msg}"
    );
    let key = a.body["wishlist"]["share_key"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(key.len(), 12);
    let url = a.body["wishlist_url"].as_str().unwrap();
    assert_eq!(url, app.url(&format!("/wishlist/{key}/")));
    assert_eq!(a.body["redirect"], url);
    assert!(msg.contains(&format!("data-url=\"{url}\"")));
    assert_eq!(a.body["wishlist"]["is_owner"], true);
    let list_id = a.body["wishlist"]["ID"].as_i64().unwrap();
    let entry = &a.body["wishlists_data"]["products"][BEANIE.to_string()][list_id.to_string()];
    assert_eq!(entry["in"], json!([0]));
    assert_eq!(entry["share_key"], key.as_str());
    assert_eq!(a.body["wishlists_data"]["counter"], 1);
    let token = cookie(&a, "tinv_wishlistkey").expect("the guest's cookie");
    assert!(
        token.contains("HttpOnly") && token.contains("Max-Age=2678400"),
        "{token}"
    );
    assert!(
        cookie(&a, "tinvwl_wishlists_data_counter").is_none(),
        "guests get no counter"
    );
    let hash: String = sqlx::query_scalar("SELECT owner_hash FROM wishlists WHERE id = $1")
        .bind(list_id)
        .fetch_one(app.db().writer())
        .await
        .unwrap();
    assert!(!token.contains(&hash), "only the token's digest is kept");

    // Again: already there, never twice.
    let again = add_product(&app, &c, &nonce, BEANIE).await;
    assert_eq!(again.body["status"], false);
    assert_eq!(again.body["icon"], "icon_big_times");
    assert!(again.body["msg"]
        .as_str()
        .unwrap()
        .contains("Beanie already in Default wishlist"));
    assert!(again.body.get("redirect").is_none());
    // A variation, by the form's field.
    let v = add(
        &app,
        &c,
        Some(&nonce),
        &[
            ("product_id", &HOODIE.to_string()),
            ("product_type", "variable"),
            ("form[variation_id]", &HOODIE_BLUE_M.to_string()),
        ],
    )
    .await;
    assert_eq!(v.body["status"], true, "{}", v.body);
    assert_eq!(
        v.body["wishlists_data"]["products"][HOODIE.to_string()][list_id.to_string()]["in"],
        json!([HOODIE_BLUE_M])
    );
    assert_eq!(item_rows(&app, list_id).await, 2);

    let mine = get(&c, app.url(&format!("{WP}/wishlists"))).await;
    assert_eq!(mine.body.as_array().unwrap().len(), 1);
    assert_eq!(mine.body[0]["count"], 2);
    assert_eq!(mine.body[0]["is_default"], true);
    assert_eq!(mine.body[0]["title"], "Default wishlist");
    assert_eq!(mine.body[0]["url"], url);
    let list = get(&c, app.url(&format!("{WP}/wishlists/default"))).await;
    assert_eq!(list.body["is_owner"], true);
    assert_eq!(list.body["total"], 2);
    let items = list.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    let hoodie = items.iter().find(|i| i["product_id"] == HOODIE).unwrap();
    assert_eq!(hoodie["variation_id"], HOODIE_BLUE_M);
    assert_eq!(hoodie["type"], "variation");
    assert!(hoodie["prices"]["price"].is_string());
    assert!(hoodie["variation"].as_array().unwrap().len() == 2);
    assert_eq!(hoodie["stock"]["is_in_stock"], true);
    assert_eq!(hoodie["added_at"].as_str().unwrap().len(), 19);

    // A stranger reads the shared list, and owns nothing.
    let stranger = app.shopper();
    let shared = get(
        &stranger,
        app.url(&format!("{WP}/wishlists/{key}?per_page=1&page=2")),
    )
    .await;
    assert_eq!(shared.status, 200);
    assert_eq!(shared.body["is_owner"], false);
    assert_eq!(
        (shared.body["page"].clone(), shared.body["pages"].clone()),
        (json!(2), json!(2))
    );
    assert_eq!(shared.body["items"].as_array().unwrap().len(), 1);
    let res = stranger
        .get(app.url(&format!("{WP}/wishlists/{key}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["cache-control"], "no-store");
    let gone = get(&stranger, app.url(&format!("{WP}/wishlists/0a0a0a0a0a0a"))).await;
    assert_eq!(gone.status, 404);
    assert_eq!(gone.body["code"], "wishlist_not_found");
    assert_eq!(gone.body["message"], "Wishlist is not found!");
    assert_eq!(gone.body["data"]["status"], 404);
    assert_eq!(
        get(&stranger, app.url(&format!("{WP}/wishlists/nonsense")))
            .await
            .status,
        404
    );
    let long = get(&c, app.url(&format!("{WP}/wishlists/default?per_page=51"))).await;
    assert_eq!(long.status, 400, "{}", long.body);
    assert_eq!(long.body["code"], "rest_invalid_param");
    assert_eq!(
        get(&c, app.url(&format!("{WP}/wishlists/default?page=0")))
            .await
            .status,
        400
    );

    // The pages: never indexed; a shared list titled by its name; unknown keys 404.
    let res = stranger
        .get(app.url(&format!("/wishlist/{key}/")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-robots-tag"], "noindex");
    let html = res.text().await.unwrap();
    assert!(
        html.contains("<meta name=\"robots\" content=\"noindex\">"),
        "{html}"
    );
    assert!(html.contains("<title>Default wishlist – "), "{html}");
    let res = c.get(app.url("/wishlist/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("<title>Wishlist – "));
    // Its owner sees the page the storefront titles "Wishlist".
    let res = c
        .get(app.url(&format!("/wishlist/{key}/")))
        .send()
        .await
        .unwrap();
    assert!(res.text().await.unwrap().contains("<title>Wishlist – "));
    let res = c
        .get(app.url("/wishlist/0a0a0a0a0a0a/"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    let sitemap = c
        .get(app.url("/sitemap.xml"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!sitemap.contains("/wishlist/"));
    app.stop().await;
}

async fn bad_adds_are_refused_in_the_plugins_shape(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = wl_nonce(&app, &c).await;

    // No nonce, another session's, a stale one from a different action.
    let none = add(&app, &c, None, &[("product_id", "15")]).await;
    assert_eq!(none.status, 403, "{}", none.body);
    assert_eq!(none.body["status"], false);
    assert_eq!(none.body["code"], "invalid_nonce");
    assert_eq!(none.body["icon"], "icon_big_times");
    assert!(none.body["msg"]
        .as_str()
        .unwrap()
        .contains("Something went wrong"));
    let other = app.shopper();
    let theirs = wl_nonce(&app, &other).await;
    assert_eq!(
        add(&app, &c, Some(&theirs), &[("product_id", "15")])
            .await
            .status,
        403
    );
    assert_eq!(
        add(&app, &c, Some("0123456789"), &[("product_id", "15")])
            .await
            .status,
        403
    );
    // The field works as well as the header.
    let by_field = add(
        &app,
        &c,
        None,
        &[("product_id", "15"), ("_wpnonce", &nonce)],
    )
    .await;
    assert_eq!(by_field.body["status"], true, "{}", by_field.body);

    // Another site.
    let res = c
        .post(app.url("/product/beanie/"))
        .header("origin", "https://evil.example")
        .header("X-WP-Nonce", &nonce)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("tinv_wishlist_id=&product_id=17")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    // Form-encoded works too.
    let res = c
        .post(app.url("/shop/"))
        .header("X-WP-Nonce", &nonce)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("tinv_wishlist_id=&product_id=17&product_action=addto")
        .send()
        .await
        .unwrap();
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], true, "{body}");

    // Unknown products, a variation of another product, a variable parent, a
    // product id that is no number, someone else's list.
    for fields in [
        vec![("product_id", "999999")],
        vec![("product_id", "abc")],
        vec![("product_id", "")],
        vec![
            ("product_id", "15"),
            ("product_variation", &*HOODIE_BLUE_M.to_string()),
        ],
        vec![
            ("product_id", &*HOODIE.to_string()),
            ("product_variation", "15"),
        ],
    ] {
        let a = add(&app, &c, Some(&nonce), &fields).await;
        assert_eq!(a.status, 200, "{fields:?}");
        assert_eq!(a.body["status"], false, "{fields:?} {}", a.body);
        assert!(
            a.body["msg"]
                .as_str()
                .unwrap()
                .contains("Something went wrong"),
            "{fields:?}"
        );
        assert_eq!(a.body["wishlists_data"]["counter"], 2);
    }
    let parent = add(
        &app,
        &c,
        Some(&nonce),
        &[("product_id", &HOODIE.to_string())],
    )
    .await;
    assert_eq!(parent.body["status"], false);
    assert!(parent.body["msg"].as_str().unwrap().contains(
        "Please select some product options before adding this product to your wishlist."
    ));
    let owner = app.shopper();
    let owner_nonce = wl_nonce(&app, &owner).await;
    let theirs = add_product(&app, &owner, &owner_nonce, CAP).await;
    let their_id = theirs.body["wishlist"]["ID"].as_i64().unwrap().to_string();
    let wrong = add(
        &app,
        &c,
        Some(&nonce),
        &[("product_id", "15"), ("tinv_wishlist_id", &their_id)],
    )
    .await;
    assert_eq!(wrong.body["status"], false);
    assert!(wrong.body["msg"]
        .as_str()
        .unwrap()
        .contains("Something went wrong"));
    assert_eq!(item_rows(&app, their_id.parse().unwrap()).await, 1);

    // Too large a body; the product form's own POST still adds to the cart.
    let mut big = "tinv_wishlist_id=&product_id=15&pad=".to_string();
    big.push_str(&"x".repeat(70 * 1024));
    let res = c
        .post(app.url("/product/beanie/"))
        .header("X-WP-Nonce", &nonce)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 413);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], false);
    let res = c
        .post(app.url("/product/beanie/"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("add-to-cart=15&quantity=2")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(cart_of(&app, &c).await["items_count"], 2);

    // The table's call: POST only, a nonce, a known action, bounded lists of ids.
    let res = c.get(app.url("/?wc-ajax=tinvwl")).send().await.unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "POST");
    let no = ajax(&app, &c, &[("tinvwl-action", "get_data")]).await;
    assert_eq!(no.status, 403);
    assert_eq!(no.body["code"], "invalid_nonce");
    let unknown = ajax(
        &app,
        &c,
        &[("tinvwl-action", "explode"), ("tinvwl-security", &nonce)],
    )
    .await;
    assert_eq!(unknown.status, 400);
    assert_eq!(unknown.body["status"], false);
    assert!(unknown.body["msg"]
        .as_str()
        .unwrap()
        .contains("Something went wrong"));
    let ids: Vec<String> = (1..=501).map(|i| i.to_string()).collect();
    let mut fields = vec![
        ("tinvwl-action", "remove_selected"),
        ("tinvwl-security", nonce.as_str()),
    ];
    fields.extend(ids.iter().map(|i| ("tinvwl-products[]", i.as_str())));
    let huge = ajax(&app, &c, &fields).await;
    assert_eq!(huge.status, 400, "{}", huge.body);
    let bad_key = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "get_data"),
            ("tinvwl-security", &nonce),
            ("tinvwl-sharekey", "../../x"),
        ],
    )
    .await;
    assert_eq!(bad_key.status, 400);
    let data = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "get_data"),
            ("tinvwl-security", &nonce),
            ("tinvwl-per-page", "5000"),
        ],
    )
    .await;
    assert_eq!(data.status, 200, "{}", data.body);
    assert_eq!(data.body["status"], true);
    assert_eq!(data.body["wishlists_data"]["counter"], 2);
    app.stop().await;
}

async fn concurrent_adds_never_duplicate_or_pass_the_limits(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = wl_nonce(&app, &c).await;
    let first = add_product(&app, &c, &nonce, CAP).await;
    let list = first.body["wishlist"]["ID"].as_i64().unwrap();
    // Ten tabs add the same product at once: one row.
    let tabs: Vec<_> = (0..10)
        .map(|_| {
            let (app_url, c, nonce) = (app.url("/product/beanie/"), c.clone(), nonce.clone());
            tokio::spawn(async move {
                let parts = [
                    Part::Text("tinv_wishlist_id", ""),
                    Part::Text("product_id", "15"),
                ];
                c.post(app_url)
                    .header("X-WP-Nonce", nonce)
                    .header(
                        "content-type",
                        format!("multipart/form-data; boundary={BOUNDARY}"),
                    )
                    .body(multipart(&parts))
                    .send()
                    .await
                    .unwrap()
                    .json::<Value>()
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut added = 0;
    for t in tabs {
        if t.await.unwrap()["status"] == true {
            added += 1;
        }
    }
    assert_eq!(added, 1);
    assert_eq!(item_rows(&app, list).await, 2);

    // A list one short of full: of five different products added at once, one goes in.
    for v in 1..=497 {
        sqlx::query("INSERT INTO wishlist_items (wishlist_id, product_id, variation_id, added_at) VALUES ($1, $2, $3, 1)")
            .bind(list)
            .bind(MUG)
            .bind(10_000 + v)
            .execute(app.db().writer())
            .await
            .unwrap();
    }
    sqlx::query("UPDATE wishlists SET item_count = 499 WHERE id = $1")
        .bind(list)
        .execute(app.db().writer())
        .await
        .unwrap();
    let tabs: Vec<_> = [POSTER, SOCKS, GIFT_CARD, PREORDER, ODD_NAME]
        .into_iter()
        .map(|id| {
            let (url, c, nonce) = (app.url("/shop/"), c.clone(), nonce.clone());
            tokio::spawn(async move {
                c.post(url)
                    .header("X-WP-Nonce", nonce)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(format!("tinv_wishlist_id=&product_id={id}"))
                    .send()
                    .await
                    .unwrap()
                    .json::<Value>()
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for t in tabs {
        outcomes.push(t.await.unwrap());
    }
    assert_eq!(outcomes.iter().filter(|o| o["status"] == true).count(), 1);
    assert!(outcomes
        .iter()
        .filter(|o| o["status"] == false)
        .all(|o| o["msg"]
            .as_str()
            .unwrap()
            .contains("Your wishlist is full.")));
    assert_eq!(item_rows(&app, list).await, 500);

    // Twenty-five lists asked for at once: twenty in all.
    let tabs: Vec<_> = (0..25)
        .map(|n| {
            let (url, c, nonce) = (app.url("/?wc-ajax=tinvwl"), c.clone(), nonce.clone());
            tokio::spawn(async move {
                c.post(url)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(format!(
                        "tinvwl-action=create_list&tinvwl-security={nonce}&tinvwl-name=List+{n}"
                    ))
                    .send()
                    .await
                    .unwrap()
                    .json::<Value>()
                    .await
                    .unwrap()
            })
        })
        .collect();
    let mut created = 0;
    for t in tabs {
        let o = t.await.unwrap();
        if o["status"] == true {
            created += 1;
        } else {
            assert!(
                o["msg"]
                    .as_str()
                    .unwrap()
                    .contains("You cannot create more wishlists."),
                "{o}"
            );
        }
    }
    assert_eq!(created, 19);
    let mine = get(&c, app.url(&format!("{WP}/wishlists"))).await;
    assert_eq!(mine.body.as_array().unwrap().len(), 20);
    app.stop().await;
}

async fn post_json(c: &reqwest::Client, app: &TestApp, path: &str, body: Value) -> Answer {
    let nonce = app.nonce(c).await;
    let res = c
        .post(app.url(&format!("{WP}{path}")))
        .header("Nonce", nonce)
        .json(&body)
        .send()
        .await
        .unwrap();
    answer(res).await
}

async fn a_guests_lists_merge_into_the_account_at_login(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // Ada has an account with the beanie on her list.
    let ada = app.shopper();
    let reg = post_json(
        &ada,
        &app,
        "/account/register",
        json!({"email": "ada@example.test", "password": "correct horse battery", "first_name": "Ada", "last_name": "L"}),
    )
    .await;
    assert_eq!(reg.status, 201, "{}", reg.body);
    assert_eq!(
        cookie(&reg, "tinvwl_update_data").map(|c| c.contains("Max-Age=3600")),
        Some(true)
    );
    let nonce = wl_nonce(&app, &ada).await;
    let mine = add_product(&app, &ada, &nonce, BEANIE).await;
    assert_eq!(mine.body["status"], true, "{}", mine.body);
    let counter = cookie(&mine, "tinvwl_wishlists_data_counter").expect("the counter");
    assert!(
        counter.starts_with("tinvwl_wishlists_data_counter=1;") && !counter.contains("HttpOnly"),
        "{counter}"
    );

    // On another browser, as a guest: the beanie again, the cap, and a named list.
    let guest = app.shopper();
    let gnonce = wl_nonce(&app, &guest).await;
    add_product(&app, &guest, &gnonce, BEANIE).await;
    add_product(&app, &guest, &gnonce, CAP).await;
    let gifts = ajax(
        &app,
        &guest,
        &[
            ("tinvwl-action", "create_list"),
            ("tinvwl-security", &gnonce),
            ("tinvwl-name", " <b>Gifts</b> "),
        ],
    )
    .await;
    assert_eq!(gifts.body["status"], true, "{}", gifts.body);
    assert_eq!(gifts.body["wishlist"]["title"], "Gifts");
    let gifts_key = gifts.body["wishlist"]["share_key"]
        .as_str()
        .unwrap()
        .to_string();
    let into = add(
        &app,
        &guest,
        Some(&gnonce),
        &[
            ("product_id", &MUG.to_string()),
            (
                "tinv_wishlist_id",
                &gifts.body["wishlist"]["ID"].to_string(),
            ),
        ],
    )
    .await;
    assert!(
        into.body["msg"]
            .as_str()
            .unwrap()
            .contains("Mug added to Gifts"),
        "{}",
        into.body
    );

    let login = post_json(
        &guest,
        &app,
        "/account/login",
        json!({"username": "ada@example.test", "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(login.status, 200, "{}", login.body);
    let expired = cookie(&login, "tinv_wishlistkey").expect("the guest cookie ends");
    assert!(expired.contains("Max-Age=0"), "{expired}");
    assert!(cookie(&login, "tinvwl_update_data")
        .unwrap()
        .starts_with("tinvwl_update_data=1;"));
    assert!(cookie(&login, "tinvwl_wishlists_data_counter")
        .unwrap()
        .starts_with("tinvwl_wishlists_data_counter=2;"));
    // The guest's nonce died with the sign-in.
    let stale = add_product(&app, &guest, &gnonce, MUG).await;
    assert_eq!(stale.status, 403);
    assert_eq!(stale.body["code"], "invalid_nonce");
    let lists = get(&guest, app.url(&format!("{WP}/wishlists"))).await;
    let lists = lists.body.as_array().unwrap().clone();
    assert_eq!(lists.len(), 2, "{lists:?}");
    assert_eq!(lists[0]["is_default"], true);
    assert_eq!(lists[0]["count"], 2);
    assert_eq!(lists[1]["share_key"], gifts_key.as_str());
    assert_eq!(lists[1]["count"], 1);
    let default = get(&guest, app.url(&format!("{WP}/wishlists/default"))).await;
    let mut products: Vec<i64> = default.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["product_id"].as_i64().unwrap())
        .collect();
    products.sort_unstable();
    assert_eq!(products, vec![BEANIE, CAP]);
    let guest_lists: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM wishlists WHERE owner_hash IS NOT NULL")
            .fetch_one(app.db().writer())
            .await
            .unwrap();
    assert_eq!(guest_lists, 0);

    let out = post_json(&guest, &app, "/account/logout", json!({})).await;
    assert_eq!(out.status, 200);
    assert!(cookie(&out, "tinvwl_update_data")
        .unwrap()
        .starts_with("tinvwl_update_data=1;"));
    assert_eq!(
        get(&guest, app.url(&format!("{WP}/wishlists"))).await.body,
        json!([])
    );
    app.stop().await;
}

async fn owners_manage_their_lists_and_strangers_only_read_and_buy(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.wishlist.allow_parent_variable = true).await
    else {
        return;
    };
    let c = app.shopper();
    let nonce = wl_nonce(&app, &c).await;
    for id in [BEANIE, CAP, POSTER, SOCKS, HOODIE] {
        let a = add_product(&app, &c, &nonce, id).await;
        assert_eq!(a.body["status"], true, "{id}: {}", a.body);
    }
    let page = get(&c, app.url(&format!("{WP}/wishlists/default?per_page=50"))).await;
    let key = page.body["share_key"].as_str().unwrap().to_string();
    let item = |id: i64| -> String {
        page.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["product_id"] == id)
            .unwrap()["item_id"]
            .to_string()
    };

    // A stranger cannot remove, but can put an item into their own cart; it stays.
    let stranger = app.shopper();
    let snonce = wl_nonce(&app, &stranger).await;
    let r = ajax(
        &app,
        &stranger,
        &[
            ("tinvwl-action", "remove"),
            ("tinvwl-security", &snonce),
            ("tinvwl-sharekey", &key),
            ("tinvwl-product_id", &item(BEANIE)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], false, "{}", r.body);
    let r = ajax(
        &app,
        &stranger,
        &[
            ("tinvwl-action", "rename_list"),
            ("tinvwl-security", &snonce),
            ("tinvwl-sharekey", &key),
            ("tinvwl-name", "Mine"),
        ],
    )
    .await;
    assert_eq!(r.body["status"], false);
    let r = ajax(
        &app,
        &stranger,
        &[
            ("tinvwl-action", "add_to_cart_single"),
            ("tinvwl-security", &snonce),
            ("tinvwl-sharekey", &key),
            ("tinvwl-product_id", &item(BEANIE)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true, "{}", r.body);
    assert!(r.body["msg"]
        .as_str()
        .unwrap()
        .contains("&ldquo;Beanie&rdquo; has been added to your cart."));
    assert!(cookie(&r, "woocommerce_items_in_cart").is_some());
    assert_eq!(cart_of(&app, &stranger).await["items_count"], 1);
    assert_eq!(
        get(&c, app.url(&format!("{WP}/wishlists/default")))
            .await
            .body["total"],
        5
    );

    // The owner: out of stock stays; a variable parent asks for options; socks go
    // in by their least quantity and leave the list.
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "add_to_cart_single"),
            ("tinvwl-security", &nonce),
            ("tinvwl-product_id", &item(POSTER)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], false, "{}", r.body);
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "add_to_cart_single"),
            ("tinvwl-security", &nonce),
            ("tinvwl-product_id", &item(HOODIE)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], false);
    assert!(r.body["msg"]
        .as_str()
        .unwrap()
        .contains("Please choose product options for &quot;Hoodie&quot;."));
    assert_eq!(r.body["redirect"], app.url("/product/hoodie/"));
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "add_to_cart_selected"),
            ("tinvwl-security", &nonce),
            ("tinvwl-products[]", &item(SOCKS)),
            ("tinvwl-products[]", &item(CAP)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true, "{}", r.body);
    assert!(r.body["content"]
        .as_str()
        .unwrap()
        .contains("tinvwl-table-manage-list"));
    assert!(cookie(&r, "woocommerce_cart_hash").is_some());
    assert_eq!(cart_of(&app, &c).await["items_count"], 3);
    assert_eq!(r.body["wishlists_data"]["counter"], 3);

    // Remove one, then the rest.
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "remove"),
            ("tinvwl-security", &nonce),
            ("tinvwl-product_id", &item(BEANIE)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true);
    assert!(r.body["msg"]
        .as_str()
        .unwrap()
        .contains("&ldquo;Beanie&rdquo; has been removed from the wishlist."));
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "remove"),
            ("tinvwl-security", &nonce),
            ("tinvwl-product_id", &item(BEANIE)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], false, "an item removed twice");
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "remove_selected"),
            ("tinvwl-security", &nonce),
            ("tinvwl-products[]", &item(POSTER)),
            ("tinvwl-products[]", &item(HOODIE)),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true);
    assert!(r.body["msg"]
        .as_str()
        .unwrap()
        .contains("have been successfully removed"));
    assert_eq!(
        r.body["wishlists_data"],
        json!({"products": {}, "counter": 0})
    );
    assert!(r.body["content"]
        .as_str()
        .unwrap()
        .contains("Your Wishlist is currently empty."));

    // Lists: create, rename, add all to cart, delete; the default stays.
    let made = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "create_list"),
            ("tinvwl-security", &nonce),
            ("tinvwl-name", "Later"),
        ],
    )
    .await;
    let later = made.body["wishlist"]["share_key"]
        .as_str()
        .unwrap()
        .to_string();
    let later_id = made.body["wishlist"]["ID"].to_string();
    add(
        &app,
        &c,
        Some(&nonce),
        &[
            ("product_id", &MUG.to_string()),
            ("tinv_wishlist_id", &later_id),
        ],
    )
    .await;
    let bad = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "rename_list"),
            ("tinvwl-security", &nonce),
            ("tinvwl-sharekey", &later),
            ("tinvwl-name", "   "),
        ],
    )
    .await;
    assert_eq!(bad.body["status"], false);
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "rename_list"),
            ("tinvwl-security", &nonce),
            ("tinvwl-sharekey", &later),
            ("tinvwl-name", "Someday"),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true);
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "add_to_cart_all"),
            ("tinvwl-security", &nonce),
            ("tinvwl-sharekey", &later),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true, "{}", r.body);
    assert_eq!(
        get(&c, app.url(&format!("{WP}/wishlists/{later}")))
            .await
            .body["total"],
        0
    );
    assert_eq!(
        get(&c, app.url(&format!("{WP}/wishlists/{later}")))
            .await
            .body["title"],
        "Someday"
    );
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "delete_list"),
            ("tinvwl-security", &nonce),
            ("tinvwl-sharekey", &key),
        ],
    )
    .await;
    assert_eq!(r.body["status"], false, "the default list stays");
    let r = ajax(
        &app,
        &c,
        &[
            ("tinvwl-action", "delete_list"),
            ("tinvwl-security", &nonce),
            ("tinvwl-sharekey", &later),
        ],
    )
    .await;
    assert_eq!(r.body["status"], true);
    assert_eq!(
        get(&c, app.url(&format!("{WP}/wishlists/{later}")))
            .await
            .status,
        404
    );
    app.stop().await;
}

async fn simple_flow_removes_and_stats_count_every_shoppers_lists(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.wishlist.simple_flow = true).await else {
        return;
    };
    let other = app.shopper();
    let onon = wl_nonce(&app, &other).await;
    add_product(&app, &other, &onon, BEANIE).await;
    let c = app.shopper();
    let nonce = wl_nonce(&app, &c).await;
    assert_eq!(wl_settings(&app, &c).await["simple_flow"], true);
    let a = add(
        &app,
        &c,
        Some(&nonce),
        &[("product_id", "15"), ("stats", "1")],
    )
    .await;
    assert_eq!(a.body["status"], true);
    assert_eq!(a.body["make_remove"], true);
    assert_eq!(a.body["wishlists_data"]["stats"], json!({"15": {"0": 2}}));
    assert_eq!(a.body["wishlists_data"]["stats_count"], 2);
    let none = add(
        &app,
        &c,
        Some(&nonce),
        &[("product_id", "17"), ("stats", "0")],
    )
    .await;
    assert!(none.body["wishlists_data"].get("stats").is_none());
    let r = add(
        &app,
        &c,
        Some(&nonce),
        &[("product_id", "15"), ("product_action", "remove")],
    )
    .await;
    assert_eq!(r.body["status"], false);
    assert_eq!(r.body["removed"], true);
    assert_eq!(r.body["make_remove"], false);
    assert!(r.body["msg"]
        .as_str()
        .unwrap()
        .contains("Product removed from Wishlist"));
    assert!(r.body["wishlists_data"]["products"].get("15").is_none());
    assert_eq!(r.body["wishlists_data"]["counter"], 1);
    app.stop().await;
}

async fn idle_guest_lists_are_cleaned_up_in_batches(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = wl_nonce(&app, &c).await;
    add_product(&app, &c, &nonce, BEANIE).await;
    let fresh = app.shopper();
    let fnonce = wl_nonce(&app, &fresh).await;
    add_product(&app, &fresh, &fnonce, CAP).await;
    let now = rules::clock::now();
    sqlx::query("UPDATE wishlists SET updated_at = $1 WHERE id IN (SELECT wishlist_id FROM wishlist_items WHERE product_id = $2)")
        .bind(now - 32 * 86_400)
        .bind(BEANIE)
        .execute(app.db().writer())
        .await
        .unwrap();
    let removed = ferroshop::wishlist::delete_idle_guest_lists(app.db(), now)
        .await
        .unwrap();
    assert_eq!(removed, 1);
    let items: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM wishlist_items")
        .fetch_one(app.db().writer())
        .await
        .unwrap();
    assert_eq!(items, 1, "the idle list's items went with it");
    assert_eq!(
        get(&c, app.url(&format!("{WP}/wishlists"))).await.body,
        json!([])
    );
    app.stop().await;
}

async fn the_store_keeps_counts_and_merges_within_the_limits(backend: Backend) {
    use store::wishlists::{self as lists, Added, Created, GuestMerge, Owner};
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    let reg = post_json(
        &app.shopper(),
        &app,
        "/account/register",
        json!({"email": "grace@example.test", "password": "correct horse battery", "first_name": "Grace", "last_name": "H"}),
    )
    .await;
    assert_eq!(reg.status, 201);
    let customer: i64 =
        sqlx::query_scalar("SELECT id FROM customers WHERE email_key = 'grace@example.test'")
            .fetch_one(db.writer())
            .await
            .unwrap();
    let now = rules::clock::now();
    let guest = Owner::Guest("a-guest-digest");
    let gdef = lists::ensure_default(db, guest, "00000000000a", "Default wishlist", now)
        .await
        .unwrap()
        .unwrap();
    // The same owner's default again is the same list, whatever key is offered.
    let again = lists::ensure_default(db, guest, "00000000000b", "Default wishlist", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(again.id, gdef.id);
    for (p, v) in [(BEANIE, 0), (CAP, 0), (HOODIE, HOODIE_BLUE_M)] {
        assert!(matches!(
            lists::add_item(db, gdef.id, p, v, now - 100, 500)
                .await
                .unwrap(),
            Added::Added(_)
        ));
    }
    assert_eq!(
        lists::add_item(db, gdef.id, BEANIE, 0, now, 500)
            .await
            .unwrap(),
        Added::AlreadyIn
    );
    assert_eq!(
        lists::add_item(db, gdef.id, MUG, 0, now, 3).await.unwrap(),
        Added::Full
    );
    let extra = match lists::create_list(db, guest, gdef.id, "00000000000c", "Extra", now, 20)
        .await
        .unwrap()
    {
        Created::Created(l) => l,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        lists::create_list(db, guest, gdef.id, "00000000000d", "Over", now, 2)
            .await
            .unwrap(),
        Created::TooMany
    );
    assert_eq!(
        lists::create_list(db, guest, gdef.id, "00000000000c", "Same key", now, 20)
            .await
            .unwrap(),
        Created::KeyTaken
    );
    assert!(
        !lists::delete_list(db, gdef.id).await.unwrap(),
        "a default list stays"
    );

    // The customer already has the beanie, with another date.
    let cdef = lists::ensure_default(
        db,
        Owner::Customer(customer),
        "0000000000c1",
        "Default wishlist",
        now,
    )
    .await
    .unwrap()
    .unwrap();
    lists::add_item(db, cdef.id, BEANIE, 0, now - 5000, 500)
        .await
        .unwrap();
    let merged = lists::merge_guest(
        db,
        &GuestMerge {
            owner_hash: "a-guest-digest",
            customer_id: customer,
            share_key: "0000000000c2",
            title: "Default wishlist",
            now,
        },
    )
    .await
    .unwrap();
    assert_eq!((merged.items, merged.lists), (2, 1));
    let cdef = lists::default_of(db, Owner::Customer(customer))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(cdef.item_count, 3);
    assert_eq!(item_rows(&app, cdef.id).await, 3);
    let kept = lists::find_item(db, cdef.id, CAP, 0)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kept.added_at, now - 100, "added_at is kept");
    assert!(lists::by_id(db, gdef.id).await.unwrap().is_none());
    assert_eq!(
        lists::by_id(db, extra.id)
            .await
            .unwrap()
            .unwrap()
            .customer_id,
        Some(customer)
    );
    assert!(lists::lists_of(db, guest).await.unwrap().is_empty());
    // Nothing left to merge: a second run changes nothing.
    let twice = lists::merge_guest(
        db,
        &GuestMerge {
            owner_hash: "a-guest-digest",
            customer_id: customer,
            share_key: "0000000000c3",
            title: "Default wishlist",
            now,
        },
    )
    .await
    .unwrap();
    assert_eq!((twice.items, twice.lists), (0, 0));

    // Removing keeps the count; stats count lists by product.
    let removed = lists::remove_items(db, cdef.id, &[kept.id, 999_999])
        .await
        .unwrap();
    assert_eq!(removed.len(), 1);
    assert_eq!(
        lists::by_id(db, cdef.id).await.unwrap().unwrap().item_count,
        2
    );
    lists::add_item(db, extra.id, BEANIE, 0, now, 500)
        .await
        .unwrap();
    let stats = lists::stats(db, &[BEANIE, HOODIE, CAP]).await.unwrap();
    // By product, then variation: the hoodie (12) before the beanie (15).
    assert_eq!(stats, vec![(HOODIE, HOODIE_BLUE_M, 1), (BEANIE, 0, 2)]);
    app.stop().await;
}

/// An account the checkout makes is signed in like any other: the guest's list
/// becomes the account's, through the Store API and through the classic checkout.
async fn an_account_made_at_checkout_takes_the_guests_list(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // The Store API's checkout.
    let guest = app.shopper();
    let gnonce = wl_nonce(&app, &guest).await;
    assert_eq!(
        add_product(&app, &guest, &gnonce, CAP).await.body["status"],
        true
    );
    let nonce = app.nonce(&guest).await;
    let added = guest
        .post(app.api("/cart/add-item"))
        .header("Nonce", &nonce)
        .json(&json!({"id": BEANIE, "quantity": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(added.status(), 201);
    let placed = guest
        .post(app.api("/checkout"))
        .header("Nonce", &nonce)
        .json(&json!({
            "billing_address": ada_address(), "payment_method": "cod",
            "create_account": true, "customer_password": "analytical engine 1843"
        }))
        .send()
        .await
        .unwrap();
    let placed = answer(placed).await;
    assert_eq!(placed.status, 200, "{}", placed.body);
    let expired = cookie(&placed, "tinv_wishlistkey").expect("the guest cookie ends");
    assert!(expired.contains("Max-Age=0"), "{expired}");
    assert!(cookie(&placed, "tinvwl_wishlists_data_counter")
        .unwrap()
        .starts_with("tinvwl_wishlists_data_counter=1;"));
    let lists = get(&guest, app.url(&format!("{WP}/wishlists"))).await;
    assert_eq!(lists.body[0]["count"], 1, "{}", lists.body);
    let default = get(&guest, app.url(&format!("{WP}/wishlists/default"))).await;
    assert_eq!(default.body["items"][0]["product_id"], CAP);
    assert_eq!(default.body["is_owner"], true);

    // The classic checkout.
    let guest = app.shopper();
    let gnonce = wl_nonce(&app, &guest).await;
    assert_eq!(
        add_product(&app, &guest, &gnonce, MUG).await.body["status"],
        true
    );
    let res = guest
        .post(app.url("/?wc-ajax=add_to_cart"))
        .form(&[("product_id", BEANIE.to_string()), ("quantity", "1".into())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let checkout_nonce = classic_nonce(&app, &guest, "woocommerce-process_checkout").await;
    let address = ada_address();
    let mut form: Vec<(String, String)> = [
        "first_name",
        "last_name",
        "address_1",
        "city",
        "state",
        "postcode",
        "country",
        "phone",
    ]
    .iter()
    .map(|k| {
        (
            format!("billing_{k}"),
            address[*k].as_str().unwrap().to_string(),
        )
    })
    .collect();
    form.push(("billing_email".into(), "grace@example.test".into()));
    form.push(("payment_method".into(), "cod".into()));
    form.push(("createaccount".into(), "1".into()));
    form.push(("account_password".into(), "compiler pioneer 1952".into()));
    form.push(("woocommerce-process-checkout-nonce".into(), checkout_nonce));
    let placed = answer(
        guest
            .post(app.url("/?wc-ajax=checkout"))
            .form(&form)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(placed.body["result"], "success", "{}", placed.body);
    assert!(cookie(&placed, "tinv_wishlistkey")
        .unwrap()
        .contains("Max-Age=0"));
    let default = get(&guest, app.url(&format!("{WP}/wishlists/default"))).await;
    assert_eq!(
        default.body["items"][0]["product_id"], MUG,
        "{}",
        default.body
    );
    let guest_lists: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM wishlists WHERE owner_hash IS NOT NULL")
            .fetch_one(app.db().writer())
            .await
            .unwrap();
    assert_eq!(guest_lists, 0);
    app.stop().await;
}

on_both_databases!(
    guest_adds_and_everyone_reads_the_shared_list,
    bad_adds_are_refused_in_the_plugins_shape,
    concurrent_adds_never_duplicate_or_pass_the_limits,
    a_guests_lists_merge_into_the_account_at_login,
    an_account_made_at_checkout_takes_the_guests_list,
    owners_manage_their_lists_and_strangers_only_read_and_buy,
    simple_flow_removes_and_stats_count_every_shoppers_lists,
    idle_guest_lists_are_cleaned_up_in_batches,
    the_store_keeps_counts_and_merges_within_the_limits,
);
