//! Creating an account (from the registration form or at checkout): the checks the
//! original shop makes, in its order, then the customer row and the welcome mail in
//! one transaction.

use super::error::AccountError;
use super::model::{CustomerId, Email, Names, NewPassword, PasswordProblem};
use super::password::hash_password;
use crate::mail::{self, account as mails, MailContext};
use crate::store::customers::{self, NewCustomer};
use crate::store::Db;

pub async fn create_customer(
    db: &Db,
    mail_ctx: &MailContext,
    email: &str,
    password: &str,
    names: Names,
) -> Result<CustomerId, AccountError> {
    let email = Email::parse(email).ok_or(AccountError::RegistrationInvalidEmail)?;
    let key = email.key();
    if customers::find_customer_by_email(db, &key).await?.is_some() {
        return Err(AccountError::EmailAlreadyRegistered);
    }
    let password = NewPassword::parse(password).map_err(|p| match p {
        PasswordProblem::Missing => AccountError::MissingAccountPassword,
        PasswordProblem::TooShort => AccountError::PasswordTooShort { field: "password" },
    })?;
    let hash = hash_password(&password).await?;
    let names = Names {
        first_name: names.first_name.trim().to_string(),
        last_name: names.last_name.trim().to_string(),
    };
    let display_name = names.display_name(&email);
    let now = crate::clock::now();
    let mut tx = db
        .writer()
        .begin()
        .await
        .map_err(crate::store::StoreError::from)?;
    let id = customers::insert_customer(
        &mut tx,
        &NewCustomer {
            email: email.as_str(),
            email_key: &key,
            display_name: &display_name,
            first_name: &names.first_name,
            last_name: &names.last_name,
            password_hash: &hash,
        },
        now,
    )
    .await?
    // Registered by a concurrent request since the check above.
    .ok_or(AccountError::EmailAlreadyRegistered)?;
    let greeting = if names.first_name.is_empty() {
        display_name.as_str()
    } else {
        names.first_name.as_str()
    };
    let welcome = mails::new_account(mail_ctx, greeting, email.as_str());
    mail::queue_in(&mut tx, mails::NEW_ACCOUNT, email.as_str(), &welcome).await?;
    tx.commit().await.map_err(crate::store::StoreError::from)?;
    mail::wake();
    Ok(id)
}
