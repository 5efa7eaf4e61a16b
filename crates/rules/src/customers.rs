//! What an account is made of, parsed at the edge: customer ids, e-mail addresses
//! (checked the way the original shop checks them), new passwords, and the customer as
//! the account calls show it. No SQL or HTTP here.

use serde::{Deserialize, Serialize};

use crate::address::Address;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CustomerId(pub i64);

impl std::fmt::Display for CustomerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The fewest characters a new password may have.
pub const MIN_PASSWORD_CHARS: usize = 8;

/// An e-mail address that passed the original shop's check (`is_email`): at least six
/// characters, a local part of permitted characters, a domain of two or more labels of
/// letters, digits and inner hyphens. Kept as typed (trimmed); `key()` is the
/// lowercased form accounts are unique by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Option<Email> {
        let s = raw.trim();
        is_email(s).then(|| Email(s.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn key(&self) -> String {
        email_key(&self.0)
    }
}

/// The form an address is looked up by, for input that has not been parsed (a login
/// name), so "Ada@Example.test " finds ada@example.test.
pub fn email_key(raw: &str) -> String {
    raw.trim().to_lowercase()
}

fn is_email(s: &str) -> bool {
    if s.len() < 6 || s.len() > 254 {
        return false;
    }
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    if local.is_empty() {
        return false;
    }
    let local_ok = local
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~.-".contains(&b));
    if !local_ok || domain.contains("..") || domain.starts_with('.') || domain.ends_with('.') {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// A password a customer chose: not empty and at least `MIN_PASSWORD_CHARS` long.
#[derive(Clone, PartialEq, Eq)]
pub struct NewPassword(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordProblem {
    Missing,
    TooShort,
}

impl NewPassword {
    pub fn parse(raw: &str) -> Result<NewPassword, PasswordProblem> {
        if raw.is_empty() {
            Err(PasswordProblem::Missing)
        } else if raw.chars().count() < MIN_PASSWORD_CHARS {
            Err(PasswordProblem::TooShort)
        } else {
            Ok(NewPassword(raw.to_string()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

// Never print a password, not even in a debug log.
impl std::fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewPassword(…)")
    }
}

/// The names given at registration or checkout; either may be empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    pub first_name: String,
    pub last_name: String,
}

impl Names {
    /// How the account is shown until the customer picks a display name: the full name,
    /// else the part of the address before the @.
    pub fn display_name(&self, email: &Email) -> String {
        let full = format!("{} {}", self.first_name.trim(), self.last_name.trim());
        let full = full.trim();
        if full.is_empty() {
            email.as_str().split('@').next().unwrap_or("").to_string()
        } else {
            full.to_string()
        }
    }
}

/// A customer as the account area and checkout see one (never with the password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Customer {
    pub id: CustomerId,
    pub email: String,
    pub display_name: String,
    pub first_name: String,
    pub last_name: String,
    pub billing: Address,
    pub shipping: Address,
    pub created_at: i64,
}

impl Customer {
    /// The name to greet the customer with in e-mails.
    pub fn greeting_name(&self) -> &str {
        [&self.first_name, &self.display_name]
            .into_iter()
            .map(|s| s.trim())
            .find(|s| !s.is_empty())
            .unwrap_or(self.email.as_str())
    }
}

/// `user` in the account calls' answers.
#[derive(Debug, Clone, Serialize)]
pub struct UserView {
    pub id: CustomerId,
    pub email: String,
    pub display_name: String,
    pub first_name: String,
    pub last_name: String,
}

impl From<&Customer> for UserView {
    fn from(c: &Customer) -> Self {
        Self {
            id: c.id,
            email: c.email.clone(),
            display_name: c.display_name.clone(),
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked_like_the_original_shop() {
        for good in [
            "ada@example.test",
            "a.b+c@mail.example.co",
            "x_y@sub-domain.example",
        ] {
            assert!(Email::parse(good).is_some(), "{good}");
        }
        for bad in [
            "",
            "a@b.c",
            "@example.test",
            "ada@example",
            "ada@@example.test",
            "ada@exa..mple.test",
            "ada@.example.test",
            "ada@example.test.",
            "ada@-example.test",
            "ada@exam_ple.test",
            "a da@example.test",
            "ada(x)@example.test",
        ] {
            assert!(Email::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn addresses_are_unique_by_their_lowercased_form() {
        let e = Email::parse("  Ada@Example.TEST ").unwrap();
        assert_eq!(e.as_str(), "Ada@Example.TEST");
        assert_eq!(e.key(), "ada@example.test");
        assert_eq!(email_key(" ADA@example.test"), "ada@example.test");
    }

    #[test]
    fn a_new_password_needs_eight_characters() {
        assert_eq!(NewPassword::parse(""), Err(PasswordProblem::Missing));
        assert_eq!(
            NewPassword::parse("short12"),
            Err(PasswordProblem::TooShort)
        );
        assert!(NewPassword::parse("éééééééé").is_ok());
        assert_eq!(
            format!("{:?}", NewPassword::parse("secret-pass").unwrap()),
            "NewPassword(…)"
        );
    }

    #[test]
    fn the_display_name_falls_back_to_the_address() {
        let e = Email::parse("ada@example.test").unwrap();
        assert_eq!(Names::default().display_name(&e), "ada");
        let names = Names {
            first_name: "Ada".into(),
            last_name: " Lovelace".into(),
        };
        assert_eq!(names.display_name(&e), "Ada Lovelace");
    }
}
