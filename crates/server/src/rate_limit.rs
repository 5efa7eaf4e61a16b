//! Rate limits for the calls worth guessing at or flooding: logins, registrations,
//! password resets and guest order lookups. A call counts its attempt *before* the
//! expensive or revealing work (hashing a password, sending a mail, looking an order
//! up), with one atomic statement per limit in the database, so fifty parallel
//! attempts on any number of instances let exactly the allowed number through.
//!
//! Each limit is a fixed window that starts with its first attempt: at most `max`
//! attempts until `window_secs` after it, then a fresh window.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};

use crate::error::ApiError;
use crate::listener::PeerAddr;
use crate::state::AppState;
use store::{rate_limits, Db, StoreResult};

/// What is being limited; it names the limit's key and words the refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Login,
    Registration,
    ResetMail,
    PasswordReset,
    PasswordChange,
    OrderLookup,
    /// Paying at the provider (checkout, order-pay): card testers try many cards.
    Payment,
    /// Keeping a card on an account (add payment method): the same, without an order.
    SaveCard,
    /// The express checkout's wallet sheet pricing and writing a cart (an address or
    /// a rate chosen): far more than a shopper picking addresses and rates makes, too
    /// few to churn carts without end.
    ExpressCheckout,
    /// Posting a product review or reply.
    Review,
    /// Sending a contact form (counted before its body, and any upload, is read).
    Contact,
    /// Signing up for the newsletter: each sign-up mails the address.
    Newsletter,
    /// The wishlist's calls (adding from a page, the table's actions): far more than
    /// a shopper clicking hearts makes, too few to fill the database without end.
    Wishlist,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::Login => "login",
            Action::Registration => "register",
            Action::ResetMail => "reset-mail",
            Action::PasswordReset => "reset",
            Action::PasswordChange => "password-change",
            Action::OrderLookup => "lookup",
            Action::Payment => "payment",
            Action::SaveCard => "save-card",
            Action::ExpressCheckout => "express-checkout",
            Action::Review => "review",
            Action::Contact => "contact",
            Action::Newsletter => "newsletter",
            Action::Wishlist => "wishlist",
        }
    }

    /// (attempts, window in seconds) per account or e-mail address.
    fn per_account(self) -> (i64, i64) {
        match self {
            Action::Login | Action::PasswordChange => (5, 15 * 60),
            Action::ResetMail => (3, 3600),
            Action::OrderLookup => (10, 15 * 60),
            Action::Registration | Action::PasswordReset => (10, 3600),
            Action::Payment => (10, 3600),
            Action::SaveCard => (5, 3600),
            Action::ExpressCheckout => (300, 10 * 60),
            Action::Review | Action::Contact => (10, 3600),
            Action::Newsletter => (3, 3600),
            Action::Wishlist => (300, 10 * 60),
        }
    }

    /// (attempts, window in seconds) per client address.
    fn per_client(self) -> (i64, i64) {
        match self {
            Action::Login | Action::OrderLookup => (20, 15 * 60),
            Action::Registration | Action::ResetMail => (10, 3600),
            Action::PasswordReset | Action::PasswordChange => (20, 15 * 60),
            Action::Payment => (30, 3600),
            Action::SaveCard => (10, 3600),
            Action::ExpressCheckout => (300, 10 * 60),
            Action::Review | Action::Contact => (20, 3600),
            Action::Newsletter => (10, 3600),
            Action::Wishlist => (300, 10 * 60),
        }
    }

    fn message(self, wait: &str) -> String {
        match self {
            Action::Login | Action::PasswordChange => {
                format!("Too many failed login attempts. Please try again in {wait}.")
            }
            Action::Registration => {
                format!(
                    "Too many accounts were created from your network. Please try again in {wait}."
                )
            }
            Action::ResetMail => {
                format!("Too many password reset requests. Please try again in {wait}.")
            }
            Action::PasswordReset => {
                format!("Too many password reset attempts. Please try again in {wait}.")
            }
            Action::OrderLookup => {
                format!("Too many order lookups. Please try again in {wait}.")
            }
            Action::Payment => {
                format!("Too many payment attempts. Please try again in {wait}.")
            }
            Action::SaveCard => {
                format!("Too many attempts to add a payment method. Please try again in {wait}.")
            }
            Action::ExpressCheckout => {
                format!("Too many express checkout requests. Please try again in {wait}.")
            }
            Action::Review => {
                format!("Too many reviews were posted. Please try again in {wait}.")
            }
            Action::Contact => {
                format!(
                    "Too many messages were sent from your network. Please try again in {wait}."
                )
            }
            Action::Newsletter => format!("Too many sign-ups. Please try again in {wait}."),
            Action::Wishlist => {
                format!("Too many wishlist requests. Please try again in {wait}.")
            }
        }
    }
}

/// One counter: an action for one account, e-mail address or client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    pub key: String,
    pub max: i64,
    pub window_secs: i64,
}

