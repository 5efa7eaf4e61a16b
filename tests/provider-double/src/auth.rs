//! Who is calling: the shop's server with a secret key (`Authorization: Bearer
//! sk_test_…`), or a page with the publishable key (`key=pk_test_…` in the form or the
//! query, as the provider's browser script sends it). Any key of the right shape is
//! taken; live keys never are.

use axum::http::{header, HeaderMap};

use crate::error::ApiError;
use crate::form::Params;

#[derive(Debug, Clone)]
pub(crate) enum Caller {
    Secret(String),
    Publishable(String),
}

impl Caller {
    /// Reads the key of a call, or the provider's 401.
    pub(crate) fn of(headers: &HeaderMap, params: &Params) -> Result<Caller, ApiError> {
        let authorization = headers
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok())
            .map(str::trim)
            .filter(|value| !value.is_empty());
        let basic;
        let key = match authorization {
            Some(value) => match (value.strip_prefix("Bearer "), value.strip_prefix("Basic ")) {
                (Some(key), _) => key.trim(),
                (None, Some(encoded)) => {
                    basic = basic_user(encoded.trim()).ok_or_else(|| {
                        ApiError::unauthorized("The Basic authorization header could not be read.")
                    })?;
                    basic.as_str()
                }
                (None, None) => {
                    return Err(ApiError::unauthorized(
                        "This test double takes the API key as Bearer authentication: \
                         'Authorization: Bearer sk_test_…' (or as Basic authentication's user name).",
                    ))
                }
            },
            None => match params.str(&["key"]) {
                Some(key) => key,
                None => {
                    return Err(ApiError::unauthorized(
                        "You did not provide an API key. Provide it in the Authorization \
                         header, using Bearer auth ('Authorization: Bearer YOUR_SECRET_KEY').",
                    ))
                }
            },
        };
        let well_formed = |prefix: &str| {
            key.len() > prefix.len()
                && key.starts_with(prefix)
                && key.bytes().all(|b| b.is_ascii_graphic())
        };
        if well_formed("sk_test_") || well_formed("rk_test_") {
            Ok(Caller::Secret(key.to_owned()))
        } else if well_formed("pk_test_") {
            Ok(Caller::Publishable(key.to_owned()))
        } else {
            Err(ApiError::unauthorized(format!(
                "Invalid API Key provided: {}. This test double takes test keys only \
                 (sk_test_…, rk_test_… or pk_test_…).",
                redacted(key)
            ))
            .code("api_key_invalid"))
        }
    }

    /// The key, to keep idempotency keys apart per account key.
    pub(crate) fn key(&self) -> &str {
        match self {
            Caller::Secret(key) | Caller::Publishable(key) => key,
        }
    }

    /// Calls only the shop's server makes.
    pub(crate) fn require_secret(&self) -> Result<(), ApiError> {
        match self {
            Caller::Secret(_) => Ok(()),
            Caller::Publishable(_) => Err(ApiError::unauthorized(
                "This API call cannot be made with a publishable API key. Please use a secret API key.",
            )),
        }
    }

    /// Reading or confirming an intent: the secret key, or the publishable key with the
    /// intent's client secret.
    pub(crate) fn require_secret_or_client_secret(
        &self,
        params: &Params,
        client_secret: &str,
    ) -> Result<(), ApiError> {
        match self {
            Caller::Secret(_) => Ok(()),
            Caller::Publishable(_) if params.str(&["client_secret"]) == Some(client_secret) => {
                Ok(())
            }
            Caller::Publishable(_) => Err(ApiError::unauthorized(
                "With a publishable API key this call needs the intent's client_secret.",
            )),
        }
    }
}

/// The user name of `Basic base64(user:password)`.
fn basic_user(encoded: &str) -> Option<String> {
    use base64::Engine;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    Some(
        text.split_once(':')
            .map_or(text.as_str(), |(user, _)| user)
            .to_owned(),
    )
}

/// The key's prefix and last four characters.
fn redacted(key: &str) -> String {
    let prefix: String = key.chars().take(8).collect();
    let count = key.chars().count();
    let last4: String = key.chars().skip(count.saturating_sub(4)).collect();
    if count <= 12 {
        format!("{prefix}****")
    } else {
        format!("{prefix}****{last4}")
    }
}
