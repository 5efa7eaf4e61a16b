//! The shape of the `wc_stripe_*` calls' forms and answers, shared by the payment
//! calls and the express checkout's: a form read field by field, `{success, data}`
//! with `data.error.message` on failure.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};

use crate::http::json::json_value;
use crate::http::params::Params;

pub(super) struct Form(pub(super) Params);

impl Form {
    pub(super) fn text(&self, name: &str) -> Option<String> {
        match self.0.get(name)? {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    pub(super) fn id(&self, name: &str) -> Option<i64> {
        self.text(name)?.parse::<i64>().ok().filter(|&i| i > 0)
    }
}

pub(super) fn success(data: Value) -> Response {
    json_value(StatusCode::OK, &json!({"success": true, "data": data}))
}

pub(super) fn failure(status: StatusCode, message: &str) -> Response {
    json_value(
        status,
        &json!({"success": false, "data": {"error": {"message": message}}}),
    )
}

pub(super) fn bad_nonce() -> Response {
    failure(
        StatusCode::FORBIDDEN,
        "We were unable to process your request. Please refresh the page and try again.",
    )
}
