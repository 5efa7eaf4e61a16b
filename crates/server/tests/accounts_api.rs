//! The account calls through the real server, on both databases: registering, signing
//! in and out, login limits, the cart a customer left signed in elsewhere, lost
//! passwords, and the account area's details and addresses.

mod common;

use common::*;
use reqwest::header::HeaderMap;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse 1";

struct Answer {
    status: u16,
    body: Value,
    headers: HeaderMap,
}

impl Answer {
    fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with(&format!("{name}=")))
            .map(str::to_string)
    }
}

/// A browser: a cookie jar and the latest nonce it was given.
struct Shopper<'a> {
    app: &'a TestApp,
    client: reqwest::Client,
    nonce: String,
}

impl<'a> Shopper<'a> {
    async fn new(app: &'a TestApp) -> Shopper<'a> {
        let client = app.shopper();
        let nonce = app.nonce(&client).await;
        Shopper { app, client, nonce }
    }

    async fn answer(&mut self, res: reqwest::Response) -> Answer {
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        if let Some(n) = headers.get("nonce").and_then(|v| v.to_str().ok()) {
            self.nonce = n.to_string();
        }
        let body = res.json().await.unwrap_or(Value::Null);
        Answer {
            status,
            body,
            headers,
        }
    }

    async fn post(&mut self, path: &str, body: Value) -> Answer {
        let res = self
            .client
            .post(account_url(self.app, path))
            .header("Nonce", &self.nonce)
            .json(&body)
            .send()
            .await
            .unwrap();
        self.answer(res).await
    }

    async fn get(&mut self, path: &str) -> Answer {
        let res = self
            .client
            .get(account_url(self.app, path))
            .send()
            .await
            .unwrap();
        self.answer(res).await
    }

    async fn add_to_cart(&mut self, id: i64, quantity: i64) -> Answer {
        let res = self
            .client
            .post(self.app.api("/cart/add-item"))
            .header("Nonce", &self.nonce)
            .json(&json!({"id": id, "quantity": quantity}))
            .send()
            .await
            .unwrap();
        self.answer(res).await
    }

    async fn cart(&mut self) -> Answer {
        let res = self.client.get(self.app.api("/cart")).send().await.unwrap();
        self.answer(res).await
    }

    async fn register(&mut self, email: &str) -> Answer {
        self.post(
            "/account/register",
            json!({"email": email, "password": PASSWORD, "first_name": "Ada", "last_name": "Lovelace"}),
        )
        .await
    }

    async fn log_in(&mut self, username: &str, password: &str) -> Answer {
        self.post(
            "/account/login",
            json!({"username": username, "password": password}),
        )
        .await
    }
}

fn account_url(app: &TestApp, path: &str) -> String {
    app.url(&format!("/wp-json/ferroshop/v1{path}"))
}

/// Product id → quantity of a cart answer.
fn lines(cart: &Value) -> Vec<(i64, i64)> {
    let mut v: Vec<(i64, i64)> = cart["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["id"].as_i64().unwrap(), i["quantity"].as_i64().unwrap()))
        .collect();
    v.sort();
    v
}

/// The session a Cart-Token names.
fn token_session(token: &str) -> String {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    claims["user_id"].as_str().unwrap().to_string()
}

async fn registering_creates_an_account_and_signs_in(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let guest_nonce = s.nonce.clone();
    let a = s.register("Ada@Example.test").await;
    assert_eq!(a.status, 201, "{}", a.body);
    let user = &a.body["user"];
    assert!(user["id"].as_i64().unwrap() > 0);
    assert_eq!(user["email"], "Ada@Example.test");
    assert_eq!(user["first_name"], "Ada");
    assert_eq!(user["display_name"], "Ada Lovelace");
    assert_eq!(a.headers["user-id"], user["id"].to_string().as_str());
    assert_ne!(s.nonce, guest_nonce, "the answer's nonce is the customer's");
    let cookie = a.cookie("wordpress_logged_in_ferroshop").unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("Path=/"));
    assert!(!cookie.contains("Max-Age"), "a session cookie: {cookie}");

    let me = s.get("/account").await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["user"], *user);
    assert_eq!(me.body["billing"]["email"], "");
    assert_eq!(me.body["billing"]["address_1"], "");
    assert!(me.body["shipping"].get("email").is_none());

