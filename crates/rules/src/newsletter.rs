//! The newsletter's rules: who may be on the list and how they get on and off it.
//! Double opt-in: signing up makes a subscriber pending and sends a confirmation link;
//! only the link confirms them (the transitions are `store::newsletter`'s statements). Links carry a signed token, so no
//! subscriber's address or id can be guessed into a confirmation or an unsubscription:
//! a confirmation link expires, an unsubscribe link (in every mail, and the mail's
//! `List-Unsubscribe`) keeps working as long as the subscriber exists.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::address::locale::is_valid_email;

/// How long a confirmation link works: a week.
pub const CONFIRM_TTL_SECS: i64 = 7 * 86_400;
/// The longest address kept.
pub const MAX_EMAIL_LEN: usize = 254;
/// The longest name kept.
pub const MAX_NAME_CHARS: usize = 100;

/// An address as the list keeps it: trimmed and lowercased, valid, not too long.
pub fn normalize_email(raw: &str) -> Option<String> {
    let email = raw.trim().to_lowercase();
    (email.len() <= MAX_EMAIL_LEN && is_valid_email(&email)).then_some(email)
}

/// A name as the list keeps it: one line, no control characters, at most
/// `MAX_NAME_CHARS`.
pub fn normalize_name(raw: &str) -> String {
    let one_line: String = raw
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    one_line
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_NAME_CHARS)
        .collect()
}

/// What a link does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Confirm,
    Unsubscribe,
}

impl Purpose {
    fn tag(self) -> &'static [u8] {
        match self {
            Self::Confirm => b"confirm",
            Self::Unsubscribe => b"unsubscribe",
        }
    }
}

/// A link's token: `{id}-{expires}-{mac}`, the mac over the purpose, the subscriber's
/// id and address, and the expiry (0: none), under a key of the newsletter's own.
/// Changing the address (or deleting the subscriber) voids every link sent before.
pub fn token(key: &[u8], purpose: Purpose, id: i64, email: &str, expires: i64) -> String {
    format!(
        "{id}-{expires}-{}",
        hex::encode(mac(key, purpose, id, email, expires))
    )
}

/// The subscriber id a token names, before it is checked against the subscriber.
pub fn token_id(token: &str) -> Option<i64> {
    token.split('-').next()?.parse().ok().filter(|id| *id > 0)
}

/// Whether `token` is a link for `purpose` to the subscriber `id` at `email`, still in
/// time at `now`.
pub fn verify(key: &[u8], purpose: Purpose, id: i64, email: &str, token: &str, now: i64) -> bool {
    let mut parts = token.splitn(3, '-');
    let (Some(given_id), Some(expires), Some(given_mac)) =
        (parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Ok(given_id), Ok(expires)) = (given_id.parse::<i64>(), expires.parse::<i64>()) else {
        return false;
    };
    let Ok(given_mac) = hex::decode(given_mac) else {
        return false;
    };
    if given_id != id || (expires != 0 && expires < now) {
        return false;
    }
    let expected = mac(key, purpose, id, email, expires);
    given_mac.len() == expected.len() && bool::from(given_mac.ct_eq(&expected))
}

fn mac(key: &[u8], purpose: Purpose, id: i64, email: &str, expires: i64) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    for part in [
        purpose.tag(),
        id.to_string().as_bytes(),
        email.as_bytes(),
        expires.to_string().as_bytes(),
    ] {
        mac.update(&(part.len() as u64).to_be_bytes());
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"a key of the newsletter's own";

    #[test]
    fn addresses_are_kept_trimmed_lowercased_and_valid() {
        assert_eq!(
            normalize_email("  Ada@Example.TEST "),
            Some("ada@example.test".into())
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.test",
            "ada@example",
            "a b@example.test",
        ] {
            assert_eq!(normalize_email(bad), None, "{bad}");
        }
        let long = format!("{}@example.test", "a".repeat(250));
        assert_eq!(normalize_email(&long), None);
    }

    #[test]
    fn names_are_one_short_line() {
        assert_eq!(
            normalize_name("  Ada\r\nBcc: x@y.z\t Lovelace "),
            "Ada Bcc: x@y.z Lovelace"
        );
        assert_eq!(
            normalize_name(&"é".repeat(300)).chars().count(),
            MAX_NAME_CHARS
        );
        assert_eq!(normalize_name("\u{0}"), "");
    }

    #[test]
    fn a_token_works_for_its_subscriber_purpose_and_time_only() {
        let t = token(KEY, Purpose::Confirm, 7, "ada@example.test", 1_000);
        assert_eq!(token_id(&t), Some(7));
        assert!(verify(
            KEY,
            Purpose::Confirm,
            7,
            "ada@example.test",
            &t,
            1_000
        ));
        assert!(
            !verify(KEY, Purpose::Confirm, 7, "ada@example.test", &t, 1_001),
            "expired"
        );
        assert!(
            !verify(KEY, Purpose::Unsubscribe, 7, "ada@example.test", &t, 0),
            "another purpose"
        );
        assert!(
            !verify(KEY, Purpose::Confirm, 8, "ada@example.test", &t, 0),
            "another subscriber"
        );
        assert!(
            !verify(KEY, Purpose::Confirm, 7, "eve@example.test", &t, 0),
            "another address"
        );
        assert!(!verify(
            b"another key",
            Purpose::Confirm,
            7,
            "ada@example.test",
            &t,
            0
        ));
        let later = t.replacen("-1000-", "-9999-", 1);
        assert!(
            !verify(KEY, Purpose::Confirm, 7, "ada@example.test", &later, 0),
            "a changed expiry"
        );
        let forever = token(KEY, Purpose::Unsubscribe, 7, "ada@example.test", 0);
        assert!(verify(
            KEY,
            Purpose::Unsubscribe,
            7,
            "ada@example.test",
            &forever,
            i64::MAX
        ));
        for bad in ["", "7", "7-0", "7-0-zz", "x-0-00", "7-0-00", "-1-0-00"] {
            assert!(
                !verify(KEY, Purpose::Unsubscribe, 7, "ada@example.test", bad, 0),
                "{bad}"
            );
        }
        assert_eq!(token_id("x-1-2"), None);
        assert_eq!(token_id("0-1-2"), None);
    }
}
