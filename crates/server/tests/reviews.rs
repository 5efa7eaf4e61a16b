//! Product reviews through the real server, on both databases: posting reviews and
//! replies (JSON and the form without scripts), the threaded list a product page
//! shows, moderation, verified owners, the product's figures following every change
//! into the Store API's product, the Store API's listing, the staff API's reviews,
//! and every refusal (bad input, nonces, other sites, rate limits, the flood rule).

mod common;

use common::*;
use reqwest::Method;
use rules::staff::Permissions;
use serde_json::{json, Value};

/// A shopper's browser: its cookies and its Store API nonce.
struct Shopper<'a> {
    app: &'a TestApp,
    c: reqwest::Client,
    nonce: String,
}

impl<'a> Shopper<'a> {
    async fn new(app: &'a TestApp) -> Shopper<'a> {
        let c = app.shopper();
        let nonce = app.nonce(&c).await;
        Shopper { app, c, nonce }
    }

    /// A signed-up (and signed-in) customer.
    async fn customer(app: &'a TestApp, email: &str, first_name: &str) -> Shopper<'a> {
        let mut s = Shopper::new(app).await;
        let res = s
            .c
            .post(app.url("/wp-json/ferroshop/v1/account/register"))
            .header("Nonce", &s.nonce)
            .json(&json!({"email": email, "password": "correct horse battery", "first_name": first_name, "last_name": "Tester"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
        s.nonce = res.headers()["nonce"].to_str().unwrap().to_string();
        s
    }

    async fn post(&self, product: i64, body: Value) -> (u16, Value) {
        let res = self
            .c
            .post(reviews_url(self.app, product))
            .header("Nonce", &self.nonce)
            .json(&body)
            .send()
            .await
            .unwrap();
        answer(res).await
    }

    async fn list(&self, product: i64, query: &str) -> Value {
        let res = self
            .c
            .get(format!("{}{query}", reviews_url(self.app, product)))
            .send()
            .await
            .unwrap();
        let (status, body) = answer(res).await;
        assert_eq!(status, 200, "{body}");
        body
    }
}

fn reviews_url(app: &TestApp, product: i64) -> String {
    app.url(&format!("/wp-json/ferroshop/v1/products/{product}/reviews"))
}

async fn answer(res: reqwest::Response) -> (u16, Value) {
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    let json =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text:?}"));
    (status, json)
}

/// A guest's review of `product`.
fn guest_review(text: &str, rating: i64, email: &str) -> Value {
    json!({"review": text, "rating": rating, "reviewer": "Guest Tester", "reviewer_email": email})
}

/// A staff tool with a key.
struct Staff<'a> {
    app: &'a TestApp,
    key: String,
    secret: String,
}

impl<'a> Staff<'a> {
    async fn new(app: &'a TestApp) -> Staff<'a> {
        let (key, secret) = staff_key(app, "Moderation", Permissions::ReadWrite).await;
        Staff { app, key, secret }
    }

    async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .app
            .bare()
            .request(method, self.app.staff(path))
            .basic_auth(&self.key, Some(&self.secret));
        if let Some(b) = body {
            req = req.json(&b);
        }
        answer(req.send().await.unwrap()).await
    }

    /// A review entered by staff; its id.
    async fn enter(&self, product: i64, rating: i64, email: &str) -> i64 {
        let (status, body) = self
            .call(
                Method::POST,
                "/products/reviews",
                Some(json!({"product_id": product, "review": "Entered by staff.", "reviewer": "Shop Guest", "reviewer_email": email, "rating": rating})),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["id"].as_i64().unwrap()
    }

    async fn set_status(&self, id: i64, status: &str) -> Value {
        let (code, body) = self
            .call(
                Method::PUT,
                &format!("/products/reviews/{id}"),
                Some(json!({"status": status})),
            )
            .await;
        assert_eq!(code, 200, "{body}");
        body
    }
}

/// The product as the Store API shows it once every instance's live part has read
/// the figures' stamp.
async fn figures(app: &TestApp, product: i64) -> (String, i64) {
    app.server
        .as_ref()
        .unwrap()
        .state
        .refresh_live()
        .await
        .unwrap();
    let p = product_json(app, product).await;
    (
        p["average_rating"].as_str().unwrap().to_string(),
        p["review_count"].as_i64().unwrap(),
    )
}

/// Dates every review a minute back, so the flood rule lets the same author post again.
async fn let_a_minute_pass(app: &TestApp) {
    sqlx::query("UPDATE product_reviews SET created_at = created_at - 60")
        .execute(app.db().writer())
        .await
        .unwrap();
}

/// The Product JSON-LD of a product page.
async fn product_ld(app: &TestApp, slug: &str) -> Value {
    let html = app
        .bare()
        .get(app.url(&format!("/product/{slug}/")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let start = html.find("<script type=\"application/ld+json\">").unwrap();
    let ld = &html[start..];
    serde_json::from_str(&ld[ld.find('>').unwrap() + 1..ld.find("</script>").unwrap()]).unwrap()
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect()
}

async fn a_customers_review_is_shown_at_once_and_moves_the_figures(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    assert_eq!(figures(&app, BEANIE).await, ("0".into(), 0));
    let ada = Shopper::customer(&app, "ada@example.test", "Ada").await;
    let (status, posted) = ada
        .post(
            BEANIE,
            json!({"review": "Warm and soft.\n\nWould buy again.", "rating": 4}),
        )
        .await;
    assert_eq!(status, 201, "{posted}");
    assert_eq!(posted["status"], "approved");
    assert_eq!(posted["author"], "Ada Tester");
    assert_eq!(posted["product_id"], BEANIE);
    assert_eq!(posted["parent"], 0);
    assert_eq!(posted["rating"], 4);
    assert_eq!(
        posted["content"],
        "<p>Warm and soft.</p>\n<p>Would buy again.</p>\n"
    );
    assert_eq!(figures(&app, BEANIE).await, ("4.00".into(), 1));

    let bob = Shopper::customer(&app, "bob@example.test", "Bob").await;
    let (status, _) = bob
        .post(BEANIE, json!({"review": "Itchy.", "rating": 5}))
        .await;
    assert_eq!(status, 201);
    assert_eq!(figures(&app, BEANIE).await, ("4.50".into(), 2));

    let list = bob.list(BEANIE, "").await;
    assert_eq!(list["review_count"], 2);
    assert_eq!(list["rating_count"], 2);
    assert_eq!(list["average_rating"], "4.50");
    assert_eq!(
        list["rating_counts"],
        json!([{"rating":5,"count":1},{"rating":4,"count":1},{"rating":3,"count":0},{"rating":2,"count":0},{"rating":1,"count":0}])
    );
    // Newest first.
    assert_eq!(list["reviews"][0]["author"], "Bob Tester");
    assert_eq!(list["reviews"][1]["id"], posted["id"]);
    assert_eq!(list["form"]["signed_in_as"], "Bob Tester");
    assert_eq!(list["form"]["can_review"], false);
    assert_eq!(list["form"]["cannot_review_reason"], "already_reviewed");
    assert_eq!(list["form"]["can_reply"], true);
    app.stop().await;
}

async fn guest_reviews_wait_for_staff_and_show_once_approved(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let guest = Shopper::new(&app).await;
    let (status, posted) = guest
        .post(CAP, guest_review("Fits well.", 5, "gwen@example.test"))
        .await;
    assert_eq!(status, 201, "{posted}");
    assert_eq!(posted["status"], "hold");
    let id = posted["id"].as_i64().unwrap();

    // Not shown, not counted; the guest who wrote it sees it waiting, nobody else does.
    let mine = guest.list(CAP, "").await;
    assert_eq!(mine["reviews"], json!([]));
    assert_eq!(ids(&mine["awaiting_moderation"]), vec![id]);
    let other = Shopper::new(&app).await;
    assert_eq!(other.list(CAP, "").await["awaiting_moderation"], json!([]));
    let store: Value = app
        .bare()
        .get(app.api("/products/reviews"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(store, json!([]));
    assert_eq!(figures(&app, CAP).await, ("0".into(), 0));

    let staff = Staff::new(&app).await;
    let (_, held) = staff
        .call(Method::GET, "/products/reviews?status=hold", None)
        .await;
    assert_eq!(ids(&held), vec![id]);
    let approved = staff.set_status(id, "approved").await;
    assert_eq!(approved["status"], "approved");
    assert_eq!(figures(&app, CAP).await, ("5.00".into(), 1));
    let shown = other.list(CAP, "").await;
    assert_eq!(ids(&shown["reviews"]), vec![id]);
    assert_eq!(guest.list(CAP, "").await["awaiting_moderation"], json!([]));
    app.stop().await;
}

async fn replies_nest_under_what_they_answer(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let ada = Shopper::customer(&app, "ada@example.test", "Ada").await;
    let (_, review) = ada
        .post(BEANIE, json!({"review": "Lovely.", "rating": 5}))
        .await;
    let review = review["id"].as_i64().unwrap();

    // The shop answers with a staff account: shown at once, marked as the staff's.
    let sam = Shopper::customer(&app, "sam@example.test", "Sam").await;
    store::customers::set_role(
        app.db(),
        "sam@example.test",
        rules::staff::Role::ShopManager,
        0,
    )
    .await
    .unwrap();
    let (status, staff_reply) = sam
        .post(
            BEANIE,
            json!({"review": "Thank you, Ada!", "parent": review}),
        )
        .await;
    assert_eq!(status, 201, "{staff_reply}");
    assert_eq!(staff_reply["status"], "approved");
    assert_eq!(staff_reply["is_staff"], true);
    assert_eq!(staff_reply["depth"], 2);
    assert_eq!(staff_reply["rating"], Value::Null);
    let staff_reply = staff_reply["id"].as_i64().unwrap();

    let_a_minute_pass(&app).await;
    let (status, ada_reply) = ada
        .post(
            BEANIE,
            json!({"review": "You're welcome.", "parent": staff_reply}),
        )
        .await;
    assert_eq!(status, 201, "{ada_reply}");
    assert_eq!(ada_reply["depth"], 3);

    let list = ada.list(BEANIE, "").await;
    let top = &list["reviews"][0];
    assert_eq!(top["id"], review);
    assert_eq!(top["replies"][0]["id"], staff_reply);
    assert_eq!(top["replies"][0]["is_staff"], true);
    assert_eq!(top["replies"][0]["replies"][0]["id"], ada_reply["id"]);
    assert_eq!(top["replies"][0]["replies"][0]["replies"], json!([]));
    // Replies are not reviews: the figures count the one review.
    assert_eq!(list["review_count"], 1);
    assert_eq!(figures(&app, BEANIE).await, ("5.00".into(), 1));

    // Staff reply by key too, as deep as the thread goes (level 5), and no deeper.
    let staff = Staff::new(&app).await;
    let mut parent = ada_reply["id"].as_i64().unwrap();
    for depth in [4, 5] {
        let (status, body) = staff
            .call(
                Method::POST,
                "/products/reviews",
                Some(json!({"product_id": BEANIE, "review": "Noted.", "reviewer": "Shop", "reviewer_email": "shop@example.test", "parent": parent})),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["parent"], parent);
        parent = body["id"].as_i64().unwrap();
        let stored = store::reviews::find(app.db(), rules::reviews::ReviewId(parent))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.depth, depth);
        assert!(stored.is_staff);
    }
    let_a_minute_pass(&app).await;
    let (status, body) = ada
        .post(BEANIE, json!({"review": "Deeper?", "parent": parent}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("ferroshop_review_parent_too_deep"))
    );
    app.stop().await;
}

async fn replies_must_answer_a_shown_review_of_the_same_product(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    let cap_review = staff.enter(CAP, 4, "carl@example.test").await;
    let held = staff.enter(BEANIE, 3, "hal@example.test").await;
    staff.set_status(held, "hold").await;
    let guest = Shopper::new(&app).await;
    let reply = |parent: Value| json!({"review": "Agreed.", "parent": parent, "reviewer": "Gus", "reviewer_email": "gus@example.test"});
    for (parent, code) in [
        (json!(cap_review), "ferroshop_review_parent_other_product"),
        (json!(held), "ferroshop_review_parent_not_shown"),
        (json!(999_999), "ferroshop_review_parent_missing"),
    ] {
        let (status, body) = guest.post(BEANIE, reply(parent)).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["code"], code);
        assert_eq!(body["data"]["param"], "parent");
    }
    let (status, body) = guest.post(BEANIE, reply(json!("two"))).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("rest_invalid_param"))
    );
    // A rating belongs to a review, not a reply.
    let shown = staff.enter(BEANIE, 5, "sue@example.test").await;
    let (status, body) = guest
        .post(BEANIE, json!({"review": "Agreed.", "parent": shown, "rating": 4, "reviewer": "Gus", "reviewer_email": "gus@example.test"}))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("ferroshop_review_rating_on_reply"))
    );
    app.stop().await;
}

async fn buyers_are_verified_owners(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // A guest order paid on delivery (processing) with Ada's address.
    let order = place_order(&app, &[(BEANIE, 1)], &[], "cod", ada_address()).await;
    assert_eq!(status_of(&app, order).await, "processing");
    let guest = Shopper::new(&app).await;
    let (status, body) = guest
        .post(
            BEANIE,
            guest_review("Bought and loved.", 5, "ADA@example.test"),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["verified"], true);
    let_a_minute_pass(&app).await;
    let (_, other) = guest
        .post(CAP, guest_review("Never bought it.", 3, "ada@example.test"))
        .await;
    assert_eq!(other["verified"], false, "a different product: {other}");

    // A customer whose account address has a paid order of a variation of the hoodie.
    let mut billing = ada_address();
    billing["email"] = json!("bea@example.test");
    place_order(&app, &[(HOODIE_BLUE_M, 1)], &[], "cod", billing).await;
    let bea = Shopper::customer(&app, "bea@example.test", "Bea").await;
    let (status, body) = bea
        .post(HOODIE, json!({"review": "Cosy.", "rating": 4}))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["verified"], true);
    let list = bea.list(HOODIE, "").await;
    assert_eq!(list["reviews"][0]["verified"], true);
    assert_eq!(list["form"]["show_verified_label"], true);
    // An unpaid (on-hold) order makes no owner.
    let mut billing = ada_address();
    billing["email"] = json!("cy@example.test");
    place_order(&app, &[(MUG, 1)], &[], "bacs", billing).await;
    let (_, body) = guest
        .post(MUG, guest_review("Nice mug.", 4, "cy@example.test"))
        .await;
    assert_eq!(body["verified"], false, "{body}");
    app.stop().await;
}

async fn only_verified_owners_may_review_when_the_shop_says_so(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.reviews.verified_only = true).await else {
        return;
    };
    let guest = Shopper::new(&app).await;
    let (status, body) = guest
        .post(BEANIE, guest_review("Hi.", 5, "gwen@example.test"))
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["code"], "ferroshop_review_verified_owners_only");
    assert_eq!(body["data"]["reason"], "must_log_in");
    let form = &guest.list(BEANIE, "").await["form"];
    assert_eq!(
        (
            form["can_review"].as_bool(),
            form["cannot_review_reason"].as_str()
        ),
        (Some(false), Some("must_log_in"))
    );

    let dan = Shopper::customer(&app, "dan@example.test", "Dan").await;
    let (status, body) = dan
        .post(BEANIE, json!({"review": "Hi.", "rating": 5}))
        .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (403, Some("not_verified_owner"))
    );
    assert_eq!(
        dan.list(BEANIE, "").await["form"]["cannot_review_reason"],
        "not_verified_owner"
    );

    let mut billing = ada_address();
    billing["email"] = json!("dan@example.test");
    place_order(&app, &[(BEANIE, 1)], &[], "cod", billing).await;
    assert_eq!(dan.list(BEANIE, "").await["form"]["can_review"], true);
    let (status, body) = dan
        .post(BEANIE, json!({"review": "Hi.", "rating": 5}))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["verified"], true);
    app.stop().await;
}

