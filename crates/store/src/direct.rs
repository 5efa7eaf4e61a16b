//! Connections of their own for the few one-statement queries that every cart request
//! makes (the session's row, a product's stock, a login), so they skip the pool's
//! per-query costs: sqlx hands a SQLite connection's work to a thread of its own and
//! back, and tests every connection it takes back into the pool with a query of its
//! own, a second round trip per query on PostgreSQL.
//!
//! On SQLite the reads run on the calling thread, on read-only connections to the same
//! file (WAL: a reader never waits for the writer, and sees every committed write).
//! The cart's one-statement writes run there too, on one read-write connection, when
//! they can have the database's write lock at once; when the pool's writer holds it
//! (an order being placed), they go to the pool and wait their turn there, so the
//! calling thread never waits for a lock. On PostgreSQL a connection is taken for
//! one statement and given back only when that statement finished: one that failed or
//! was abandoned half way (a client that went away) is closed, so none is reused in an
//! unknown state and none needs testing. An in-memory SQLite database has no file for
//! a second connection to open: its queries go through the pool.

use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
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
/// changed: on SQLite on the calling thread when the write lock is free at once, on
/// PostgreSQL on the lane (see `postgres` for why it does not wait for the disk),
/// otherwise through the single writer.
macro_rules! write_rows {
    ($db:expr, $sql:expr, $($arg:expr),+ $(,)?) => {{
        let direct = match &$db.direct {
            $crate::direct::Direct::Sqlite(sqlite) => sqlite.write(|conn| {
                conn.prepare_cached($sql)?.execute(($($arg,)+))
            }),
            _ => None,
        };
        let rows: u64 = match (direct, &$db.direct) {
            (Some(done), _) => done? as u64,
            (None, $crate::direct::Direct::Postgres(lane)) => {
                let mut held = lane.take().await?;
                let done = sqlx::query::<sqlx::Postgres>($sql)
                    $(.bind($arg))+
                    .execute(held.conn())
                    .await?;
                held.done();
                done.rows_affected()
            }
            (None, _) => sqlx::query($sql)
                $(.bind($arg))+
                .execute($db.writer())
                .await?
                .rows_affected(),
        };
        if let $crate::direct::Direct::Sqlite(sqlite) = &$db.direct {
            sqlite.after_write($db);
        }
        rows
    }};
}
pub(crate) use write_rows;

/// How many connections of this kind one server keeps at most.
const SQLITE_READERS: usize = 4;
const POSTGRES_CONNECTIONS: usize = 8;

#[derive(Clone)]
pub(crate) enum Direct {
    Sqlite(Arc<SqliteDirect>),
    Postgres(Arc<PgLane>),
    /// Everything through the pool.
    Pooled,
}

impl Direct {
    pub(crate) fn sqlite(path: Option<&str>) -> Self {
        match path {
            Some(path) => Direct::Sqlite(Arc::new(SqliteDirect {
                path: path.to_string(),
                idle: Mutex::new(Vec::new()),
                writer: Mutex::new(None),
                unchecked_writes: AtomicU32::new(0),
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

/// SQLite connections used on the calling thread: read-only ones, and one that writes.
/// A point read by primary key takes microseconds; a checkpoint never blocks a WAL
/// reader.
pub(crate) struct SqliteDirect {
    path: String,
    idle: Mutex<Vec<rusqlite::Connection>>,
    /// Opened on the first write; `None` again after a failure, so a connection in an
    /// unknown state is never reused.
    writer: Mutex<Option<rusqlite::Connection>>,
    /// Commits made here since the log was last handed to a checkpoint.
    unchecked_writes: AtomicU32,
}

/// The direct writer leaves its log to the pool's writer: after this many commits it
/// asks for a checkpoint there, on the pool's thread, instead of running one (with its
/// wait for the disk) on the calling thread. SQLite's own default is a checkpoint
/// every 1,000 pages; a cart write adds two or three.
const WRITES_PER_CHECKPOINT: u32 = 300;

impl SqliteDirect {
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

    /// Runs the one-statement `write` on the direct writer if it is free and the
    /// database's write lock can be had at once. `None` when either is busy: nothing
    /// was written, and the caller goes to the pool's writer, which waits its turn.
    pub(crate) fn write<T>(
        &self,
        write: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> Option<StoreResult<T>> {
        let mut slot = match self.writer.try_lock() {
            Ok(slot) => slot,
            Err(std::sync::TryLockError::WouldBlock) => return None,
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        };
        if slot.is_none() {
            match self.open_writer() {
                Ok(conn) => *slot = Some(conn),
                Err(e) => return Some(Err(e.into())),
            }
        }
        let conn = slot.as_ref()?;
        match write(conn) {
            Ok(out) => {
                self.unchecked_writes.fetch_add(1, Ordering::Relaxed);
                Some(Ok(out))
            }
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(
                    e.code,
                    rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                ) =>
            {
                None
            }
            Err(e) => {
                *slot = None;
                Some(Err(e.into()))
            }
        }
    }

    /// After a cart write (either way): past `WRITES_PER_CHECKPOINT` direct commits,
    /// a passive checkpoint on the pool's writer, in the background.
    pub(crate) fn after_write(&self, db: &crate::Db) {
        if self.unchecked_writes.load(Ordering::Relaxed) < WRITES_PER_CHECKPOINT
            || self.unchecked_writes.swap(0, Ordering::Relaxed) < WRITES_PER_CHECKPOINT
        {
            return;
        }
        let pool = db.writer().clone();
        tokio::spawn(async move {
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&pool)
                .await
            {
                tracing::warn!(error = %e, "checkpoint of the shop's log failed");
            }
        });
    }

    pub(crate) fn close(&self) {
        self.writer.lock().unwrap_or_else(|e| e.into_inner()).take();
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    fn open_writer(&self) -> rusqlite::Result<rusqlite::Connection> {
        let conn = rusqlite::Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // The same settings as the pool's connections (`sqlite_pragmas`), except that
        // a busy lock is never waited for here, and the log's checkpoints are left to
        // the pool's writer (`after_write`).
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
             PRAGMA busy_timeout = 0; PRAGMA wal_autocheckpoint = 0;",
        )?;
        Ok(conn)
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
