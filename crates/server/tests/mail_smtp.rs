//! E-mail through a real SMTP server on loopback (`scripts/smtp-sink.py`, which keeps
//! every message it receives as a file): a reset mail arrives with its text and HTML
//! parts, and a mail that could not be sent is retried and arrives once the server is
//! up. On both databases.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use mail::SmtpTls;
use serde_json::{json, Value};

/// The sink, running until dropped.
struct SmtpSink {
    child: Child,
    dir: PathBuf,
}

impl SmtpSink {
    fn start(port: u16) -> SmtpSink {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let python = root.join(".venv/bin/python");
        assert!(
            python.exists(),
            "{} is missing: run scripts/ensure-python-tools (make test-rust runs it) to install the SMTP sink the mail tests need",
            python.display()
        );
        let dir =
            std::env::temp_dir().join(format!("ferroshop-mail-{port}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut child = Command::new(&python)
            .arg(root.join("scripts/smtp-sink.py"))
            .args(["--port", &port.to_string(), "--exit-with-stdin", "--dir"])
            .arg(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the SMTP sink starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP sink did not start");
        SmtpSink { child, dir }
    }

    fn messages(&self) -> Vec<String> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        names.sort();
        names
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    }

    async fn wait_for(&self, count: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let found = self.messages();
            if found.len() >= count || Instant::now() > deadline {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A header's value (the first line of it).
fn header<'a>(message: &'a str, name: &str) -> Option<&'a str> {
    message
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

/// The parts of a multipart message: (content type, decoded body).
fn parts(message: &str) -> Vec<(String, String)> {
    let message = message.replace("\r\n", "\n");
    let boundary = message
        .split("boundary=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a multipart message");
    message
        .split(&format!("--{boundary}"))
        .skip(1)
        .filter(|p| !p.starts_with("--"))
        .map(|part| {
            let (head, body) = part.trim_start_matches('\n').split_once("\n\n").unwrap();
            let content_type = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Type: "))
                .unwrap_or("")
                .to_string();
            let encoding = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Transfer-Encoding: "))
                .unwrap_or("7bit");
            let body = match encoding {
                "quoted-printable" => decode_quoted_printable(body),
                "base64" => {
                    use base64::Engine;
                    let joined: String = body.split_whitespace().collect();
                    String::from_utf8(
                        base64::engine::general_purpose::STANDARD
                            .decode(joined)
                            .unwrap(),
                    )
                    .unwrap()
                }
                _ => body.to_string(),
            };
            (content_type, body)
        })
        .collect()
}

fn decode_quoted_printable(text: &str) -> String {
    let joined = text.replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 3 <= bytes.len() {
            if let Ok(b) = u8::from_str_radix(&joined[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap()
}

/// The outbox once nothing in it is queued any more (a message reaches the sink a
/// moment before the sender hears back and records it), or after a while.
async fn settled(app: &TestApp) -> Vec<store::outbox::OutboxEntry> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let rows = outbox(app).await;
        if rows.iter().all(|r| r.status != "queued") || Instant::now() > deadline {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn post(app: &TestApp, c: &reqwest::Client, nonce: &str, path: &str, body: Value) -> u16 {
    c.post(app.url(&format!("/wp-json/ferroshop/v1{path}")))
        .header("Nonce", nonce)
        .json(&body)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Registers ada@example.test and asks for a reset mail, from a second browser.
async fn register_and_ask_for_a_reset(app: &TestApp) {
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let body =
        json!({"email": "ada@example.test", "password": "correct horse 1", "first_name": "Ada"});
    assert_eq!(post(app, &c, &nonce, "/account/register", body).await, 201);
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let body = json!({"user_login": "ada@example.test"});
    assert_eq!(
        post(app, &c, &nonce, "/account/lost-password", body).await,
        200
    );
}

fn smtp_to(port: u16) -> impl FnOnce(&mut ferroshop::config::Config) {
    move |c| {
        c.shop_name = "Lumen & Loom".into();
        c.public_url = Some("https://shop.example".into());
        c.mail.smtp_host = "127.0.0.1".into();
        c.mail.smtp_port = port;
        c.mail.smtp_tls = SmtpTls::None;
        c.mail.from = "Lumen & Loom <hello@lumen.example>".into();
    }
}

async fn a_reset_mail_arrives_with_text_and_html(backend: Backend) {
    let port = free_port();
    let sink = SmtpSink::start(port);
    let Some(app) = spawn_app_with(backend, smtp_to(port)).await else {
        return;
    };
    register_and_ask_for_a_reset(&app).await;
    let messages = sink.wait_for(2).await;
    assert_eq!(messages.len(), 2, "the welcome and the reset mail");
    let reset = messages
        .iter()
        .find(|m| header(m, "Subject") == Some("Password Reset Request for Lumen & Loom"))
        .expect("the reset mail");
    assert_eq!(header(reset, "To"), Some("ada@example.test"));
    assert!(header(reset, "From")
        .unwrap()
        .contains("<hello@lumen.example>"));
    assert!(header(reset, "Message-ID")
        .unwrap()
        .ends_with("@lumen.example>"));
    assert!(reset.contains("multipart/alternative"));
    let parts = parts(reset);
    assert_eq!(parts.len(), 2);
    assert!(parts[0].0.starts_with("text/plain"), "{:?}", parts[0].0);
    assert!(parts[1].0.starts_with("text/html"), "{:?}", parts[1].0);
    let (text, html) = (&parts[0].1, &parts[1].1);
    assert!(
        text.starts_with("Password Reset Request\n\nHi Ada,\n"),
        "{text}"
    );
    assert!(text.contains("Username: ada@example.test"));
    assert!(text.contains(
        "Click here to reset your password: https://shop.example/my-account/lost-password/?key="
    ));
    assert!(html.contains("Lumen &amp; Loom"));
    assert!(html.contains("href=\"https://shop.example/my-account/lost-password/?key="));

    let rows = settled(&app).await;
    assert!(rows
        .iter()
        .all(|r| r.status == "sent" && r.attempts == 1 && r.sent_at.is_some()));
    app.stop().await;
}

async fn a_mail_that_cannot_be_sent_is_retried_until_it_arrives(backend: Backend) {
    let port = free_port();
    let Some(app) = spawn_app_with(backend, smtp_to(port)).await else {
        return;
    };
    register_and_ask_for_a_reset(&app).await;
    // Nothing listens yet: each attempt fails and is put off by a minute.
    let deadline = Instant::now() + Duration::from_secs(15);
    let failed = loop {
        let rows = outbox(&app).await;
        if rows.len() == 2
            && rows
                .iter()
                .all(|r| r.attempts == 1 && r.last_error.is_some())
        {
            break rows;
        }
        assert!(
            Instant::now() < deadline,
            "no failed attempt recorded: {rows:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let now = rules::clock::now();
    for row in &failed {
        assert_eq!(row.status, "queued");
        assert!(
            (now + 55..=now + 61).contains(&row.next_attempt_at),
            "retry in a minute: {row:?}"
        );
    }

    let sink = SmtpSink::start(port);
    // Skip the minute's wait, then nudge the sender.
    sqlx::query("UPDATE mail_outbox SET next_attempt_at = 0 WHERE status = 'queued'")
        .execute(app.db().writer())
        .await
        .unwrap();
    mail::wake();
    let messages = sink.wait_for(2).await;
    assert_eq!(messages.len(), 2);
    assert!(messages
        .iter()
        .any(|m| header(m, "Subject") == Some("Password Reset Request for Lumen & Loom")));
    let rows = settled(&app).await;
    for row in &rows {
        assert_eq!(row.status, "sent", "{row:?}");
        assert_eq!(row.attempts, 2);
    }
    app.stop().await;
}

async fn a_mail_queued_in_a_rolled_back_transaction_is_never_sent(backend: Backend) {
    let port = free_port();
    let sink = SmtpSink::start(port);
    let Some(app) = spawn_app_with(backend, smtp_to(port)).await else {
        return;
    };
    let ctx = mail::MailContext::new("Lumen & Loom", "https://shop.example");
    let welcome = |to: &str| mail::account::new_account(&ctx, "Ada", to);
    let mut tx = app.db().begin_write().await.unwrap();
    mail::queue_in(
        &mut tx,
        "customer_new_account",
        "ada@example.test",
        &welcome("ada@example.test"),
    )
    .await
    .unwrap();
    tx.rollback().await.unwrap();
    let mut tx = app.db().begin_write().await.unwrap();
    mail::queue_in(
        &mut tx,
        "customer_new_account",
        "bob@example.test",
        &welcome("bob@example.test"),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    mail::wake();
    let messages = sink.wait_for(1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let messages = if messages.len() == 1 {
        sink.messages()
    } else {
        messages
    };
    assert_eq!(messages.len(), 1);
    assert_eq!(header(&messages[0], "To"), Some("bob@example.test"));
    assert_eq!(settled(&app).await.len(), 1);
    app.stop().await;
}

async fn a_sent_reset_mail_leaves_no_usable_key_in_the_database(backend: Backend) {
    let port = free_port();
    let sink = SmtpSink::start(port);
    let Some(app) = spawn_app_with(backend, smtp_to(port)).await else {
        return;
    };
    register_and_ask_for_a_reset(&app).await;
    let messages = sink.wait_for(2).await;
    let reset = messages
        .iter()
        .find(|m| header(m, "Subject") == Some("Password Reset Request for Lumen & Loom"))
        .expect("the reset mail");
    let text = &parts(reset)[0].1;
    let key = text
        .split("?key=")
        .nth(1)
        .and_then(|rest| rest.split('&').next())
        .expect("a key in the link")
        .to_string();
    assert!(key.len() >= 40, "{key}");
    let rows = settled(&app).await;
    let sent = rows
        .iter()
        .find(|r| r.kind == "customer_reset_password")
        .unwrap();
    assert_eq!(sent.status, "sent");
    assert_eq!(sent.text, store::outbox::REMOVED_TEXT);
    // Nowhere in the database can the key be read.
    let like = format!("%{key}%");
    let found: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM mail_outbox WHERE text LIKE $1 OR html LIKE $1 OR subject LIKE $1",
    )
    .bind(&like)
    .fetch_one(app.db().reader())
    .await
    .unwrap();
    assert_eq!(found, 0);
    let stored: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM password_resets WHERE token_hash LIKE $1")
            .bind(&like)
            .fetch_one(app.db().reader())
            .await
            .unwrap();
    assert_eq!(stored, 0);
    // The key the customer received still works, once.
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let reset_body = json!({"login": "ada@example.test", "key": key, "password": "a new horse 22", "password_confirm": "a new horse 22"});
    assert_eq!(
        post(
            &app,
            &c,
            &nonce,
            "/account/reset-password",
            reset_body.clone()
        )
        .await,
        200
    );
    assert_eq!(
        post(&app, &c, &nonce, "/account/reset-password", reset_body).await,
        400
    );
    app.stop().await;
}

async fn a_contact_message_arrives_with_its_reply_address_and_file(backend: Backend) {
    let port = free_port();
    let sink = SmtpSink::start(port);
    let Some(app) = spawn_app_with(backend, smtp_to(port)).await else {
        return;
    };
    let mut form = rules::contact::form::demo_form();
    let mut file =
        rules::contact::form::Field::new(rules::contact::form::FieldKind::File, "your-file");
    file.accept = vec!["txt".into()];
    form.fields.push(file);
    let definition = serde_json::to_string(&form).unwrap();
    let id = store::contact::create_form(app.db(), "Write to us", &definition, 0)
        .await
        .unwrap();
    let c = app.shopper();
    let drawn: Value = c
        .get(app.url(&format!("/wp-json/ferroshop/v1/contact-forms/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let tag = format!("wpcf7-f{id}-o1");
    let body = multipart(&[
        Part::Text("_wpcf7_unit_tag", &tag),
        Part::Text("_wpnonce", drawn["nonce"].as_str().unwrap()),
        Part::Text("your-name", "Ada Lovelace"),
        Part::Text("your-email", "ada@example.test"),
        Part::Text("your-subject", "Engines\r\nBcc: everyone@example.test"),
        Part::Text("your-message", "Do you ship analytical engines?"),
        Part::Text("your-consent", "1"),
        Part::File(
            "your-file",
            "notes.txt",
            "text/plain",
            b"Bernoulli numbers, please.",
        ),
    ]);
    let res = c
        .post(app.url(&format!(
            "/wp-json/contact-form-7/v1/contact-forms/{id}/feedback"
        )))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .send()
        .await
        .unwrap();
    let answer: Value = res.json().await.unwrap();
    assert_eq!(answer["status"], "mail_sent", "{answer}");
    let messages = sink.wait_for(1).await;
    assert_eq!(messages.len(), 1);
    let message = &messages[0];
    assert_eq!(header(message, "To"), Some("hello@lumen.example"));
    assert_eq!(header(message, "Reply-To"), Some("ada@example.test"));
    assert!(
        header(message, "Bcc").is_none(),
        "no header from the visitor's words"
    );
    assert!(
        header(message, "Subject").unwrap().contains("Engines"),
        "{message}"
    );
    assert!(message.contains("multipart/mixed"), "{message}");
    assert!(message.contains("filename=\"notes.txt\""), "{message}");
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(b"Bernoulli numbers, please.");
    let unfolded = message.replace("\r\n", "").replace("=\n", "");
    assert!(
        unfolded.contains(&encoded) || unfolded.contains("Bernoulli numbers, please."),
        "{message}"
    );
    let rows = settled(&app).await;
    assert!(rows.iter().all(|r| r.status == "sent"));
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM mail_attachments")
        .fetch_one(app.db().writer())
        .await
        .unwrap();
    assert_eq!(left, 0, "the file is deleted once it was sent");
    app.stop().await;
}

async fn a_newsletter_confirmation_arrives_with_its_unsubscribe_headers_and_its_link_confirms(
    backend: Backend,
) {
    let port = free_port();
    let sink = SmtpSink::start(port);
    let Some(app) = spawn_app_with(backend, smtp_to(port)).await else {
        return;
    };
    let c = app.shopper();
    let nonce = app.nonce(&c).await;
    let res = c
        .post(app.url("/wp-admin/admin-ajax.php?action=tnp&na=sa"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "ne=ada%40example.test&nn=Ada&ny=1&_wpnonce={nonce}"
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let messages = sink.wait_for(1).await;
    assert_eq!(messages.len(), 1);
    let message = &messages[0];
    assert_eq!(
        header(message, "Subject"),
        Some("Confirm your subscription to Lumen & Loom")
    );
    let unsubscribe = header(message, "List-Unsubscribe").expect("List-Unsubscribe");
    assert!(
        unsubscribe.starts_with("<https://shop.example/?na=u&nk="),
        "{unsubscribe}"
    );
    assert_eq!(
        header(message, "List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    let text = &parts(message)[0].1;
    let start = text
        .find("https://shop.example/?na=c&nk=")
        .expect("the confirmation link");
    let link = text[start..].split_whitespace().next().unwrap();
    let path = link.trim_start_matches("https://shop.example");
    let res = c.post(app.url(path)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let status: String = sqlx::query_scalar("SELECT status FROM newsletter_subscribers")
        .fetch_one(app.db().writer())
        .await
        .unwrap();
    assert_eq!(status, "confirmed");
    app.stop().await;
}

on_both_databases!(
    a_newsletter_confirmation_arrives_with_its_unsubscribe_headers_and_its_link_confirms,
    a_contact_message_arrives_with_its_reply_address_and_file,
    a_sent_reset_mail_leaves_no_usable_key_in_the_database,
    a_reset_mail_arrives_with_text_and_html,
    a_mail_that_cannot_be_sent_is_retried_until_it_arrives,
    a_mail_queued_in_a_rolled_back_transaction_is_never_sent,
);
