//! The storage functions themselves, on both databases.

mod common;

use common::*;
use rules::catalog::model::*;
use store::{catalog, sessions, settings};

async fn the_catalogue_reads_back_as_it_was_written(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let mut read = catalog::load_catalog(app.db()).await.unwrap();
    let mut written = fixture();
    for data in [&mut read, &mut written] {
        data.products.sort_by_key(|p| p.id);
        data.categories.sort_by_key(|c| c.id);
        data.brands.sort_by_key(|b| b.id);
        for m in &mut data.media {
            m.body.clear();
        }
    }
    assert_eq!(read, written);
    assert_eq!(
        catalog::count_products(app.db()).await.unwrap(),
        written.products.len() as i64
    );
    let (mime, body) = catalog::find_media(app.db(), "teal-square.svg")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(mime, "image/svg+xml");
    assert!(body.starts_with(b"<svg"));
    app.stop().await;
}

async fn the_catalogue_reads_in_slices_as_a_whole(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let whole = catalog::load_products(app.db(), None).await.unwrap();
    assert!(whole.len() > 5, "the fixture has products to slice");
    let (first, last) = catalog::product_id_range(app.db()).await.unwrap().unwrap();
    assert_eq!((first, last), (whole[0].id.0, whole[whole.len() - 1].id.0));
    let middle = first + (last - first) / 2;
    for size in [1, 2, 5, 1_000] {
        // The whole id range, and the same in two ranges read one after the other.
        for ranges in [
            vec![(0, i64::MAX)],
            vec![(first, middle), (middle + 1, last)],
        ] {
            let mut sliced = Vec::new();
            for (from, until) in ranges {
                let mut after = from - 1;
                loop {
                    let slice = catalog::load_products_after(app.db(), after, until, size)
                        .await
                        .unwrap();
                    assert!(slice.len() as i64 <= size, "a slice holds at most {size}");
                    let Some(last) = slice.last() else { break };
                    assert!(last.id.0 > after && last.id.0 <= until);
                    after = last.id.0;
                    sliced.extend(slice);
                }
            }
            assert_eq!(sliced, whole, "slices of {size} make up the catalogue");
        }
    }
    app.stop().await;
}

async fn stock_updates_bump_the_catalogue_version(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let before = catalog::catalog_version(app.db()).await.unwrap();
    catalog::set_stock(app.db(), ProductId(MUG), 7, StockStatus::InStock)
        .await
        .unwrap();
    assert_eq!(
        catalog::catalog_version(app.db()).await.unwrap(),
        before + 1
    );
    let stock = catalog::find_stock(app.db(), ProductId(MUG))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stock.quantity, Some(7));
    assert!(stock.manage_stock);
    assert!(catalog::find_stock(app.db(), ProductId(424242))
        .await
        .unwrap()
        .is_none());
    app.stop().await;
}

async fn sessions_update_only_from_the_version_read(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    // Times are relative to now: the running server sweeps sessions that expired.
    let t = rules::clock::now();
    assert!(
        sessions::insert_session(db, "t_aaaa", "{}", t + 100, t + 1000)
            .await
            .unwrap()
    );
    assert!(
        !sessions::insert_session(db, "t_aaaa", "{\"x\":1}", t + 100, t + 1000)
            .await
            .unwrap(),
        "a live session is not overwritten"
    );
    let s = sessions::find_session(db, "t_aaaa", t + 200)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.version, 1);
    assert!(
        sessions::update_cart(db, "t_aaaa", 1, "{\"items\":[]}", t + 300, t + 2000)
            .await
            .unwrap()
    );
    assert!(
        !sessions::update_cart(db, "t_aaaa", 1, "{\"lost\":true}", t + 300, t + 2000)
            .await
            .unwrap(),
        "a stale write is refused"
    );
    let s = sessions::find_session(db, "t_aaaa", t + 300)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (s.version, s.cart.as_str(), s.expires_at),
        (2, "{\"items\":[]}", t + 2000)
    );
    app.stop().await;
}

