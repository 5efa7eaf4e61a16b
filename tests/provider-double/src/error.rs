//! The provider's error object, `{"error": {"type", "code", "message", "param"}}`, and
//! the status it comes with.

use axum::http::StatusCode;
use serde_json::{json, Map, Value};

/// What a call of the test double answers when it refuses.
#[derive(Debug, Clone)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub error: Map<String, Value>,
}

/// A call's answer: the object, or the error.
pub(crate) type Answer = Result<Value, ApiError>;

impl ApiError {
    pub(crate) fn new(status: StatusCode, kind: &str, message: impl Into<String>) -> ApiError {
        let mut error = Map::new();
        error.insert("type".into(), kind.into());
        error.insert("message".into(), message.into().into());
        ApiError { status, error }
    }

    pub(crate) fn code(self, code: &str) -> ApiError {
        self.with("code", code.into())
    }

    pub(crate) fn param(self, param: &str) -> ApiError {
        self.with("param", param.into())
    }

    /// Another field of the error object (`payment_intent`, `decline_code`, …).
    pub(crate) fn with(mut self, key: &str, value: Value) -> ApiError {
        self.error.insert(key.into(), value);
        self
    }

    /// A 400 `invalid_request_error`.
    pub(crate) fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_request_error", message)
    }

    /// A 400 about one parameter.
    pub(crate) fn invalid_param(param: &str, message: impl Into<String>) -> ApiError {
        ApiError::invalid(message).param(param)
    }

    /// A required parameter was not sent: 400 `parameter_missing`.
    pub(crate) fn missing(param: &str) -> ApiError {
        ApiError::invalid(format!("Missing required param: {param}."))
            .code("parameter_missing")
            .param(param)
    }

    /// An id nobody made: 404 `resource_missing`.
    pub(crate) fn no_such(object: &str, id: &str, param: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            format!("No such {object}: '{id}'"),
        )
        .code("resource_missing")
        .param(param)
    }

    /// A call the object's status does not allow.
    pub(crate) fn unexpected_state(code: &str, message: impl Into<String>) -> ApiError {
        ApiError::invalid(message).code(code)
    }

    /// A missing, malformed or insufficient key: 401.
    pub(crate) fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "invalid_request_error", message)
    }

    /// A path this test double does not answer.
    pub(crate) fn unrecognized(method: &str, path: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            format!("Unrecognized request URL ({method}: {path})."),
        )
    }

    pub(crate) fn body(&self) -> Value {
        json!({ "error": self.error })
    }
}
