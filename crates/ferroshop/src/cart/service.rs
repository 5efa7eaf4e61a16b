//! Loading and changing a session's cart. A change is a pure function applied to the
//! stored cart; it is written back only if nobody else wrote in between, and run
//! again on the fresh cart otherwise.

use super::model::{CartError, StoredCart};
use crate::session::{Session, SESSION_TTL_SECS};
use crate::state::AppState;
use crate::store::{sessions, StoreError};

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

pub async fn load(state: &AppState, session: &Session, now: i64) -> Result<StoredCart, StoreError> {
    Ok(sessions::find_session(&state.db, session.id.as_str(), now)
        .await?
        .map(|s| StoredCart::parse(&s.cart))
        .unwrap_or_default())
}

/// Applies `change` to the session's cart and stores the result. Returns the new cart
/// and what `change` returned. A refused change stores nothing.
pub async fn change<T>(
    state: &AppState,
    session: &Session,
    now: i64,
    mut change: impl FnMut(&mut StoredCart) -> Result<T, CartError>,
) -> Result<(StoredCart, T), ChangeError> {
    const ATTEMPTS: usize = 20;
    let expires = now + SESSION_TTL_SECS;
    for _ in 0..ATTEMPTS {
        let found = sessions::find_session(&state.db, session.id.as_str(), now).await?;
        let mut cart = found
            .as_ref()
            .map(|s| StoredCart::parse(&s.cart))
            .unwrap_or_default();
        let out = change(&mut cart).map_err(ChangeError::Cart)?;
        let json = cart.to_json();
        let stored = match &found {
            Some(s) => {
                sessions::update_cart(
                    &state.db,
                    session.id.as_str(),
                    s.version,
                    &json,
                    now,
                    expires,
                )
                .await?
            }
            None => {
                sessions::insert_session(&state.db, session.id.as_str(), &json, now, expires)
                    .await?
            }
        };
        if stored {
            return Ok((cart, out));
        }
    }
    Err(ChangeError::Store(StoreError::Corrupt(
        "the cart kept changing under concurrent writes".into(),
    )))
}
