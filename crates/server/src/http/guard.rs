//! What every request passes before a handler sees it: the host it names must be one
//! the shop answers for (so links are never built from a forged Host), and a write
//! that a browser says comes from another site is refused unless a Cart-Token header
//! names its cart (a page on another site cannot add that header without the shop's
//! consent). Refusals come in the shape of the surface asked: Store API JSON, the
//! classic calls' JSON, or a short page.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::json::json_value;
use crate::error::ApiError;
use crate::state::SharedState;
use rules::html::escape;

/// The surface a request speaks to, which decides the shape of its errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// `/wp-json/…`: `{code, message, data: {status}}`.
    Rest,
    /// `?wc-ajax=NAME`: `{success: false, data: {code, message}}`.
    Classic,
    /// Storefront pages and files.
    Page,
}

impl Surface {
    pub fn of(uri: &Uri) -> Self {
        if uri.path().starts_with("/wp-json") {
            Surface::Rest
        } else if super::wc_ajax::name(uri.query()).is_some() {
            Surface::Classic
        } else {
            Surface::Page
        }
    }

    /// An error answer in this surface's shape.
    pub fn refuse(self, status: StatusCode, code: &str, message: &str) -> Response {
        match self {
            Surface::Rest => ApiError::new(status, code, message).into_response(),
            Surface::Classic => classic_error(status, code, message),
            Surface::Page => {
                let body = format!(
                    "<!doctype html><meta charset=utf-8><title>{status}</title><h1>{}</h1><p>{}</p>",
                    escape(status.canonical_reason().unwrap_or("Error")),
                    escape(message)
                );
                let mut res = (status, body).into_response();
                res.headers_mut().insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                );
                res
            }
        }
    }
}

/// The classic calls' error shape (WordPress's `wp_send_json_error`).
pub fn classic_error(status: StatusCode, code: &str, message: &str) -> Response {
    json_value(
        status,
        &json!({"success": false, "data": {"code": code, "message": message}}),
    )
}

pub const UNKNOWN_HOST_MESSAGE: &str =
    "This shop does not answer for the host name this request was sent to.";

/// The Store API answer to a request naming a host the shop does not answer for.
pub fn unknown_host() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "ferroshop_unknown_host",
        UNKNOWN_HOST_MESSAGE,
    )
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

pub async fn guard(State(state): State<SharedState>, mut req: Request, next: Next) -> Response {
    // Load balancers ask for this by address; it builds no links.
    if req.uri().path() == "/healthz" {
        return next.run(req).await;
    }
    let surface = Surface::of(req.uri());
    let base = match state.address.for_request(req.headers()) {
        Ok(base) => base,
        Err(_) => {
            return surface.refuse(
                StatusCode::BAD_REQUEST,
                "ferroshop_unknown_host",
                UNKNOWN_HOST_MESSAGE,
            )
        }
    };
    if !is_safe(req.method())
        && !req.headers().contains_key("cart-token")
        && state.address.is_cross_site(req.headers())
    {
        return surface.refuse(
            StatusCode::FORBIDDEN,
            "ferroshop_cross_site_request",
            "This request came from another site. Changes to a cart, an order or an account can only be made from the shop's own pages.",
        );
    }
    let https = base.is_https();
    req.extensions_mut().insert(base);
    let mut res = next.run(req).await;
    if https {
        res.headers_mut().insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    res
}