    let mails = outbox(&app).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].kind, "customer_new_account");
    assert_eq!(mails[0].recipient, "Ada@Example.test");
    assert_eq!(mails[0].subject, "Your Ferroshop account has been created!");
    assert_eq!(mails[0].status, "queued", "no SMTP host: mail stays queued");
    app.stop().await;
}

async fn registration_is_refused_with_the_original_messages(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    assert_eq!(s.register("ada@example.test").await.status, 201);
    let mut other = Shopper::new(&app).await;
    let a = other.register("ADA@example.TEST").await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["code"], "registration-error-email-exists");
    assert_eq!(
        a.body["message"],
        "An account is already registered with your email address. Please log in."
    );
    assert_eq!(a.body["data"]["status"], 400);
    assert_eq!(a.body["data"]["field"], "email");
    let a = other
        .post(
            "/account/register",
            json!({"email": "ada@", "password": PASSWORD}),
        )
        .await;
    assert_eq!(a.body["code"], "registration-error-invalid-email");
    assert_eq!(a.body["message"], "Please provide a valid email address.");
    let a = other
        .post("/account/register", json!({"email": "bob@example.test"}))
        .await;
    assert_eq!(a.body["code"], "registration-error-missing-password");
    assert_eq!(a.body["message"], "Please enter an account password.");
    let a = other
        .post(
            "/account/register",
            json!({"email": "bob@example.test", "password": "short"}),
        )
        .await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["code"], "ferroshop_password_too_short");
    // Form bodies work as well as JSON.
    let res = other
        .client
        .post(account_url(&app, "/account/register"))
        .header("Nonce", &other.nonce)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("email=carol%40example.test&password=long+enough+pw")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    app.stop().await;
}

async fn logging_in_needs_the_right_password(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut a = Shopper::new(&app).await;
    a.register("ada@example.test").await;
    let mut b = Shopper::new(&app).await;
    let wrong = b.log_in("ada@example.test", "not the password").await;
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.body["code"], "ferroshop_invalid_login");
    assert_eq!(
        wrong.body["message"],
        "Unknown email address or incorrect password."
    );
    let unknown = b.log_in("nobody@example.test", PASSWORD).await;
    assert_eq!(unknown.status, 401);
    assert_eq!(unknown.body, wrong.body, "unknown and wrong look alike");
    let empty = b.log_in("", PASSWORD).await;
    assert_eq!(empty.status, 400);
    assert_eq!(empty.body["message"], "Username is required.");
    let empty = b.log_in("ada@example.test", "").await;
    assert_eq!(empty.body["message"], "The password field is empty.");
    assert_eq!(b.get("/account").await.status, 401);

    let ok = b
        .post(
            "/account/login",
            json!({"username": " ADA@example.test", "password": PASSWORD, "remember": true}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["user"]["email"], "ada@example.test");
    let cookie = ok.cookie("wordpress_logged_in_ferroshop").unwrap();
    assert!(cookie.contains("Max-Age=1209600"), "remembered: {cookie}");
    let me = b.get("/account").await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["user"]["id"], ok.body["user"]["id"]);
    app.stop().await;
}

