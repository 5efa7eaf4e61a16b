//! Loading and changing a session's cart. A change is a pure function applied to the
//! stored cart. It is first written optimistically (if nobody wrote in between, two
//! statements); when another write came first, it is applied again on the fresh cart
//! under the session's row lock, so concurrent writes to one cart (double clicks, two
//! tabs, retrying clients) all apply, one after another, and none is refused.
//!
//! A stored cart that cannot be read is never taken for an empty one: it is set aside
//! for the shop to recover and the request is told so.

use crate::session::{Session, SESSION_TTL_SECS};
use crate::state::AppState;
use rules::cart::model::{CartError, StoredCart};
use store::sessions::{self, SessionRecord};
use store::{StoreError, StoreResult};

#[derive(Debug)]
pub enum ChangeError {
    Cart(CartError),
    Store(StoreError),
}

impl From<StoreError> for ChangeError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

/// The cart a session record holds; an unreadable one is set aside and reported.
pub async fn read(state: &AppState, record: &SessionRecord, now: i64) -> StoreResult<StoredCart> {
    match StoredCart::parse(&record.cart) {
        Ok(cart) => Ok(cart),
        Err(problem) => Err(set_aside(state, record, &problem, now).await),
    }
}

/// Keeps an unreadable cart for the shop and gives the session an empty one; the
/// error to answer with.
async fn set_aside(
    state: &AppState,
    record: &SessionRecord,
    problem: &str,
    now: i64,
) -> StoreError {
    tracing::error!(session = %record.id, %problem, "a stored cart cannot be read; setting it aside");
    match sessions::set_aside_cart(&state.db, record, problem, now).await {
        Ok(()) => StoreError::UnreadableCart(record.id.clone()),
        Err(e) => e,
    }
}

pub async fn load(state: &AppState, session: &Session, now: i64) -> StoreResult<StoredCart> {
    match sessions::find_session(&state.db, session.id.as_str(), now).await? {
        Some(record) => read(state, &record, now).await,
        None => Ok(StoredCart::default()),
    }
}

/// Applies `change` to the session's cart and stores the result. Returns the new cart
/// and what `change` returned. A refused change stores nothing.
pub async fn change<T>(
    state: &AppState,
    session: &Session,
    now: i64,
    change: impl FnMut(&mut StoredCart) -> Result<T, CartError>,
) -> Result<(StoredCart, T), ChangeError> {
    let found = sessions::find_session(&state.db, session.id.as_str(), now).await?;
    change_found(state, session, now, found, change).await
}

/// `change`, for a caller that has just read the session's row (`found`, as
/// `sessions::find_session` gives it) along with something else it needed.
pub async fn change_found<T>(
    state: &AppState,
    session: &Session,
    now: i64,
    found: Option<SessionRecord>,
    mut change: impl FnMut(&mut StoredCart) -> Result<T, CartError>,
) -> Result<(StoredCart, T), ChangeError> {
    let expires = now + SESSION_TTL_SECS;
    let id = session.id.as_str();
    // The common case: nobody else writes this cart right now.
    let mut cart = match &found {
        Some(record) => read(state, record, now).await?,
        None => StoredCart::default(),
    };
    let out = change(&mut cart).map_err(ChangeError::Cart)?;
    let json = cart.to_json();
    let stored = match &found {
        Some(s) => sessions::update_cart(&state.db, id, s.version, &json, now, expires).await?,
        None => sessions::insert_session(&state.db, id, &json, now, expires).await?,
    };
    if stored {
        return Ok((cart, out));
    }
    // Another write came first: apply this one on top of it, holding the row.
    let mut tx = state.db.begin_write().await?;
    sessions::ensure_session(&mut tx, id, now).await?;
    let record = sessions::lock_session(&mut tx, &state.db, id)
        .await?
        .ok_or_else(|| StoreError::Corrupt(format!("session {id} vanished under its lock")))?;
    let mut cart = if record.expires_at <= now {
        StoredCart::default()
    } else {
        match StoredCart::parse(&record.cart) {
            Ok(cart) => cart,
            Err(problem) => {
                tx.rollback().await.map_err(StoreError::from)?;
                return Err(set_aside(state, &record, &problem, now).await.into());
            }
        }
    };
    let out = match change(&mut cart) {
        Ok(out) => out,
        Err(e) => {
            tx.rollback().await.map_err(StoreError::from)?;
            return Err(ChangeError::Cart(e));
        }
    };
    sessions::store_locked_cart(&mut tx, &record, &cart.to_json(), now, expires).await?;
    tx.commit().await.map_err(StoreError::from)?;
    Ok((cart, out))
}
