//! The provider's webhook signatures. Each delivery carries
//! `Stripe-Signature: t=<unix time>,v1=<hex>[,v1=<hex>…]`, where each `v1` is
//! HMAC-SHA256 of `"<t>.<body>"` keyed with the endpoint's whole `whsec_…` secret
//! (prefix included, as the provider signs). Several `v1` appear while a secret is
//! being rolled; one match is enough. The timestamp bounds replays: a signature
//! older (or newer) than the tolerance is refused even when it matches.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::{Choice, ConstantTimeEq};

use crate::events::Event;
use crate::keys::WebhookSecret;

/// How far the signature's timestamp may be from now, either way: the provider's
/// libraries use the same five minutes.
pub const DEFAULT_TOLERANCE_SECS: i64 = 300;

type HmacSha256 = Hmac<Sha256>;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    #[error("the request has no Stripe-Signature header")]
    MissingHeader,
    #[error("the Stripe-Signature header is not t=…,v1=… with a numeric timestamp")]
    MalformedHeader,
    #[error("the Stripe-Signature header has no v1 signature")]
    NoV1Signature,
    #[error(
        "the signature was made at {timestamp}, more than {tolerance_secs} s away from now ({now})"
    )]
    TimestampOutsideTolerance {
        timestamp: i64,
        now: i64,
        tolerance_secs: i64,
    },
    #[error("no v1 signature matches the payload and the secret")]
    NoMatchingSignature,
    #[error("the signed payload is not an event: {0}")]
    UnreadablePayload(String),
}

/// Checks a delivery and reads its event. `payload` is the request body exactly as
/// received (before any JSON parsing); `signature_header` the `Stripe-Signature`
/// header's value, or `""` when the request had none; `now_unix` the current time in
/// seconds; `tolerance_secs` usually `DEFAULT_TOLERANCE_SECS`.
pub fn verify(
    payload: &[u8],
    signature_header: &str,
    secret: &WebhookSecret,
    now_unix: i64,
    tolerance_secs: i64,
) -> Result<Event, WebhookError> {
    let header = SignatureHeader::parse(signature_header)?;
    if header.v1.is_empty() {
        return Err(WebhookError::NoV1Signature);
    }

    let expected = signature(payload, secret, header.timestamp_text);
    // Every candidate is compared, each in constant time.
    let matched = header
        .v1
        .iter()
        .fold(Choice::from(0), |matched, candidate| {
            matched | expected.as_slice().ct_eq(candidate.as_slice())
        });
    if !bool::from(matched) {
        return Err(WebhookError::NoMatchingSignature);
    }

    let tolerance = u64::try_from(tolerance_secs).unwrap_or(0);
    if now_unix.abs_diff(header.timestamp) > tolerance {
        return Err(WebhookError::TimestampOutsideTolerance {
            timestamp: header.timestamp,
            now: now_unix,
            tolerance_secs,
        });
    }

    serde_json::from_slice(payload)
        .map_err(|error| WebhookError::UnreadablePayload(error.to_string()))
}

/// The `Stripe-Signature` header value the provider would send for `payload` signed
/// at `timestamp`: for tests, and for checking an endpoint by hand.
pub fn sign(payload: &[u8], secret: &WebhookSecret, timestamp: i64) -> String {
    let timestamp = timestamp.to_string();
    let signature = signature(payload, secret, &timestamp);
    format!("t={timestamp},v1={}", hex::encode(signature))
}

fn signature(payload: &[u8], secret: &WebhookSecret, timestamp: &str) -> Vec<u8> {
    let mut mac = HmacSha256::new_from_slice(secret.expose().as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(payload);
    mac.finalize().into_bytes().to_vec()
}

struct SignatureHeader<'a> {
    timestamp: i64,
    /// As sent: the signed text starts with it.
    timestamp_text: &'a str,
    /// The decoded `v1` signatures; values that are not hex cannot match and are left
    /// out. Other schemes (`v0`, the provider's test scheme) are ignored.
    v1: Vec<Vec<u8>>,
}

impl<'a> SignatureHeader<'a> {
    fn parse(header: &'a str) -> Result<SignatureHeader<'a>, WebhookError> {
        let header = header.trim();
        if header.is_empty() {
            return Err(WebhookError::MissingHeader);
        }
        let mut timestamp = None;
        let mut v1 = Vec::new();
        let mut any_v1 = false;
        for item in header.split(',') {
            let (name, value) = item
                .trim()
                .split_once('=')
                .ok_or(WebhookError::MalformedHeader)?;
            match name {
                "t" => {
                    let parsed = value
                        .parse::<i64>()
                        .map_err(|_| WebhookError::MalformedHeader)?;
                    if timestamp.replace((parsed, value)).is_some() {
                        return Err(WebhookError::MalformedHeader);
                    }
                }
                "v1" => {
                    any_v1 = true;
                    if let Ok(bytes) = hex::decode(value) {
                        v1.push(bytes);
                    }
                }
                _ => {}
            }
        }
        let (timestamp, timestamp_text) = timestamp.ok_or(WebhookError::MalformedHeader)?;
        if !any_v1 {
            return Err(WebhookError::NoV1Signature);
        }
        Ok(SignatureHeader {
            timestamp,
            timestamp_text,
            v1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000;

    fn secret() -> WebhookSecret {
        WebhookSecret::parse("whsec_test_secret").unwrap()
    }

    fn payload() -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "id": "evt_1", "object": "event", "type": "payment_intent.succeeded",
            "created": NOW, "livemode": false, "api_version": "2024-06-20",
            "data": {"object": {"id": "pi_1", "object": "payment_intent", "amount": 1200,
                "currency": "eur", "status": "succeeded"}}
        }))
        .unwrap()
    }

