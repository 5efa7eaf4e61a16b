//! The provider's `/v1` calls: each is read once (path, query, form body, key), then
//! either answered here, under one lock of the state, or forwarded unchanged to the
//! upstream when the double does not own what it is about (see `owner`). Answers made
//! here for a POST with an `Idempotency-Key` are kept, and the same key again gets
//! the first answer again.

use std::sync::Arc;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State as AppState};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use serde_json::Value;

use crate::auth::Caller;
use crate::error::{Answer, ApiError};
use crate::form::Params;
use crate::objects::{is_upstream_type, random_text};
use crate::state::{App, Ctx, Saved, State};
use crate::{customers, forwarding, intents, methods, refunds, setup_intents, webhooks};

/// The largest request body read.
const BODY_LIMIT: usize = 1024 * 1024;

/// One call, read whole.
pub(crate) struct Call {
    pub method: Method,
    pub path: String,
    pub query: Option<String>,
    pub headers: HeaderMap,
    pub body: Bytes,
    /// The query's and the body's parameters, or why they could not be read.
    pub params: Result<Params, ApiError>,
    /// Where the shopper's browser reaches this double (see `public_base`).
    pub public_base: String,
}

impl Call {
    pub(crate) async fn read(app: &App, request: Request) -> Result<Call, Response> {
        let (parts, body) = request.into_parts();
        let body = to_bytes(body, BODY_LIMIT).await.map_err(|_| {
            respond(
                StatusCode::PAYLOAD_TOO_LARGE,
                &ApiError::invalid("The request body is too large.").body(),
                false,
            )
        })?;
        let query = parts.uri.query().map(str::to_owned);
        let params = Params::read(query.as_deref(), &body);
        Ok(Call {
            method: parts.method,
            path: parts.uri.path().to_owned(),
            query,
            public_base: public_base(&parts.headers, &app.base_url),
            headers: parts.headers,
            body,
            params,
        })
    }

    /// The path's segments, percent-decoded: `/v1/payment_intents/pi_1` →
    /// `["v1", "payment_intents", "pi_1"]`.
    fn segments(&self) -> Vec<String> {
        self.path
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(|segment| percent_decode_str(segment).decode_utf8_lossy().into_owned())
            .collect()
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }
}

/// Who answers a call.
enum Owner {
    Here,
    Upstream,
    /// `GET /v1/events` with an upstream: both lists, merged.
    BothEventLists,
}

/// The fallback handler: every call that is not a control call.
pub(crate) async fn handle(AppState(app): AppState<Arc<App>>, request: Request) -> Response {
    let call = match Call::read(&app, request).await {
        Ok(call) => call,
        Err(response) => return response,
    };
    let owner = owner(&app, &app.lock(), &call);
    match owner {
        Owner::Here => answer_here(&app, &call),
        Owner::Upstream => forwarding::forward(&app, &call).await,
        Owner::BothEventLists => forwarding::merged_events(&app, &call).await,
    }
}

/// What the double owns, when there is an upstream: the payment methods it made (and
/// new ones of any type but `card`), intents with such a method or
/// such a type among their `payment_method_types`, their refunds, its own events.
/// Customers and everything else belong to the upstream. Without an upstream
/// everything is answered here.
fn owner(app: &App, state: &State, call: &Call) -> Owner {
    if app.upstream.is_none() {
        return Owner::Here;
    }
    // Parameters that cannot be read are refused here.
    let Ok(params) = &call.params else {
        return Owner::Here;
    };
    let here = |owned: bool| if owned { Owner::Here } else { Owner::Upstream };
    let segments = call.segments();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    match (call.method.as_str(), segments.as_slice()) {
        ("POST", ["v1", "payment_methods"]) => here(
            params
                .str(&["type"])
                .is_some_and(|name| !is_upstream_type(name)),
        ),
        ("GET", ["v1", "payment_methods"]) => here(
            params
                .str(&["type"])
                .is_none_or(|name| !is_upstream_type(name)),
        ),
        (_, ["v1", "payment_methods", id, ..]) => here(state.payment_methods.contains_key(*id)),
        ("POST", ["v1", "payment_intents" | "setup_intents"]) => {
            here(owns_new_intent(state, params))
        }
        (_, ["v1", "payment_intents", id, ..]) => here(state.payment_intents.contains_key(*id)),
        (_, ["v1", "setup_intents", id, ..]) => here(state.setup_intents.contains_key(*id)),
        ("POST", ["v1", "refunds"]) => here(
            params
                .str(&["payment_intent"])
                .is_some_and(|id| state.payment_intents.contains_key(id))
                || params
                    .str(&["charge"])
                    .is_some_and(|id| state.charges.contains_key(id)),
        ),
        (_, ["v1", "refunds", id]) => here(state.refunds.contains_key(*id)),
        ("GET", ["v1", "events"]) => Owner::BothEventLists,
        (_, ["v1", "events", id]) => here(state.events.iter().any(|event| event["id"] == *id)),
        _ => Owner::Upstream,
    }
}

