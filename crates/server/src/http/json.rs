//! JSON answers with the content type the original shop sends.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;

use crate::error::ApiError;

/// A JSON answer from bytes already serialised.
pub fn json_bytes(status: StatusCode, body: Bytes) -> Response {
    let mut res = (status, body).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json; charset=UTF-8"),
    );
    res
}

pub fn json_value<T: serde::Serialize>(status: StatusCode, body: &T) -> Response {
    // Most answers are a few kilobytes: start there rather than growing from nothing.
    let mut bytes = Vec::with_capacity(4096);
    match serde_json::to_writer(&mut bytes, body) {
        Ok(()) => json_bytes(status, Bytes::from(bytes)),
        Err(e) => {
            tracing::error!(error = %e, "could not serialise a response");
            ApiError::internal().into_response()
        }
    }
}