async fn figures_follow_approve_hold_spam_trash_and_delete(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    let five = staff.enter(MUG, 5, "a@example.test").await;
    let four = staff.enter(MUG, 4, "b@example.test").await;
    let two = staff.enter(MUG, 2, "c@example.test").await;
    assert_eq!(figures(&app, MUG).await, ("3.67".into(), 3));

    staff.set_status(two, "hold").await;
    assert_eq!(figures(&app, MUG).await, ("4.50".into(), 2));
    staff.set_status(two, "approved").await;
    assert_eq!(figures(&app, MUG).await, ("3.67".into(), 3));
    staff.set_status(four, "spam").await;
    assert_eq!(figures(&app, MUG).await, ("3.50".into(), 2));

    // DELETE moves to the trash; again is refused; untrash brings it back to wait.
    let (status, trashed) = staff
        .call(Method::DELETE, &format!("/products/reviews/{five}"), None)
        .await;
    assert_eq!((status, trashed["status"].as_str()), (200, Some("trash")));
    assert_eq!(figures(&app, MUG).await, ("2.00".into(), 1));
    let (status, body) = staff
        .call(Method::DELETE, &format!("/products/reviews/{five}"), None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (410, Some("woocommerce_rest_already_trashed"))
    );
    assert_eq!(staff.set_status(five, "untrash").await["status"], "hold");
    staff.set_status(five, "approved").await;
    assert_eq!(figures(&app, MUG).await, ("3.50".into(), 2));

    // An edited rating moves the average.
    let (status, edited) = staff
        .call(
            Method::PUT,
            &format!("/products/reviews/{two}"),
            Some(json!({"rating": 3, "review": "Better than I first thought."})),
        )
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["review"], "Better than I first thought.");
    assert_eq!(figures(&app, MUG).await, ("4.00".into(), 2));

    // Deleted for good, with its replies.
    let (status, reply) = staff
        .call(
            Method::POST,
            "/products/reviews",
            Some(json!({"product_id": MUG, "review": "Thanks!", "reviewer": "Shop", "reviewer_email": "shop@example.test", "parent": two})),
        )
        .await;
    assert_eq!(status, 201, "{reply}");
    let (status, gone) = staff
        .call(
            Method::DELETE,
            &format!("/products/reviews/{two}?force=true"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{gone}");
    assert_eq!(gone["deleted"], true);
    assert_eq!(gone["previous"]["id"], two);
    assert_eq!(figures(&app, MUG).await, ("5.00".into(), 1));
    for id in [two, reply["id"].as_i64().unwrap()] {
        let (status, body) = staff
            .call(Method::GET, &format!("/products/reviews/{id}"), None)
            .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("woocommerce_rest_review_invalid_id"))
        );
    }
    // The totals follow too.
    let (_, spam) = staff
        .call(Method::GET, "/products/reviews?status=spam", None)
        .await;
    assert_eq!(ids(&spam), vec![four]);
    let res = app
        .bare()
        .get(app.staff("/products/reviews?status=any"))
        .basic_auth(&staff.key, Some(&staff.secret))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-wp-total"], "2");
    app.stop().await;
}