async fn repeated_failures_for_an_account_are_refused_for_a_while(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    s.register("ada@example.test").await;
    s.register("bob@example.test").await;
    let mut t = Shopper::new(&app).await;
    // A success forgets the failures before it.
    for _ in 0..4 {
        assert_eq!(t.log_in("ada@example.test", "guess").await.status, 401);
    }
    assert_eq!(t.log_in("ada@example.test", PASSWORD).await.status, 200);
    for _ in 0..5 {
        assert_eq!(t.log_in("ada@example.test", "guess").await.status, 401);
    }
    let refused = t.log_in("Ada@example.test", PASSWORD).await;
    assert_eq!(refused.status, 429);
    assert_eq!(refused.body["code"], "ferroshop_too_many_attempts");
    assert_eq!(
        refused.body["message"],
        "Too many failed login attempts. Please try again in 15 minutes."
    );
    let retry: i64 = refused.headers["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((880..=900).contains(&retry), "{retry}");
    // Another account from the same address is not affected.
    assert_eq!(t.log_in("bob@example.test", PASSWORD).await.status, 200);
    app.stop().await;
}

async fn many_failures_from_one_address_are_refused(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    s.register("ada@example.test").await;
    let mut t = Shopper::new(&app).await;
    for n in 0..20 {
        // Four guesses each at five addresses: under every account's limit.
        let who = format!("guess{}@example.test", n % 5);
        assert_eq!(t.log_in(&who, "guess").await.status, 401);
    }
    let refused = t.log_in("ada@example.test", PASSWORD).await;
    assert_eq!(refused.status, 429);
    assert!(refused.headers.contains_key("retry-after"));
    app.stop().await;
}

async fn a_forwarded_address_counts_only_when_trusted(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.trust_proxy = true).await else {
        return;
    };
    let t = Shopper::new(&app).await;
    for n in 0..20 {
        let res = t
            .client
            .post(account_url(&app, "/account/login"))
            .header("Nonce", &t.nonce)
            .header("X-Forwarded-For", "203.0.113.9")
            .json(&json!({"username": format!("g{}@example.test", n % 5), "password": "guess"}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 401);
    }
    let from = |ip: &'static str| {
        t.client
            .post(account_url(&app, "/account/login"))
            .header("Nonce", &t.nonce)
            .header("X-Forwarded-For", ip)
            .json(&json!({"username": "x@example.test", "password": "guess"}))
            .send()
    };
    assert_eq!(from("203.0.113.9").await.unwrap().status(), 429);
    assert_eq!(from("198.51.100.4").await.unwrap().status(), 401);
    app.stop().await;
}

async fn logging_out_revokes_the_login(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let registered = s.register("ada@example.test").await;
    let cookie = registered.cookie("wordpress_logged_in_ferroshop").unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let session_before = registered
        .cookie("wp_woocommerce_session_ferroshop")
        .unwrap();

    let out = s.post("/account/logout", json!({})).await;
    assert_eq!(out.status, 200);
    assert_eq!(out.body, json!({}));
    assert_eq!(out.headers["user-id"], "0");
    assert!(out
        .cookie("wordpress_logged_in_ferroshop")
        .unwrap()
        .contains("Max-Age=0"));
    let session_after = out.cookie("wp_woocommerce_session_ferroshop").unwrap();
    assert_ne!(
        session_before.split("%7C").next(),
        session_after.split("%7C").next(),
        "a fresh guest session"
    );
    assert_eq!(s.get("/account").await.status, 401);

    // The old cookie is still validly signed, but its login is gone.
    let replay = app
        .bare()
        .get(account_url(&app, "/account"))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(replay.status(), 401);
    assert_eq!(replay.headers()["user-id"], "0");
    assert!(set_cookies(&replay)
        .iter()
        .any(|c| c.starts_with("wordpress_logged_in_ferroshop=;") && c.contains("Max-Age=0")));
    let body: Value = replay.json().await.unwrap();
    assert_eq!(body["code"], "ferroshop_not_logged_in");
    assert_eq!(body["message"], "You must be logged in.");
    app.stop().await;
}