async fn expired_sessions_are_gone_and_can_start_again(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    // Times are relative to now: the running server sweeps sessions that expired.
    let t = rules::clock::now();
    sessions::insert_session(db, "t_old", "{\"items\":[1]}", t + 100, t + 500)
        .await
        .unwrap();
    sessions::insert_session(db, "t_new", "{}", t + 100, t + 5000)
        .await
        .unwrap();
    assert!(sessions::find_session(db, "t_old", t + 600)
        .await
        .unwrap()
        .is_none());
    // The same id later starts a fresh session instead of failing forever.
    assert!(
        sessions::insert_session(db, "t_old", "{}", t + 600, t + 9000)
            .await
            .unwrap()
    );
    assert_eq!(
        sessions::find_session(db, "t_old", t + 700)
            .await
            .unwrap()
            .unwrap()
            .cart,
        "{}"
    );
    sessions::insert_session(db, "t_gone", "{}", t + 100, t + 500)
        .await
        .unwrap();
    assert_eq!(sessions::delete_expired(db, t + 600).await.unwrap(), 1);
    assert!(sessions::find_session(db, "t_new", t + 600)
        .await
        .unwrap()
        .is_some());
    app.stop().await;
}

async fn an_add_to_cart_reads_stock_and_session_together(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    let t = rules::clock::now();
    catalog::set_stock(db, ProductId(MUG), 3, StockStatus::InStock)
        .await
        .unwrap();
    // No session yet: the stock alone.
    let (session, stock) = sessions::find_session_and_stock(db, "t_bbbb", t, ProductId(MUG))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(session, None);
    assert_eq!(
        stock,
        catalog::find_stock(db, ProductId(MUG))
            .await
            .unwrap()
            .unwrap()
    );
    assert_eq!(stock.quantity, Some(3));
    // Each write is seen by the very next read, as the session's own read sees it.
    sessions::insert_session(db, "t_bbbb", "{}", t, t + 1000)
        .await
        .unwrap();
    for version in 1..=20 {
        let cart = format!("{{\"n\":{version}}}");
        let (session, _) = sessions::find_session_and_stock(db, "t_bbbb", t, ProductId(MUG))
            .await
            .unwrap()
            .unwrap();
        let session = session.expect("the session just written");
        assert_eq!(session.version, version);
        assert_eq!(
            Some(&session),
            sessions::find_session(db, "t_bbbb", t)
                .await
                .unwrap()
                .as_ref()
        );
        assert!(
            sessions::update_cart(db, "t_bbbb", version, &cart, t, t + 1000)
                .await
                .unwrap()
        );
        catalog::set_stock(db, ProductId(MUG), version, StockStatus::InStock)
            .await
            .unwrap();
        let (_, stock) = sessions::find_session_and_stock(db, "t_bbbb", t, ProductId(MUG))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stock.quantity, Some(version));
    }
    // An expired session reads as none; a product that does not exist as nothing.
    let (expired, _) = sessions::find_session_and_stock(db, "t_bbbb", t + 1000, ProductId(MUG))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(expired, None);
    assert!(
        sessions::find_session_and_stock(db, "t_bbbb", t, ProductId(424242))
            .await
            .unwrap()
            .is_none()
    );
    app.stop().await;
}

