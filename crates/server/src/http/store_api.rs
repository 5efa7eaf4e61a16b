//! The frame of every Store API call: finding the session, checking the nonce on
//! writes, and the headers every answer carries (Nonce, Cart-Token, cart cookies).

use std::net::IpAddr;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::cookies;
use crate::error::ApiError;
use crate::session::{
    identify, Session, SessionSource, LOGIN_COOKIE, SESSION_COOKIE, SESSION_TTL_SECS,
};
use crate::shop_url::BaseUrl;
use crate::state::{AppState, SharedState};
use rules::clock;

/// The nonce action of the Store API.
pub const STORE_API_NONCE: &str = "wc_store_api";
/// The nonce action of the platform's REST calls, and the header it comes in.
pub const WP_REST_NONCE: &str = "wp_rest";
pub const WP_NONCE_HEADER: &str = "x-wp-nonce";

/// A request's frame: who is asking (checked against revocation), the shop's address
/// for links in the answer, and the time, read once.
pub struct StoreCtx {
    pub session: Session,
    pub base_url: BaseUrl,
    pub now: i64,
    /// The client's address, for rate limits (None without connection info).
    pub client: Option<IpAddr>,
    /// The request's login cookie names a login that no longer stands: end it.
    revoked_login: bool,
    /// The guest's wishlist token from its cookie, when well formed: signing in merges
    /// that guest's lists into the account.
    pub wishlist_token: Option<String>,
}

impl StoreCtx {
    /// The frame of a request whose parts are at hand (extractors, the classic calls).
    pub async fn from_parts(state: &AppState, parts: &Parts) -> Result<Self, Response> {
        let base_url = request_base(state, parts).map_err(IntoResponse::into_response)?;
        let now = clock::now();
        match identify(&state.keys, &state.db, &parts.headers, now).await {
            Ok(who) => Ok(Self {
                session: who.session,
                base_url,
                now,
                client: crate::rate_limit::client_of(state, parts),
                revoked_login: who.revoked_login,
                wishlist_token: crate::wishlist::guest_token(&parts.headers),
            }),
            Err(e) => Err(ApiError::from(e).into_response()),
        }
    }

    /// A copy of this frame, to sign a customer in on without changing whom this one
    /// speaks for until the sign-in has worked.
    pub fn signing_in(&self) -> Self {
        Self {
            session: self.session.clone(),
            base_url: self.base_url.clone(),
            now: self.now,
            client: self.client,
            revoked_login: self.revoked_login,
            wishlist_token: self.wishlist_token.clone(),
        }
    }

    /// The frame for a request that signs the shopper in or out: `session` is who the
    /// answer speaks for from now on.
    pub fn speak_for(&mut self, session: Session) {
        self.session = session;
        self.revoked_login = false;
    }

    /// This session's nonce for `action`.
    pub fn nonce(&self, state: &AppState, action: &str) -> String {
        state.keys.nonce(action, &self.session, self.now)
    }

    /// Whether `given` is this session's nonce for `action`.
    pub fn nonce_matches(&self, state: &AppState, action: &str, given: Option<&str>) -> bool {
        given.is_some_and(|n| {
            !n.is_empty() && state.keys.verify_nonce(action, &self.session, n, self.now)
        })
    }

