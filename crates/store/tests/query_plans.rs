//! The per-request order and session queries read through an index, not the whole
//! table, as they must at a million orders and a million sessions. Each query's plan
//! is asked of the database (EXPLAIN QUERY PLAN on SQLite; EXPLAIN on PostgreSQL with
//! sequential scans priced out, so any usable index shows).

use ferroshop_store::Db;
use sqlx::{Connection, Row};

/// (what it is, the query, its values, the index it must use: any when None).
const QUERIES: &[(&str, &str, &[i64], Option<&str>)] = &[
    (
        "the account's orders, newest first",
        "SELECT id FROM orders WHERE customer_id = $1 AND status <> 'checkout-draft'
         ORDER BY id DESC LIMIT 20 OFFSET 40",
        &[7],
        Some("orders_customer"),
    ),
    (
        "how many orders the account has",
        "SELECT COUNT(*) FROM orders WHERE customer_id = $1 AND status <> 'checkout-draft'",
        &[7],
        Some("orders_customer"),
    ),
    (
        "an order by number and billing e-mail",
        "SELECT id FROM orders WHERE id = $1 AND billing_email = 'a@example.com'
         AND status <> 'checkout-draft'",
        &[7],
        None,
    ),
    (
        "an order by id (its key is compared beside it)",
        "SELECT id, order_key FROM orders WHERE id = $1",
        &[7],
        None,
    ),
    (
        "the checkout draft of a session",
        "SELECT id FROM orders WHERE session_id = 'abc' AND status = 'checkout-draft'",
        &[],
        Some("orders_draft_session"),
    ),
    (
        "the expired-draft sweep",
        "DELETE FROM orders WHERE status = 'checkout-draft' AND updated_at < $1",
        &[1_800_000_000],
        Some("orders_status_updated"),
    ),
    (
        "a session read",
        "SELECT id, cart FROM sessions WHERE id = 'abc' AND expires_at > $1",
        &[1_800_000_000],
        None,
    ),
    (
        "a session write",
        "UPDATE sessions SET cart = '{}', version = version + 1 WHERE id = 'abc' AND version = $1",
        &[3],
        None,
    ),
    (
        "the expired-session sweep",
        "DELETE FROM sessions WHERE expires_at <= $1",
        &[1_800_000_000],
        Some("sessions_expires"),
    ),
    (
        "a customer's other sessions",
        "SELECT id FROM sessions WHERE customer_id = $1 AND id <> 'abc' AND expires_at > $2
         ORDER BY updated_at",
        &[7, 1_800_000_000],
        Some("sessions_customer"),
    ),
];

fn check(backend: &str, what: &str, plan: &str, index: Option<&str>) {
    println!("{backend} — {what}:\n{plan}\n");
    let scans_table = plan
        .lines()
        .any(|l| l.contains("Seq Scan") || (l.contains("SCAN ") && !l.contains(" USING ")));
    assert!(
        !scans_table,
        "{backend}: {what} reads the whole table:\n{plan}"
    );
    if let Some(index) = index {
        assert!(
            plan.contains(index),
            "{backend}: {what} does not use {index}:\n{plan}"
        );
    }
}

#[tokio::test]
async fn order_and_session_queries_use_an_index_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("ferroshop-plans-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = Db::connect(&format!("sqlite://{}/shop.db", dir.display()))
        .await
        .unwrap();
    db.migrate().await.unwrap();
    for (what, sql, values, index) in QUERIES {
        let explain = format!("EXPLAIN QUERY PLAN {sql}");
        let mut q = sqlx::query(&explain);
        for v in *values {
            q = q.bind(*v);
        }
        let rows = q.fetch_all(db.reader()).await.unwrap();
        let plan: Vec<String> = rows
            .iter()
            .map(|r| r.try_get::<String, _>("detail").unwrap())
            .collect();
        check("SQLite", what, &plan.join("\n"), *index);
    }
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn order_and_session_queries_use_an_index_on_postgres() {
    let Ok(base) = std::env::var("FERROSHOP_TEST_POSTGRES_URL") else {
        eprintln!("FERROSHOP_TEST_POSTGRES_URL is not set: PostgreSQL case not run");
        return;
    };
    let schema = format!("test_plans_{:x}", std::process::id());
    let admin = Db::connect(&base).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(admin.writer())
        .await
        .unwrap();
    admin.close().await;
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db.close().await;
    // One connection, so the setting holds for every EXPLAIN.
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    sqlx::query("SET enable_seqscan = off")
        .execute(&mut conn)
        .await
        .unwrap();
    for (what, sql, values, index) in QUERIES {
        let explain = format!("EXPLAIN {sql}");
        let mut q = sqlx::query(&explain);
        for v in *values {
            q = q.bind(*v);
        }
        let plan: Vec<String> = q
            .fetch_all(&mut conn)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get::<String, _>(0).unwrap())
            .collect();
        check("PostgreSQL", what, &plan.join("\n"), *index);
    }
    conn.close().await.unwrap();
}