    fn verify_now(payload: &[u8], header: &str) -> Result<Event, WebhookError> {
        verify(payload, header, &secret(), NOW, DEFAULT_TOLERANCE_SECS)
    }

    #[test]
    fn a_good_signature_gives_the_event() {
        let header = sign(&payload(), &secret(), NOW);
        let event = verify_now(&payload(), &header).unwrap();
        assert_eq!(event.event_type, "payment_intent.succeeded");
        assert_eq!(event.payment_intent().unwrap().id.as_str(), "pi_1");
    }

    #[test]
    fn the_signature_is_the_hmac_of_timestamp_dot_payload_keyed_with_the_whole_secret() {
        // Computed independently: printf '1700000000.{}' | openssl dgst -sha256 -hmac whsec_test_secret
        assert_eq!(
            sign(b"{}", &secret(), NOW),
            "t=1700000000,v1=ceb8863f7208fa249a6cd8f951e993c7563412aca65866f6272283debe143ab3"
        );
    }

    #[test]
    fn one_matching_v1_among_several_is_enough() {
        let good = sign(&payload(), &secret(), NOW);
        let good_v1 = good.split_once(",v1=").unwrap().1;
        let header = format!(
            "t={NOW},v1={},v1={good_v1},v0=deadbeef,v1=not-hex",
            "ab".repeat(32)
        );
        assert!(verify_now(&payload(), &header).is_ok());
    }

    #[test]
    fn a_tampered_payload_is_refused() {
        let header = sign(&payload(), &secret(), NOW);
        let mut tampered = payload();
        let at = tampered.iter().position(|&b| b == b'1').unwrap();
        tampered[at] = b'9';
        assert_eq!(
            verify_now(&tampered, &header).unwrap_err(),
            WebhookError::NoMatchingSignature
        );
    }

    #[test]
    fn a_signature_made_with_another_secret_is_refused() {
        let other = WebhookSecret::parse("whsec_other").unwrap();
        let header = sign(&payload(), &other, NOW);
        assert_eq!(
            verify_now(&payload(), &header).unwrap_err(),
            WebhookError::NoMatchingSignature
        );
    }

    #[test]
    fn an_old_timestamp_is_refused_even_with_a_good_signature() {
        let header = sign(&payload(), &secret(), NOW - 301);
        assert_eq!(
            verify_now(&payload(), &header).unwrap_err(),
            WebhookError::TimestampOutsideTolerance {
                timestamp: NOW - 301,
                now: NOW,
                tolerance_secs: 300
            }
        );
        let header = sign(&payload(), &secret(), NOW - 300);
        assert!(verify_now(&payload(), &header).is_ok());
    }

    #[test]
    fn a_timestamp_in_the_future_is_refused() {
        let header = sign(&payload(), &secret(), NOW + 301);
        assert!(matches!(
            verify_now(&payload(), &header),
            Err(WebhookError::TimestampOutsideTolerance { .. })
        ));
        let header = sign(&payload(), &secret(), NOW + 300);
        assert!(verify_now(&payload(), &header).is_ok());
    }

    #[test]
    fn the_timestamp_cannot_be_changed_without_the_signature() {
        let header = sign(&payload(), &secret(), NOW - 3600);
        let moved = header.replacen(&format!("t={}", NOW - 3600), &format!("t={NOW}"), 1);
        assert_eq!(
            verify_now(&payload(), &moved).unwrap_err(),
            WebhookError::NoMatchingSignature
        );
    }

    #[test]
    fn malformed_headers_are_told_apart() {
        let v1 = "ab".repeat(32);
        assert_eq!(
            verify_now(&payload(), "").unwrap_err(),
            WebhookError::MissingHeader
        );
        assert_eq!(
            verify_now(&payload(), "  ").unwrap_err(),
            WebhookError::MissingHeader
        );
        for malformed in [
            format!("v1={v1}"),
            format!("t=soon,v1={v1}"),
            format!("t={NOW},v1={v1},garbage"),
            format!("t={NOW},t={NOW},v1={v1}"),
            "nonsense".to_owned(),
        ] {
            assert_eq!(
                verify_now(&payload(), &malformed).unwrap_err(),
                WebhookError::MalformedHeader,
                "{malformed}"
            );
        }
        assert_eq!(
            verify_now(&payload(), &format!("t={NOW}")).unwrap_err(),
            WebhookError::NoV1Signature
        );
        assert_eq!(
            verify_now(&payload(), &format!("t={NOW},v0={v1}")).unwrap_err(),
            WebhookError::NoV1Signature
        );
    }

    #[test]
    fn a_signed_payload_that_is_not_an_event_is_refused() {
        let payload = br#"{"hello": "world"}"#;
        let header = sign(payload, &secret(), NOW);
        assert!(matches!(
            verify_now(payload, &header),
            Err(WebhookError::UnreadablePayload(_))
        ));
    }
}
