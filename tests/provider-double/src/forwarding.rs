//! Calls the double does not own go to the upstream (the provider's emulator)
//! unchanged: method, path, query, body, and the `Authorization`, `Content-Type`,
//! `Idempotency-Key` and `Stripe-Version` headers; its answer comes back as it is.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::api::{respond, Call};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::methods::list_page;
use crate::state::{App, Ctx};
use crate::webhooks;

/// The upstream may be slow (the emulator is); a test fails long before this.
const TIMEOUT: Duration = Duration::from_secs(30);

const REQUEST_HEADERS: [&str; 4] = [
    "authorization",
    "content-type",
    "idempotency-key",
    "stripe-version",
];

const ANSWER_HEADERS: [&str; 6] = [
    "content-type",
    "request-id",
    "idempotent-replayed",
    "stripe-should-retry",
    "stripe-version",
    "retry-after",
];

/// An upstream answer, read whole.
pub(crate) struct Upstream {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl IntoResponse for Upstream {
    fn into_response(self) -> Response {
        let mut response = (self.status, self.body).into_response();
        let headers = response.headers_mut();
        for (name, value) in &self.headers {
            headers.insert(name.clone(), value.clone());
        }
        response
    }
}

/// Sends a call to the upstream as it came.
pub(crate) async fn send(
    app: &App,
    method: &Method,
    path_and_query: &str,
    headers: &HeaderMap,
    body: Bytes,
) -> Result<Upstream, ApiError> {
    let upstream = app
        .upstream
        .as_deref()
        .expect("only called with an upstream");
    let mut request = app
        .http
        .request(method.clone(), format!("{upstream}{path_and_query}"))
        .timeout(TIMEOUT)
        .body(body);
    for name in REQUEST_HEADERS {
        for value in headers.get_all(name) {
            request = request.header(name, value.clone());
        }
    }
    let unreachable = |error: reqwest::Error| {
        ApiError::new(
            StatusCode::BAD_GATEWAY,
            "api_error",
            format!("The test double's upstream at {upstream} did not answer: {error}"),
        )
    };
    let answer = request.send().await.map_err(unreachable)?;
    let status = answer.status();
    let mut kept = HeaderMap::new();
    for name in ANSWER_HEADERS {
        if let Some(value) = answer.headers().get(name) {
            kept.insert(HeaderName::from_static(name), value.clone());
        }
    }
    let body = answer.bytes().await.map_err(unreachable)?;
    Ok(Upstream {
        status,
        headers: kept,
        body,
    })
}

/// The whole call forwarded, and the upstream's answer.
pub(crate) async fn forward(app: &App, call: &Call) -> Response {
    let path_and_query = match &call.query {
        Some(query) => format!("{}?{query}", call.path),
        None => call.path.clone(),
    };
    match send(
        app,
        &call.method,
        &path_and_query,
        &call.headers,
        call.body.clone(),
    )
    .await
    {
        Ok(upstream) => upstream.into_response(),
        Err(error) => respond(error.status, &error.body(), false),
    }
}

/// `GET /v1/events` with an upstream: the double's events and the upstream's (its
/// latest 100 of the type asked for), newest first, paged here.
pub(crate) async fn merged_events(app: &App, call: &Call) -> Response {
    let params = match &call.params {
        Ok(params) => params,
        Err(error) => return respond(error.status, &error.body(), false),
    };
    let caller = match Caller::of(&call.headers, params).and_then(|caller| {
        caller.require_secret()?;
        Ok(caller)
    }) {
        Ok(caller) => caller,
        Err(error) => return respond(error.status, &error.body(), false),
    };
    let mut query = String::from("limit=100");
    if let Some(wanted) = params.str(&["type"]) {
        query.push_str("&type=");
        query.extend(percent_encoding::utf8_percent_encode(
            wanted,
            percent_encoding::NON_ALPHANUMERIC,
        ));
    }
    let mut headers = call.headers.clone();
    headers.remove("content-type");
    let upstream = match send(
        app,
        &Method::GET,
        &format!("/v1/events?{query}"),
        &headers,
        Bytes::new(),
    )
    .await
    {
        Ok(upstream) if upstream.status.is_success() => upstream,
        Ok(upstream) => return upstream.into_response(),
        Err(error) => return respond(error.status, &error.body(), false),
    };
    let theirs: Vec<Value> = serde_json::from_slice::<Value>(&upstream.body)
        .ok()
        .and_then(|list| list.get("data").and_then(Value::as_array).cloned())
        .unwrap_or_default();
    let mut events: Vec<Value> = {
        let state = app.lock();
        let ctx = Ctx {
            caller: &caller,
            params,
            public_base: &call.public_base,
            has_upstream: true,
        };
        webhooks::matching(&state, &ctx).cloned().collect()
    };
    events.extend(theirs);
    // Stable: among events of one second, the double's come first.
    events.sort_by_key(|event| std::cmp::Reverse(event["created"].as_i64().unwrap_or(0)));
    match list_page(params, "/v1/events", events.into_iter()) {
        Ok(list) => respond(StatusCode::OK, &list, false),
        Err(error) => respond(error.status, &error.body(), false),
    }
}

/// A control call (`/_config/…`) passed on to the upstream as well; `Err` with what
/// went wrong unless it answered with success.
pub(crate) async fn pass_on(
    app: &App,
    method: &Method,
    path: &str,
    content_type: Option<&HeaderValue>,
    body: Bytes,
) -> Result<(), ApiError> {
    let mut headers = HeaderMap::new();
    if let Some(content_type) = content_type {
        headers.insert("content-type", content_type.clone());
    }
    let upstream = send(app, method, path, &headers, body).await?;
    if upstream.status.is_success() {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::BAD_GATEWAY,
        "api_error",
        format!(
            "The test double's upstream refused {method} {path} (HTTP {}): {}",
            upstream.status.as_u16(),
            String::from_utf8_lossy(&upstream.body)
        ),
    ))
}
