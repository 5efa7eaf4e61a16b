//! The "Edit account" form: names, display name, e-mail address and, optionally, a
//! new password, with the original shop's rules checked in its order.

use super::error::AccountError;
use super::password::{hash_password, verify_password};
use rules::customers::{Customer, Email, NewPassword, PasswordProblem};
use store::customers::{self, DetailsChange};
use store::{Db, StoreError};

/// The form as sent; names and address trimmed, passwords as typed.
#[derive(Debug, Clone, Default)]
pub struct DetailsForm {
    pub first_name: String,
    pub last_name: String,
    pub display_name: String,
    pub email: String,
    pub password_current: String,
    pub password_1: String,
    pub password_2: String,
}

/// The fields other than the passwords: all required, a display name that does not
/// give away another address, and a valid address.
pub fn check_fields(form: &DetailsForm) -> Result<Email, AccountError> {
    let required = [
        ("first_name", "First name", &form.first_name),
        ("last_name", "Last name", &form.last_name),
        ("display_name", "Display name", &form.display_name),
        ("email", "Email address", &form.email),
    ];
    for (field, label, value) in required {
        if value.trim().is_empty() {
            return Err(AccountError::RequiredField { field, label });
        }
    }
    // A display name is shown publicly (reviews); an address there leaks it.
    if Email::parse(&form.display_name).is_some() && form.display_name.trim() != form.email.trim() {
        return Err(AccountError::DisplayNameIsEmail);
    }
    Email::parse(&form.email).ok_or(AccountError::InvalidEmail { field: "email" })
}

/// The password fields: all empty (no change), or all three filled with two matching
/// new ones. Whether the current one is right is checked after this.
pub fn check_password_change(form: &DetailsForm) -> Result<Option<NewPassword>, AccountError> {
    let (current, new, repeat) = (
        !form.password_current.is_empty(),
        !form.password_1.is_empty(),
        !form.password_2.is_empty(),
    );
    if current && !new && !repeat {
        return Err(AccountError::PasswordFieldsIncomplete);
    }
    if new && !current {
        return Err(AccountError::CurrentPasswordMissing);
    }
    if new && !repeat {
        return Err(AccountError::PasswordNotRepeated);
    }
    if (new || repeat) && form.password_1 != form.password_2 {
        return Err(AccountError::NewPasswordsDiffer);
    }
    if !new {
        return Ok(None);
    }
    NewPassword::parse(&form.password_1)
        .map(Some)
        .map_err(|p| match p {
            PasswordProblem::Missing => AccountError::CurrentPasswordMissing,
            PasswordProblem::TooShort => AccountError::PasswordTooShort {
                field: "password_1",
            },
        })
}

/// What a successful change did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DetailsChanged {
    pub password_changed: bool,
}

/// Checks and saves the form for `customer`. A new password signs the customer out
/// everywhere except `keep_login` (the login making the change).
pub async fn change_details(
    db: &Db,
    customer: &Customer,
    form: &DetailsForm,
    keep_login: &str,
    now: i64,
) -> Result<DetailsChanged, AccountError> {
    let email = check_fields(form)?;
    let key = email.key();
    if let Some(holder) = customers::find_customer_by_email(db, &key).await? {
        if holder.id != customer.id {
            return Err(AccountError::EmailTaken);
        }
    }
    let new_password = check_password_change(form)?;
    let hash = match &new_password {
        None => None,
        Some(p) => {
            let stored = customers::find_customer(db, customer.id)
                .await?
                .map(|c| c.password_hash);
            if !verify_password(&form.password_current, stored.as_deref()).await {
                return Err(AccountError::CurrentPasswordIncorrect);
            }
            Some(hash_password(p).await?)
        }
    };
    let saved = customers::update_details(
        db,
        customer.id,
        &DetailsChange {
            email: email.as_str(),
            email_key: &key,
            display_name: form.display_name.trim(),
            first_name: form.first_name.trim(),
            last_name: form.last_name.trim(),
            password_hash: hash.as_deref(),
        },
        now,
    )
    .await?;
    if !saved {
        return Err(AccountError::EmailTaken);
    }
    if hash.is_some() {
        let mut tx = db.begin_write().await?;
        customers::delete_logins_in(&mut tx, customer.id, Some(keep_login), now).await?;
        tx.commit().await.map_err(StoreError::from)?;
    }
    Ok(DetailsChanged {
        password_changed: hash.is_some(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> DetailsForm {
        DetailsForm {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            display_name: "Ada L".into(),
            email: "ada@example.test".into(),
            ..DetailsForm::default()
        }
    }

    fn message(r: Result<impl std::fmt::Debug, AccountError>) -> String {
        r.unwrap_err().to_api().message
    }

    #[test]
    fn every_field_is_required_and_the_address_must_be_valid() {
        assert!(check_fields(&form()).is_ok());
        let mut f = form();
        f.last_name = " ".into();
        assert_eq!(message(check_fields(&f)), "Last name is a required field.");
        let mut f = form();
        f.email = "ada@".into();
        assert_eq!(
            message(check_fields(&f)),
            "Please provide a valid email address."
        );
    }

    #[test]
    fn the_display_name_may_not_be_another_address() {
        let mut f = form();
        f.display_name = "someone@example.test".into();
        assert_eq!(
            message(check_fields(&f)),
            "Display name cannot be changed to email address due to privacy concern."
        );
        f.display_name = f.email.clone();
        assert!(check_fields(&f).is_ok());
    }

    #[test]
    fn password_fields_follow_the_original_rules() {
        let with = |cur: &str, p1: &str, p2: &str| DetailsForm {
            password_current: cur.into(),
            password_1: p1.into(),
            password_2: p2.into(),
            ..form()
        };
        assert_eq!(check_password_change(&with("", "", "")).unwrap(), None);
        assert_eq!(
            message(check_password_change(&with("old-secret", "", ""))),
            "Please fill out all password fields."
        );
        assert_eq!(
            message(check_password_change(&with("", "new-secret", "new-secret"))),
            "Please enter your current password."
        );
        assert_eq!(
            message(check_password_change(&with("old-secret", "new-secret", ""))),
            "Please re-enter your password."
        );
        assert_eq!(
            message(check_password_change(&with(
                "old-secret",
                "new-secret",
                "new-secreT"
            ))),
            "New passwords do not match."
        );
        assert_eq!(
            message(check_password_change(&with("", "", "stray"))),
            "New passwords do not match."
        );
        assert!(matches!(
            check_password_change(&with("old-secret", "short", "short")),
            Err(AccountError::PasswordTooShort {
                field: "password_1"
            })
        ));
        assert!(
            check_password_change(&with("old-secret", "new-secret", "new-secret"))
                .unwrap()
                .is_some()
        );
    }
}