async fn account_writes_need_the_nonce(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let body = json!({"email": "ada@example.test", "password": PASSWORD});
    let res = c
        .post(account_url(&app, "/account/register"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    let err: Value = res.json().await.unwrap();
    assert_eq!(err["code"], "woocommerce_rest_missing_nonce");
    let res = c
        .post(account_url(&app, "/account/login"))
        .header("Nonce", "0123456789")
        .json(&json!({"username": "ada@example.test", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let err: Value = res.json().await.unwrap();
    assert_eq!(err["code"], "woocommerce_rest_invalid_nonce");
    for path in [
        "/account/logout",
        "/account/lost-password",
        "/account/details",
    ] {
        let res = c
            .post(account_url(&app, path))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 401, "{path}");
    }
    // The legacy header works too; a wrong method is a JSON 405 naming the right one.
    let nonce = app.nonce(&c).await;
    let res = c
        .post(account_url(&app, "/account/register"))
        .header("X-WC-Store-API-Nonce", &nonce)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let res = c
        .get(account_url(&app, "/account/login"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "POST");
    let err: Value = res.json().await.unwrap();
    assert_eq!(err["code"], "rest_no_route");
    app.stop().await;
}

async fn signing_in_brings_the_cart_left_elsewhere(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    // On a first device, signed in, a cart.
    let mut phone = Shopper::new(&app).await;
    phone.register("ada@example.test").await;
    assert_eq!(phone.add_to_cart(BEANIE, 2).await.status, 201);
    assert_eq!(phone.add_to_cart(CAP, 1).await.status, 201);
    // On a second, as a guest, another.
    let mut laptop = Shopper::new(&app).await;
    assert_eq!(laptop.add_to_cart(BEANIE, 1).await.status, 201);
    let added = laptop.add_to_cart(MUG, 1).await;
    let token_before = added.headers["cart-token"].to_str().unwrap().to_string();

    let signed = laptop.log_in("ada@example.test", PASSWORD).await;
    assert_eq!(signed.status, 200);
    assert!(signed
        .cookie("woocommerce_items_in_cart")
        .unwrap()
        .starts_with("woocommerce_items_in_cart=1"));
    let cart = laptop.cart().await;
    assert_eq!(lines(&cart.body), vec![(BEANIE, 2), (CAP, 1), (MUG, 1)]);
    let token_after = cart.headers["cart-token"].to_str().unwrap();
    assert_eq!(
        token_session(&token_before),
        token_session(token_after),
        "the same session, so the cart token stays good"
    );
    // The first device's cart moved.
    assert_eq!(lines(&phone.cart().await.body), vec![]);
    // Writes after signing in use the customer's nonce.
    assert_eq!(laptop.add_to_cart(CAP, 1).await.status, 201);

    // Signing out leaves the cart with the account, for next time.
    laptop.post("/account/logout", json!({})).await;
    assert_eq!(lines(&laptop.cart().await.body), vec![]);
    laptop.add_to_cart(MUG, 2).await;
    laptop.log_in("ada@example.test", PASSWORD).await;
    assert_eq!(
        lines(&laptop.cart().await.body),
        vec![(BEANIE, 2), (CAP, 2), (MUG, 2)],
        "the larger quantity of a shared line; MUG has 3 in stock"
    );
    app.stop().await;
}

async fn a_lost_password_is_reset_with_the_mailed_key(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut ada = Shopper::new(&app).await;
    ada.register("ada@example.test").await;
    let mut s = Shopper::new(&app).await;
    let unknown = s
        .post(
            "/account/lost-password",
            json!({"user_login": "nobody@example.test"}),
        )
        .await;
    assert_eq!(unknown.status, 400);
    assert_eq!(unknown.body["code"], "invalid_username");
    assert_eq!(unknown.body["message"], "Invalid username or email.");
    let empty = s
        .post("/account/lost-password", json!({"user_login": ""}))
        .await;
    assert_eq!(empty.body["message"], "Enter a username or email address.");
    let sent = s
        .post(
            "/account/lost-password",
            json!({"user_login": "ADA@example.test"}),
        )
        .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert_eq!(
        sent.body,
        json!({"message": "Password reset email has been sent."})
    );

    let mail = outbox(&app)
        .await
        .into_iter()
        .find(|m| m.kind == "customer_reset_password")
        .unwrap();
    assert_eq!(mail.recipient, "ada@example.test");
    assert_eq!(mail.subject, "Password Reset Request for Ferroshop");
    let link_start = mail.text.find("/my-account/lost-password/?key=").unwrap();
    let link = mail.text[link_start..].lines().next().unwrap();
    assert!(link.ends_with("&login=ada%40example.test"), "{link}");
    let key = link
        .split("key=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(key.len(), 43);

    let reset = |key: &str, password: &str, confirm: &str| json!({"login": "ada@example.test", "key": key, "password": password, "password_confirm": confirm});
    let bad = s
        .post(
            "/account/reset-password",
            reset("wrong-key", "new password 2", "new password 2"),
        )
        .await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.body["code"], "invalid_key");
    assert_eq!(
        bad.body["message"],
        "This key is invalid or has already been used."
    );
    let differ = s
        .post(
            "/account/reset-password",
            reset(&key, "new password 2", "new password 3"),
        )
        .await;
    assert_eq!(differ.body["message"], "Passwords do not match.");
    let empty = s.post("/account/reset-password", reset(&key, "", "")).await;
    assert_eq!(empty.body["message"], "Please enter your password.");
    let done = s
        .post(
            "/account/reset-password",
            reset(&key, "new password 2", "new password 2"),
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.headers["user-id"], "0", "resetting does not sign in");
    let again = s
        .post(
            "/account/reset-password",
            reset(&key, "new password 9", "new password 9"),
        )
        .await;
    assert_eq!(again.body["code"], "invalid_key", "a key works once");

    assert_eq!(s.log_in("ada@example.test", PASSWORD).await.status, 401);
    assert_eq!(
        s.log_in("ada@example.test", "new password 2").await.status,
        200
    );
    // The browser signed in before the reset was signed out by it.
    assert_eq!(ada.get("/account").await.status, 401);
    app.stop().await;
}

async fn account_details_follow_the_edit_account_rules(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut other = Shopper::new(&app).await;
    other.register("bob@example.test").await;
    let mut s = Shopper::new(&app).await;
    s.register("ada@example.test").await;
    let form = |changes: Value| {
        let mut f = json!({
            "first_name": "Ada", "last_name": "Byron", "display_name": "Ada B",
            "email": "ada@example.test", "password_current": "", "password_1": "", "password_2": ""
        });
        for (k, v) in changes.as_object().unwrap() {
            f[k] = v.clone();
        }
        f
    };
    let cases = [
        (json!({"first_name": ""}), "First name is a required field."),
        (
            json!({"display_name": "bob@example.test"}),
            "Display name cannot be changed to email address due to privacy concern.",
        ),
        (
            json!({"email": "ada@"}),
            "Please provide a valid email address.",
        ),
        (
            json!({"email": "BOB@example.test"}),
            "This email address is already registered.",
        ),
        (
            json!({"password_current": PASSWORD}),
            "Please fill out all password fields.",
        ),
        (
            json!({"password_1": "new password", "password_2": "new password"}),
            "Please enter your current password.",
        ),
        (
            json!({"password_current": PASSWORD, "password_1": "new password", "password_2": "other password"}),
            "New passwords do not match.",
        ),
        (
            json!({"password_current": "wrong one", "password_1": "new password", "password_2": "new password"}),
            "Your current password is incorrect.",
        ),
    ];
    for (changes, message) in cases {
        let a = s.post("/account/details", form(changes.clone())).await;
        assert_eq!(a.status, 400, "{changes}");
        assert_eq!(a.body["message"], message, "{changes}");
    }
    let ok = s
        .post(
            "/account/details",
            form(
                json!({"email": "Ada.Byron@example.test", "password_current": PASSWORD,
                        "password_1": "new password", "password_2": "new password"}),
            ),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.body["message"], "Account details changed successfully.");
    assert_eq!(ok.body["user"]["last_name"], "Byron");
    assert_eq!(ok.body["user"]["display_name"], "Ada B");
    assert_eq!(ok.body["user"]["email"], "Ada.Byron@example.test");
    // Still signed in here; the new address and password are the ones that work.
    assert_eq!(s.get("/account").await.status, 200);
    let mut t = Shopper::new(&app).await;
    assert_eq!(
        t.log_in("ada@example.test", "new password").await.status,
        401
    );
    assert_eq!(
        t.log_in("ada.byron@example.test", "new password")
            .await
            .status,
        200
    );
    // Not signed in: no details to change.
    let mut guest = Shopper::new(&app).await;
    let a = guest.post("/account/details", form(json!({}))).await;
    assert_eq!(a.status, 401);
    assert_eq!(a.body["code"], "ferroshop_not_logged_in");
    app.stop().await;
}

async fn addresses_are_checked_saved_and_shown(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut s = Shopper::new(&app).await;
    let guest = s
        .post("/account/address/billing", json!({"first_name": "Ada"}))
        .await;
    assert_eq!(guest.status, 401);
    s.register("ada@example.test").await;
    let address = json!({
        "first_name": "Ada", "last_name": "Lovelace", "company": "", "country": "US",
        "address_1": "1 Main St", "address_2": "", "city": "San Francisco", "state": "California",
        "postcode": "94110", "phone": "5555550100", "email": "ada@example.test"
    });
    let mut missing = address.clone();
    missing["city"] = json!("");
    let a = s.post("/account/address/billing", missing).await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["code"], "ferroshop_required_field");
    assert_eq!(a.body["message"], "Town / City is a required field.");
    assert_eq!(a.body["data"]["field"], "city");
    let mut bad_zip = address.clone();
    bad_zip["postcode"] = json!("9411");
    let a = s.post("/account/address/billing", bad_zip).await;
    assert_eq!(a.body["message"], "Please enter a valid postcode / ZIP.");

    let saved = s.post("/account/address/billing", address.clone()).await;
    assert_eq!(saved.status, 200, "{}", saved.body);
    assert_eq!(saved.body["message"], "Address changed successfully.");
    assert_eq!(saved.body["billing"]["state"], "CA");
    assert_eq!(saved.body["billing"]["email"], "ada@example.test");
    let shipped = s.post("/account/address/shipping", address.clone()).await;
    assert_eq!(shipped.status, 200, "{}", shipped.body);
    let me = s.get("/account").await;
    assert_eq!(me.body["billing"], saved.body["billing"]);
    assert_eq!(
        me.body["shipping"],
        json!({"first_name": "Ada", "last_name": "Lovelace", "company": "", "address_1": "1 Main St",
               "address_2": "", "city": "San Francisco", "state": "CA", "postcode": "94110",
               "country": "US", "phone": "5555550100"})
    );
    let nowhere = s.post("/account/address/elsewhere", address).await;
    assert_eq!(nowhere.status, 404);
    app.stop().await;
}

on_both_databases!(
    registering_creates_an_account_and_signs_in,
    registration_is_refused_with_the_original_messages,
    logging_in_needs_the_right_password,
    repeated_failures_for_an_account_are_refused_for_a_while,
    many_failures_from_one_address_are_refused,
    a_forwarded_address_counts_only_when_trusted,
    logging_out_revokes_the_login,
    account_writes_need_the_nonce,
    signing_in_brings_the_cart_left_elsewhere,
    a_lost_password_is_reset_with_the_mailed_key,
    account_details_follow_the_edit_account_rules,
    addresses_are_checked_saved_and_shown,
);
