//! Contact forms through the real server, on both databases: a form added by staff,
//! drawn for the storefront (never with its quiz's answers), its schema and refill;
//! sending it as multipart with files, each status the original answers (sent,
//! invalid, unaccepted, spam, a wrong quiz answer), the mail queued with its reply
//! address and files and the submission kept for staff; and every refusal (no nonce,
//! another session's nonce, another site, not multipart, no unit tag, bodies and
//! files too large, unreadable bodies, the rate limit).

mod common;

use common::*;
use rules::staff::Permissions;
use serde_json::{json, Value};

const ROOT: &str = "/wp-json/contact-form-7/v1";
/// The demo form with a file field, a quiz and a honeypot, added through the staff API.
async fn add_form(app: &TestApp) -> i64 {
    let (key, secret) = staff_key(app, "contact", Permissions::ReadWrite).await;
    let mut def = serde_json::to_value(rules::contact::form::demo_form()).unwrap();
    let fields = def["fields"].as_array_mut().unwrap();
    fields.push(
        json!({"type": "file", "name": "your-file", "filetypes": ["pdf", "txt"], "limit": 2048}),
    );
    fields.push(json!({"type": "quiz", "name": "your-quiz", "questions": [{"question": "What is 2 + 3?", "answers": ["5", "five"]}]}));
    def["honeypot"] = json!("your-website");
    let res = app
        .bare()
        .post(app.url(&format!("{ROOT}/contact-forms")))
        .basic_auth(&key, Some(&secret))
        .json(&json!({"title": "Write to us", "definition": def}))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(res).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["title"], "Write to us");
    body["id"].as_i64().unwrap()
}

fn multipart_type() -> String {
    format!("multipart/form-data; boundary={BOUNDARY}")
}

/// Posts `body` as `content_type`.
async fn post_body(
    c: &reqwest::Client,
    url: impl reqwest::IntoUrl,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    c.post(url)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn answer(res: reqwest::Response) -> (u16, Value) {
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    let json =
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text:?}"));
    (status, json)
}

/// A visitor with the form drawn: their browser, the form's nonce and quiz.
struct Visitor<'a> {
    app: &'a TestApp,
    c: reqwest::Client,
    form: i64,
    nonce: String,
    quiz_token: String,
}

