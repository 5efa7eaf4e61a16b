//! Coming-soon mode (visitors get the coming-soon page, staff the shop with a banner),
//! the platform's user call that dismisses the banner, and method overrides, through
//! the real server, on both databases.

mod common;

use common::*;
use rules::staff::Role;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery staple";

/// A browser signed in as a new customer with this e-mail.
async fn signed_in(app: &TestApp, email: &str) -> reqwest::Client {
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let res = c
        .post(app.url("/wp-json/ferroshop/v1/account/register"))
        .header("Nonce", &nonce)
        .json(&json!({"email": email, "password": PASSWORD, "first_name": "Grace", "last_name": "Hopper"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    c
}

async fn make_staff(app: &TestApp, email: &str) {
    let key = rules::customers::email_key(email);
    assert!(
        store::customers::set_role(app.db(), &key, Role::ShopManager, 0)
            .await
            .unwrap()
    );
}

async fn visitors_see_the_coming_soon_page_and_staff_the_shop(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.coming_soon.enabled = true;
        c.coming_soon.message = "Opening <soon> & then some.".into();
        c.coming_soon.retry_after_secs = 7200;
    })
    .await
    else {
        return;
    };
    for path in ["/", "/shop/", "/product/beanie/", "/cart/", "/checkout/"] {
        let res = app.bare().get(app.url(path)).send().await.unwrap();
        assert_eq!(res.status(), 503, "{path}");
        assert_eq!(res.headers()["retry-after"], "7200");
        assert_eq!(res.headers()["cache-control"], "no-store");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("Coming soon") && html.contains("Ferroshop"),
            "{html}"
        );
        // The shop's own text is escaped like anything else in a page.
        assert!(
            html.contains("Opening &lt;soon&gt; &amp; then some."),
            "{html}"
        );
        assert!(html.contains("noindex"));
    }
    // Staff can still sign in, and the APIs and images answer.
    let res = app
        .bare()
        .get(app.url("/my-account/"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = app.bare().get(app.api("/products")).send().await.unwrap();
    assert_eq!(res.status(), 200);

    // A customer is a visitor too.
    let customer = signed_in(&app, "grace@example.test").await;
    let res = customer.get(app.url("/")).send().await.unwrap();
    assert_eq!(res.status(), 503);
    // Made staff, the same login sees the shop, with the banner and its nonce.
    make_staff(&app, "grace@example.test").await;
    let res = customer.get(app.url("/shop/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let settings = settings_of(&app, &customer, "/").await;
    let banner = &settings["coming_soon"];
    assert!(banner["rest_url"]
        .as_str()
        .unwrap()
        .starts_with("/wp-json/wp/v2/users/"));
    assert_eq!(banner["nonce"].as_str().unwrap().len(), 10);
    app.stop().await;
}

async fn staff_dismiss_the_banner_through_the_user_call(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.coming_soon.enabled = true).await else {
        return;
    };
    let staff = signed_in(&app, "ada@example.test").await;
    make_staff(&app, "ada@example.test").await;
    let settings = settings_of(&app, &staff, "/").await;
    let url = app.url(settings["coming_soon"]["rest_url"].as_str().unwrap());
    let nonce = settings["coming_soon"]["nonce"]
        .as_str()
        .unwrap()
        .to_string();

    // Without the nonce the login cookie does not count; with another one, refused.
    let res = staff
        .get(app.url("/wp-json/wp/v2/users/me"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "rest_not_logged_in"
    );
    let res = staff
        .post(&url)
        .header("X-WP-Nonce", "0123456789")
        .json(&json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "yes"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "rest_cookie_invalid_nonce"
    );

    // Bad settings are refused and change nothing.
    for body in [
        json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "maybe"}}),
        json!({"woocommerce_meta": {"show_everything": "yes"}}),
        json!({"roles": ["administrator"]}),
        json!({"password": "new password"}),
    ] {
        let res = staff
            .post(&url)
            .header("X-WP-Nonce", &nonce)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 400, "{body}");
    }
    let me: Value = staff
        .get(app.url("/wp-json/wp/v2/users/me"))
        .header("X-WP-Nonce", &nonce)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["woocommerce_meta"]["coming_soon_banner_dismissed"], "");

    // The platform's helper sends PUT as POST with the override header.
    let res = staff
        .post(&url)
        .header("X-WP-Nonce", &nonce)
        .header("X-HTTP-Method-Override", "PUT")
        .json(&json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "yes"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let user: Value = res.json().await.unwrap();
    assert_eq!(
        user["woocommerce_meta"]["coming_soon_banner_dismissed"],
        "yes"
    );
    assert_eq!(user["name"], "Grace Hopper");
    assert!(user["id"].as_i64().unwrap() > 0);
    // Dismissed: the pages no longer carry the banner.
    let settings = settings_of(&app, &staff, "/").await;
    assert_eq!(settings["coming_soon"], Value::Null);

    // Someone else's account is not this account's to edit; a visitor is nobody.
    let res = staff
        .put(app.url("/wp-json/wp/v2/users/999999"))
        .header("X-WP-Nonce", &nonce)
        .json(&json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "no"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "rest_cannot_edit"
    );
    let res = app
        .bare()
        .post(app.url("/wp-json/wp/v2/users/me"))
        .header("X-WP-Nonce", &nonce)
        .json(&json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "no"}}))
        .send()
        .await
        .unwrap();
    assert!(
        matches!(res.status().as_u16(), 401 | 403),
        "{}",
        res.status()
    );
    // A write another site's page sends is refused before it is read.
    let res = staff
        .post(&url)
        .header("X-WP-Nonce", &nonce)
        .header("Sec-Fetch-Site", "cross-site")
        .json(&json!({"woocommerce_meta": {"coming_soon_banner_dismissed": "no"}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    app.stop().await;
}

async fn a_post_is_taken_as_the_method_its_override_names(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = signed_in(&app, "ada@example.test").await;
    let me = app.url("/wp-json/wp/v2/users/me");
    let send = |method: &'static str, override_to: Option<&'static str>| {
        let mut req = match method {
            "GET" => c.get(&me),
            _ => c.post(&me),
        };
        req = req.header("X-WP-Nonce", "0123456789");
        if let Some(to) = override_to {
            req = req.header("X-HTTP-Method-Override", to);
        }
        req.json(&json!({})).send()
    };
    // POST as PATCH reaches the write (refused for its nonce, not for its method).
    let res = send("POST", Some("PATCH")).await.unwrap();
    assert_eq!(res.status(), 403);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "rest_cookie_invalid_nonce"
    );
    // POST as DELETE is a DELETE, which this call does not take.
    let res = send("POST", Some("delete")).await.unwrap();
    assert_eq!(res.status(), 405);
    // Only PUT, PATCH and DELETE.
    let res = send("POST", Some("TRACE")).await.unwrap();
    assert_eq!(res.status(), 400);
    assert_eq!(
        res.json::<Value>().await.unwrap()["code"],
        "rest_invalid_method_override"
    );
    // A GET never becomes a write.
    let res = send("GET", Some("DELETE")).await.unwrap();
    assert_eq!(res.status(), 403, "read as the GET it is");
    app.stop().await;
}

on_both_databases!(
    visitors_see_the_coming_soon_page_and_staff_the_shop,
    staff_dismiss_the_banner_through_the_user_call,
    a_post_is_taken_as_the_method_its_override_names,
);
