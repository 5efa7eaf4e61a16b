//! Storage: one `Db` over SQLite (the embedded default) or PostgreSQL, chosen by the
//! URL scheme at run time. Every query is written once, in SQL both databases accept
//! (`$1` placeholders, 64-bit integers, `ON CONFLICT`), and runs through sqlx's `Any`
//! driver. SQLite gets a single writer connection beside a pool of readers, so writes
//! queue in the server instead of failing with "database is locked".

pub mod catalog;
pub mod coupons;
pub mod customers;
pub mod orders;
pub mod outbox;
pub mod sessions;
pub mod settings;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

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
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("stored data is not valid: {0}")]
    Corrupt(String),
    #[error("{0}")]
    Config(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

struct Migration {
    version: i64,
    name: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "catalog_and_sessions",
        sqlite: include_str!("../../migrations/sqlite/0001_catalog_and_sessions.sql"),
        postgres: include_str!("../../migrations/postgres/0001_catalog_and_sessions.sql"),
    },
    Migration {
        version: 2,
        name: "checkout_and_orders",
        sqlite: include_str!("../../migrations/sqlite/0002_checkout_and_orders.sql"),
        postgres: include_str!("../../migrations/postgres/0002_checkout_and_orders.sql"),
    },
    Migration {
        version: 3,
        name: "accounts_and_mail",
        sqlite: include_str!("../../migrations/sqlite/0003_accounts_and_mail.sql"),
        postgres: include_str!("../../migrations/postgres/0003_accounts_and_mail.sql"),
    },
];

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
                let pool = AnyPoolOptions::new()
                    .test_before_acquire(false)
                    .max_connections(16)
                    .min_connections(1)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_with(options)
                    .await?;
                Ok(Db {
                    backend,
                    read: pool.clone(),
                    write: pool,
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
        Ok(Db {
            backend: Backend::Sqlite,
            read,
            write,
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

    /// Applies the migrations not yet applied, each in its own transaction.
    pub async fn migrate(&self) -> StoreResult<()> {
        let mut conn = self.write.acquire().await?;
        sqlx::raw_sql(
            "CREATE TABLE IF NOT EXISTS ferroshop_migrations (
                version    BIGINT PRIMARY KEY,
                name       TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )",
        )
        .execute(&mut *conn)
        .await?;
        drop(conn);
        for m in MIGRATIONS {
            let mut tx = self.write.begin().await?;
            if self.backend == Backend::Postgres {
                // Several instances may start at once; one migrates, the others wait.
                sqlx::query("SELECT pg_advisory_xact_lock(7316520301)")
                    .execute(&mut *tx)
                    .await?;
            }
            let applied: Option<i64> =
                sqlx::query_scalar("SELECT version FROM ferroshop_migrations WHERE version = $1")
                    .bind(m.version)
                    .fetch_optional(&mut *tx)
                    .await?;
            if applied.is_some() {
                continue;
            }
            let sql = match self.backend {
                Backend::Sqlite => m.sqlite,
                Backend::Postgres => m.postgres,
            };
            sqlx::raw_sql(sql).execute(&mut *tx).await?;
            sqlx::query(
                "INSERT INTO ferroshop_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            )
            .bind(m.version)
            .bind(m.name)
            .bind(crate::clock::now())
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            tracing::info!(version = m.version, name = m.name, "applied migration");
        }
        Ok(())
    }

    pub async fn close(&self) {
        self.read.close().await;
        self.write.close().await;
    }
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
