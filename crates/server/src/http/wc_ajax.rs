//! The classic calls' address: `?wc-ajax=NAME` on any path, as in the original shop.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;

use super::json::json_value;

/// The query's `wc-ajax` name, if any.
pub fn name(query: Option<&str>) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query?).ok()?;
    pairs
        .into_iter()
        .find(|(k, _)| k == "wc-ajax")
        .map(|(_, v)| v)
}

pub fn unknown(name: &str) -> Response {
    let body = json!({"success": false, "data": {"code": "unknown_action", "message": format!("Unknown action: {}.", name.chars().take(64).collect::<String>())}});
    json_value(StatusCode::BAD_REQUEST, &body)
}
