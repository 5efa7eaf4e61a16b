//! The provider's keys. The secret key and the webhook signing secret are wrapped so
//! that neither Debug nor Display ever prints them (only their `sk_test_`-style
//! prefix, which says which account mode they belong to); the publishable key is
//! public by design and printed as is.

use std::fmt;

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidKey {
    #[error("a secret key starts with sk_ or rk_ (a restricted key)")]
    SecretKey,
    #[error("a webhook signing secret starts with whsec_")]
    WebhookSecret,
    #[error("a publishable key starts with pk_")]
    PublishableKey,
}

/// The account's secret (`sk_…`) or restricted (`rk_…`) API key.
#[derive(Clone)]
pub struct SecretKey(SecretString);

impl SecretKey {
    pub fn parse(key: impl Into<String>) -> Result<SecretKey, InvalidKey> {
        let key = SecretString::from(key.into());
        let text = key.expose_secret();
        if has_prefix_and_body(text, &["sk_", "rk_"]) {
            Ok(SecretKey(key))
        } else {
            Err(InvalidKey::SecretKey)
        }
    }

    /// Whether the key moves real money (`sk_live_…`, `rk_live_…`).
    pub fn is_live(&self) -> bool {
        let text = self.0.expose_secret();
        text.starts_with("sk_live_") || text.starts_with("rk_live_")
    }

    pub(crate) fn expose(&self) -> &str {
        self.0.expose_secret()
    }

    fn shown_prefix(&self) -> &str {
        shown_prefix(
            self.0.expose_secret(),
            &["sk_test_", "sk_live_", "rk_test_", "rk_live_"],
        )
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SecretKey({}…redacted)", self.shown_prefix())
    }
}

impl fmt::Display for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}…redacted", self.shown_prefix())
    }
}

impl std::str::FromStr for SecretKey {
    type Err = InvalidKey;
    fn from_str(key: &str) -> Result<Self, Self::Err> {
        SecretKey::parse(key)
    }
}

impl<'de> Deserialize<'de> for SecretKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        SecretKey::parse(key).map_err(serde::de::Error::custom)
    }
}

/// The secret a webhook endpoint's signatures are made with (`whsec_…`).
#[derive(Clone)]
pub struct WebhookSecret(SecretString);

impl WebhookSecret {
    pub fn parse(secret: impl Into<String>) -> Result<WebhookSecret, InvalidKey> {
        let secret = SecretString::from(secret.into());
        if has_prefix_and_body(secret.expose_secret(), &["whsec_"]) {
            Ok(WebhookSecret(secret))
        } else {
            Err(InvalidKey::WebhookSecret)
        }
    }

    /// The whole `whsec_…` text: the provider uses all of it, prefix included, as the
    /// HMAC key.
    pub(crate) fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(whsec_…redacted)")
    }
}

impl fmt::Display for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("whsec_…redacted")
    }
}

impl std::str::FromStr for WebhookSecret {
    type Err = InvalidKey;
    fn from_str(secret: &str) -> Result<Self, Self::Err> {
        WebhookSecret::parse(secret)
    }
}

impl<'de> Deserialize<'de> for WebhookSecret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let secret = String::deserialize(deserializer)?;
        WebhookSecret::parse(secret).map_err(serde::de::Error::custom)
    }
}

/// The publishable key (`pk_…`) the shopper's browser uses; public by design.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct PublishableKey(String);

impl PublishableKey {
    pub fn parse(key: impl Into<String>) -> Result<PublishableKey, InvalidKey> {
        let key = key.into();
        if has_prefix_and_body(&key, &["pk_"]) {
            Ok(PublishableKey(key))
        } else {
            Err(InvalidKey::PublishableKey)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PublishableKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for PublishableKey {
    type Err = InvalidKey;
    fn from_str(key: &str) -> Result<Self, Self::Err> {
        PublishableKey::parse(key)
    }
}

impl<'de> Deserialize<'de> for PublishableKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        PublishableKey::parse(key).map_err(serde::de::Error::custom)
    }
}

/// One of the prefixes, then at least one more character; printable ASCII only, since
/// keys travel in HTTP headers.
fn has_prefix_and_body(text: &str, prefixes: &[&str]) -> bool {
    prefixes
        .iter()
        .any(|prefix| text.len() > prefix.len() && text.starts_with(prefix))
        && text.bytes().all(|b| b.is_ascii_graphic())
}

/// The longest known prefix the text starts with, else its first three characters
/// (`sk_`), which parsing has already checked.
fn shown_prefix<'a>(text: &'a str, known: &[&'static str]) -> &'a str {
    known
        .iter()
        .find(|prefix| text.starts_with(**prefix))
        .map(|prefix| &text[..prefix.len()])
        .unwrap_or(&text[..3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_key_is_not_shown_by_debug_or_display() {
        let key = SecretKey::parse("sk_test_51AbCdEfGhIjKlMnOp").unwrap();
        for shown in [
            format!("{key:?}"),
            format!("{key}"),
            format!("{:?}", Some(&key)),
        ] {
            assert!(!shown.contains("51AbCdEfGhIjKlMnOp"), "{shown}");
            assert!(shown.contains("sk_test_"), "{shown}");
        }
        assert_eq!(format!("{key:?}"), "SecretKey(sk_test_…redacted)");
    }

    #[test]
    fn a_restricted_key_shows_only_its_prefix() {
        let key = SecretKey::parse("rk_live_secretpart").unwrap();
        assert_eq!(format!("{key:?}"), "SecretKey(rk_live_…redacted)");
        assert!(key.is_live());
        let key = SecretKey::parse("sk_other").unwrap();
        assert_eq!(format!("{key}"), "sk_…redacted");
        assert!(!key.is_live());
    }

    #[test]
    fn a_secret_key_must_start_with_sk_or_rk() {
        for bad in [
            "",
            "sk_",
            "pk_test_123",
            "whsec_123",
            "sk test",
            "sk_test_12 3",
            "xsk_test_1",
        ] {
            assert_eq!(
                SecretKey::parse(bad).err(),
                Some(InvalidKey::SecretKey),
                "{bad:?}"
            );
        }
        assert!(SecretKey::parse("sk_test_123").is_ok());
        assert!(SecretKey::parse("rk_test_123").is_ok());
    }

    #[test]
    fn a_webhook_secret_is_not_shown_and_must_start_with_whsec() {
        let secret = WebhookSecret::parse("whsec_topsecretvalue").unwrap();
        assert!(!format!("{secret:?}").contains("topsecretvalue"));
        assert!(!format!("{secret}").contains("topsecretvalue"));
        assert_eq!(
            WebhookSecret::parse("topsecret").err(),
            Some(InvalidKey::WebhookSecret)
        );
    }

    #[test]
    fn a_publishable_key_must_start_with_pk() {
        assert_eq!(
            PublishableKey::parse("pk_test_1").unwrap().as_str(),
            "pk_test_1"
        );
        assert_eq!(
            PublishableKey::parse("sk_test_1").err(),
            Some(InvalidKey::PublishableKey)
        );
    }

    #[test]
    fn keys_read_from_configuration_are_parsed() {
        let key: SecretKey = serde_json::from_str("\"sk_test_abc\"").unwrap();
        assert_eq!(key.expose(), "sk_test_abc");
        let refused = serde_json::from_str::<SecretKey>("\"pk_test_abc\"").unwrap_err();
        assert!(!refused.to_string().contains("pk_test_abc"));
    }
}
