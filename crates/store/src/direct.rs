//! Connections of their own for the few one-statement queries that every cart request
//! makes (the session's row, a product's stock, a login), so they skip the pool's
//! per-query costs: sqlx hands a SQLite connection's work to a thread of its own and
//! back, and tests every connection it takes back into the pool with a query of its
//! own, a second round trip per query on PostgreSQL.
//!
//! On SQLite the reads run on the calling thread, on read-only connections to the same
//! file (WAL: a reader never waits for the writer, and sees every committed write);
//! writes stay with the pool's single writer. On PostgreSQL a connection is taken for
//! one statement and given back only when that statement finished: one that failed or
//! was abandoned half way (a client that went away) is closed, so none is reused in an
//! unknown state and none needs testing. An in-memory SQLite database has no file for
//! a second connection to open: its queries go through the pool.

use std::str::FromStr;
use std::sync::{Arc, Mutex};

use rusqlite::OpenFlags;
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::Connection as _;
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::{StoreError, StoreResult};

/// Reads at most one row, a tuple of `$columns`, with `$sql` and its arguments, the
/// direct way where there is one (see the module's notes), else through the readers'
/// pool. Written once for the three ways, since their query types differ.
macro_rules! read_row {
    ($db:expr, $sql:expr, $columns:ty, $($arg:expr),+ $(,)?) => {{
        let row: Option<$columns> = match &$db.direct {
            $crate::direct::Direct::Sqlite(readers) => readers.read(|conn| {
                let mut statement = conn.prepare_cached($sql)?;
                let mut rows = statement.query(($($arg,)+))?;
                rows.next()?.map(<$columns>::try_from).transpose()
            })?,
            $crate::direct::Direct::Postgres(lane) => {
                let mut held = lane.take().await?;
                let row = sqlx::query_as($sql)
                    $(.bind($arg))+
                    .fetch_optional(held.conn())
                    .await?;
                held.done();
                row
            }
            $crate::direct::Direct::Pooled => {
                sqlx::query_as($sql)
                    $(.bind($arg))+
                    .fetch_optional($db.reader())
                    .await?
            }
        };
        row
    }};
}
pub(crate) use read_row;

/// Runs the one-statement write `$sql` with its arguments and gives the rows it
/// changed: on PostgreSQL on the lane (see `postgres` for why it does not wait for the
/// disk), elsewhere through the single writer.
macro_rules! write_rows {
    ($db:expr, $sql:expr, $($arg:expr),+ $(,)?) => {{
        let rows: u64 = match &$db.direct {
            $crate::direct::Direct::Postgres(lane) => {
                let mut held = lane.take().await?;
                let done = sqlx::query::<sqlx::Postgres>($sql)
                    $(.bind($arg))+
                    .execute(held.conn())
                    .await?;
                held.done();
                done.rows_affected()
            }
            _ => sqlx::query($sql)
                $(.bind($arg))+
                .execute($db.writer())
                .await?
                .rows_affected(),
        };
        rows
    }};
}
pub(crate) use write_rows;

/// How many connections of this kind one server keeps at most.
const SQLITE_READERS: usize = 4;
const POSTGRES_CONNECTIONS: usize = 8;

#[derive(Clone)]
pub(crate) enum Direct {
    Sqlite(Arc<SqliteReaders>),
    Postgres(Arc<PgLane>),
    /// Everything through the pool.
    Pooled,
}

impl Direct {
    pub(crate) fn sqlite(path: Option<&str>) -> Self {
        match path {
            Some(path) => Direct::Sqlite(Arc::new(SqliteReaders {
                path: path.to_string(),
                idle: Mutex::new(Vec::new()),
            })),
            None => Direct::Pooled,
        }
    }

    pub(crate) fn postgres(url: &str) -> StoreResult<Self> {
        // The only writes made here are carts. A cart change lost in a crash of the
        // database server (its last fraction of a second) costs a shopper one click
        // again, so a commit need not wait for the disk; it is visible to every other
        // connection at once all the same. SQLite's carts are written alike (WAL,
        // synchronous NORMAL). Orders are never written here.
        let options = PgConnectOptions::from_str(url)?.options([("synchronous_commit", "off")]);
        Ok(Direct::Postgres(Arc::new(PgLane {
            options,
            idle: Mutex::new(Vec::new()),
            slots: Semaphore::new(POSTGRES_CONNECTIONS),
        })))
    }
}

/// Read-only SQLite connections, used on the calling thread. A point read by primary
/// key takes microseconds; a checkpoint never blocks a WAL reader.
pub(crate) struct SqliteReaders {
    path: String,
    idle: Mutex<Vec<rusqlite::Connection>>,
}

impl SqliteReaders {
    /// Runs `read` on an idle connection (or a new one), then keeps the connection
    /// for the next read unless enough are kept already.
    pub(crate) fn read<T>(
        &self,
        read: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> StoreResult<T> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => self.open()?,
        };
        let out = read(&conn)?;
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < SQLITE_READERS {
            idle.push(conn);
        }
        Ok(out)
    }

    fn open(&self) -> StoreResult<rusqlite::Connection> {
        let conn = rusqlite::Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(conn)
    }
}

/// PostgreSQL connections for one statement at a time, at most
/// `POSTGRES_CONNECTIONS` of them.
pub(crate) struct PgLane {
    options: PgConnectOptions,
    idle: Mutex<Vec<PgConnection>>,
    slots: Semaphore,
}

/// A connection taken from the lane. `done` gives it back; dropping it instead (an
/// error, or the request abandoned mid-statement) closes it.
pub(crate) struct Held<'a> {
    lane: &'a PgLane,
    conn: Option<PgConnection>,
    _slot: SemaphorePermit<'a>,
}

impl PgLane {
    pub(crate) async fn take(&self) -> StoreResult<Held<'_>> {
        let slot = self
            .slots
            .acquire()
            .await
            .map_err(|_| StoreError::Config("the database connections are closed".into()))?;
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => PgConnection::connect_with(&self.options).await?,
        };
        Ok(Held {
            lane: self,
            conn: Some(conn),
            _slot: slot,
        })
    }

    pub(crate) fn close(&self) {
        self.slots.close();
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl Held<'_> {
    pub(crate) fn conn(&mut self) -> &mut PgConnection {
        self.conn
            .as_mut()
            .expect("a held connection is present until done")
    }

    /// The statement finished: the connection is ready for the next one.
    pub(crate) fn done(mut self) {
        if let Some(conn) = self.conn.take() {
            self.lane
                .idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(conn);
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Direct(e.to_string())
    }
}
