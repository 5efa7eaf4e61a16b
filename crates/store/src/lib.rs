//! Storage: one `Db` over SQLite (the embedded default) or PostgreSQL, chosen by the
//! URL scheme at run time. Every query is written once, in SQL both databases accept
//! (`$1` placeholders, 64-bit integers, `ON CONFLICT`), and runs through sqlx's `Any`
//! driver. SQLite gets a single writer connection beside a pool of readers, so writes
//! queue in the server instead of failing with "database is locked". The few
//! one-statement queries of every cart request run the same SQL on connections of
//! their own, without the pool's per-query costs (`direct`).

pub mod catalog;
pub mod catalog_import;
pub mod contact;
pub mod coupons;
pub mod customers;
mod direct;
pub mod newsletter;
pub mod orders;
pub mod outbox;
pub mod payments;
pub mod rate_limits;
pub mod reviews;
pub mod sessions;
pub mod settings;
pub mod staff;
pub mod wishlists;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migrate, Migrator};
use sqlx::{AnyConnection, AnyPool, Executor};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    pub backend: Backend,
    read: AnyPool,
    write: AnyPool,
    direct: direct::Direct,
    /// Where rate-limit counters are written: on PostgreSQL the writers' pool; on
    /// SQLite a file of their own (see `connect_counters`).
    counters: AnyPool,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("stored data is not valid: {0}")]
    Corrupt(String),
    #[error("{0}")]
    Config(String),
    #[error("database: {0}")]
    Direct(String),
    /// A session's stored cart could not be read; it was set aside (kept in
    /// `unreadable_carts`) and the session starts with an empty cart.
    #[error("the cart of session {0} could not be read and was set aside")]
    UnreadableCart(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// The schema, one numbered SQL file per step, embedded with its checksum. A step
/// whose file changed after it was applied stops the start-up instead of running on
/// a schema nobody wrote.
static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/postgres");

impl Db {
    pub async fn connect(url: &str) -> StoreResult<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::Config(format!(
                "database URL must start with sqlite:// or postgres:// (got {:?})",
                url.split(':').next().unwrap_or("")
            )));
        };
        match backend {
            Backend::Sqlite => Self::connect_sqlite(url).await,
            Backend::Postgres => {
                let options = AnyConnectOptions::from_str(url)?;
                // A connection is checked when it returns to the pool; checking it again
                // on the way out costs a round trip per query.
                let pool = |max| {
                    AnyPoolOptions::new()
                        .test_before_acquire(false)
                        .max_connections(max)
                        .min_connections(1)
                        .acquire_timeout(Duration::from_secs(10))
                        .connect_with(options.clone())
                };
                // Reads get a pool of their own: a transaction that reads beside itself
                // (coupons, the customer) must never wait for a connection that only
                // another open transaction could give back. A read holds its connection
                // for one query, so this pool always drains. Sixteen each: the catalogue
                // and cart reads of 50 connections at once keep as many readers busy as
                // one pool did before it was split. The cart's own queries have a few
                // connections of their own besides (`direct`).
                let write = pool(16).await?;
                Ok(Db {
                    backend,
                    read: pool(16).await?,
                    counters: write.clone(),
                    write,
                    direct: direct::Direct::postgres(url)?,
                })
            }
        }
    }

    async fn connect_sqlite(url: &str) -> StoreResult<Db> {
        let url = with_create_mode(url);
        if let Some(dir) =
            sqlite_file(&url).and_then(|p| std::path::Path::new(p).parent().map(|d| d.to_owned()))
        {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(&dir).map_err(|e| {
                    StoreError::Config(format!("cannot create {}: {e}", dir.display()))
                })?;
            }
        }
        let options = AnyConnectOptions::from_str(&url)?;
        let write = AnyPoolOptions::new()
            .test_before_acquire(false)
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(30))
            .after_connect(sqlite_pragmas)
            .connect_with(options.clone())
            .await?;
        let read = AnyPoolOptions::new()
            .test_before_acquire(false)
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(30))
            .after_connect(sqlite_pragmas)
            .connect_with(options)
            .await?;
        let counters = match sqlite_file(&url) {
            Some(path) => connect_counters(&format!("{path}.limits")).await?,
            None => open_counters("sqlite::memory:").await?,
        };
        Ok(Db {
            backend: Backend::Sqlite,
            read,
            write,
            direct: direct::Direct::sqlite(sqlite_file(&url)),
            counters,
        })
    }

    /// For queries that only read.
    pub fn reader(&self) -> &AnyPool {
        &self.read
    }

    /// For everything that writes. On SQLite this is the one writer connection.
    pub fn writer(&self) -> &AnyPool {
        &self.write
    }

    /// For the rate-limit counters.
    pub(crate) fn counters(&self) -> &AnyPool {
        &self.counters
    }

    /// Applies the migrations not yet applied, each in its own transaction. On
    /// PostgreSQL an advisory lock makes instances that start together take turns.
    pub async fn migrate(&self) -> StoreResult<()> {
        let migrator = self.migrator();
        let mut conn = self.write.acquire().await?;
        adopt_earlier_runner(&mut conn, migrator).await?;
        drop(conn);
        migrator.run(&self.write).await.map_err(|e| match e {
            sqlx::migrate::MigrateError::Execute(e) => StoreError::Sql(e),
            other => StoreError::Config(format!("migrations: {other}")),
        })?;
        Ok(())
    }

    fn migrator(&self) -> &'static Migrator {
        match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        }
    }

    /// A transaction that writes. On SQLite it takes the database's write lock at the
    /// start (`BEGIN IMMEDIATE`), waiting for it as long as the busy timeout allows: the
    /// cart's direct writes (`direct`) commit beside the pool's writer, and SQLite
    /// refuses at once, without waiting, a deferred transaction that read before such a
    /// commit and writes after it.
    pub async fn begin_write(&self) -> StoreResult<orders::Tx<'static>> {
        Ok(match self.backend {
            Backend::Sqlite => self.write.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.write.begin().await?,
        })
    }

    pub async fn close(&self) {
        match &self.direct {
            direct::Direct::Postgres(lane) => lane.close(),
            direct::Direct::Sqlite(sqlite) => sqlite.close(),
            direct::Direct::Pooled => {}
        }
        self.read.close().await;
        self.write.close().await;
        self.counters.close().await;
    }
}

