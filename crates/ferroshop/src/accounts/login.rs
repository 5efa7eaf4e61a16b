//! Being signed in: the login token behind the signed login cookie, what logging in
//! and out does to the session and its cart, and finding the signed-in customer for
//! calls that need one (which also checks the token was not revoked).

use std::collections::HashMap;

use axum::http::HeaderMap;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

use super::cart_merge::merge_carts;
use super::error::AccountError;
use super::model::{Customer, CustomerId};
use crate::cart::model::StoredCart;
use crate::http::store_api::{append_cookie, StoreCtx};
use crate::session::{Session, SessionId, SessionSource, LOGIN_COOKIE, SESSION_TTL_SECS};
use crate::state::AppState;
use crate::store::customers::{self, SessionAttach};
use crate::store::{catalog, sessions};

/// A login lasts two days, or fourteen with "remember me", as in the original shop.
pub const LOGIN_TTL_SECS: i64 = 2 * 24 * 3600;
pub const REMEMBERED_LOGIN_TTL_SECS: i64 = 14 * 24 * 3600;

/// A fresh random token: 32 bytes, URL-safe base64.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// How tokens and keys are stored: their SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The signed-in customer and the login they are signed in with.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub customer: Customer,
    pub token_hash: String,
}

/// The customer the request's login cookie signs in, if the cookie is valid and its
/// token has not been revoked (by logging out or a password change).
pub async fn signed_in(
    state: &AppState,
    headers: &HeaderMap,
    now: i64,
) -> Result<Option<SignedIn>, AccountError> {
    let Some(claim) = state.keys.login_from(headers, now) else {
        return Ok(None);
    };
    let hash = token_hash(&claim.token);
    match customers::login_customer(&state.db, &hash, now).await? {
        Some(id) if id.0 == claim.customer_id => {}
        _ => return Ok(None),
    }
    let customer = super::find_customer(&state.db, CustomerId(claim.customer_id)).await?;
    Ok(customer.map(|customer| SignedIn {
        customer,
        token_hash: hash,
    }))
}

fn secure_suffix(ctx: &StoreCtx) -> &'static str {
    if ctx.base_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
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
    let now = ctx.now;
    let ttl = if remember {
        REMEMBERED_LOGIN_TTL_SECS
    } else {
        LOGIN_TTL_SECS
    };
    let expires = now + ttl;
    let token = random_token();
    customers::insert_login(&state.db, &token_hash(&token), id, now, expires).await?;
    let cart = attach_cart(state, ctx, id).await?;
    ctx.session.user_id = id.0;
    let mut headers = HeaderMap::new();
    let value = state.keys.login_cookie_value(id.0, &token, expires);
    // Without "remember me" the cookie ends with the browser session.
    let max_age = if remember {
        format!("; Max-Age={ttl}")
    } else {
        String::new()
    };
    append_cookie(
        &mut headers,
        &format!(
            "{LOGIN_COOKIE}={value}{max_age}; Path=/; HttpOnly; SameSite=Lax{}",
            secure_suffix(ctx)
        ),
    );
    ctx.cart_cookies(
        state,
        &mut headers,
        &cart.hash(&state.config.currency.code),
        cart.items_count(),
    );
    Ok(headers)
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
            ctx.session = Session {
                id: SessionId::generate(),
                source: SessionSource::New,
                user_id: ctx.session.user_id,
            };
            current = None;
        }
        let others =
            customers::customer_sessions(&state.db, id, ctx.session.id.as_str(), now).await?;
        let mut cart = current
            .as_ref()
            .map(|s| StoredCart::parse(&s.cart))
            .unwrap_or_default();
        if !others.is_empty() {
            let saved: Vec<StoredCart> =
                others.iter().map(|s| StoredCart::parse(&s.cart)).collect();
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

/// The Set-Cookie that ends the login cookie.
pub fn expire_login_cookie(headers: &mut HeaderMap) {
    append_cookie(
        headers,
        &format!("{LOGIN_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"),
    );
}

/// Signs out: revokes the login token, ends the cookie, and gives the browser a fresh
/// guest session. The customer's cart stays on the old session for their next login.
pub async fn log_out(
    state: &AppState,
    ctx: &mut StoreCtx,
    request_headers: &HeaderMap,
) -> Result<HeaderMap, AccountError> {
    if let Some(claim) = state.keys.login_from(request_headers, ctx.now) {
        customers::delete_login(&state.db, &token_hash(&claim.token)).await?;
    }
    ctx.session = Session {
        id: SessionId::generate(),
        source: SessionSource::New,
        user_id: 0,
    };
    let mut headers = HeaderMap::new();
    expire_login_cookie(&mut headers);
    ctx.cart_cookies(state, &mut headers, "", 0);
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
