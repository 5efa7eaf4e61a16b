//! What a call can fail with: the provider out of reach, the provider's own error
//! object (which the server maps to what the shopper reads), or an answer that is not
//! what the API documents.

use std::fmt;

use serde::Deserialize;

use crate::ids::{ChargeId, PaymentIntentId, SetupIntentId};
use crate::lenient::id_or_object;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No answer on any attempt: the connection failed, broke or timed out.
    #[error(
        "the payment provider could not be reached ({attempts} {}{})",
        if *.attempts == 1 { "attempt" } else { "attempts" },
        if *.timed_out { ", timed out" } else { "" }
    )]
    Network {
        attempts: u32,
        timed_out: bool,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The provider refused the request with its error object.
    #[error(transparent)]
    Provider(Box<ProviderError>),
    /// An answer that is neither the documented object nor the provider's error object.
    #[error("the payment provider's answer (HTTP {status}) could not be read: {reason}")]
    UnreadableResponse {
        status: u16,
        reason: String,
        request_id: Option<String>,
    },
    /// The client could not be built from its configuration.
    #[error("the payment client's configuration is invalid: {0}")]
    Config(String),
}

impl Error {
    /// The provider's error object, when the provider refused the request.
    pub fn provider_error(&self) -> Option<&ProviderError> {
        match self {
            Error::Provider(error) => Some(error),
            _ => None,
        }
    }
}

string_enum! {
    /// The `type` of the provider's error object.
    pub enum ErrorType {
        ApiError = "api_error",
        CardError = "card_error",
        IdempotencyError = "idempotency_error",
        InvalidRequestError = "invalid_request_error",
    }
}

/// The provider's error object and the answer it came in. `code`, `decline_code` and
/// `param` are what the server maps to a message for the shopper; `message` is the
/// provider's own text (written for developers, sometimes shown to shoppers for card
/// errors).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderError {
    /// The HTTP status (402 for a declined card, 400, 401, 404, 409, 429, 5xx).
    pub status: u16,
    pub error_type: Option<ErrorType>,
    /// Such as `card_declined`, `expired_card`, `incorrect_cvc`, `resource_missing`.
    pub code: Option<String>,
    /// The issuer's reason for a decline, such as `insufficient_funds`.
    pub decline_code: Option<String>,
    pub message: Option<String>,
    /// The request parameter the error is about.
    pub param: Option<String>,
    /// The intent the failed request was about, when the provider names it.
    pub payment_intent: Option<PaymentIntentId>,
    pub setup_intent: Option<SetupIntentId>,
    pub charge: Option<ChargeId>,
    /// The provider's `Request-Id`, for its support and for our logs.
    pub request_id: Option<String>,
}

impl ProviderError {
    /// The shopper's card was refused: a `card_error`, or the `card_declined` code
    /// (which the emulator sends with another type).
    pub fn is_card_error(&self) -> bool {
        self.error_type == Some(ErrorType::CardError)
            || self.code.as_deref() == Some("card_declined")
    }

    /// The key was refused (wrong, revoked, or of a restricted key lacking the
    /// permission).
    pub fn is_authentication_failure(&self) -> bool {
        self.status == 401 || self.status == 403
    }

    /// Reads `{"error": {...}}`; `None` when the body is not the provider's error object.
    pub(crate) fn from_body(
        status: u16,
        request_id: Option<String>,
        body: &[u8],
    ) -> Option<ProviderError> {
        let ErrorBody { error } = serde_json::from_slice(body).ok()?;
        Some(ProviderError {
            status,
            error_type: error.error_type,
            code: error.code,
            decline_code: error.decline_code,
            message: error.message,
            param: error.param,
            payment_intent: error.payment_intent,
            setup_intent: error.setup_intent,
            charge: error.charge,
            request_id,
        })
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the payment provider refused the request (HTTP {}",
            self.status
        )?;
        if let Some(error_type) = &self.error_type {
            write!(f, ", {error_type}")?;
        }
        if let Some(code) = &self.code {
            write!(f, ", code {code}")?;
        }
        if let Some(decline_code) = &self.decline_code {
            write!(f, ", decline code {decline_code}")?;
        }
        if let Some(param) = &self.param {
            write!(f, ", parameter {param}")?;
        }
        f.write_str(")")?;
        if let Some(message) = &self.message {
            write!(f, ": {message}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ProviderError {}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorObject,
}

#[derive(Deserialize)]
struct ErrorObject {
    #[serde(rename = "type", default)]
    error_type: Option<ErrorType>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    decline_code: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    param: Option<String>,
    // The provider embeds the whole intent here; only its id is kept.
    #[serde(default, deserialize_with = "id_or_object")]
    payment_intent: Option<PaymentIntentId>,
    #[serde(default, deserialize_with = "id_or_object")]
    setup_intent: Option<SetupIntentId>,
    #[serde(default, deserialize_with = "id_or_object")]
    charge: Option<ChargeId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_error_is_read_with_its_intent_id() {
        let body = br#"{"error": {"type": "card_error", "code": "card_declined",
            "decline_code": "insufficient_funds", "message": "Your card has insufficient funds.",
            "charge": "ch_1", "payment_intent": {"id": "pi_1", "object": "payment_intent", "status": "requires_payment_method"},
            "doc_url": "https://example.invalid/docs"}}"#;
        let error = ProviderError::from_body(402, Some("req_1".into()), body).unwrap();
        assert_eq!(error.error_type, Some(ErrorType::CardError));
        assert_eq!(error.code.as_deref(), Some("card_declined"));
        assert_eq!(error.decline_code.as_deref(), Some("insufficient_funds"));
        assert_eq!(error.payment_intent, Some(PaymentIntentId::new("pi_1")));
        assert_eq!(error.charge, Some(ChargeId::new("ch_1")));
        assert!(error.is_card_error());
        assert_eq!(
            error.to_string(),
            "the payment provider refused the request (HTTP 402, card_error, code card_declined, \
             decline code insufficient_funds): Your card has insufficient funds."
        );
    }

    #[test]
    fn a_body_that_is_not_an_error_object_is_not_read_as_one() {
        assert!(ProviderError::from_body(502, None, b"<html>Bad gateway</html>").is_none());
        assert!(ProviderError::from_body(500, None, br#"{"id": "pi_1"}"#).is_none());
    }

    #[test]
    fn an_unknown_error_type_is_kept() {
        let error =
            ProviderError::from_body(400, None, br#"{"error": {"type": "new_kind"}}"#).unwrap();
        assert_eq!(error.error_type, Some(ErrorType::Other("new_kind".into())));
        assert!(!error.is_card_error());
    }
}
