//! The shop owner's commands, run as the built `ferroshop` binary against the test
//! shop's database while the shop runs, on both databases: orders listed, shown and
//! moved through their lifecycle, API keys made and revoked.

mod common;

use std::process::Output;

use common::*;
use rules::catalog::model::{ProductId, StockStatus};

/// Runs `ferroshop ARGS --database <the test shop's>`.
async fn ferroshop(app: &TestApp, args: &[&str]) -> Output {
    let database = config(app).database_url.clone();
    let dir = app.dir.clone();
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_ferroshop"))
            .args(&args)
            .arg("--database")
            .arg(database)
            .current_dir(dir)
            .env_remove("FERROSHOP_CONFIG")
            .env_remove("FERROSHOP_DATABASE_URL")
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a command that must succeed; its output.
async fn ok(app: &TestApp, args: &[&str]) -> String {
    let o = ferroshop(app, args).await;
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

async fn orders_go_from_placed_to_completed_or_cancelled_on_the_command_line(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    store::catalog::set_stock(app.db(), ProductId(MUG), 3, StockStatus::InStock)
        .await
        .unwrap();
    let kept = place_order(&app, &[(MUG, 2)], &[], "bacs", ada_address()).await;
    let dropped = place_order(&app, &[(MUG, 1)], &[], "cheque", ada_address()).await;
    assert_eq!(stock_of(&app, MUG).await, Some(0));

    let list = ok(&app, &["orders", "list"]).await;
    let lines: Vec<&str> = list.lines().collect();
    assert!(lines[0].starts_with("Order"), "{list}");
    assert!(
        lines[1].starts_with(&format!("#{dropped} ")),
        "newest first: {list}"
    );
    assert!(lines[2].starts_with(&format!("#{kept} ")), "{list}");
    assert!(lines[2].contains("On hold"), "{list}");
    assert!(
        lines[2].contains("Ada Lovelace <ada@example.test>"),
        "{list}"
    );
    assert!(lines[2].contains("$24.00"), "{list}");
    assert!(list.contains("1–2 of 2 orders, page 1 of 1"), "{list}");
    assert_eq!(
        ok(&app, &["orders", "list", "--status", "completed"]).await,
        "No orders.\n"
    );

    let kept_id = kept.to_string();
    let out = ok(
        &app,
        &[
            "orders",
            "set-status",
            &kept_id,
            "processing",
            "--note",
            "Transfer arrived.",
        ],
    )
    .await;
    assert!(
        out.starts_with(&format!("Order #{kept} is now Processing (was On hold).")),
        "{out}"
    );
    let out = ok(&app, &["orders", "set-status", &kept_id, "completed"]).await;
    assert!(out.contains("The customer's mail is queued"), "{out}");
    let mail = &outbox(&app).await[0];
    assert_eq!(mail.kind, "customer_completed_order");
    assert_eq!(mail.recipient, "ada@example.test");
    assert_eq!(status_of(&app, kept).await, "completed");

    ok(
        &app,
        &["orders", "set-status", &dropped.to_string(), "cancelled"],
    )
    .await;
    assert_eq!(status_of(&app, dropped).await, "cancelled");
    assert_eq!(
        stock_of(&app, MUG).await,
        Some(1),
        "the cancelled order's mug is back"
    );

    let shown = ok(&app, &["orders", "show", &kept_id]).await;
    for expected in [
        format!("Order #{kept} — Completed"),
        "Direct bank transfer (bacs)".to_string(),
        "1 Main St".to_string(),
        "2 × Mug [sku-41]".to_string(),
        "$24.00".to_string(),
        "staff (command line): Transfer arrived. Order status changed from On hold to Processing."
            .to_string(),
        "staff (command line): Order status changed from Processing to Completed.".to_string(),
        "system: Awaiting BACS payment".to_string(),
    ] {
        assert!(shown.contains(&expected), "{expected:?} in\n{shown}");
    }
    let totals = ok(&app, &["orders", "list", "--status", "completed,cancelled"]).await;
    assert!(totals.contains("of 2 orders"), "{totals}");

    // Refused and failed: status 1, one line.
    let o = ferroshop(&app, &["orders", "set-status", &kept_id, "completed"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("ferroshop: order {kept}: The order is already completed.\n")
    );
    let o = ferroshop(&app, &["orders", "show", "999999"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "ferroshop: there is no order #999999\n");
    // A mistake in the command: status 2.
    let o = ferroshop(&app, &["orders", "set-status", &kept_id, "shipped"]).await;
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    let o = ferroshop(&app, &["orders", "frobnicate"]).await;
    assert_eq!(o.status.code(), Some(2));
    app.stop().await;
}

async fn api_keys_are_made_listed_and_revoked_on_the_command_line(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let out = ok(
        &app,
        &[
            "api-keys",
            "create",
            "--description",
            "Warehouse",
            "--permissions",
            "read_write",
        ],
    )
    .await;
    let field = |label: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(label))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("{label} in {out}"))
    };
    let key = field("Consumer key:");
    let secret = field("Consumer secret:");
    assert!(key.starts_with("ck_") && secret.starts_with("cs_"), "{out}");
    // The shop keeps neither.
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT key_digest || secret_digest FROM api_keys")
            .fetch_all(app.db().reader())
            .await
            .unwrap();
    assert!(!stored[0].contains(&key[3..]) && !stored[0].contains(&secret[3..]));

    let staff_get = || {
        app.bare()
            .get(app.staff("/orders"))
            .basic_auth(&key, Some(&secret))
            .send()
    };
    assert_eq!(staff_get().await.unwrap().status(), 200);
    let list = ok(&app, &["api-keys", "list"]).await;
    let line = list.lines().nth(1).unwrap();
    for expected in [
        "Warehouse",
        "read_write",
        &format!("…{}", &key[key.len() - 7..]),
        "active",
    ] {
        assert!(line.contains(expected), "{expected} in {list}");
    }
    assert!(!list.contains(&key) && !list.contains(&secret));

    assert_eq!(
        ok(&app, &["api-keys", "revoke", "1"]).await,
        "API key 1 revoked.\n"
    );
    assert_eq!(staff_get().await.unwrap().status(), 401);
    assert!(ok(&app, &["api-keys", "list"]).await.contains("revoked"));
    let o = ferroshop(&app, &["api-keys", "revoke", "1"]).await;
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "ferroshop: there is no active API key 1\n");
    let o = ferroshop(&app, &["api-keys", "create", "--permissions", "all"]).await;
    assert_eq!(o.status.code(), Some(2));
    app.stop().await;
}

on_both_databases!(
    orders_go_from_placed_to_completed_or_cancelled_on_the_command_line,
    api_keys_are_made_listed_and_revoked_on_the_command_line,
);