/// SQLite keeps the rate-limit counters in a file of their own beside the shop's
/// (`shop.db.limits`), written without waiting for the disk (`synchronous = OFF`).
/// Every guarded call writes its counters, keys as varied as the shoppers' addresses,
/// so their pages would otherwise make up most of the shop's log: each checkpoint of
/// the shop's file then wrote megabytes of them to the disk and waited for it, and the
/// calls queued behind the one writer waited too. Counters are disposable: a crash of
/// the machine may lose the last ones or leave the file unreadable, and a file that
/// cannot be opened is started afresh.
async fn connect_counters(path: &str) -> StoreResult<AnyPool> {
    let url = format!("sqlite://{path}?mode=rwc");
    match open_counters(&url).await {
        Ok(pool) => Ok(pool),
        Err(e) => {
            tracing::warn!(%path, error = %e, "the rate-limit counters' file cannot be used; starting it afresh");
            for file in [
                path.to_string(),
                format!("{path}-wal"),
                format!("{path}-shm"),
            ] {
                match std::fs::remove_file(&file) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(StoreError::Config(format!("cannot remove {file}: {e}"))),
                }
            }
            open_counters(&url).await
        }
    }
}

async fn open_counters(url: &str) -> StoreResult<AnyPool> {
    let options = AnyConnectOptions::from_str(url)?;
    // Checked on a connection of its own first: a pool would keep retrying a file
    // that is not a database until its timeout.
    if url != "sqlite::memory:" {
        let mut conn = sqlx::ConnectOptions::connect(&options).await?;
        let check: Vec<String> = sqlx::query_scalar("PRAGMA quick_check")
            .fetch_all(&mut conn)
            .await?;
        sqlx::Connection::close(conn).await?;
        if check.iter().any(|line| line != "ok") {
            return Err(StoreError::Corrupt(format!(
                "rate-limit counters: {}",
                check.join("; ")
            )));
        }
    }
    // One connection, kept for good: an in-memory database lives as long as it does.
    let pool = AnyPoolOptions::new()
        .test_before_acquire(false)
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .acquire_timeout(Duration::from_secs(30))
        .after_connect(|conn, _meta| {
            Box::pin(async move {
                conn.execute("PRAGMA journal_mode = WAL").await?;
                conn.execute("PRAGMA synchronous = OFF").await?;
                conn.execute("PRAGMA busy_timeout = 5000").await?;
                Ok(())
            })
        })
        .connect_with(options)
        .await?;
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS rate_limits (
            limit_key    TEXT PRIMARY KEY,
            window_start INTEGER NOT NULL,
            hits         INTEGER NOT NULL
        )",
    )
    .execute(&pool)
    .await?;
    sqlx::query("CREATE INDEX IF NOT EXISTS rate_limits_window ON rate_limits (window_start)")
        .execute(&pool)
        .await?;
    Ok(pool)
}