/// A new intent is the double's when its method is, or when its method (new or named)
/// or its `payment_method_types` name a type the double owns.
fn owns_new_intent(state: &State, params: &Params) -> bool {
    if let Some(id) = params.str(&["payment_method"]) {
        return state.payment_methods.contains_key(id);
    }
    if let Some(name) = params.str(&["payment_method_data", "type"]) {
        return !is_upstream_type(name);
    }
    params
        .list("payment_method_types")
        .iter()
        .any(|name| !is_upstream_type(name))
}

/// Answers a call here: the key, an idempotent replay, then the call itself.
fn answer_here(app: &App, call: &Call) -> Response {
    let params = match &call.params {
        Ok(params) => params,
        Err(error) => return respond(error.status, &error.body(), false),
    };
    let caller = match Caller::of(&call.headers, params) {
        Ok(caller) => caller,
        Err(error) => return respond(error.status, &error.body(), false),
    };
    let mut state = app.lock();
    let idempotency_key = (call.method == Method::POST)
        .then(|| call.header("idempotency-key"))
        .flatten()
        .map(|key| (caller.key().to_owned(), key.to_owned()));
    if let Some(scope) = &idempotency_key {
        if let Some(saved) = state.idempotency.get(scope) {
            if saved.method == call.method.as_str()
                && saved.path == call.path
                && saved.body == call.body
            {
                return respond(saved.status, &saved.answer, true);
            }
            let error = ApiError::new(
                StatusCode::BAD_REQUEST,
                "idempotency_error",
                format!(
                    "Keys for idempotent requests can only be used with the same parameters they \
                     were first used with. Try using a key other than '{}' if you meant to execute \
                     a different request.",
                    scope.1
                ),
            );
            return respond(error.status, &error.body(), false);
        }
    }
    let ctx = Ctx {
        caller: &caller,
        params,
        public_base: &call.public_base,
        has_upstream: app.upstream.is_some(),
    };
    let (status, answer) = match route(&mut state, &ctx, call) {
        Ok(answer) => (StatusCode::OK, answer),
        Err(error) => (error.status, error.body()),
    };
    // Like the provider, only answers of calls that ran are kept: successes and
    // declines, not refusals of the parameters.
    if let Some(scope) = idempotency_key {
        if status == StatusCode::OK || status == StatusCode::PAYMENT_REQUIRED {
            state.idempotency.insert(
                scope,
                Saved {
                    method: call.method.to_string(),
                    path: call.path.clone(),
                    body: call.body.to_vec(),
                    status,
                    answer: answer.clone(),
                },
            );
        }
    }
    respond(status, &answer, false)
}