impl<'a> Visitor<'a> {
    async fn new(app: &'a TestApp, form: i64) -> Visitor<'a> {
        let c = app.shopper();
        let res = c
            .get(app.url(&format!("/wp-json/ferroshop/v1/contact-forms/{form}")))
            .send()
            .await
            .unwrap();
        let (status, drawn) = answer(res).await;
        assert_eq!(status, 200, "{drawn}");
        Visitor {
            app,
            c,
            form,
            nonce: drawn["nonce"].as_str().unwrap().to_string(),
            quiz_token: drawn["quiz"]["your-quiz"][1].as_str().unwrap().to_string(),
        }
    }

    fn hidden(&self) -> Vec<(String, String)> {
        vec![
            ("_wpcf7".into(), self.form.to_string()),
            ("_wpcf7_version".into(), "5.9.8".into()),
            ("_wpcf7_locale".into(), "en_US".into()),
            ("_wpcf7_unit_tag".into(), format!("wpcf7-f{}-o1", self.form)),
            ("_wpcf7_container_post".into(), "0".into()),
            ("_wpcf7_posted_data_hash".into(), String::new()),
            ("_wpnonce".into(), self.nonce.clone()),
            (
                "_wpcf7_quiz_answer_your-quiz".into(),
                self.quiz_token.clone(),
            ),
        ]
    }

    /// A complete, valid message; `change` adjusts the fields before sending.
    fn fields(&self) -> Vec<(String, String)> {
        let mut f = self.hidden();
        f.extend(
            [
                ("your-name", "Ada Lovelace"),
                ("your-email", "ada@example.test"),
                ("your-subject", "Engines"),
                ("your-message", "Do you ship analytical engines?\nThanks."),
                ("your-consent", "1"),
                ("your-quiz", "Five"),
                ("your-website", ""),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        f
    }

    async fn send_with(&self, fields: &[(String, String)], files: &[Part<'_>]) -> (u16, Value) {
        let mut parts: Vec<Part> = fields.iter().map(|(k, v)| Part::Text(k, v)).collect();
        for f in files {
            if let Part::File(a, b, c, d) = f {
                parts.push(Part::File(a, b, c, d));
            }
        }
        let url = self
            .app
            .url(&format!("{ROOT}/contact-forms/{}/feedback", self.form));
        answer(post_body(&self.c, url, &multipart_type(), multipart(&parts)).await).await
    }

    async fn send(&self, change: impl FnOnce(&mut Vec<(String, String)>)) -> (u16, Value) {
        let mut fields = self.fields();
        change(&mut fields);
        self.send_with(&fields, &[]).await
    }
}

fn set(fields: &mut Vec<(String, String)>, name: &str, value: &str) {
    fields.retain(|(k, _)| k != name);
    fields.push((name.into(), value.into()));
}

async fn a_form_is_drawn_with_its_schema_and_a_quiz_but_never_its_answers(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = add_form(&app).await;
    let res = app
        .shopper()
        .get(app.url(&format!("/wp-json/ferroshop/v1/contact-forms/{id}")))
        .send()
        .await
        .unwrap();
    assert!(
        res.headers().get("set-cookie").is_some(),
        "a new visitor gets the session its nonce is bound to"
    );
    let (status, drawn) = answer(res).await;
    assert_eq!(status, 200);
    let names: Vec<&str> = drawn["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "your-name",
            "your-email",
            "your-subject",
            "your-message",
            "your-consent",
            "your-file",
            "your-quiz"
        ]
    );
    let text = drawn.to_string();
    assert!(
        !text.contains("five") && !text.contains("\"answers\""),
        "{text}"
    );
    assert_eq!(drawn["quiz"]["your-quiz"][0], "What is 2 + 3?");
    assert_eq!(drawn["honeypot"], "your-website");
    assert!(!drawn["nonce"].as_str().unwrap().is_empty());

    let (status, schema) = answer(
        app.bare()
            .get(app.url(&format!("{ROOT}/contact-forms/{id}/feedback/schema")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(schema["locale"], "en_US");
    let rules: Vec<(String, String)> = schema["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["rule"].as_str().unwrap().to_string(),
                r["field"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    for expected in [
        ("required", "your-name"),
        ("email", "your-email"),
        ("file", "your-file"),
        ("maxfilesize", "your-file"),
    ] {
        assert!(
            rules.contains(&(expected.0.into(), expected.1.into())),
            "{expected:?} in {rules:?}"
        );
    }
    let required = schema["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rule"] == "required")
        .unwrap();
    assert_eq!(required["error"], "Please fill out this field.");

    let (status, refill) = answer(
        app.bare()
            .get(app.url(&format!("{ROOT}/contact-forms/{id}/refill")))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(refill["quiz"]["your-quiz"][0], "What is 2 + 3?");

    for path in [
        format!("{ROOT}/contact-forms/999/feedback/schema"),
        format!("{ROOT}/contact-forms/abc/refill"),
        "/wp-json/ferroshop/v1/contact-forms/0".to_string(),
    ] {
        let (status, body) = answer(app.bare().get(app.url(&path)).send().await.unwrap()).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["code"], "wpcf7_not_found", "{path}");
        assert_eq!(body["message"], "The requested contact form was not found.");
    }
    app.stop().await;
}

async fn a_message_is_mailed_with_its_files_and_kept_for_staff(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = add_form(&app).await;
    let v = Visitor::new(&app, id).await;
    let (status, body) = v
        .send_with(
            &v.fields(),
            &[Part::File(
                "your-file",
                "brief.pdf",
                "application/pdf",
                b"%PDF-1.4 a brief",
            )],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "mail_sent", "{body}");
    assert_eq!(
        body["message"],
        "Thank you for your message. It has been sent."
    );
    assert_eq!(body["contact_form_id"], id);
    assert_eq!(body["into"], format!("#wpcf7-f{id}-o1"));
    assert_eq!(body["invalid_fields"], json!([]));
    let hash = body["posted_data_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 64);
    assert_eq!(
        body["quiz"]["your-quiz"][0], "What is 2 + 3?",
        "a fresh question for the next message"
    );

    let mails = outbox(&app).await;
    let mail = mails
        .iter()
        .find(|m| m.kind == "contact_form")
        .expect("the shop's mail is queued");
    assert_eq!(mail.subject, "Ferroshop \"Engines\"");
    assert!(
        mail.text.contains("Do you ship analytical engines?"),
        "{}",
        mail.text
    );
    assert!(
        mail.text.contains("From: Ada Lovelace ada@example.test"),
        "{}",
        mail.text
    );
    let claimed = store::outbox::claim_due(app.db(), i64::MAX / 4, i64::MAX / 2, "test", 10)
        .await
        .unwrap();
    let claimed = claimed.iter().find(|m| m.id == mail.id).expect("claimable");
    assert_eq!(claimed.reply_to.as_deref(), Some("ada@example.test"));
    assert_eq!(claimed.attachments.len(), 1);
    assert_eq!(claimed.attachments[0].filename, "brief.pdf");
    assert_eq!(claimed.attachments[0].content, b"%PDF-1.4 a brief");
    assert!(store::outbox::mark_sent(app.db(), mail.id, "test", 1)
        .await
        .unwrap());
    let claimed_again = store::outbox::claim_due(app.db(), i64::MAX / 4, i64::MAX / 2, "other", 10)
        .await
        .unwrap();
    assert!(claimed_again.iter().all(|m| m.id != mail.id));
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM mail_attachments")
        .fetch_one(app.db().writer())
        .await
        .unwrap();
    assert_eq!(left, 0, "a sent mail's files are deleted");

    let (key, secret) = staff_key(&app, "reader", Permissions::ReadWrite).await;
    let res = app
        .bare()
        .get(app.url(&format!("{ROOT}/contact-forms/{id}/submissions")))
        .basic_auth(&key, Some(&secret))
        .send()
        .await
        .unwrap();
    let (status, list) = answer(res).await;
    assert_eq!(status, 200, "{list}");
    let kept = &list[0];
    assert_eq!(kept["status"], "mail_sent");
    assert_eq!(kept["posted_data_hash"], hash);
    assert_eq!(kept["files"][0]["name"], "brief.pdf");
    let inputs = kept["inputs"].to_string();
    assert!(
        inputs.contains("Ada Lovelace") && !inputs.contains("_wpnonce") && !inputs.contains("Five"),
        "{inputs}"
    );
    let sid = kept["id"].as_i64().unwrap();
    let res = app
        .bare()
        .get(app.url(&format!("{ROOT}/contact-forms/{id}/submissions")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401, "staff only");
    let res = app
        .bare()
        .delete(app.url(&format!("{ROOT}/contact-forms/{id}/submissions/{sid}")))
        .basic_auth(&key, Some(&secret))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = app
        .bare()
        .delete(app.url(&format!("{ROOT}/contact-forms/{id}/submissions/{sid}")))
        .basic_auth(&key, Some(&secret))
        .send()
        .await
        .unwrap();
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("wpcf7_submission_not_found"))
    );
    app.stop().await;
}

async fn each_status_is_answered_as_the_original_answers_it(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = add_form(&app).await;
    let v = Visitor::new(&app, id).await;

    let (status, body) = v
        .send(|f| {
            set(f, "your-name", "  ");
            set(f, "your-email", "ada@");
        })
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "validation_failed");
    assert_eq!(
        body["message"],
        "One or more fields have an error. Please check and try again."
    );
    assert_eq!(body["posted_data_hash"], "");
    let invalid = body["invalid_fields"].as_array().unwrap();
    assert_eq!(invalid[0]["field"], "your-name");
    assert_eq!(invalid[0]["message"], "Please fill out this field.");
    assert_eq!(
        invalid[0]["error_id"],
        format!("wpcf7-f{id}-o1-ve-your-name")
    );
    assert_eq!(invalid[1]["field"], "your-email");
    assert_eq!(invalid[1]["message"], "Please enter an email address.");

    let (_, body) = v.send(|f| set(f, "your-quiz", "four")).await;
    assert_eq!(body["status"], "validation_failed");
    assert_eq!(body["invalid_fields"][0]["field"], "your-quiz");
    assert_eq!(
        body["invalid_fields"][0]["message"],
        "The answer to the quiz is incorrect."
    );
    let (_, body) = v
        .send(|f| set(f, "_wpcf7_quiz_answer_your-quiz", &"0".repeat(64)))
        .await;
    assert_eq!(body["status"], "validation_failed", "a forged quiz token");

    let (_, body) = v.send(|f| f.retain(|(k, _)| k != "your-consent")).await;
    assert_eq!(body["status"], "acceptance_missing");
    assert_eq!(
        body["message"],
        "You must accept the terms and conditions before sending your message."
    );

    let (_, body) = v
        .send(|f| set(f, "your-website", "http://spam.example"))
        .await;
    assert_eq!(body["status"], "spam");
    assert_eq!(
        body["message"],
        "There was an error trying to send your message. Please try again later."
    );

    let (_, body) = v
        .send_with(
            &v.fields(),
            &[Part::File(
                "your-file",
                "tool.exe",
                "application/octet-stream",
                b"MZ",
            )],
        )
        .await;
    assert_eq!(body["status"], "validation_failed");
    assert_eq!(
        body["invalid_fields"][0]["message"],
        "You are not allowed to upload files of this type."
    );
    let big = vec![b'a'; 4000];
    let (_, body) = v
        .send_with(
            &v.fields(),
            &[Part::File("your-file", "long.txt", "text/plain", &big)],
        )
        .await;
    assert_eq!(body["status"], "validation_failed");
    assert_eq!(
        body["invalid_fields"][0]["message"],
        "The uploaded file is too large."
    );

    let mails = outbox(&app).await;
    assert!(
        mails.iter().all(|m| m.kind != "contact_form"),
        "nothing but a clean message is mailed"
    );
    let statuses: Vec<String> =
        sqlx::query_scalar("SELECT status FROM contact_submissions ORDER BY id")
            .fetch_all(app.db().writer())
            .await
            .unwrap();
    assert_eq!(
        statuses,
        ["spam"],
        "spam is kept for staff; invalid messages are not kept"
    );
    app.stop().await;
}

async fn refusals_come_in_the_apis_shape(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = add_form(&app).await;
    let v = Visitor::new(&app, id).await;
    let url = app.url(&format!("{ROOT}/contact-forms/{id}/feedback"));

    let (status, body) = v.send(|f| f.retain(|(k, _)| k != "_wpnonce")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("rest_cookie_invalid_nonce"))
    );
    let other = Visitor::new(&app, id).await;
    let (status, _) = v.send(|f| set(f, "_wpnonce", &other.nonce)).await;
    assert_eq!(status, 403, "another session's nonce");
    let (status, body) = v.send(|f| f.retain(|(k, _)| k != "_wpcf7_unit_tag")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("wpcf7_unit_tag_not_found"))
    );
    assert_eq!(body["message"], "There is no valid unit tag.");

    let res =
        v.c.post(&url)
            .json(&json!({"your-name": "Ada"}))
            .send()
            .await
            .unwrap();
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (415, Some("wpcf7_unsupported_media_type"))
    );
    let res = v.c.get(&url).send().await.unwrap();
    assert_eq!(res.status(), 405);

    let res =
        v.c.post(&url)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .header("content-length", "50000000")
            .body(vec![b'x'; 16])
            .send()
            .await;
    if let Ok(res) = res {
        assert_eq!(res.status(), 413, "a declared length past the form's most");
    }
    let huge = multipart(&[Part::Text("your-message", &"x".repeat(70_000))]);
    let res = post_body(&v.c, &url, &multipart_type(), huge).await;
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (413, Some("wpcf7_payload_too_large"))
    );
    let res = post_body(&v.c, &url, "multipart/form-data; boundary=nope", "garbage").await;
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("wpcf7_invalid_payload"))
    );
    let res = post_body(&v.c, &url, "multipart/form-data", "garbage").await;
    assert_eq!(res.status(), 400, "no boundary");

