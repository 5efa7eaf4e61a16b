//! Lost passwords: a single-use key, valid for 24 hours, mailed to the account's
//! address; with it, a new password. Only the key's digest is stored, and using it
//! signs the customer out everywhere, as a password change should.

use super::error::AccountError;
use super::login::random_token;
use super::password::hash_password;
use crate::rate_limit::{self, Action};
use crate::session::token_hash;
use mail::{account as mails, MailContext};
use rules::customers::{email_key, NewPassword, PasswordProblem};
use store::{customers, Db, StoreError};

pub const RESET_KEY_TTL_SECS: i64 = 24 * 3600;

/// Mails a reset link to the account with this address.
pub async fn request_reset(
    db: &Db,
    mail_ctx: &MailContext,
    user_login: &str,
    now: i64,
) -> Result<(), AccountError> {
    let login = user_login.trim();
    if login.is_empty() {
        return Err(AccountError::MissingResetLogin);
    }
    let customer = customers::find_customer_by_email(db, &email_key(login))
        .await?
        .ok_or(AccountError::UnknownResetLogin)?;
    let key = random_token();
    let greeting = [&customer.first_name, &customer.display_name]
        .into_iter()
        .find(|s| !s.trim().is_empty())
        .unwrap_or(&customer.email)
        .clone();
    let rendered = mails::reset_password(mail_ctx, &greeting, &customer.email, &key);
    let mut tx = db.begin_write().await?;
    customers::insert_reset_in(
        &mut tx,
        &token_hash(&key),
        customer.id,
        now,
        now + RESET_KEY_TTL_SECS,
    )
    .await?;
    mail::queue_in(&mut tx, mails::RESET_PASSWORD, &customer.email, &rendered).await?;
    tx.commit().await.map_err(StoreError::from)?;
    mail::wake();
    Ok(())
}

pub struct ResetRequest<'a> {
    pub login: &'a str,
    pub key: &'a str,
    pub password: &'a str,
    pub password_confirm: &'a str,
}

/// Sets the new password if the key is good for this login. The key is checked first,
/// as the original shop does, but only used up once the new password is acceptable.
pub async fn reset_password(db: &Db, r: &ResetRequest<'_>, now: i64) -> Result<(), AccountError> {
    let key_hash = token_hash(r.key.trim());
    let login_key = email_key(r.login);
    let customer = customers::find_customer_by_email(db, &login_key).await?;
    let holder = customers::find_reset(db, &key_hash, now).await?;
    let customer = match (customer, holder) {
        (Some(c), Some(id)) if c.id == id && !r.key.trim().is_empty() => c,
        _ => return Err(AccountError::InvalidResetKey),
    };
    if r.password.is_empty() {
        return Err(AccountError::MissingResetPassword);
    }
    if r.password != r.password_confirm {
        return Err(AccountError::ResetPasswordsDiffer);
    }
    let password = NewPassword::parse(r.password).map_err(|p| match p {
        PasswordProblem::Missing => AccountError::MissingResetPassword,
        PasswordProblem::TooShort => AccountError::PasswordTooShort { field: "password" },
    })?;
    let hash = hash_password(&password).await?;
    let mut tx = db.begin_write().await?;
    if !customers::use_reset_in(&mut tx, &key_hash, customer.id, now).await? {
        return Err(AccountError::InvalidResetKey);
    }
    customers::set_password_in(&mut tx, customer.id, &hash, now).await?;
    customers::delete_logins_in(&mut tx, customer.id, None, now).await?;
    tx.commit().await.map_err(StoreError::from)?;
    // Whoever was locked out by guessing is not locked out of the new password.
    for limit in rate_limit::limits(Action::Login, Some(&login_key), None) {
        rate_limit::clear(db, &limit).await?;
    }
    Ok(())
}
