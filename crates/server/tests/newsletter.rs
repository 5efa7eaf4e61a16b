//! The newsletter through the real server, on both databases: signing up at the
//! original plugin's address, the confirmation mail with its signed links, confirming
//! and unsubscribing by POST from the links' pages (opening a link changes nothing),
//! a mail program's one-click unsubscription, signing up again, the staff's list; and
//! every refusal (no nonce, another site, a bad address, no consent, forged and
//! expired links, the per-address limit).

mod common;

use common::*;
use rules::newsletter::{token, Purpose};
use rules::staff::Permissions;
use serde_json::Value;

const SIGN_UP: &str = "/wp-admin/admin-ajax.php?action=tnp&na=sa";

async fn sign_up(
    app: &TestApp,
    c: &reqwest::Client,
    nonce: &str,
    email: &str,
    consent: bool,
) -> (u16, String) {
    let mut parts = vec![
        Part::Text("ne", email),
        Part::Text("nn", "Ada"),
        Part::Text("nr", "footer"),
        Part::Text("_wpnonce", nonce),
    ];
    if consent {
        parts.push(Part::Text("ny", "1"));
    }
    let res = c
        .post(app.url(SIGN_UP))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart(&parts))
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.text().await.unwrap())
}

/// The links of the newest confirmation mail to `email`: (confirm, unsubscribe).
async fn links(app: &TestApp, email: &str) -> (String, String) {
    let mails = outbox(app).await;
    let mail = mails
        .iter()
        .find(|m| m.kind == "newsletter_confirmation" && m.recipient == email)
        .expect("a confirmation mail");
    let find = |na: &str| {
        let start = mail.text.find(&format!("/?na={na}&nk=")).expect("the link");
        let from = mail.text[..start].rfind("http").unwrap();
        let end = mail.text[start..]
            .find(char::is_whitespace)
            .map_or(mail.text.len(), |e| start + e);
        mail.text[from..end].to_string()
    };
    (find("c"), find("u"))
}

fn path_of(link: &str) -> String {
    link.split_once("://")
        .unwrap()
        .1
        .split_once('/')
        .map(|(_, p)| format!("/{p}"))
        .unwrap()
}

async fn status_of(app: &TestApp, email: &str) -> Option<String> {
    sqlx::query_scalar("SELECT status FROM newsletter_subscribers WHERE email = $1")
        .bind(email)
        .fetch_optional(app.db().writer())
        .await
        .unwrap()
}

fn confirmations(mails: &[store::outbox::OutboxEntry], email: &str) -> usize {
    mails
        .iter()
        .filter(|m| m.kind == "newsletter_confirmation" && m.recipient == email)
        .count()
}

