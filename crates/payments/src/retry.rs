//! When a failed call is tried again, and how long to wait first. Only failures that
//! may pass are retried: no answer at all (connection refused, broken or timed out),
//! a 5xx or a 429. A 4xx says the request itself is wrong and never changes on its
//! own. The provider's `Stripe-Should-Retry` header, when sent, overrides the status:
//! it knows, for example, that a 409 lock timeout is worth another try, or that a
//! 500 after the charge went through is not.

use std::time::Duration;

/// The first wait; each next one doubles, up to `MAX_DELAY`.
const FIRST_DELAY: Duration = Duration::from_millis(200);
const MAX_DELAY: Duration = Duration::from_secs(2);

/// Whether an answer with this status (and `Stripe-Should-Retry` header, if any) is
/// worth sending again.
pub(crate) fn should_retry_answer(status: u16, should_retry_header: Option<&str>) -> bool {
    match should_retry_header.map(str::trim) {
        Some(value) if value.eq_ignore_ascii_case("true") => true,
        Some(value) if value.eq_ignore_ascii_case("false") => false,
        _ => status == 429 || (500..600).contains(&status),
    }
}

/// The wait before retry number `retry` (1 for the first): 200 ms, 400 ms, 800 ms…
/// capped at 2 s, of which `jitter` (0 to 1) takes off up to half, so that clients
/// failing together do not all come back at the same instant.
pub(crate) fn backoff(retry: u32, jitter: f64) -> Duration {
    let doubled = FIRST_DELAY.saturating_mul(1 << retry.saturating_sub(1).min(16));
    let delay = doubled.min(MAX_DELAY);
    delay.mul_f64(1.0 - jitter.clamp(0.0, 1.0) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_errors_and_rate_limits_are_retried_other_errors_are_not() {
        for status in [500, 502, 503, 504, 429] {
            assert!(should_retry_answer(status, None), "{status}");
        }
        for status in [400, 401, 402, 403, 404, 409, 200] {
            assert!(!should_retry_answer(status, None), "{status}");
        }
    }

    #[test]
    fn the_providers_should_retry_header_overrides_the_status() {
        assert!(should_retry_answer(409, Some("true")));
        assert!(!should_retry_answer(503, Some("false")));
        assert!(should_retry_answer(503, Some("maybe")));
    }

    #[test]
    fn waits_double_up_to_a_cap_and_jitter_takes_off_at_most_half() {
        assert_eq!(backoff(1, 0.0), Duration::from_millis(200));
        assert_eq!(backoff(2, 0.0), Duration::from_millis(400));
        assert_eq!(backoff(3, 0.0), Duration::from_millis(800));
        assert_eq!(backoff(5, 0.0), Duration::from_secs(2));
        assert_eq!(backoff(60, 0.0), Duration::from_secs(2));
        assert_eq!(backoff(1, 1.0), Duration::from_millis(100));
        assert_eq!(backoff(2, 0.5), Duration::from_millis(300));
    }
}
