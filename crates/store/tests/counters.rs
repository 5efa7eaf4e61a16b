//! On SQLite the rate-limit counters live in a file of their own beside the shop's:
//! they count there, survive a restart, and a file that cannot be read is started
//! afresh instead of stopping the shop.

use ferroshop_store::{rate_limits, Db};

fn temp_db(name: &str) -> (String, std::path::PathBuf) {
    let dir =
        std::env::temp_dir().join(format!("ferroshop-counters-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    (format!("sqlite://{}", dir.join("shop.db").display()), dir)
}

async fn open(url: &str) -> Db {
    let db = Db::connect(url).await.unwrap();
    db.migrate().await.unwrap();
    db
}

#[tokio::test]
async fn counters_count_in_their_own_file_and_outlive_a_restart() {
    let (url, dir) = temp_db("restart");
    let db = open(&url).await;
    let keys = [
        ("lookup:ip:10.0.0.1", 60),
        ("lookup:email:a@example.test", 3600),
    ];
    for n in 1..=3 {
        let counts = rate_limits::hit_all(&db, &keys, 1000 + n).await.unwrap();
        assert_eq!(counts, vec![(n, 1001), (n, 1001)]);
    }
    assert!(dir.join("shop.db.limits").exists());
    // The shop's own file no longer holds them.
    let tables: Vec<String> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE name = 'rate_limits'")
            .fetch_all(db.reader())
            .await
            .unwrap();
    assert!(tables.is_empty(), "{tables:?}");
    db.close().await;

    let db = open(&url).await;
    let counts = rate_limits::hit_all(&db, &keys[..1], 1010).await.unwrap();
    assert_eq!(
        counts,
        vec![(4, 1001)],
        "the window goes on after a restart"
    );
    // A window older than its length starts again.
    let counts = rate_limits::hit_all(&db, &keys[..1], 1062).await.unwrap();
    assert_eq!(counts, vec![(1, 1062)]);
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn an_unreadable_counters_file_is_started_afresh() {
    let (url, dir) = temp_db("damaged");
    std::fs::write(
        dir.join("shop.db.limits"),
        b"this is not a database, it is what a crash left behind".repeat(200),
    )
    .unwrap();
    let db = open(&url).await;
    let counts = rate_limits::hit_all(&db, &[("login:ip:10.0.0.2", 60)], 500)
        .await
        .unwrap();
    assert_eq!(counts, vec![(1, 500)]);
    db.close().await;
    let _ = std::fs::remove_dir_all(dir);
}
