//! The server's error type. Store API errors are `{code, message, data: {status, …}}`;
//! internal failures are logged in full and answered with a generic message, never
//! with their details.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use store::StoreError;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: String,
    pub message: String,
    /// Extra members of `data` besides `status` (boxed: errors travel in every `Result`).
    pub data: Box<Map<String, Value>>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        Self {
            status,
            code: code.into(),
            message: message.into(),
            data: Box::default(),
        }
    }

    pub fn with_data(mut self, key: &str, value: Value) -> Self {
        self.data.insert(key.into(), value);
        self
    }

    /// How long to wait before trying again: `data.retry_after`, and the
    /// `Retry-After` header of the answer.
    pub fn retry_after(self, secs: i64) -> Self {
        self.with_data("retry_after", json!(secs.max(1)))
    }

    /// The wait a refusal asks for, if it is one that asks.
    pub fn retry_after_secs(&self) -> Option<i64> {
        self.data.get("retry_after").and_then(Value::as_i64)
    }

    /// WordPress's shape for a parameter that fails its schema.
    pub fn invalid_param(param: &str, message: impl Into<String>, detail_code: &str) -> Self {
        let message = message.into();
        Self::new(StatusCode::BAD_REQUEST, "rest_invalid_param", format!("Invalid parameter(s): {param}"))
            .with_data("params", json!({ param: message }))
            .with_data(
                "details",
                json!({ param: { "code": detail_code, "message": message, "data": { "param": param } } }),
            )
    }

    pub fn not_integer(param: &str) -> Self {
        Self::invalid_param(
            param,
            format!("{param} is not of type integer."),
            "rest_invalid_type",
        )
    }

    pub fn missing_param(param: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "rest_missing_callback_param",
            format!("Missing parameter(s): {param}"),
        )
        .with_data("params", json!([param]))
    }

    pub fn invalid_json() -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "rest_invalid_json",
            "Invalid JSON body passed.",
        )
        .with_data("json_error_code", json!(4))
        .with_data("json_error_message", json!("Syntax error"))
    }

    pub fn not_found() -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "rest_no_route",
            "No route was found matching the URL and request method.",
        )
    }

    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_server_error",
            "The shop could not complete this request. Please try again.",
        )
    }

    pub fn body(&self) -> Value {
        let mut data = (*self.data).clone();
        data.insert("status".into(), json!(self.status.as_u16()));
        json!({ "code": self.code, "message": self.message, "data": data })
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        if let StoreError::UnreadableCart(_) = e {
            // Already logged where it was found; the shopper can go on at once.
            return Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "ferroshop_cart_unreadable",
                "Your cart could not be read, so it was set aside for the shop to look into. Please add your items again.",
            );
        }
        tracing::error!(error = %e, "storage failure");
        Self::internal()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = self.retry_after_secs();
        let mut res = (self.status, self.body().to_string()).into_response();
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=UTF-8"),
        );
        if let Some(secs) = retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        res
    }
}