    /// Whether a form (a contact form, a newsletter sign-up) comes from this session:
    /// its nonce, the Store API's or the platform's `wp_rest`, in the form's `field` or
    /// in a header (`Nonce`, `X-WP-Nonce`); or, as on the Store API, a Cart-Token naming
    /// the session, which another site cannot send.
    pub fn form_nonce_ok(
        &self,
        state: &AppState,
        headers: &HeaderMap,
        field: Option<&str>,
    ) -> bool {
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
        };
        self.session.source == SessionSource::CartToken
            || [header(WP_NONCE_HEADER), field]
                .into_iter()
                .any(|n| self.nonce_matches(state, WP_REST_NONCE, n))
            || [header("nonce"), field]
                .into_iter()
                .any(|n| self.nonce_matches(state, STORE_API_NONCE, n))
    }

    /// Writes need the session's nonce, unless a valid Cart-Token names the cart.
    pub fn check_nonce(
        &self,
        state: &AppState,
        method: &Method,
        headers: &HeaderMap,
    ) -> Result<(), ApiError> {
        if method == Method::GET || method == Method::HEAD || method == Method::OPTIONS {
            return Ok(());
        }
        if self.session.source == SessionSource::CartToken {
            return Ok(());
        }
        let given = headers
            .get("nonce")
            .or_else(|| headers.get("x-wc-store-api-nonce"))
            .and_then(|v| v.to_str().ok())
            .filter(|v| !v.is_empty());
        match given {
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "woocommerce_rest_missing_nonce",
                "Missing the Nonce header. This endpoint requires a valid nonce.",
            )),
            Some(n) if self.nonce_matches(state, STORE_API_NONCE, Some(n)) => Ok(()),
            Some(_) => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "woocommerce_rest_invalid_nonce",
                "Nonce is invalid.",
            )),
        }
    }

    /// Adds the headers every Store API answer carries.
    pub fn finish(&self, state: &AppState, mut res: Response) -> Response {
        self.keep_session(state, res.headers_mut());
        let h = res.headers_mut();
        let nonce = self.nonce(state, STORE_API_NONCE);
        insert(h, "nonce", &nonce);
        insert(h, "x-wc-store-api-nonce", &nonce);
        insert(h, "nonce-timestamp", &self.now.to_string());
        insert(h, "user-id", &self.session.user_id.to_string());
        insert(
            h,
            "cart-token",
            &state.keys.cart_token(&self.session.id, self.now),
        );
        h.insert("x-robots-tag", HeaderValue::from_static("noindex"));
        h.insert(
            "access-control-expose-headers",
            HeaderValue::from_static(
                "X-WP-Total, X-WP-TotalPages, Link, Nonce, Nonce-Timestamp, Cart-Token, User-ID",
            ),
        );
        if res.headers().get(header::CACHE_CONTROL).is_none() {
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
        res
    }

    /// The cookies an answer needs so that what it hands out keeps working: a new
    /// session's cookie (its nonces are bound to it), and the end of a login cookie
    /// whose login was revoked.
    pub fn keep_session(&self, state: &AppState, headers: &mut HeaderMap) {
        if self.session.source == SessionSource::New && !cookies::sets(headers, SESSION_COOKIE) {
            self.set_session_cookie(state, headers);
        }
        if self.revoked_login && !cookies::sets(headers, LOGIN_COOKIE) {
            cookies::expire(headers, &self.base_url, LOGIN_COOKIE);
        }
    }

    /// Cookies after the cart changed: the session cookie (unless the client uses a
    /// Cart-Token) and the two cart cookies the original shop's scripts read.
    pub fn cart_cookies(
        &self,
        state: &AppState,
        headers: &mut HeaderMap,
        cart_hash: &str,
        items: i64,
    ) {
        if self.session.source != SessionSource::CartToken
            && !cookies::sets(headers, SESSION_COOKIE)
        {
            self.set_session_cookie(state, headers);
        }
        cookies::cart_state(headers, &self.base_url, cart_hash, items);
    }

    fn set_session_cookie(&self, state: &AppState, headers: &mut HeaderMap) {
        let value = state.keys.session_cookie_value(&self.session.id, self.now);
        cookies::set(
            headers,
            &self.base_url,
            SESSION_COOKIE,
            value,
            Some(SESSION_TTL_SECS),
        );
    }
}

impl FromRequestParts<SharedState> for StoreCtx {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &SharedState) -> Result<Self, Response> {
        StoreCtx::from_parts(state, parts).await
    }
}

/// The shop's address for the links of a call's answer, as an extractor.
impl FromRequestParts<SharedState> for BaseUrl {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &SharedState) -> Result<Self, Response> {
        request_base(state, parts).map_err(IntoResponse::into_response)
    }
}

/// The shop's address for this request's links, as the request guard found it (or,
/// for a request that bypassed the guard, worked out the same way).
fn request_base(state: &AppState, parts: &Parts) -> Result<BaseUrl, ApiError> {
    if let Some(base) = parts.extensions.get::<BaseUrl>() {
        return Ok(base.clone());
    }
    state
        .address
        .for_request(&parts.headers)
        .map_err(|_| super::guard::unknown_host())
}

fn insert(h: &mut HeaderMap, name: &'static str, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        h.insert(name, v);
    }
}

/// A Store API write, extracted: the session, a checked nonce and the parameters (a
/// JSON or form body; never the query string). A refusal is already a finished answer.
pub struct StoreWrite {
    pub ctx: StoreCtx,
    pub params: crate::http::params::Params,
    /// The request's headers, for calls that read cookies beyond the session's.
    pub headers: HeaderMap,
}

impl axum::extract::FromRequest<SharedState> for StoreWrite {
    type Rejection = Response;

    async fn from_request(
        req: axum::extract::Request,
        state: &SharedState,
    ) -> Result<Self, Response> {
        let (parts, body) = req.into_parts();
        let ctx = StoreCtx::from_parts(state, &parts).await?;
        if let Err(e) = ctx.check_nonce(state, &parts.method, &parts.headers) {
            return Err(ctx.finish(state, e.into_response()));
        }
        match crate::http::params::Params::read(&parts.headers, body, state.config.max_body_bytes)
            .await
        {
            Ok(params) => Ok(Self {
                ctx,
                params,
                headers: parts.headers,
            }),
            Err(e) => Err(ctx.finish(state, e.into_response())),
        }
    }
}

impl StoreCtx {
    /// Finishes a handler's outcome, an answer or an error, with the Store API headers.
    pub fn answer(&self, state: &AppState, result: Result<Response, ApiError>) -> Response {
        self.finish(state, result.unwrap_or_else(IntoResponse::into_response))
    }
}