async fn bad_reviews_are_refused_with_clear_errors(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let guest = Shopper::new(&app).await;
    let long = "a".repeat(5_001);
    for (body, code, param) in [
        (
            json!({"rating": 5, "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_text_missing",
            "review",
        ),
        (
            json!({"review": "   ", "rating": 5, "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_text_missing",
            "review",
        ),
        (
            json!({"review": long, "rating": 5, "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_text_too_long",
            "review",
        ),
        (
            json!({"review": "Nice.", "rating": 0, "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_rating_invalid",
            "rating",
        ),
        (
            json!({"review": "Nice.", "rating": 6, "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_rating_invalid",
            "rating",
        ),
        (
            json!({"review": "Nice.", "rating": "x", "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_rating_invalid",
            "rating",
        ),
        (
            json!({"review": "Nice.", "reviewer": "G", "reviewer_email": "g@example.test"}),
            "ferroshop_review_rating_missing",
            "rating",
        ),
        (
            json!({"review": "Nice.", "rating": 5, "reviewer_email": "g@example.test"}),
            "ferroshop_review_name_missing",
            "reviewer",
        ),
        (
            json!({"review": "Nice.", "rating": 5, "reviewer": "G"}),
            "ferroshop_review_email_missing",
            "reviewer_email",
        ),
        (
            json!({"review": "Nice.", "rating": 5, "reviewer": "G", "reviewer_email": "not-an-address"}),
            "ferroshop_review_email_invalid",
            "reviewer_email",
        ),
    ] {
        let (status, refused) = guest.post(BEANIE, body.clone()).await;
        assert_eq!(status, 400, "{body}: {refused}");
        assert_eq!(refused["code"], code, "{body}");
        assert_eq!(refused["data"]["param"], param, "{body}");
        assert_eq!(refused["data"]["status"], 400);
        assert!(!refused["message"].as_str().unwrap().is_empty());
    }
    let (status, refused) = guest
        .post(BEANIE, json!({"review": ["a list"], "rating": 5}))
        .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("rest_invalid_param"))
    );
    // Unknown products, variations and ids that are not numbers.
    let variation = HOODIE_BLUE_M.to_string();
    for (product, status, code) in [
        ("999999", 404, "woocommerce_rest_product_invalid_id"),
        (
            variation.as_str(),
            404,
            "woocommerce_rest_product_invalid_id",
        ),
        ("beanie", 404, "rest_no_route"),
    ] {
        let res = guest
            .c
            .post(app.url(&format!("/wp-json/ferroshop/v1/products/{product}/reviews")))
            .header("Nonce", &guest.nonce)
            .json(&guest_review("Nice.", 5, "g@example.test"))
            .send()
            .await
            .unwrap();
        let (got, body) = answer(res).await;
        assert_eq!(
            (got, body["code"].as_str()),
            (status, Some(code)),
            "{product}"
        );
        let res = guest
            .c
            .get(app.url(&format!("/wp-json/ferroshop/v1/products/{product}/reviews")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), status, "{product}");
    }
    let res = guest
        .c
        .get(format!("{}?cpage=0", reviews_url(&app, BEANIE)))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("rest_invalid_param"))
    );
    // Nothing was stored.
    assert_eq!(
        guest.list(BEANIE, "").await["awaiting_moderation"],
        json!([])
    );
    app.stop().await;
}

async fn one_review_per_customer_per_product(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let ada = Shopper::customer(&app, "ada@example.test", "Ada").await;
    let (status, _) = ada
        .post(BEANIE, json!({"review": "One.", "rating": 4}))
        .await;
    assert_eq!(status, 201);
    let_a_minute_pass(&app).await;
    let (status, body) = ada
        .post(BEANIE, json!({"review": "Two.", "rating": 5}))
        .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "ferroshop_review_exists");
    assert_eq!(body["message"], "You have already reviewed this product.");
    // Another product is fine; so is a guest's address, once.
    let (status, _) = ada.post(CAP, json!({"review": "Cap.", "rating": 4})).await;
    assert_eq!(status, 201);
    let guest = Shopper::new(&app).await;
    let (status, _) = guest
        .post(BEANIE, guest_review("Hat.", 3, "gwen@example.test"))
        .await;
    assert_eq!(status, 201);
    let_a_minute_pass(&app).await;
    let again = Shopper::new(&app).await;
    let (status, body) = again
        .post(BEANIE, guest_review("Hat again.", 3, "GWEN@example.test"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("ferroshop_review_exists"))
    );

    // The database holds the rule itself, whatever asks it.
    let key = rules::reviews::AuthorKey::customer(rules::customers::CustomerId(424_242));
    let review = |content: &'static str| store::reviews::NewReview {
        product_id: rules::catalog::model::ProductId(SOCKS),
        parent_id: None,
        depth: 1,
        customer_id: None,
        author_name: "Raced",
        author_email: "raced@example.test",
        author_key: &key,
        session_key: None,
        content,
        rating: rules::reviews::Rating::new(4),
        status: rules::reviews::ReviewStatus::Approved,
        verified: false,
        is_staff: false,
        created_at: 0,
    };
    let db = app.db();
    let mut tx = store::reviews::begin_change(db, rules::catalog::model::ProductId(SOCKS))
        .await
        .unwrap();
    assert!(matches!(
        store::reviews::insert(&mut tx, &review("first"))
            .await
            .unwrap(),
        store::reviews::Stored::Review(_)
    ));
    tx.commit().await.unwrap();
    let mut tx = store::reviews::begin_change(db, rules::catalog::model::ProductId(SOCKS))
        .await
        .unwrap();
    assert_eq!(
        store::reviews::insert(&mut tx, &review("second"))
            .await
            .unwrap(),
        store::reviews::Stored::AlreadyReviewed
    );
    drop(tx);
    app.stop().await;
}

async fn posting_needs_this_sessions_nonce_and_the_shops_own_pages(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let guest = Shopper::new(&app).await;
    let body = guest_review("Nice.", 5, "g@example.test");
    let post = |nonce: Option<&str>, site: Option<&str>| {
        let mut req = guest.c.post(reviews_url(&app, BEANIE)).json(&body);
        if let Some(n) = nonce {
            req = req.header("Nonce", n);
        }
        if let Some(s) = site {
            req = req.header("Sec-Fetch-Site", s);
        }
        req.send()
    };
    let (status, res) = answer(post(None, None).await.unwrap()).await;
    assert_eq!(
        (status, res["code"].as_str()),
        (401, Some("woocommerce_rest_missing_nonce"))
    );
    let someone_else = Shopper::new(&app).await;
    let (status, res) = answer(post(Some(&someone_else.nonce), None).await.unwrap()).await;
    assert_eq!(
        (status, res["code"].as_str()),
        (403, Some("woocommerce_rest_invalid_nonce"))
    );
    let (status, res) = answer(post(Some(&guest.nonce), Some("cross-site")).await.unwrap()).await;
    assert_eq!(
        (status, res["code"].as_str()),
        (403, Some("ferroshop_cross_site_request"))
    );
    // Only POST writes.
    for method in [Method::PUT, Method::DELETE] {
        let res = guest
            .c
            .request(method, reviews_url(&app, BEANIE))
            .header("Nonce", &guest.nonce)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 405);
    }
    let res = guest
        .c
        .get(app.url("/wp-comments-post.php"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    // The form from another site is refused before it is read.
    let res = guest
        .c
        .post(app.url("/wp-comments-post.php"))
        .header("Sec-Fetch-Site", "cross-site")
        .form(&[
            ("comment_post_ID", BEANIE.to_string()),
            ("comment", "Hi".into()),
            ("rating", "5".into()),
            ("author", "G".into()),
            ("email", "g@example.test".into()),
            ("ferroshop-review-nonce", guest.nonce.clone()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert!(res.text().await.unwrap().contains("another site"));
    // Nothing was stored; the right nonce from the shop's page works.
    assert_eq!(
        guest.list(BEANIE, "").await["awaiting_moderation"],
        json!([])
    );
    let (status, res) = answer(post(Some(&guest.nonce), None).await.unwrap()).await;
    assert_eq!(status, 201, "{res}");
    app.stop().await;
}

async fn the_form_without_scripts_posts_and_redirects(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let browser = app.shopper();
    let settings = settings_of(&app, &browser, "/product/beanie/").await;
    let nonce = settings["store_api_nonce"].as_str().unwrap().to_string();
    let form = |fields: &[(&str, &str)]| {
        let mut all: Vec<(String, String)> = vec![
            ("comment_post_ID".into(), BEANIE.to_string()),
            ("ferroshop-review-nonce".into(), nonce.clone()),
        ];
        all.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        browser
            .post(app.url("/wp-comments-post.php"))
            .form(&all)
            .send()
    };
    let res = form(&[
        ("comment", "Warm <b>and</b> soft."),
        ("rating", "5"),
        ("author", "Gwen"),
        ("email", "gwen@example.test"),
        ("comment_parent", "0"),
        ("website", ""),
    ])
    .await
    .unwrap();
    assert_eq!(res.status(), 303);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    let id: i64 = location
        .strip_prefix("/product/beanie/#comment-")
        .unwrap_or_else(|| panic!("{location}"))
        .parse()
        .unwrap();
    // The guest's review waits, and the page's call shows it to them.
    let list: Value = browser
        .get(reviews_url(&app, BEANIE))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&list["awaiting_moderation"]), vec![id]);
    assert_eq!(
        list["awaiting_moderation"][0]["content"],
        "<p>Warm &lt;b&gt;and&lt;/b&gt; soft.</p>\n"
    );

    // A problem sends the shopper back to the reviews with a notice the page shows.
    let res = form(&[
        ("comment", ""),
        ("rating", "5"),
        ("author", "Gwen"),
        ("email", "gwen2@example.test"),
    ])
    .await
    .unwrap();
    assert_eq!(res.status(), 303);
    let back = res.headers()["location"].to_str().unwrap().to_string();
    assert_eq!(
        back,
        "/product/beanie/?review_error=ferroshop_review_text_missing#reviews"
    );
    let page = settings_of(&app, &browser, back.trim_end_matches("#reviews")).await;
    assert_eq!(
        page["notices"],
        json!([{"kind": "error", "message": "Please type your review.", "cart_link": false}])
    );
    // A code the shop never sends says nothing.
    let page = settings_of(&app, &browser, "/product/beanie/?review_error=%3Cscript%3E").await;
    assert_eq!(page["notices"], json!([]));

    // Another session's nonce: the page has expired.
    let res = browser
        .post(app.url("/wp-comments-post.php"))
        .form(&[
            ("comment_post_ID", BEANIE.to_string()),
            ("comment", "Hi".into()),
            ("rating", "5".into()),
            ("author", "G".into()),
            ("email", "g3@example.test".into()),
            ("ferroshop-review-nonce", app.nonce(&app.shopper()).await),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers()["location"],
        "/product/beanie/?review_error=ferroshop_review_form_expired#reviews"
    );
    // An unknown product has no page to go back to.
    let res = browser
        .post(app.url("/wp-comments-post.php"))
        .form(&[("comment_post_ID", "999999"), ("comment", "Hi")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    app.stop().await;
}

async fn posting_is_rate_limited_and_the_flood_rule_holds(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // The same author twice within 15 seconds, on any product.
    let ada = Shopper::customer(&app, "ada@example.test", "Ada").await;
    let (status, _) = ada
        .post(BEANIE, json!({"review": "One.", "rating": 4}))
        .await;
    assert_eq!(status, 201);
    let res = ada
        .c
        .post(reviews_url(&app, CAP))
        .header("Nonce", &ada.nonce)
        .json(&json!({"review": "Two.", "rating": 4}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    let wait: i64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=15).contains(&wait), "{wait}");
    let (_, body) = answer(res).await;
    assert_eq!(body["code"], "woocommerce_rest_comment_flood");
    assert_eq!(
        body["message"],
        "You are posting comments too quickly. Slow down."
    );
    let_a_minute_pass(&app).await;
    let (status, _) = ada.post(CAP, json!({"review": "Two.", "rating": 4})).await;
    assert_eq!(status, 201);

    // Ten posts an hour per author, counted before anything else is looked at.
    let guest = Shopper::new(&app).await;
    for n in 0..10 {
        let (status, body) = guest
            .post(MUG, guest_review("Again.", 4, "gwen@example.test"))
            .await;
        assert_eq!(status, if n == 0 { 201 } else { 409 }, "{n}: {body}");
    }
    let (status, body) = guest
        .post(MUG, guest_review("Again.", 4, "gwen@example.test"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("ferroshop_too_many_attempts"))
    );
    assert!(body["message"]
        .as_str()
        .unwrap()
        .starts_with("Too many reviews were posted."));

    // Twenty an hour per client address (fourteen counted so far): six more from here,
    // all by other authors, go through; then nobody from here.
    for n in 0..6 {
        let (status, body) = guest
            .post(
                SOCKS,
                guest_review("Warm.", 5, &format!("guest{n}@example.test")),
            )
            .await;
        assert_eq!(status, 201, "{n}: {body}");
    }
    let (status, body) = guest
        .post(SOCKS, guest_review("Warm.", 5, "late@example.test"))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("ferroshop_too_many_attempts"))
    );
    app.stop().await;
}

async fn staff_review_calls_need_an_api_key(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    let id = staff.enter(BEANIE, 5, "a@example.test").await;
    let one = format!("/products/reviews/{id}");
    for (method, path, code) in [
        (
            Method::GET,
            "/products/reviews",
            "woocommerce_rest_cannot_view",
        ),
        (Method::GET, &one[..], "woocommerce_rest_cannot_view"),
        (
            Method::POST,
            "/products/reviews",
            "woocommerce_rest_cannot_create",
        ),
        (Method::PUT, &one[..], "woocommerce_rest_cannot_edit"),
        (Method::DELETE, &one[..], "woocommerce_rest_cannot_edit"),
    ] {
        let res = app
            .bare()
            .request(method.clone(), app.staff(path))
            .json(&json!({"status": "trash"}))
            .send()
            .await
            .unwrap();
        let (status, body) = answer(res).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (401, Some(code)),
            "{method} {path}"
        );
    }
    // A customer's login is no key.
    let ada = Shopper::customer(&app, "ada@example.test", "Ada").await;
    let res = ada
        .c
        .get(app.staff("/products/reviews"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    // A wrong secret, and a read-only key writing.
    let res = app
        .bare()
        .get(app.staff("/products/reviews"))
        .basic_auth(&staff.key, Some("cs_wrong"))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("woocommerce_rest_authentication_error"))
    );
    let (key, secret) = staff_key(&app, "Reader", Permissions::Read).await;
    let res = app
        .bare()
        .put(app.staff(&one))
        .basic_auth(&key, Some(&secret))
        .json(&json!({"status": "spam"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    // Nothing changed.
    let (_, review) = staff.call(Method::GET, &one, None).await;
    assert_eq!(review["status"], "approved");
    app.stop().await;
}

async fn staff_calls_speak_the_v3_shape(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    let (status, created) = staff
        .call(
            Method::POST,
            "/products/reviews",
            Some(json!({"product_id": CAP, "review": "Line one\nLine two", "reviewer": "Rita", "reviewer_email": "rita@example.test", "rating": 4, "status": "hold"})),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    for field in [
        "id",
        "date_created",
        "date_created_gmt",
        "product_id",
        "product_name",
        "product_permalink",
        "status",
        "reviewer",
        "reviewer_email",
        "review",
        "rating",
        "verified",
        "reviewer_avatar_urls",
        "parent",
        "_links",
    ] {
        assert!(created.get(field).is_some(), "{field}: {created}");
    }
    assert_eq!(created["status"], "hold");
    assert_eq!(created["review"], "Line one\nLine two");
    assert_eq!(created["product_name"], "Cap");
    let (_, viewed) = staff
        .call(Method::GET, &format!("/products/reviews/{id}"), None)
        .await;
    assert_eq!(viewed["review"], "<p>Line one<br />\nLine two</p>\n");
    let (_, edit) = staff
        .call(
            Method::GET,
            &format!("/products/reviews/{id}?context=edit"),
            None,
        )
        .await;
    assert_eq!(edit["review"], "Line one\nLine two");

    for (body, status, code) in [
        (
            json!({"product_id": CAP}),
            400,
            "rest_missing_callback_param",
        ),
        (
            json!({"product_id": 999_999, "review": "x", "reviewer": "R", "reviewer_email": "r@example.test"}),
            404,
            "woocommerce_rest_product_invalid_id",
        ),
        (
            json!({"product_id": CAP, "review": " ", "reviewer": "R", "reviewer_email": "r@example.test"}),
            400,
            "woocommerce_rest_review_content_invalid",
        ),
        (
            json!({"product_id": CAP, "review": "x", "reviewer": "R", "reviewer_email": "rita@example.test"}),
            409,
            "ferroshop_review_exists",
        ),
        (
            json!({"product_id": CAP, "review": "x", "reviewer": "R", "reviewer_email": "r@example.test", "rating": 7}),
            400,
            "rest_invalid_param",
        ),
        (
            json!({"product_id": CAP, "review": "x", "reviewer": "R", "reviewer_email": "r@example.test", "colour": "red"}),
            400,
            "rest_invalid_param",
        ),
    ] {
        let (got, answer) = staff
            .call(Method::POST, "/products/reviews", Some(body.clone()))
            .await;
        assert_eq!(
            (got, answer["code"].as_str()),
            (status, Some(code)),
            "{body}: {answer}"
        );
    }
    let (status, body) = staff
        .call(
            Method::PUT,
            &format!("/products/reviews/{id}"),
            Some(json!({"status": "gone"})),
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("rest_invalid_param"))
    );
    let (status, body) = staff
        .call(Method::GET, "/products/reviews/999999", None)
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("woocommerce_rest_review_invalid_id"))
    );
    let res = app
        .bare()
        .get(app.staff(&format!("/products/reviews?product={CAP}&status=all")))
        .basic_auth(&staff.key, Some(&staff.secret))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-wp-total"], "1");
    assert_eq!(res.headers()["x-wp-totalpages"], "1");
    assert_eq!(res.headers()["cache-control"], "no-store");
    app.stop().await;
}

async fn the_store_api_lists_reviews_like_the_original(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    let beanie = staff.enter(BEANIE, 5, "a@example.test").await;
    let cap = staff.enter(CAP, 2, "b@example.test").await;
    let hoodie = staff.enter(HOODIE, 4, "c@example.test").await;
    let held = staff.enter(MUG, 3, "d@example.test").await;
    staff.set_status(held, "hold").await;
    // A reply is not listed.
    staff
        .call(Method::POST, "/products/reviews", Some(json!({"product_id": BEANIE, "review": "Thanks", "reviewer": "Shop", "reviewer_email": "shop@example.test", "parent": beanie})))
        .await;
    let get = |query: &str| {
        app.bare()
            .get(app.api(&format!("/products/reviews{query}")))
            .send()
    };
    let res = get("").await.unwrap();
    assert_eq!(res.headers()["x-wp-total"], "3");
    assert_eq!(res.headers()["x-wp-totalpages"], "1");
    let all: Value = res.json().await.unwrap();
    assert_eq!(ids(&all), vec![hoodie, cap, beanie]);
    let r = &all[2];
    assert_eq!(r["product_id"], BEANIE);
    assert_eq!(r["product_name"], "Beanie");
    assert!(r["product_permalink"]
        .as_str()
        .unwrap()
        .ends_with("/product/beanie/"));
    assert_eq!(r["product_image"]["id"], 1);
    assert_eq!(r["reviewer"], "Shop Guest");
    assert_eq!(r["review"], "<p>Entered by staff.</p>\n");
    assert_eq!(r["rating"], 5);
    assert_eq!(r["verified"], false);
    assert!(r["formatted_date_created"]
        .as_str()
        .unwrap()
        .contains(", 20"));
    assert_eq!(r["date_created"], r["date_created_gmt"]);
    assert!(r["reviewer_avatar_urls"]["96"]
        .as_str()
        .unwrap()
        .contains("s=96"));

    let one: Value = get(&format!("?product_id={CAP}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&one), vec![cap]);
    let two: Value = get(&format!("?product_id={CAP},{BEANIE}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&two), vec![cap, beanie]);
    // Clothing (2) holds Hoodies (3): a category takes its subcategories.
    let clothing = get("?category_id=2").await.unwrap();
    assert_eq!(clothing.headers()["x-wp-total"], "3");
    let hoodies: Value = get("?category_id=3").await.unwrap().json().await.unwrap();
    assert_eq!(ids(&hoodies), vec![hoodie, cap]);
    let none: Value = get("?category_id=999").await.unwrap().json().await.unwrap();
    assert_eq!(none, json!([]));
    let by_rating: Value = get("?orderby=rating&order=asc")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&by_rating), vec![cap, hoodie, beanie]);
    let paged = get("?per_page=2&page=2").await.unwrap();
    assert_eq!(paged.headers()["x-wp-totalpages"], "2");
    assert!(paged.headers()["link"]
        .to_str()
        .unwrap()
        .contains("rel=\"prev\""));
    assert_eq!(ids(&paged.json().await.unwrap()), vec![beanie]);
    let offset: Value = get("?per_page=1&offset=1")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&offset), vec![cap]);
    // The unversioned root answers alike.
    let alias: Value = app
        .bare()
        .get(app.url("/wp-json/wc/store/products/reviews"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&alias), vec![hoodie, cap, beanie]);
    for query in [
        "?per_page=101",
        "?page=0",
        "?orderby=title",
        "?order=sideways",
        "?product_id=abc",
    ] {
        let res = get(query).await.unwrap();
        let (status, body) = answer(res).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("rest_invalid_param")),
            "{query}"
        );
    }
    app.stop().await;
}

async fn the_threaded_list_pages_newest_first(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.reviews.per_page = 2).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    let first = staff.enter(BEANIE, 3, "a@example.test").await;
    let_a_minute_pass(&app).await;
    let second = staff.enter(BEANIE, 4, "b@example.test").await;
    let_a_minute_pass(&app).await;
    let third = staff.enter(BEANIE, 5, "c@example.test").await;
    let guest = Shopper::new(&app).await;
    let page1 = guest.list(BEANIE, "").await;
    assert_eq!(
        (
            page1["page"].as_i64(),
            page1["total_pages"].as_i64(),
            page1["per_page"].as_i64()
        ),
        (Some(1), Some(2), Some(2))
    );
    assert_eq!(ids(&page1["reviews"]), vec![third, second]);
    let page2 = guest.list(BEANIE, "?cpage=2").await;
    assert_eq!(ids(&page2["reviews"]), vec![first]);
    assert_eq!(guest.list(BEANIE, "?cpage=3").await["reviews"], json!([]));
    let form = &page1["form"];
    assert_eq!(form["rating_required"], true);
    assert_eq!(form["rating_required_text"], "Please select a rating");
    assert_eq!(form["can_review"], true);
    assert_eq!(form["nonce"], guest.nonce);
    assert_eq!(form["form_action"], "/wp-comments-post.php");
    app.stop().await;
}

async fn product_pages_tell_search_engines_about_reviews(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let staff = Staff::new(&app).await;
    for (n, stars) in [5, 4, 4, 5, 3, 5].into_iter().enumerate() {
        staff.enter(CAP, stars, &format!("r{n}@example.test")).await;
    }
    figures(&app, CAP).await;
    let ld = product_ld(&app, "cap").await;
    assert_eq!(
        ld["aggregateRating"],
        json!({"@type": "AggregateRating", "ratingValue": "4.33", "reviewCount": 6})
    );
    let reviews = ld["review"].as_array().unwrap();
    assert_eq!(reviews.len(), 5);
    assert_eq!(reviews[0]["@type"], "Review");
    assert_eq!(
        reviews[0]["author"],
        json!({"@type": "Person", "name": "Shop Guest"})
    );
    assert_eq!(reviews[0]["reviewBody"], "Entered by staff.");
    assert_eq!(reviews[0]["reviewRating"]["bestRating"], "5");
    assert!(reviews[0]["datePublished"]
        .as_str()
        .unwrap()
        .ends_with("+00:00"));
    // A product without reviews says nothing of them.
    let ld = product_ld(&app, "beanie").await;
    assert_eq!(ld["@type"], "Product");
    assert!(ld.get("aggregateRating").is_none() && ld.get("review").is_none());
    app.stop().await;
}

on_both_databases!(
    a_customers_review_is_shown_at_once_and_moves_the_figures,
    guest_reviews_wait_for_staff_and_show_once_approved,
    replies_nest_under_what_they_answer,
    replies_must_answer_a_shown_review_of_the_same_product,
    buyers_are_verified_owners,
    only_verified_owners_may_review_when_the_shop_says_so,
    figures_follow_approve_hold_spam_trash_and_delete,
    bad_reviews_are_refused_with_clear_errors,
    one_review_per_customer_per_product,
    posting_needs_this_sessions_nonce_and_the_shops_own_pages,
    the_form_without_scripts_posts_and_redirects,
    posting_is_rate_limited_and_the_flood_rule_holds,
    staff_review_calls_need_an_api_key,
    staff_calls_speak_the_v3_shape,
    the_store_api_lists_reviews_like_the_original,
    the_threaded_list_pages_newest_first,
    product_pages_tell_search_engines_about_reviews,
);
