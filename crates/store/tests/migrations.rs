//! The embedded migrations: a new database gets them all, a database made before they
//! were embedded keeps its data and is not migrated twice, and a step whose file no
//! longer matches what was applied stops the start-up.

use ferroshop_store::Db;
use sqlx::Row;

fn temp_db(name: &str) -> (String, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "ferroshop-migrations-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("shop.db");
    (format!("sqlite://{}", file.display()), dir)
}

async fn applied(db: &Db) -> Vec<i64> {
    sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
        .fetch_all(db.reader())
        .await
        .unwrap()
}

/// The steps the earlier runner knew; a database it made has exactly these.
const EARLIER_STEPS: [(i64, &str); 5] = [
    (
        1,
        include_str!("../migrations/sqlite/0001_catalog_and_sessions.sql"),
    ),
    (
        2,
        include_str!("../migrations/sqlite/0002_checkout_and_orders.sql"),
    ),
    (
        3,
        include_str!("../migrations/sqlite/0003_accounts_and_mail.sql"),
    ),
    (4, include_str!("../migrations/sqlite/0004_trust.sql")),
    (
        5,
        include_str!("../migrations/sqlite/0005_order_lifecycle.sql"),
    ),
];

/// How many migration files the SQLite set holds.
fn step_count() -> i64 {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/sqlite");
    let count = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "sql")
        })
        .count();
    assert!(count >= EARLIER_STEPS.len());
    count as i64
}

#[tokio::test]
async fn a_new_database_gets_every_step_once() {
    let (url, dir) = temp_db("new");
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db.migrate().await.unwrap();
    let versions = applied(&db).await;
    assert_eq!(versions, (1..=step_count()).collect::<Vec<_>>());
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_database_from_the_earlier_runner_is_adopted_with_its_data() {
    let (url, dir) = temp_db("adopt");
    let db = Db::connect(&url).await.unwrap();
    // The schema as the earlier runner left it, with a row of shop data.
    sqlx::raw_sql(
        "CREATE TABLE ferroshop_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    )
    .execute(db.writer())
    .await
    .unwrap();
    for (version, sql) in EARLIER_STEPS {
        sqlx::raw_sql(sql).execute(db.writer()).await.unwrap();
        sqlx::query(
            "INSERT INTO ferroshop_migrations (version, name, applied_at) VALUES ($1, 'x', 0)",
        )
        .bind(version)
        .execute(db.writer())
        .await
        .unwrap();
    }
    sqlx::query("INSERT INTO settings (name, value) VALUES ('kept', 'yes')")
        .execute(db.writer())
        .await
        .unwrap();

    db.migrate().await.unwrap();

    // The adopted steps count as applied, and the later ones run.
    assert_eq!(applied(&db).await, (1..=step_count()).collect::<Vec<_>>());
    let kept: String = sqlx::query("SELECT value FROM settings WHERE name = 'kept'")
        .fetch_one(db.reader())
        .await
        .unwrap()
        .get(0);
    assert_eq!(kept, "yes");
    let old_table: Option<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'ferroshop_migrations'",
    )
    .fetch_optional(db.reader())
    .await
    .unwrap();
    assert_eq!(
        old_table, None,
        "the earlier records are folded into sqlx's table"
    );
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_step_changed_after_it_was_applied_stops_the_start() {
    let (url, dir) = temp_db("changed");
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    sqlx::query("UPDATE _sqlx_migrations SET checksum = $1 WHERE version = 2")
        .bind(vec![0u8; 48])
        .execute(db.writer())
        .await
        .unwrap();
    let err = db.migrate().await.unwrap_err().to_string();
    assert!(err.contains("migration 2"), "{err}");
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
