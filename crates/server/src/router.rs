//! The HTTP surface: one router for the Store API, the classic `wc-ajax` calls, the
//! staff API, the shop's images and the storefront, with the layers every response
//! passes through. It sits on top: it names every feature's routes.

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::error::ApiError;
use crate::http::routes::ApiRoutes;
use crate::http::{guard, openapi, FERROSHOP_API_ROOT, STORE_API_ROOT};
use crate::state::SharedState;

/// Every API call the server answers, each registered once with its method and path.
pub fn api_routes() -> ApiRoutes<SharedState> {
    let store_api = ApiRoutes::new()
        .merge(crate::catalog::api::routes())
        .merge(crate::cart::api::routes())
        .merge(crate::checkout::api::routes())
        .merge(crate::reviews::api::store_routes());
    let shop_api = ApiRoutes::new()
        .merge(crate::orders::api::routes())
        .merge(crate::customers::api::routes())
        .merge(crate::checkout::locale_api::routes())
        .merge(crate::payments::routes())
        .merge(crate::catalog::variations::routes())
        .merge(crate::reviews::api::routes())
        .merge(crate::contact::api::shop_routes())
        .merge(crate::wishlist::api::routes())
        .merge(openapi::routes());
    ApiRoutes::new()
        .nest(STORE_API_ROOT, store_api.clone())
        // The unversioned root answers like v1, as in the original.
        .alias("/wp-json/wc/store", store_api)
        .nest(FERROSHOP_API_ROOT, shop_api)
        .nest("/wp-json/wp/v2", crate::customers::wp_users::routes())
        .nest(
            crate::contact::API_ROOT,
            crate::contact::api::routes().merge(crate::contact::staff::routes()),
        )
        .nest(
            crate::staff::api::API_ROOT,
            crate::staff::api::routes()
                .merge(crate::staff::refunds::routes())
                .merge(crate::reviews::staff::routes())
                .merge(crate::newsletter::staff_routes()),
        )
        // The review form without scripts, at the original's address.
        .post(
            crate::reviews::api::FORM_ACTION,
            crate::reviews::forms::post_form,
        )
        .get("/media/{file}", crate::web::media)
        .get("/healthz", || async { "ok" })
}

pub fn app(state: SharedState) -> Router {
    // The pages' server renders read the shop's API in process, through the same routes.
    let page_api = crate::ssr::PageApi(api_routes().into_router().with_state(state.clone()));
    let router = api_routes()
        .into_router()
        .route("/robots.txt", get(crate::seo::robots))
        .route("/sitemap.xml", get(crate::seo::sitemap))
        .route("/sitemaps/{file}", get(crate::seo::sitemap_file))
        .route("/wp-json", any(no_route))
        .route("/wp-json/{*rest}", any(no_route))
        // Every route answers a method it does not take in JSON, with `Allow`.
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(crate::web::page)
        .with_state(state.clone())
        .layer(axum::Extension(page_api))
        .layer(middleware::from_fn_with_state(state.clone(), wc_ajax))
        .layer(middleware::from_fn_with_state(state.clone(), guard::guard))
        .layer(DefaultBodyLimit::max(state.config.max_body_bytes))
        .layer(CompressionLayer::new().gzip(true));
    let provider = state.provider.is_some();
    let app = with_security_headers(router, provider)
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal().into_response()
        }))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_request(())
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::DEBUG)
                        .latency_unit(tower_http::LatencyUnit::Micros),
                ),
        );
    // Outside the routes, so a method it overrides is the one they are matched by.
    Router::new()
        .fallback_service(app)
        .layer(middleware::from_fn(method_override))
}

/// The header the platform's script helper sends PUT, PATCH and DELETE in, as POST.
const METHOD_OVERRIDE: &str = "x-http-method-override";

/// A POST whose `X-HTTP-Method-Override` names PUT, PATCH or DELETE is that request,
/// as the platform's REST server takes it (clients and proxies that only speak GET and
/// POST send the others this way). Only POST is overridden, and only into those: a
/// link can never become a write, and a write stays one.
async fn method_override(mut req: Request, next: Next) -> Response {
    if req.method() == Method::POST {
        if let Some(value) = req.headers().get(METHOD_OVERRIDE) {
            let method = match value.to_str().map(|v| v.trim().to_ascii_uppercase()) {
                Ok(v) if v == "PUT" => Method::PUT,
                Ok(v) if v == "PATCH" => Method::PATCH,
                Ok(v) if v == "DELETE" => Method::DELETE,
                Ok(v) if v == "POST" => Method::POST,
                _ => {
                    return guard::Surface::of(req.uri()).refuse(
                        StatusCode::BAD_REQUEST,
                        "rest_invalid_method_override",
                        "X-HTTP-Method-Override takes PUT, PATCH or DELETE.",
                    )
                }
            };
            *req.method_mut() = method;
        }
    }
    next.run(req).await
}

/// A request's log span: its method and path only. Query strings carry order keys,
/// e-mail addresses, nonces and reset keys, so they are never written to the logs.
fn request_span(req: &Request) -> tracing::Span {
    tracing::info_span!(
        "request",
        method = %req.method(),
        path = %req.uri().path(),
        query = if req.uri().query().is_some() { "[redacted]" } else { "" },
    )
}

