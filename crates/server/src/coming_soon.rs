//! Coming-soon mode: while the shop is being set up, its pages answer visitors with a
//! coming-soon page, `503 Service Unavailable` with `Retry-After`, so search engines
//! come back later instead of indexing it. Signed-in staff see the shop (the
//! storefront shows them a banner they can dismiss). The account pages stay open so
//! staff can sign in; the APIs, the shop's images and its files answer as usual.

use askama::Template;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::session::Session;
use crate::state::AppState;

#[derive(Template)]
#[template(path = "pages/coming_soon.html")]
struct ComingSoonPage<'a> {
    shop_name: &'a str,
    initial: String,
    message: &'a str,
}

/// Whether the storefront page at `segments` is closed to this visitor.
pub fn closed_to(state: &AppState, session: &Session, segments: &[&str]) -> bool {
    state.config.coming_soon.enabled
        && !session.role.is_staff()
        && segments.first() != Some(&"my-account")
}

/// Whether this visitor sees the shop in coming-soon mode (staff get the banner).
pub fn staff_preview(state: &AppState, session: &Session) -> bool {
    state.config.coming_soon.enabled && session.role.is_staff()
}

/// The coming-soon page, with its status and headers.
pub fn page(state: &AppState) -> Response {
    let config = &state.config.coming_soon;
    let shop_name = state.config.shop_name.as_str();
    let html = ComingSoonPage {
        shop_name,
        initial: shop_name
            .chars()
            .next()
            .map(|c| c.to_uppercase().to_string())
            .unwrap_or_default(),
        message: &config.message,
    }
    .render()
    .unwrap_or_else(|_| format!("{shop_name} is coming soon."));
    let mut res = (StatusCode::SERVICE_UNAVAILABLE, html).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        header::RETRY_AFTER,
        HeaderValue::from(config.retry_after_secs),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}