    let fields = multipart(
        &v.fields()
            .iter()
            .map(|(k, val)| Part::Text(k, val))
            .collect::<Vec<_>>(),
    );
    let res =
        v.c.post(&url)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .header("origin", "https://attacker.example")
            .header("sec-fetch-site", "cross-site")
            .body(fields)
            .send()
            .await
            .unwrap();
    assert_eq!(res.status(), 403, "a form posted from another site");
    assert!(outbox(&app).await.iter().all(|m| m.kind != "contact_form"));

    // A headless client names its session with a Cart-Token, which stands in for the
    // nonce as it does for the Store API.
    let token = app.cart_token().await;
    let mut fields = v.fields();
    fields.retain(|(k, _)| k != "_wpnonce");
    let body = multipart(
        &fields
            .iter()
            .map(|(k, val)| Part::Text(k, val))
            .collect::<Vec<_>>(),
    );
    let res = app
        .bare()
        .post(&url)
        .header("cart-token", token)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (200, Some("mail_sent")),
        "{body}"
    );
    app.stop().await;
}

async fn sending_is_rate_limited_per_client_before_the_body_is_read(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let id = add_form(&app).await;
    let v = Visitor::new(&app, id).await;
    for _ in 0..20 {
        let (status, _) = v.send(|f| set(f, "your-name", "")).await;
        assert_eq!(status, 200);
    }
    let res = post_body(
        &v.c,
        app.url(&format!("{ROOT}/contact-forms/{id}/feedback")),
        &multipart_type(),
        "not even read",
    )
    .await;
    assert!(res.headers().get("retry-after").is_some());
    let (status, body) = answer(res).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("ferroshop_too_many_attempts"))
    );
    app.stop().await;
}

on_both_databases!(
    a_form_is_drawn_with_its_schema_and_a_quiz_but_never_its_answers,
    a_message_is_mailed_with_its_files_and_kept_for_staff,
    each_status_is_answered_as_the_original_answers_it,
    refusals_come_in_the_apis_shape,
    sending_is_rate_limited_per_client_before_the_body_is_read,
);
