//! A path segment as text, refused in the API's JSON shape when it is not valid UTF-8
//! (the framework's own `Path` answers such a request in plain text).

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The route's one parameter (`/products/{id}`), undecoded characters refused as the
/// original refuses a path its routes do not match: 404 `rest_no_route`.
pub struct PathText(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathText {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(text)) => Ok(PathText(text)),
            Err(_) => Err(ApiError::not_found().into_response()),
        }
    }
}