/// A cart write that meets an order holding the database's write lock waits for it
/// and then lands, and hundreds of writes in a row are each seen by the next read.
async fn a_cart_write_waits_for_a_writer_that_holds_the_lock(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    let t = rules::clock::now();
    assert!(sessions::insert_session(db, "t_cccc", "{}", t, t + 1000)
        .await
        .unwrap());
    // Another writer's transaction (as placing an order is) holds the lock: on SQLite
    // the whole database's, on PostgreSQL the session's row.
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query("UPDATE sessions SET updated_at = updated_at WHERE id = 't_cccc'")
        .execute(&mut *tx)
        .await
        .unwrap();
    let writing = {
        let db = db.clone();
        tokio::spawn(async move {
            sessions::update_cart(&db, "t_cccc", 1, "{\"n\":1}", t, t + 1000).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!writing.is_finished(), "the cart write waits for the lock");
    tx.commit().await.unwrap();
    assert!(writing.await.unwrap().unwrap(), "then it lands");
    for version in 2..=400 {
        let session = sessions::find_session(db, "t_cccc", t)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(session.version, version);
        let cart = format!("{{\"n\":{version}}}");
        assert!(
            sessions::update_cart(db, "t_cccc", version, &cart, t, t + 1000)
                .await
                .unwrap()
        );
    }
    let session = sessions::find_session(db, "t_cccc", t)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (session.version, session.cart.as_str()),
        (401, "{\"n\":400}")
    );
    app.stop().await;
}

/// A transaction that reads and then writes (as placing an order does) is not undone
/// by a cart write that lands in between: both land.
async fn a_transaction_that_reads_first_still_writes_beside_cart_writes(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    let t = rules::clock::now();
    assert!(sessions::insert_session(db, "t_dddd", "{}", t, t + 1000)
        .await
        .unwrap());
    let mut tx = db.begin_write().await.unwrap();
    let (version,): (i64,) = sqlx::query_as("SELECT version FROM sessions WHERE id = 't_dddd'")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(version, 1);
    let writing = {
        let db = db.clone();
        tokio::spawn(async move {
            sessions::update_cart(&db, "t_dddd", 1, "{\"n\":1}", t, t + 1000).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    sqlx::query("UPDATE sessions SET updated_at = $1 WHERE id = 't_dddd'")
        .bind(t + 5)
        .execute(&mut *tx)
        .await
        .expect("the transaction's write lands");
    tx.commit().await.unwrap();
    assert!(writing.await.unwrap().unwrap(), "so does the cart's");
    let session = sessions::find_session(db, "t_dddd", t)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(session.version, 2);
    app.stop().await;
}

/// A read abandoned half way (the client went away) leaves no connection behind in
/// an unknown state: the reads after it answer as before.
async fn an_abandoned_read_leaves_the_next_ones_working(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db();
    let t = rules::clock::now();
    sessions::insert_session(db, "t_cccc", "{\"kept\":true}", t, t + 1000)
        .await
        .unwrap();
    for _ in 0..50 {
        // Polled once, then dropped: on PostgreSQL mid-statement.
        let read = sessions::find_session(db, "t_cccc", t);
        let _ = tokio::time::timeout(std::time::Duration::ZERO, read).await;
    }
    let (a, b, c) = tokio::join!(
        sessions::find_session(db, "t_cccc", t),
        sessions::find_session(db, "t_cccc", t),
        sessions::find_session(db, "t_cccc", t),
    );
    for found in [a, b, c] {
        assert_eq!(found.unwrap().unwrap().cart, "{\"kept\":true}");
    }
    app.stop().await;
}

async fn a_setting_is_created_once(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    let db = app.db().clone();
    let mut tasks = Vec::new();
    for i in 0..8 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            settings::get_or_create(&db, "greeting", || format!("hello {i}"))
                .await
                .unwrap()
        }));
    }
    let mut values = Vec::new();
    for t in tasks {
        values.push(t.await.unwrap());
    }
    values.dedup();
    assert_eq!(values.len(), 1, "every caller sees the one stored value");
    settings::set(&db, "greeting", "changed").await.unwrap();
    assert_eq!(
        settings::get(&db, "greeting").await.unwrap().as_deref(),
        Some("changed")
    );
    app.stop().await;
}

async fn migrating_twice_changes_nothing(backend: Backend) {
    let Some(app) = spawn_app(backend).await else {
        return;
    };
    app.db().migrate().await.unwrap();
    assert_eq!(
        catalog::count_products(app.db()).await.unwrap(),
        fixture().products.len() as i64
    );
    app.stop().await;
}

on_both_databases!(
    the_catalogue_reads_back_as_it_was_written,
    the_catalogue_reads_in_slices_as_a_whole,
    stock_updates_bump_the_catalogue_version,
    sessions_update_only_from_the_version_read,
    expired_sessions_are_gone_and_can_start_again,
    an_add_to_cart_reads_stock_and_session_together,
    an_abandoned_read_leaves_the_next_ones_working,
    a_cart_write_waits_for_a_writer_that_holds_the_lock,
    a_transaction_that_reads_first_still_writes_beside_cart_writes,
    a_setting_is_created_once,
    migrating_twice_changes_nothing,
);
