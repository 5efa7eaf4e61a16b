//! Everything an account call can refuse, with the words the original shop shows for
//! it (plain text: clients put these in notices). Each becomes the Store API's error
//! shape, naming the offending body field in `data.field` where there is one.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::error::ApiError;
use store::StoreError;

#[derive(Debug)]
pub enum AccountError {
    // Registration (and account creation at checkout).
    RegistrationInvalidEmail,
    EmailAlreadyRegistered,
    MissingAccountPassword,
    /// A new password under the minimum length; `field` names where it was typed.
    PasswordTooShort {
        field: &'static str,
    },

    // Logging in.
    MissingUsername,
    MissingLoginPassword,
    InvalidLogin,
    NotLoggedIn,

    // Lost and reset password.
    MissingResetLogin,
    UnknownResetLogin,
    InvalidResetKey,
    MissingResetPassword,
    ResetPasswordsDiffer,

    // Edit account and addresses.
    RequiredField {
        field: &'static str,
        label: &'static str,
    },
    DisplayNameIsEmail,
    InvalidEmail {
        field: &'static str,
    },
    EmailTaken,
    PasswordFieldsIncomplete,
    CurrentPasswordMissing,
    PasswordNotRepeated,
    NewPasswordsDiffer,
    CurrentPasswordIncorrect,
    /// A rule of the address form, already worded.
    InvalidAddress {
        field: String,
        code: String,
        message: String,
    },

    /// A refusal of the Store API frame (nonce, malformed body), passed through.
    Api(ApiError),
    Store(StoreError),
    /// Hashing failed or its task died: a server fault, logged, never shown.
    Internal(String),
}

impl From<ApiError> for AccountError {
    fn from(e: ApiError) -> Self {
        Self::Api(e)
    }
}

impl From<StoreError> for AccountError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}

impl AccountError {
    pub fn to_api(&self) -> ApiError {
        use AccountError::*;
        let bad = StatusCode::BAD_REQUEST;
        let (status, code, message, field): (StatusCode, &str, String, Option<&str>) = match self {
            RegistrationInvalidEmail => (
                bad,
                "registration-error-invalid-email",
                "Please provide a valid email address.".into(),
                Some("email"),
            ),
            EmailAlreadyRegistered => (
                bad,
                "registration-error-email-exists",
                "An account is already registered with your email address. Please log in.".into(),
                Some("email"),
            ),
            MissingAccountPassword => (
                bad,
                "registration-error-missing-password",
                "Please enter an account password.".into(),
                Some("password"),
            ),
            PasswordTooShort { field } => (
                bad,
                "ferroshop_password_too_short",
                format!(
                    "Please choose a password of at least {} characters.",
                    rules::customers::MIN_PASSWORD_CHARS
                ),
                Some(*field),
            ),
            MissingUsername => (
                bad,
                "ferroshop_missing_username",
                "Username is required.".into(),
                Some("username"),
            ),
            MissingLoginPassword => (
                bad,
                "ferroshop_missing_password",
                "The password field is empty.".into(),
                Some("password"),
            ),
            InvalidLogin => (
                StatusCode::UNAUTHORIZED,
                "ferroshop_invalid_login",
                "Unknown email address or incorrect password.".into(),
                None,
            ),
            NotLoggedIn => (
                StatusCode::UNAUTHORIZED,
                "ferroshop_not_logged_in",
                "You must be logged in.".into(),
                None,
            ),
            MissingResetLogin => (
                bad,
                "empty_username",
                "Enter a username or email address.".into(),
                Some("user_login"),
            ),
            UnknownResetLogin => (
                bad,
                "invalid_username",
                "Invalid username or email.".into(),
                Some("user_login"),
            ),
            InvalidResetKey => (
                bad,
                "invalid_key",
                "This key is invalid or has already been used.".into(),
                Some("key"),
            ),
            MissingResetPassword => (
                bad,
                "password_reset_empty",
                "Please enter your password.".into(),
                Some("password"),
            ),
            ResetPasswordsDiffer => (
                bad,
                "password_reset_mismatch",
                "Passwords do not match.".into(),
                Some("password_confirm"),
            ),
            RequiredField { field, label } => (
                bad,
                "ferroshop_required_field",
                format!("{label} is a required field."),
                Some(*field),
            ),
            DisplayNameIsEmail => (
                bad,
                "ferroshop_display_name_is_email",
                "Display name cannot be changed to email address due to privacy concern.".into(),
                Some("display_name"),
            ),
            InvalidEmail { field } => (
                bad,
                "ferroshop_invalid_email",
                "Please provide a valid email address.".into(),
                Some(*field),
            ),
            EmailTaken => (
                bad,
                "ferroshop_email_exists",
                "This email address is already registered.".into(),
                Some("email"),
            ),
            PasswordFieldsIncomplete => (
                bad,
                "ferroshop_password_fields_incomplete",
                "Please fill out all password fields.".into(),
                Some("password_1"),
            ),
            CurrentPasswordMissing => (
                bad,
                "ferroshop_current_password_missing",
                "Please enter your current password.".into(),
                Some("password_current"),
            ),
            PasswordNotRepeated => (
                bad,
                "ferroshop_password_not_repeated",
                "Please re-enter your password.".into(),
                Some("password_2"),
            ),
            NewPasswordsDiffer => (
                bad,
                "ferroshop_passwords_mismatch",
                "New passwords do not match.".into(),
                Some("password_2"),
            ),
            CurrentPasswordIncorrect => (
                bad,
                "ferroshop_current_password_incorrect",
                "Your current password is incorrect.".into(),
                Some("password_current"),
            ),
            InvalidAddress {
                field,
                code,
                message,
            } => {
                return ApiError::new(bad, code, message.clone()).with_data("field", json!(field));
            }
            Api(e) => {
                return ApiError {
                    status: e.status,
                    code: e.code.clone(),
                    message: e.message.clone(),
                    data: e.data.clone(),
                };
            }
            Store(e) => {
                tracing::error!(error = %e, "storage failure in an account call");
                return ApiError::internal();
            }
            Internal(e) => {
                tracing::error!(error = %e, "account call failed");
                return ApiError::internal();
            }
        };
        let err = ApiError::new(status, code, message);
        match field {
            Some(f) => err.with_data("field", json!(f)),
            None => err,
        }
    }
}

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> Self {
        e.to_api()
    }
}

impl IntoResponse for AccountError {
    fn into_response(self) -> Response {
        match self {
            AccountError::Api(e) => e.into_response(),
            other => other.to_api().into_response(),
        }
    }
}

impl std::fmt::Display for AccountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountError::Store(e) => write!(f, "{e}"),
            AccountError::Internal(e) => f.write_str(e),
            other => f.write_str(&other.to_api().message),
        }
    }
}

impl std::error::Error for AccountError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_carry_the_field_they_are_about() {
        let body = AccountError::EmailAlreadyRegistered.to_api().body();
        assert_eq!(body["code"], "registration-error-email-exists");
        assert_eq!(
            body["message"],
            "An account is already registered with your email address. Please log in."
        );
        assert_eq!(body["data"]["status"], 400);
        assert_eq!(body["data"]["field"], "email");
        let body = AccountError::RequiredField {
            field: "first_name",
            label: "First name",
        }
        .to_api()
        .body();
        assert_eq!(body["message"], "First name is a required field.");
    }
}
