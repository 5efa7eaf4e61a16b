//! Being signed in: the login token behind the signed login cookie, what logging in
//! and out does to the session and its cart, and the signed-in customer of a request
//! (whose login `session::identify` has already checked against revocation).

use std::collections::HashMap;

use axum::http::HeaderMap;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;

use super::error::AccountError;
use crate::cart::service;
use crate::cookies;
use crate::http::store_api::StoreCtx;
use crate::session::{token_hash, Session, LOGIN_COOKIE, SESSION_TTL_SECS};
use crate::shop_url::BaseUrl;
use crate::state::AppState;
use rules::cart::merge::merge_carts;
use rules::cart::model::StoredCart;
use rules::customers::{Customer, CustomerId};
use store::customers::{self, SessionAttach};
use store::{catalog, sessions, StoreError};

/// A login lasts two days, or fourteen with "remember me", as in the original shop.
pub const LOGIN_TTL_SECS: i64 = 2 * 24 * 3600;
pub const REMEMBERED_LOGIN_TTL_SECS: i64 = 14 * 24 * 3600;

/// A fresh random token: 32 bytes, URL-safe base64.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The signed-in customer and the login they are signed in with.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub customer: Customer,
    pub token_hash: String,
}

/// The customer this request speaks for, if any.
pub async fn signed_in(state: &AppState, ctx: &StoreCtx) -> Result<Option<SignedIn>, AccountError> {
    let Some(hash) = ctx.session.login_token_hash() else {
        return Ok(None);
    };
    let customer = super::find_customer(&state.db, CustomerId(ctx.session.user_id)).await?;
    Ok(customer.map(|customer| SignedIn {
        customer,
        token_hash: hash,
    }))
}

/// A login about to be handed out: its token goes in the cookie, its digest in the
/// database.
#[derive(Debug, Clone)]
pub struct NewLogin {
    pub customer_id: CustomerId,
    pub token: String,
    pub expires: i64,
    remember: bool,
}

impl NewLogin {
    pub fn issue(customer_id: CustomerId, now: i64, remember: bool) -> Self {
        let ttl = if remember {
            REMEMBERED_LOGIN_TTL_SECS
        } else {
            LOGIN_TTL_SECS
        };
        Self {
            customer_id,
            token: random_token(),
            expires: now + ttl,
            remember,
        }
    }

    pub fn token_hash(&self) -> String {
        token_hash(&self.token)
    }

    /// The login cookie; without "remember me" it ends with the browser session.
    pub fn set_cookie(&self, state: &AppState, base: &BaseUrl, headers: &mut HeaderMap) {
        let value = state
            .keys
            .login_cookie_value(self.customer_id.0, &self.token, self.expires);
        let max_age = self.remember.then_some(REMEMBERED_LOGIN_TTL_SECS);
        cookies::set(headers, base, LOGIN_COOKIE, value, max_age);
    }
}

/// Signs the customer in on this request's session: a new login token and cookie, and
/// the cart they left signed in elsewhere merged into this one. Answers carry the
/// returned headers (cookies); `ctx` now speaks for the customer, so the answer's
/// nonce is theirs.
pub async fn log_in_with(
    state: &AppState,
    ctx: &mut StoreCtx,
    id: CustomerId,
    remember: bool,
) -> Result<HeaderMap, AccountError> {
    let login = NewLogin::issue(id, ctx.now, remember);
    customers::insert_login(&state.db, &login.token_hash(), id, ctx.now, login.expires).await?;
    let cart = attach_cart(state, ctx, id).await?;
    ctx.session.signed_in(id.0, &login.token);
    let mut headers = HeaderMap::new();
    login.set_cookie(state, &ctx.base_url, &mut headers);
    ctx.cart_cookies(
        state,
        &mut headers,
        &cart.hash(&state.config.currency.code),
        cart.items_count(),
    );
    crate::wishlist::on_login(state, ctx, id.0, &mut headers).await;
    Ok(headers)
}

/// A cart found in another session of the customer: readable, or set aside (and
/// then simply not merged).
async fn other_cart(
    state: &AppState,
    record: &sessions::SessionRecord,
    now: i64,
) -> Result<Option<StoredCart>, AccountError> {
    match service::read(state, record, now).await {
        Ok(cart) => Ok(Some(cart)),
        Err(StoreError::UnreadableCart(_)) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// Merges the customer's other cart into this session's and makes this session
/// theirs. Retried when a cart changes meanwhile.
async fn attach_cart(
    state: &AppState,
    ctx: &mut StoreCtx,
    id: CustomerId,
) -> Result<StoredCart, AccountError> {
    const ATTEMPTS: usize = 10;
    let now = ctx.now;
    for _ in 0..ATTEMPTS {
        let mut current = sessions::find_session(&state.db, ctx.session.id.as_str(), now).await?;
        if current
            .as_ref()
            .is_some_and(|s| s.customer_id.is_some_and(|c| c != id.0))
        {
            // This browser's session holds someone else's cart (they were signed in
            // here and their login ran out): it stays theirs; start a new one.
            ctx.speak_for(Session::fresh());
            current = None;
        }
        let others =
            customers::customer_sessions(&state.db, id, ctx.session.id.as_str(), now).await?;
        let mut cart = match &current {
            Some(record) => service::read(state, record, now).await?,
            None => StoredCart::default(),
        };
        let mut saved = Vec::new();
        for other in &others {
            if let Some(c) = other_cart(state, other, now).await? {
                saved.push(c);
            }
        }
        if !saved.is_empty() {
            let mut stock = HashMap::new();
            let catalog_now = state.catalog.get();
            for line in saved.iter().flat_map(|c| &c.items) {
                if let std::collections::hash_map::Entry::Vacant(slot) = stock.entry(line.id) {
                    if let Some(level) = catalog::find_stock(&state.db, line.id).await? {
                        slot.insert(level);
                    }
                }
            }
            for other in &saved {
                merge_carts(&catalog_now, &mut cart, other, &stock);
            }
        }
        let absorbed: Vec<(String, i64)> =
            others.iter().map(|s| (s.id.clone(), s.version)).collect();
        let json = cart.to_json();
        let attached = customers::attach_session(
            &state.db,
            &SessionAttach {
                session_id: ctx.session.id.as_str(),
                customer_id: id,
                version: current.as_ref().map(|s| s.version),
                cart: &json,
                now,
                expires_at: now + SESSION_TTL_SECS,
                absorbed: &absorbed,
            },
        )
        .await?;
        if attached {
            return Ok(cart);
        }
    }
    Err(AccountError::Internal(
        "the carts kept changing while signing in".into(),
    ))
}

/// Signs out: revokes the login token, ends the cookie, and gives the browser a fresh
/// guest session. The customer's cart stays on the old session for their next login.
pub async fn log_out(state: &AppState, ctx: &mut StoreCtx) -> Result<HeaderMap, AccountError> {
    if let Some(hash) = ctx.session.login_token_hash() {
        customers::delete_login(&state.db, &hash).await?;
    }
    ctx.speak_for(Session::fresh());
    let mut headers = HeaderMap::new();
    cookies::expire(&mut headers, &ctx.base_url, LOGIN_COOKIE);
    ctx.cart_cookies(state, &mut headers, "", 0);
    crate::wishlist::on_logout(ctx, &mut headers);
    Ok(headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_stored_hashed() {
        let a = random_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, random_token());
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }
}