fn route(state: &mut State, ctx: &Ctx, call: &Call) -> Answer {
    let segments = call.segments();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    match (call.method.as_str(), segments.as_slice()) {
        ("POST", ["v1", "payment_methods"]) => methods::create(state, ctx),
        ("GET", ["v1", "payment_methods"]) => methods::list(state, ctx),
        ("GET", ["v1", "payment_methods", id]) => methods::retrieve(state, ctx, id),
        ("POST", ["v1", "payment_methods", id, "attach"]) => methods::attach(state, ctx, id),
        ("POST", ["v1", "payment_methods", id, "detach"]) => methods::detach(state, ctx, id),
        ("POST", ["v1", "customers"]) => customers::create(state, ctx),
        ("GET", ["v1", "customers"]) => customers::list(state, ctx),
        ("GET", ["v1", "customers", id]) => customers::retrieve(state, ctx, id),
        ("POST", ["v1", "customers", id]) => customers::update(state, ctx, id),
        ("DELETE", ["v1", "customers", id]) => customers::delete(state, ctx, id),
        ("POST", ["v1", "payment_intents"]) => intents::create(state, ctx),
        ("GET", ["v1", "payment_intents", id]) => intents::retrieve(state, ctx, id),
        ("POST", ["v1", "payment_intents", id]) => intents::update(state, ctx, id),
        ("POST", ["v1", "payment_intents", id, "confirm"]) => intents::confirm(state, ctx, id),
        ("POST", ["v1", "payment_intents", id, "cancel"]) => intents::cancel(state, ctx, id),
        ("POST", ["v1", "payment_intents", id, "capture"]) => intents::capture(state, ctx, id),
        ("POST", ["v1", "setup_intents"]) => setup_intents::create(state, ctx),
        ("GET", ["v1", "setup_intents", id]) => setup_intents::retrieve(state, ctx, id),
        ("POST", ["v1", "setup_intents", id, "confirm"]) => setup_intents::confirm(state, ctx, id),
        ("POST", ["v1", "setup_intents", id, "cancel"]) => setup_intents::cancel(state, ctx, id),
        ("POST", ["v1", "refunds"]) => refunds::create(state, ctx),
        ("GET", ["v1", "refunds", id]) => refunds::retrieve(state, ctx, id),
        ("GET", ["v1", "events"]) => webhooks::list(state, ctx),
        ("GET", ["v1", "events", id]) => webhooks::retrieve(state, ctx, id),
        (method, _) => Err(ApiError::unrecognized(method, &call.path)),
    }
}

/// A JSON answer with the provider's `Request-Id` (and `Idempotent-Replayed` for a
/// replay).
pub(crate) fn respond(status: StatusCode, body: &Value, replayed: bool) -> Response {
    let mut response = (status, body.to_string()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if let Ok(id) = HeaderValue::from_str(&format!("req_{}", random_text(14))) {
        headers.insert("request-id", id);
    }
    if replayed {
        headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    response
}

/// The base URL the shopper's browser reaches this double at, for the URLs put in
/// `next_action`: the double's own address, unless a proxy in front of it says
/// otherwise with `X-Forwarded-Host`/`X-Forwarded-Proto`/`X-Forwarded-Prefix`
/// (values that do not look like a host, a scheme or a path are ignored).
pub(crate) fn public_base(headers: &HeaderMap, own: &str) -> String {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
            .filter(|value| !value.is_empty())
    };
    let forwarded_host = header("x-forwarded-host").filter(|host| {
        host.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
    });
    let prefix = header("x-forwarded-prefix").filter(|prefix| {
        prefix.starts_with('/')
            && prefix
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/-_.~".contains(&b))
    });
    if forwarded_host.is_none() && prefix.is_none() {
        return own.to_owned();
    }
    let proto = match header("x-forwarded-proto") {
        Some("https") => "https",
        _ => "http",
    };
    let host = forwarded_host.or_else(|| {
        header("host").filter(|host| {
            host.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
    });
    match host {
        Some(host) => format!(
            "{proto}://{host}{}",
            prefix.unwrap_or("").trim_end_matches('/')
        ),
        None => own.to_owned(),
    }
}

/// Permissive CORS on every answer, and `OPTIONS` preflights answered here, so a page
/// of any origin can call the double directly.
pub(crate) async fn cors(request: Request, next: Next) -> Response {
    let mut response = if request.method() == Method::OPTIONS {
        (StatusCode::NO_CONTENT, Body::empty()).into_response()
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("Authorization, Content-Type, Stripe-Version, Idempotency-Key"),
    );
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Request-Id, Idempotent-Replayed"),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    response
}
