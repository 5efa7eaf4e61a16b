//! The HTTP surface: one router for the Store API, the classic `wc-ajax` calls, the
//! shop's images and the storefront, with the layers every response passes through.

pub mod params;
pub mod store_api;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::error::ApiError;
use crate::state::SharedState;

pub const STORE_API_ROOT: &str = "/wp-json/wc/store/v1";

pub fn app(state: SharedState) -> Router {
    let store_api = Router::new()
        .merge(crate::catalog::api::router())
        .merge(crate::cart::api::router())
        .merge(crate::checkout::api::router())
        .fallback(no_route)
        .method_not_allowed_fallback(no_route);
    let router = Router::new()
        .nest(STORE_API_ROOT, store_api.clone())
        // The unversioned root answers like v1, as in the original.
        .nest("/wp-json/wc/store", store_api)
        .merge(crate::orders::api::router())
        .merge(crate::accounts::router())
        .merge(crate::checkout::locale::api::router())
        .route("/wp-json", any(no_route))
        .route("/wp-json/{*rest}", any(no_route))
        .route("/media/{file}", get(crate::web::media))
        .route("/healthz", get(|| async { "ok" }))
        .fallback(crate::web::page)
        .with_state(state.clone())
        .layer(middleware::from_fn_with_state(state.clone(), wc_ajax))
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(CompressionLayer::new().gzip(true));
    with_security_headers(router)
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal().into_response()
        }))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_request(())
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::DEBUG)
                        .latency_unit(tower_http::LatencyUnit::Micros),
                ),
        )
}

async fn no_route() -> Response {
    ApiError::not_found().into_response()
}

/// `?wc-ajax=NAME` on any path is a classic shop call, as in the original.
async fn wc_ajax(State(state): State<SharedState>, req: Request, next: Next) -> Response {
    let Some(name) = crate::web::wc_ajax_name(req.uri().query()) else {
        return next.run(req).await;
    };
    let (parts, body): (_, Body) = req.into_parts();
    let query = parts.uri.query().map(str::to_string);
    if crate::checkout::ajax::handles(&name) {
        return match crate::checkout::ajax::dispatch(
            &state,
            &name,
            &parts.headers,
            query.as_deref(),
            body,
        )
        .await
        {
            Some(res) => res,
            None => crate::web::unknown_ajax(&name),
        };
    }
    match crate::cart::ajax::dispatch(&state, &name, &parts.headers, query.as_deref(), body).await {
        Some(res) => res,
        None => crate::web::unknown_ajax(&name),
    }
}

/// Headers every response carries unless its handler set its own.
fn with_security_headers(router: Router) -> Router {
    let headers = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "SAMEORIGIN"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; \
             connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'",
        ),
    ];
    headers.into_iter().fold(router, |r, (name, value)| {
        r.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ))
    })
}