type PragmaFuture<'c> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), sqlx::Error>> + Send + 'c>>;

fn sqlite_pragmas(
    conn: &mut sqlx::AnyConnection,
    _meta: sqlx::pool::PoolConnectionMetadata,
) -> PragmaFuture<'_> {
    Box::pin(async move {
        // WAL lets readers go on while the writer commits; NORMAL sync is durable
        // across application crashes, which is what WAL is designed for.
        conn.execute("PRAGMA journal_mode = WAL").await?;
        conn.execute("PRAGMA synchronous = NORMAL").await?;
        conn.execute("PRAGMA busy_timeout = 5000").await?;
        conn.execute("PRAGMA foreign_keys = ON").await?;
        Ok(())
    })
}

/// `sqlite://data/shop.db` opens read-write but will not create the file; a shop's
/// first start should, so `mode=rwc` is added unless a mode is given.
fn with_create_mode(url: &str) -> String {
    if url.contains("mode=") || url.contains(":memory:") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    }
}

fn sqlite_file(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && path != ":memory:").then_some(path)
}

/// Databases created before the migrations were embedded recorded them in
/// `ferroshop_migrations`; those steps are entered in sqlx's own table with the
/// checksums of the files they were applied from, so they are not run twice.
async fn adopt_earlier_runner(conn: &mut AnyConnection, migrator: &Migrator) -> StoreResult<()> {
    let earlier: Vec<i64> = match sqlx::query_scalar("SELECT version FROM ferroshop_migrations")
        .fetch_all(&mut *conn)
        .await
    {
        Ok(versions) => versions,
        // No such table: a new database, or one already adopted.
        Err(sqlx::Error::Database(_)) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    conn.ensure_migrations_table()
        .await
        .map_err(|e| StoreError::Config(format!("migrations: {e}")))?;
    let mut tx = sqlx::Connection::begin(&mut *conn).await?;
    for m in migrator.iter().filter(|m| earlier.contains(&m.version)) {
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
             VALUES ($1, $2, TRUE, $3, 0) ON CONFLICT (version) DO NOTHING",
        )
        .bind(m.version)
        .bind(m.description.as_ref())
        .bind(m.checksum.as_ref())
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query("DROP TABLE ferroshop_migrations")
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(
        steps = earlier.len(),
        "adopted the earlier migration records"
    );
    Ok(())
}

/// Maps a bool to the 0/1 integer both databases store it as.
pub fn flag(b: bool) -> i64 {
    i64::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_gain_create_mode() {
        assert_eq!(
            with_create_mode("sqlite://data/x.db"),
            "sqlite://data/x.db?mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite://x.db?cache=shared"),
            "sqlite://x.db?cache=shared&mode=rwc"
        );
        assert_eq!(
            with_create_mode("sqlite://x.db?mode=ro"),
            "sqlite://x.db?mode=ro"
        );
        assert_eq!(
            sqlite_file("sqlite://data/x.db?mode=rwc"),
            Some("data/x.db")
        );
    }
}
