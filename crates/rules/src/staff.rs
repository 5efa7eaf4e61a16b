//! Staff API keys as the original shop makes them: a consumer key `ck_…` and a consumer
//! secret `cs_…`, each 40 hex digits of randomness, sent with HTTP Basic auth. Neither
//! is kept: the key's SHA-256 digest finds the row, the secret's is compared in
//! constant time. The keys are random enough (160 bits) that a plain digest is as good
//! as a slow password hash, and it lets a request be checked with one indexed lookup.

use std::fmt;

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::orders::actor::Actor;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ApiKeyId(pub i64);

impl fmt::Display for ApiKeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What a key may do: read (GET), write (POST, PUT, PATCH) or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permissions {
    Read,
    Write,
    ReadWrite,
}

impl Permissions {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Write => "write",
            Self::ReadWrite => "read_write",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim() {
            "read" => Some(Self::Read),
            "write" => Some(Self::Write),
            "read_write" => Some(Self::ReadWrite),
            _ => None,
        }
    }

    pub fn can_read(self) -> bool {
        matches!(self, Self::Read | Self::ReadWrite)
    }

    pub fn can_write(self) -> bool {
        matches!(self, Self::Write | Self::ReadWrite)
    }
}

/// A key as stored: everything but the key and secret themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub id: ApiKeyId,
    pub description: String,
    pub permissions: Permissions,
    /// The key's last 7 characters, to tell keys apart.
    pub truncated_key: String,
    pub secret_digest: String,
    pub created_at: i64,
    pub last_access_at: Option<i64>,
    pub revoked_at: Option<i64>,
}

impl ApiKey {
    pub fn is_revoked(&self) -> bool {
        self.revoked_at.is_some()
    }

    /// Whether `secret` is this key's secret, in time that does not depend on where
    /// the two differ.
    pub fn secret_matches(&self, secret: &str) -> bool {
        digest(secret)
            .as_bytes()
            .ct_eq(self.secret_digest.as_bytes())
            .into()
    }

    /// How order notes name changes made with this key.
    pub fn actor(&self) -> Actor {
        Actor::api_key(&self.description, &self.truncated_key)
    }
}

/// A key just made; the only moment its key and secret are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey {
    pub consumer_key: String,
    pub consumer_secret: String,
}

impl NewKey {
    pub fn generate() -> Self {
        Self {
            consumer_key: format!("ck_{}", random_hex()),
            consumer_secret: format!("cs_{}", random_hex()),
        }
    }

    pub fn key_digest(&self) -> String {
        digest(&self.consumer_key)
    }

    pub fn secret_digest(&self) -> String {
        digest(&self.consumer_secret)
    }

    pub fn truncated_key(&self) -> String {
        let k = &self.consumer_key;
        k[k.len().saturating_sub(7)..].to_string()
    }
}

/// 40 hex digits from the operating system's random source.
fn random_hex() -> String {
    let mut bytes = [0u8; 20];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// The hex SHA-256 of a key or secret, as stored.
pub fn digest(value: &str) -> String {
    hex::encode(Sha256::digest(value.as_bytes()))
}

/// A key and secret as a client sent them, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub key: String,
    pub secret: String,
}

impl Credentials {
    /// Reads an `Authorization: Basic base64(key:secret)` header value. None when it is
    /// not Basic auth at all; `Some(Err(()))` when it is, but malformed.
    pub fn from_basic(header: &str) -> Option<Result<Self, ()>> {
        let (scheme, encoded) = header.trim().split_once(' ')?;
        if !scheme.eq_ignore_ascii_case("basic") {
            return None;
        }
        let parsed = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| {
                let (key, secret) = text.split_once(':')?;
                Some(Self {
                    key: key.to_string(),
                    secret: secret.to_string(),
                })
            });
        Some(parsed.ok_or(()))
    }

    /// Whether the key has the shape of a consumer key (`ck_` and 40 hex digits); one
    /// that does not is refused without a database lookup.
    pub fn key_is_well_formed(&self) -> bool {
        self.key
            .strip_prefix("ck_")
            .is_some_and(|h| h.len() == 40 && h.bytes().all(|b| b.is_ascii_hexdigit()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_keys_look_like_the_original_shops() {
        let k = NewKey::generate();
        assert!(k.consumer_key.starts_with("ck_") && k.consumer_key.len() == 43);
        assert!(k.consumer_secret.starts_with("cs_") && k.consumer_secret.len() == 43);
        assert!(k.consumer_key[3..].bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(k, NewKey::generate());
        assert_eq!(k.truncated_key(), &k.consumer_key[36..]);
        assert_eq!(k.key_digest().len(), 64);
        assert_ne!(k.key_digest(), k.consumer_key);
    }

    #[test]
    fn only_the_right_secret_matches() {
        let k = NewKey::generate();
        let stored = ApiKey {
            id: ApiKeyId(1),
            description: "Warehouse".into(),
            permissions: Permissions::Read,
            truncated_key: k.truncated_key(),
            secret_digest: k.secret_digest(),
            created_at: 0,
            last_access_at: None,
            revoked_at: None,
        };
        assert!(stored.secret_matches(&k.consumer_secret));
        assert!(!stored.secret_matches(&NewKey::generate().consumer_secret));
        assert!(!stored.secret_matches(""));
        assert_eq!(
            stored.actor().as_str(),
            format!("API key 'Warehouse' (…{})", k.truncated_key())
        );
    }

    #[test]
    fn basic_auth_is_read_and_malformed_headers_are_told_apart() {
        let header = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode("ck_abc:cs_def")
        );
        let c = Credentials::from_basic(&header).unwrap().unwrap();
        assert_eq!((c.key.as_str(), c.secret.as_str()), ("ck_abc", "cs_def"));
        assert!(!c.key_is_well_formed());
        assert_eq!(Credentials::from_basic("Bearer xyz"), None);
        assert_eq!(Credentials::from_basic("Basic !!!"), Some(Err(())));
        let k = NewKey::generate();
        let ok = Credentials {
            key: k.consumer_key,
            secret: k.consumer_secret,
        };
        assert!(ok.key_is_well_formed());
    }

    #[test]
    fn permissions_say_what_a_key_may_do() {
        for p in [
            Permissions::Read,
            Permissions::Write,
            Permissions::ReadWrite,
        ] {
            assert_eq!(Permissions::parse(p.as_str()), Some(p));
        }
        assert!(Permissions::Read.can_read() && !Permissions::Read.can_write());
        assert!(!Permissions::Write.can_read() && Permissions::Write.can_write());
        assert_eq!(Permissions::parse("admin"), None);
    }
}

/// What an account is to the shop: a customer, or one of its staff. Staff see the shop
/// while it is in coming-soon mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Role {
    #[default]
    Customer,
    ShopManager,
    Administrator,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Customer => "customer",
            Self::ShopManager => "shop_manager",
            Self::Administrator => "administrator",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "customer" => Self::Customer,
            "shop_manager" => Self::ShopManager,
            "administrator" => Self::Administrator,
            _ => return None,
        })
    }

    pub fn is_staff(self) -> bool {
        self != Self::Customer
    }
}

#[cfg(test)]
mod role_tests {
    use super::Role;

    #[test]
    fn roles_read_back_and_only_customers_are_not_staff() {
        for role in [Role::Customer, Role::ShopManager, Role::Administrator] {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("editor"), None);
        assert!(!Role::Customer.is_staff());
        assert!(Role::ShopManager.is_staff() && Role::Administrator.is_staff());
    }
}