async fn no_route() -> Response {
    ApiError::not_found().into_response()
}

async fn method_not_allowed() -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "rest_no_route",
        "No route was found matching the URL and request method.",
    )
    .into_response()
}

/// `?wc-ajax=NAME` on any path is a classic shop call, as in the original. The calls
/// that change something are taken by POST only, with their fields from the body.
async fn wc_ajax(State(state): State<SharedState>, req: Request, next: Next) -> Response {
    if let Some(call) = crate::newsletter::call_of(req.uri()) {
        let (parts, body) = req.into_parts();
        return crate::newsletter::dispatch(&state, call, parts, body).await;
    }
    if crate::payments::webhook::is_webhook(req.uri().query()) {
        if req.method() != Method::POST {
            let mut res = guard::classic_error(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "The webhook endpoint takes POST only.",
            );
            res.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("POST"));
            return res;
        }
        let (parts, body) = req.into_parts();
        let bytes = match axum::body::to_bytes(body, state.config.max_body_bytes).await {
            Ok(b) => b,
            Err(_) => {
                return guard::classic_error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "too_large",
                    "The request body is too large.",
                )
            }
        };
        return crate::payments::webhook::receive(&state, &parts.headers, bytes).await;
    }
    if req.uri().path() == "/wp-admin/admin-ajax.php" {
        if req.method() != Method::POST {
            let mut res = guard::classic_error(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "This call changes the shop and is only taken by POST.",
            );
            res.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("POST"));
            return res;
        }
        let (parts, body) = req.into_parts();
        return crate::payments::ajax::admin_ajax(&state, &parts, body).await;
    }
    let Some(name) = crate::http::wc_ajax::name(req.uri().query()) else {
        // The wishlist's add is a form posted to the page being looked at.
        if crate::wishlist::add::may_be_add(&req) {
            return crate::wishlist::add::intercept(&state, req, next).await;
        }
        return next.run(req).await;
    };
    if name == crate::wishlist::AJAX_NAME {
        let (parts, body) = req.into_parts();
        return crate::wishlist::ajax::dispatch(&state, &parts, body).await;
    }
    let read_only = name == "get_refreshed_fragments";
    let allowed = req.method() == Method::POST
        || (read_only && matches!(*req.method(), Method::GET | Method::HEAD));
    if !allowed
        && (crate::checkout::ajax::handles(&name)
            || crate::cart::ajax::handles(&name)
            || name == crate::catalog::variations::GET_VARIATION
            || crate::payments::ajax::handles(&name))
    {
        let mut res = guard::classic_error(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "This call changes the shop and is only taken by POST.",
        );
        let allow = if read_only { "GET, HEAD, POST" } else { "POST" };
        res.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allow));
        return res;
    }
    let (parts, body) = req.into_parts();
    if crate::checkout::ajax::handles(&name) {
        return crate::checkout::ajax::dispatch(&state, &name, &parts, body).await;
    }
    if crate::cart::ajax::handles(&name) {
        return crate::cart::ajax::dispatch(&state, &name, &parts, body).await;
    }
    if crate::payments::ajax::handles(&name) {
        return crate::payments::ajax::dispatch(&state, &name, &parts, body).await;
    }
    if name == crate::catalog::variations::GET_VARIATION {
        return crate::catalog::variations::get_variation(&state, &parts, body).await;
    }
    crate::http::wc_ajax::unknown(&name)
}

/// The content security policy: the shop's own origin only, and the card provider's
/// script, frames and API when card payments are set up (its element runs in frames
/// the provider serves).
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; \
     connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'";
const CSP_WITH_PROVIDER: &str = "default-src 'self'; img-src 'self' data: https://*.stripe.com; style-src 'self' 'unsafe-inline'; \
     script-src 'self' https://js.stripe.com https://*.js.stripe.com; \
     frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com; \
     connect-src 'self' https://api.stripe.com; frame-ancestors 'self'; base-uri 'self'; form-action 'self'";

/// Headers every response carries unless its handler set its own.
fn with_security_headers(router: Router, provider: bool) -> Router {
    let headers = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "SAMEORIGIN"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (
            header::CONTENT_SECURITY_POLICY,
            if provider { CSP_WITH_PROVIDER } else { CSP },
        ),
    ];
    headers.into_iter().fold(router, |r, (name, value)| {
        r.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ))
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use super::*;

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn request_logs_never_carry_the_query_string() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let req = Request::builder()
                .uri("/checkout/order-received/9/?key=wc_order_SECRETKEY&billing_email=ada%40example.test")
                .body(axum::body::Body::empty())
                .unwrap();
            let span = request_span(&req);
            let _entered = span.enter();
            tracing::info!("answered");
        });
        let logged = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert!(logged.contains("/checkout/order-received/9/"), "{logged}");
        assert!(logged.contains("[redacted]"), "{logged}");
        assert!(
            !logged.contains("SECRETKEY") && !logged.contains("example.test"),
            "{logged}"
        );
    }
}
