//! The `Idempotency-Key` every POST carries. The provider answers a repeated key with
//! the first answer instead of acting again, so a request retried after a lost
//! response (by this client, or by the shop after a crash) never charges twice. Keys
//! built from an order and an attempt are deterministic for that reason: the same
//! step of the same attempt always sends the same key.

use std::fmt;

/// The provider accepts keys of up to 255 characters.
const MAX_LEN: usize = 255;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an idempotency key is 1 to 255 printable ASCII characters")]
pub struct InvalidIdempotencyKey;

impl IdempotencyKey {
    /// `ferroshop-order-12-attempt-3-create-intent`: one key per order, payment
    /// attempt and step. Characters of `action` other than ASCII letters, digits, `-`
    /// and `_` become `-`.
    pub fn for_order(order_id: i64, attempt: i64, action: &str) -> IdempotencyKey {
        let action: String = action
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let mut key = format!("ferroshop-order-{order_id}-attempt-{attempt}-{action}");
        key.truncate(MAX_LEN);
        IdempotencyKey(key)
    }

    /// Any other key, such as a UUID the caller keeps with what it is doing.
    pub fn new(key: String) -> Result<IdempotencyKey, InvalidIdempotencyKey> {
        if !key.is_empty() && key.len() <= MAX_LEN && key.bytes().all(|b| b.is_ascii_graphic()) {
            Ok(IdempotencyKey(key))
        } else {
            Err(InvalidIdempotencyKey)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_for_an_order_names_the_order_the_attempt_and_the_step() {
        let key = IdempotencyKey::for_order(12, 3, "create-intent");
        assert_eq!(key.as_str(), "ferroshop-order-12-attempt-3-create-intent");
        assert_eq!(key, IdempotencyKey::for_order(12, 3, "create-intent"));
        assert_ne!(key, IdempotencyKey::for_order(12, 4, "create-intent"));
    }

    #[test]
    fn a_key_for_an_order_keeps_only_safe_characters() {
        let key = IdempotencyKey::for_order(7, 1, "refund full/é 2");
        assert_eq!(key.as_str(), "ferroshop-order-7-attempt-1-refund-full---2");
        let long = IdempotencyKey::for_order(1, 1, &"x".repeat(400));
        assert_eq!(long.as_str().len(), 255);
    }

    #[test]
    fn other_keys_are_checked() {
        assert!(IdempotencyKey::new("2f1c-uuid".into()).is_ok());
        assert_eq!(
            IdempotencyKey::new(String::new()),
            Err(InvalidIdempotencyKey)
        );
        assert_eq!(
            IdempotencyKey::new("a b".into()),
            Err(InvalidIdempotencyKey)
        );
        assert_eq!(
            IdempotencyKey::new("a\nb".into()),
            Err(InvalidIdempotencyKey)
        );
        assert_eq!(
            IdempotencyKey::new("k".repeat(256)),
            Err(InvalidIdempotencyKey)
        );
    }
}