async fn double_opt_in_takes_the_link_and_a_click(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let (status, text) = sign_up(&app, &c, &nonce, " Ada@Example.TEST ", true).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("check your inbox"), "{text}");
    assert_eq!(
        status_of(&app, "ada@example.test").await.as_deref(),
        Some("pending")
    );
    let (confirm, leave) = links(&app, "ada@example.test").await;

    // Opening the link shows a page whose button confirms; it changes nothing itself.
    let res = c.get(app.url(&path_of(&confirm))).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let page = res.text().await.unwrap();
    assert!(page.contains("<form method=\"post\""), "{page}");
    assert!(page.contains("Confirm my subscription"));
    assert_eq!(
        status_of(&app, "ada@example.test").await.as_deref(),
        Some("pending")
    );
    let res = c.post(app.url(&path_of(&confirm))).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("Subscription confirmed"));
    assert_eq!(
        status_of(&app, "ada@example.test").await.as_deref(),
        Some("confirmed")
    );

    // Signing up again while confirmed: the same answer, no mail.
    let (status, again) = sign_up(&app, &c, &nonce, "ada@example.test", true).await;
    assert_eq!((status, again), (200, text.clone()));
    assert_eq!(confirmations(&outbox(&app).await, "ada@example.test"), 1);

    // A mail program's one-click unsubscription: a POST with no cookie and no page.
    let res = app
        .bare()
        .post(app.url(&path_of(&leave)))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        status_of(&app, "ada@example.test").await.as_deref(),
        Some("unsubscribed")
    );

    // Coming back asks again.
    let (status, _) = sign_up(&app, &c, &nonce, "ada@example.test", true).await;
    assert_eq!(status, 200);
    assert_eq!(
        status_of(&app, "ada@example.test").await.as_deref(),
        Some("pending")
    );
    assert_eq!(confirmations(&outbox(&app).await, "ada@example.test"), 2);

    // The staff's list: confirmed ones by default, the others by status.
    let (key, secret) = staff_key(&app, "newsletter", Permissions::Read).await;
    let list = |status: &'static str| {
        let (key, secret) = (key.clone(), secret.clone());
        let app = &app;
        async move {
            let res = app
                .bare()
                .get(app.staff(&format!("/newsletter/subscribers?status={status}")))
                .basic_auth(key, Some(secret))
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            res.json::<Vec<Value>>().await.unwrap()
        }
    };
    assert!(list("confirmed").await.is_empty());
    let pending = list("pending").await;
    assert_eq!(pending[0]["email"], "ada@example.test");
    assert_eq!(pending[0]["source"], "footer");
    assert_eq!(pending[0]["client_ip"], "127.0.0.1");
    let res = app
        .bare()
        .get(app.staff("/newsletter/subscribers"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    app.stop().await;
}

async fn sign_ups_and_links_are_refused_when_they_should_be(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let (status, text) = sign_up(&app, &c, "", "eve@example.test", true).await;
    assert_eq!(status, 403, "{text}");
    let other = app.nonce(&app.shopper()).await;
    assert_eq!(
        sign_up(&app, &c, &other, "eve@example.test", true).await.0,
        403,
        "another session's nonce"
    );
    let (status, text) = sign_up(&app, &c, &nonce, "eve@", true).await;
    assert_eq!(
        (status, text.as_str()),
        (400, "<p>Please enter a valid e-mail address.</p>")
    );
    let (status, text) = sign_up(&app, &c, &nonce, "eve@example.test", false).await;
    assert_eq!(
        (status, text.as_str()),
        (400, "<p>Please accept the privacy policy to subscribe.</p>")
    );
    assert_eq!(c.get(app.url(SIGN_UP)).send().await.unwrap().status(), 405);
    let res = c
        .post(app.url(SIGN_UP))
        .header("origin", "https://attacker.example")
        .header("sec-fetch-site", "cross-site")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("ne=eve%40example.test&ny=1&_wpnonce={nonce}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403, "a sign-up from another site");
    assert!(outbox(&app).await.is_empty(), "nothing was mailed");

    // Three sign-ups an hour per address: no one floods a mailbox.
    for _ in 0..3 {
        assert_eq!(
            sign_up(&app, &c, &nonce, "bob@example.test", true).await.0,
            200
        );
    }
    let (status, text) = sign_up(&app, &c, &nonce, "bob@example.test", true).await;
    assert_eq!(status, 429, "{text}");
    assert_eq!(confirmations(&outbox(&app).await, "bob@example.test"), 3);

    // Links: forged, for another purpose, expired.
    let (confirm, leave) = links(&app, "bob@example.test").await;
    let forged = path_of(&confirm).replace("&nk=", "&nk=9");
    let res = c.post(app.url(&forged)).send().await.unwrap();
    assert_eq!(res.status(), 400);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("not valid, or it has expired"));
    let swapped = path_of(&leave).replace("na=u", "na=c");
    assert_eq!(
        c.post(app.url(&swapped)).send().await.unwrap().status(),
        400,
        "an unsubscribe token does not confirm"
    );
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM newsletter_subscribers WHERE email = 'bob@example.test'",
    )
    .fetch_one(app.db().writer())
    .await
    .unwrap();
    let key = app
        .server
        .as_ref()
        .unwrap()
        .state
        .keys
        .derive("newsletter-links");
    let expired = token(
        &key,
        Purpose::Confirm,
        id,
        "bob@example.test",
        rules::clock::now() - 1,
    );
    assert_eq!(
        c.post(app.url(&format!("/?na=c&nk={expired}")))
            .send()
            .await
            .unwrap()
            .status(),
        400
    );
    let fresh = token(
        &key,
        Purpose::Confirm,
        id,
        "bob@example.test",
        rules::clock::now() + 60,
    );
    assert_eq!(
        c.post(app.url(&format!("/?na=c&nk={fresh}")))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(
        c.get(app.url("/?na=c&nk=nonsense"))
            .send()
            .await
            .unwrap()
            .status(),
        400
    );
    assert_eq!(
        status_of(&app, "bob@example.test").await.as_deref(),
        Some("confirmed")
    );
    app.stop().await;
}

on_both_databases!(
    double_opt_in_takes_the_link_and_a_click,
    sign_ups_and_links_are_refused_when_they_should_be,
);
