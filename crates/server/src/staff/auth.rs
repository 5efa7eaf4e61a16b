//! Who is calling the staff API: an API key sent with HTTP Basic auth, and nothing
//! else. A customer's login cookie or a storefront session grants no staff access.
//! Refusals are worded as the original shop words them, so its clients understand.

use axum::http::{header, HeaderMap, StatusCode};

use crate::error::ApiError;
use crate::state::AppState;
use rules::staff::{self as keys, ApiKey, Credentials};

/// What a call does, which decides the permission it needs and how a call without
/// credentials is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    List,
    View,
    Edit,
    Create,
}

impl Access {
    fn writes(self) -> bool {
        matches!(self, Self::Edit | Self::Create)
    }

    fn without_credentials(self) -> ApiError {
        let (code, message) = match self {
            Self::List => (
                "woocommerce_rest_cannot_view",
                "Sorry, you cannot list resources.",
            ),
            Self::View => (
                "woocommerce_rest_cannot_view",
                "Sorry, you cannot view this resource.",
            ),
            Self::Edit => (
                "woocommerce_rest_cannot_edit",
                "Sorry, you are not allowed to edit this resource.",
            ),
            Self::Create => (
                "woocommerce_rest_cannot_create",
                "Sorry, you are not allowed to create resources.",
            ),
        };
        ApiError::new(StatusCode::UNAUTHORIZED, code, message)
    }
}

fn authentication_error(message: &str) -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "woocommerce_rest_authentication_error",
        message,
    )
}

/// A wrong key and a wrong secret get the same answer, so a caller cannot find out
/// which keys exist.
fn invalid_key() -> ApiError {
    authentication_error("Consumer key is invalid.")
}

/// The API key making this call, if it may do `access`.
pub async fn authorize(
    state: &AppState,
    headers: &HeaderMap,
    access: Access,
) -> Result<ApiKey, ApiError> {
    let credentials = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(Credentials::from_basic);
    let credentials = match credentials {
        None => return Err(access.without_credentials()),
        Some(Err(())) => return Err(invalid_key()),
        Some(Ok(c)) => c,
    };
    if !credentials.key_is_well_formed() {
        return Err(invalid_key());
    }
    let key = store::staff::find_by_key_digest(&state.db, &keys::digest(&credentials.key))
        .await?
        .filter(|k| !k.is_revoked())
        .filter(|k| k.secret_matches(&credentials.secret))
        .ok_or_else(invalid_key)?;
    if access.writes() && !key.permissions.can_write() {
        return Err(authentication_error(
            "The API key provided does not have write permissions.",
        ));
    }
    if !access.writes() && !key.permissions.can_read() {
        return Err(authentication_error(
            "The API key provided does not have read permissions.",
        ));
    }
    store::staff::touch(&state.db, key.id, rules::clock::now()).await?;
    Ok(key)
}
