//! Slowing down password guessing: after 5 failed logins for one account, or 20 from
//! one client address, within 15 minutes, further logins are refused until the oldest
//! of those failures is 15 minutes old. Failures are rows in the database, so every
//! server instance counts the same ones.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use super::error::AccountError;
use crate::state::SharedState;
use crate::store::{customers, Db};

pub const WINDOW_SECS: i64 = 15 * 60;
pub const ACCOUNT_LIMIT: i64 = 5;
pub const IP_LIMIT: i64 = 20;

/// One thing failures are counted against, with how many it may have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub key: String,
    pub max: i64,
}

/// The limits a login for `email_key` from `ip` falls under.
pub fn login_limits(email_key: &str, ip: Option<IpAddr>) -> Vec<Limit> {
    let mut limits = vec![Limit {
        key: account_key(email_key),
        max: ACCOUNT_LIMIT,
    }];
    if let Some(ip) = ip {
        limits.push(Limit {
            key: ip_key(ip),
            max: IP_LIMIT,
        });
    }
    limits
}

pub fn account_key(email_key: &str) -> String {
    format!("account:{email_key}")
}

/// An IPv6 client usually holds a whole /64, so that is what is counted.
pub fn ip_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => format!("ip:{v4}"),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => format!("ip:{v4}"),
            None => {
                let s = v6.segments();
                format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Given the latest failures (newest first), how many seconds until another attempt
/// is allowed; None if one is allowed now.
pub fn blocked_for(failures_newest_first: &[i64], max: i64, now: i64) -> Option<i64> {
    let max = usize::try_from(max).ok()?.max(1);
    let nth = *failures_newest_first.get(max - 1)?;
    let lifts_at = nth + WINDOW_SECS;
    (lifts_at > now).then_some(lifts_at - now)
}

/// Refuses when any limit is reached, saying how long the longest wait is.
pub async fn check(db: &Db, limits: &[Limit], now: i64) -> Result<(), AccountError> {
    let mut wait = None;
    for limit in limits {
        let failures =
            customers::recent_failures(db, &limit.key, now - WINDOW_SECS, limit.max).await?;
        if let Some(secs) = blocked_for(&failures, limit.max, now) {
            wait = Some(wait.map_or(secs, |w: i64| w.max(secs)));
        }
    }
    match wait {
        Some(retry_after_secs) => Err(AccountError::TooManyLoginAttempts { retry_after_secs }),
        None => Ok(()),
    }
}

pub async fn record_failure(db: &Db, limits: &[Limit], now: i64) -> Result<(), AccountError> {
    let keys: Vec<String> = limits.iter().map(|l| l.key.clone()).collect();
    customers::record_failure(db, &keys, now, now - WINDOW_SECS).await?;
    Ok(())
}

/// A successful login forgets the account's failures (not the address's).
pub async fn clear_account(db: &Db, email_key: &str) -> Result<(), AccountError> {
    customers::clear_failures(db, &account_key(email_key)).await?;
    Ok(())
}

/// The client's address: the peer of the connection, or, when the shop says a proxy
/// of its own sits in front (`trust_forwarded_for`), the address that proxy appended
/// last to X-Forwarded-For. Earlier entries are whatever the client claimed, so they
/// are never used, not even when the last one cannot be read.
pub fn client_ip(
    peer: Option<IpAddr>,
    headers: &HeaderMap,
    trust_forwarded_for: bool,
) -> Option<IpAddr> {
    if trust_forwarded_for {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .and_then(|s| s.trim().parse::<IpAddr>().ok());
        if forwarded.is_some() {
            return forwarded;
        }
    }
    peer
}

/// The client's address as an extractor; None when the server was started without
/// connection info (then only the per-account limit applies).
pub struct ClientIp(pub Option<IpAddr>);

impl FromRequestParts<SharedState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &SharedState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(ClientIp(client_ip(
            peer,
            &parts.headers,
            state.config.trust_forwarded_for,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_block_lifts_when_the_oldest_counted_failure_leaves_the_window() {
        let now = 10_000;
        assert_eq!(blocked_for(&[9990, 9980, 9970, 9960], 5, now), None);
        let five = [9990, 9980, 9970, 9960, 9950];
        assert_eq!(blocked_for(&five, 5, now), Some(9950 + WINDOW_SECS - now));
        assert_eq!(blocked_for(&five, 5, 9950 + WINDOW_SECS), None);
    }

    #[test]
    fn forwarded_addresses_count_only_when_trusted() {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "1.2.3.4, 10.0.0.7".parse().unwrap());
        let peer: IpAddr = "127.0.0.1".parse().unwrap();
        assert_eq!(client_ip(Some(peer), &h, false), Some(peer));
        assert_eq!(
            client_ip(Some(peer), &h, true),
            Some("10.0.0.7".parse().unwrap())
        );
        assert_eq!(client_ip(Some(peer), &HeaderMap::new(), true), Some(peer));
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(ip_key(a), ip_key(b));
        assert_eq!(ip_key("::ffff:10.1.2.3".parse().unwrap()), "ip:10.1.2.3");
    }
}
