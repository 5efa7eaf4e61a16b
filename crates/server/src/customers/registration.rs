//! Creating an account (from the registration form or at checkout): the checks the
//! original shop makes, in its order, and the password hashed, before any
//! transaction; then the customer row and the welcome mail in the caller's
//! transaction (at checkout, the one that places the order, so both exist or neither).

use sqlx::{Any, Transaction};

use super::address::{to_stored, AddressKind};
use super::error::AccountError;
use super::password::hash_password;
use mail::{account as mails, MailContext};
use rules::address::Address;
use rules::customers::{CustomerId, Email, Names, NewPassword, PasswordProblem};
use store::customers::{self, NewCustomer};
use store::{Db, StoreError};

/// An account checked and ready to be created.
#[derive(Debug, Clone)]
pub struct NewAccount {
    email: Email,
    password_hash: String,
    names: Names,
    /// Addresses the account starts with (checkout keeps the ones just typed).
    billing: Option<Address>,
    shipping: Option<Address>,
}

impl NewAccount {
    /// Checks the e-mail address and password as the original does, then hashes the
    /// password (bounded, off the request threads).
    pub async fn prepare(
        db: &Db,
        email: &str,
        password: &str,
        names: Names,
    ) -> Result<NewAccount, AccountError> {
        let email = Email::parse(email).ok_or(AccountError::RegistrationInvalidEmail)?;
        if customers::find_customer_by_email(db, &email.key())
            .await?
            .is_some()
        {
            return Err(AccountError::EmailAlreadyRegistered);
        }
        let password = NewPassword::parse(password).map_err(|p| match p {
            PasswordProblem::Missing => AccountError::MissingAccountPassword,
            PasswordProblem::TooShort => AccountError::PasswordTooShort { field: "password" },
        })?;
        let password_hash = hash_password(&password).await?;
        Ok(NewAccount {
            email,
            password_hash,
            names: Names {
                first_name: names.first_name.trim().to_string(),
                last_name: names.last_name.trim().to_string(),
            },
            billing: None,
            shipping: None,
        })
    }

    /// The account starts with these saved addresses.
    pub fn with_addresses(mut self, billing: Address, shipping: Address) -> Self {
        self.billing = Some(billing);
        self.shipping = Some(shipping);
        self
    }

    pub fn email(&self) -> &Email {
        &self.email
    }

    /// Creates the customer and queues the welcome mail in `tx`. Refused when the
    /// address was registered since `prepare` looked. Call `mail::wake()` after commit.
    pub async fn create_in(
        &self,
        tx: &mut Transaction<'_, Any>,
        mail_ctx: &MailContext,
        now: i64,
    ) -> Result<CustomerId, AccountError> {
        let display_name = self.names.display_name(&self.email);
        let stored = |kind, a: &Option<Address>| {
            a.as_ref()
                .map_or_else(|| "{}".to_string(), |a| to_stored(kind, a))
        };
        let billing = stored(AddressKind::Billing, &self.billing);
        let shipping = stored(AddressKind::Shipping, &self.shipping);
        let id = customers::insert_customer(
            tx,
            &NewCustomer {
                email: self.email.as_str(),
                email_key: &self.email.key(),
                display_name: &display_name,
                first_name: &self.names.first_name,
                last_name: &self.names.last_name,
                password_hash: &self.password_hash,
                billing: &billing,
                shipping: &shipping,
            },
            now,
        )
        .await?
        .ok_or(AccountError::EmailAlreadyRegistered)?;
        let greeting = if self.names.first_name.is_empty() {
            display_name.as_str()
        } else {
            self.names.first_name.as_str()
        };
        let welcome = mails::new_account(mail_ctx, greeting, self.email.as_str());
        mail::queue_in(tx, mails::NEW_ACCOUNT, self.email.as_str(), &welcome).await?;
        Ok(id)
    }
}

/// Registers an account from the registration form.
pub async fn create_customer(
    db: &Db,
    mail_ctx: &MailContext,
    email: &str,
    password: &str,
    names: Names,
) -> Result<CustomerId, AccountError> {
    let account = NewAccount::prepare(db, email, password, names).await?;
    let mut tx = db.begin_write().await?;
    let id = account
        .create_in(&mut tx, mail_ctx, rules::clock::now())
        .await?;
    tx.commit().await.map_err(StoreError::from)?;
    mail::wake();
    Ok(id)
}
