//! The frame of every Store API call: finding the session, checking the nonce on
//! writes, and the headers every answer carries (Nonce, Cart-Token, cart cookies).

use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;

use crate::catalog::view::ViewContext;
use crate::clock;
use crate::error::ApiError;
use crate::session::{Session, SessionSource, SESSION_COOKIE, SESSION_TTL_SECS};
use crate::state::AppState;

/// The nonce action of the Store API.
pub const STORE_API_NONCE: &str = "wc_store_api";

pub struct StoreCtx {
    pub session: Session,
    pub base_url: String,
    pub now: i64,
}

impl StoreCtx {
    pub fn new(state: &AppState, headers: &HeaderMap) -> Self {
        Self {
            session: state.keys.session_from(headers),
            base_url: base_url(state, headers),
            now: clock::now(),
        }
    }

    /// What views need to write links and prices for this request.
    pub fn view<'a>(&'a self, state: &'a AppState) -> ViewContext<'a> {
        ViewContext {
            base_url: &self.base_url,
            currency: &state.config.currency,
        }
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
            Some(n)
                if state
                    .keys
                    .verify_nonce(STORE_API_NONCE, self.session.user_id, n, self.now) =>
            {
                Ok(())
            }
            Some(_) => Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "woocommerce_rest_invalid_nonce",
                "Nonce is invalid.",
            )),
        }
    }

    /// Adds the headers every Store API answer carries.
    pub fn finish(&self, state: &AppState, mut res: Response) -> Response {
        let h = res.headers_mut();
        let nonce = state
            .keys
            .nonce(STORE_API_NONCE, self.session.user_id, self.now);
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

    /// Cookies after the cart changed: the session cookie (unless the client uses a
    /// Cart-Token) and the two cart cookies the original shop's scripts read.
    pub fn cart_cookies(
        &self,
        state: &AppState,
        headers: &mut HeaderMap,
        cart_hash: &str,
        items: i64,
    ) {
        if self.session.source != SessionSource::CartToken {
            let value = state
                .keys
                .session_cookie_value(&self.session.id, self.now)
                .replace('|', "%7C");
            append_cookie(
                headers,
                &format!("{SESSION_COOKIE}={value}; Max-Age={SESSION_TTL_SECS}; Path=/; HttpOnly; SameSite=Lax"),
            );
        }
        if items > 0 {
            append_cookie(headers, "woocommerce_items_in_cart=1; Path=/; SameSite=Lax");
            append_cookie(
                headers,
                &format!("woocommerce_cart_hash={cart_hash}; Path=/; SameSite=Lax"),
            );
        } else {
            append_cookie(
                headers,
                "woocommerce_items_in_cart=; Max-Age=0; Path=/; SameSite=Lax",
            );
            append_cookie(
                headers,
                "woocommerce_cart_hash=; Max-Age=0; Path=/; SameSite=Lax",
            );
        }
    }
}

fn insert(h: &mut HeaderMap, name: &'static str, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        h.insert(name, v);
    }
}

pub fn append_cookie(h: &mut HeaderMap, cookie: &str) {
    if let Ok(v) = HeaderValue::from_str(cookie) {
        h.append(header::SET_COOKIE, v);
    }
}

/// The shop's address for absolute links: the configured public URL, else the Host
/// the request came to (only if it looks like a host name).
pub fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.config.public_url {
        return url.clone();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| !h.is_empty() && h.len() < 256)
        .filter(|h| {
            h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        });
    match host {
        Some(h) => format!("http://{h}"),
        None => format!("http://{}", state.config.bind),
    }
}

/// A JSON answer from bytes already serialised.
pub fn json_bytes(status: StatusCode, body: Bytes) -> Response {
    let mut res = (status, body).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=UTF-8"),
    );
    res
}

pub fn json_value<T: serde::Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => json_bytes(status, Bytes::from(bytes)),
        Err(e) => {
            tracing::error!(error = %e, "could not serialise a response");
            ApiError::internal().into_response()
        }
    }
}

/// A Store API write, extracted: the session, a checked nonce and the parameters (JSON
/// or form body over the query). A refusal is already a finished answer.
pub struct StoreWrite {
    pub ctx: StoreCtx,
    pub params: crate::http::params::Params,
    /// The request's headers, for calls that read cookies beyond the session's.
    pub headers: HeaderMap,
}

impl axum::extract::FromRequest<crate::state::SharedState> for StoreWrite {
    type Rejection = Response;

    async fn from_request(
        req: axum::extract::Request,
        state: &crate::state::SharedState,
    ) -> Result<Self, Response> {
        let (parts, body) = req.into_parts();
        let ctx = StoreCtx::new(state, &parts.headers);
        if let Err(e) = ctx.check_nonce(state, &parts.method, &parts.headers) {
            return Err(ctx.finish(state, e.into_response()));
        }
        match crate::http::params::Params::read(
            &parts.headers,
            parts.uri.query(),
            body,
            state.config.max_body_bytes,
        )
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