/// The limits one attempt at `action` falls under: per account (when the attempt
/// names one: a lowercased e-mail address) and per client address (when known).
pub fn limits(action: Action, account: Option<&str>, client: Option<IpAddr>) -> Vec<Limit> {
    let mut out = Vec::new();
    if let Some(account) = account.map(str::trim).filter(|a| !a.is_empty()) {
        let (max, window_secs) = action.per_account();
        out.push(Limit {
            key: format!("{}:account:{}", action.name(), account.to_lowercase()),
            max,
            window_secs,
        });
    }
    if let Some(ip) = client {
        let (max, window_secs) = action.per_client();
        out.push(Limit {
            key: format!("{}:{}", action.name(), client_key(ip)),
            max,
            window_secs,
        });
    }
    out
}

/// An IPv6 client usually holds a whole /64, so that is what is counted.
pub fn client_key(ip: IpAddr) -> String {
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

/// An attempt over a limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limited {
    pub action: Action,
    pub retry_after_secs: i64,
}

impl Limited {
    /// 429 with `Retry-After`, in the Store API's shape.
    pub fn to_api(self) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "ferroshop_too_many_attempts",
            self.action.message(&minutes(self.retry_after_secs)),
        )
        .retry_after(self.retry_after_secs)
    }
}

/// "15 minutes", "1 minute".
pub fn minutes(secs: i64) -> String {
    let m = ((secs.max(1) + 59) / 60).max(1);
    if m == 1 {
        "1 minute".into()
    } else {
        format!("{m} minutes")
    }
}

/// Counts one attempt against every limit; refused (with the longest wait) when any
/// of them is over. Every counter is incremented either way, so hammering a limit
/// keeps it shut.
pub async fn attempt(
    db: &Db,
    action: Action,
    limits: &[Limit],
    now: i64,
) -> StoreResult<Result<(), Limited>> {
    let keys: Vec<(&str, i64)> = limits
        .iter()
        .map(|l| (l.key.as_str(), l.window_secs))
        .collect();
    let counts = rate_limits::hit_all(db, &keys, now).await?;
    let mut wait: Option<i64> = None;
    for (limit, (hits, started)) in limits.iter().zip(counts) {
        if hits > limit.max {
            let secs = (started + limit.window_secs - now).max(1);
            wait = Some(wait.map_or(secs, |w| w.max(secs)));
        }
    }
    Ok(match wait {
        Some(retry_after_secs) => Err(Limited {
            action,
            retry_after_secs,
        }),
        None => Ok(()),
    })
}

/// Gives an attempt back (it succeeded, so it should not count towards a lockout).
pub async fn give_back(db: &Db, limit: &Limit) -> StoreResult<()> {
    rate_limits::give_back(db, &limit.key).await
}

/// Forgets the attempts counted under a limit.
pub async fn clear(db: &Db, limit: &Limit) -> StoreResult<()> {
    rate_limits::clear(db, &limit.key).await
}

/// The client's address: the peer of the connection, or, when the shop says a proxy
/// of its own sits in front (`trust_proxy`), the address that proxy appended last to
/// X-Forwarded-For. Earlier entries are whatever the client claimed, so they are
/// never used, not even when the last one cannot be read.
pub fn client_ip(peer: Option<IpAddr>, headers: &HeaderMap, trust_proxy: bool) -> Option<IpAddr> {
    if trust_proxy {
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

/// The address of the client of a request: the connection's peer, or what the
/// shop's own proxy says (`client_ip`). None when the server runs without connection
/// info (then only the per-account limits apply).
pub fn client_of(state: &AppState, parts: &Parts) -> Option<IpAddr> {
    let peer = parts
        .extensions
        .get::<ConnectInfo<PeerAddr>>()
        .map(|c| c.0 .0.ip())
        .or_else(|| {
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip())
        });
    client_ip(peer, &parts.headers, state.config.trust_proxy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_falls_under_its_account_and_its_client() {
        let ip: IpAddr = "10.1.2.3".parse().unwrap();
        let l = limits(Action::Login, Some("Ada@Example.test"), Some(ip));
        assert_eq!(l[0].key, "login:account:ada@example.test");
        assert_eq!((l[0].max, l[0].window_secs), (5, 900));
        assert_eq!(l[1].key, "login:ip:10.1.2.3");
        assert_eq!(limits(Action::Registration, None, None), vec![]);
        assert_eq!(limits(Action::OrderLookup, Some("  "), None), vec![]);
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
        assert_eq!(client_key(a), client_key(b));
        assert_eq!(
            client_key("::ffff:10.1.2.3".parse().unwrap()),
            "ip:10.1.2.3"
        );
    }

    #[test]
    fn a_refusal_says_when_to_come_back() {
        let e = Limited {
            action: Action::Login,
            retry_after_secs: 840,
        }
        .to_api();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(
            e.message,
            "Too many failed login attempts. Please try again in 14 minutes."
        );
        assert_eq!(minutes(1), "1 minute");
        assert_eq!(minutes(61), "2 minutes");
    }
}
