//! The shop's own address: the one place absolute links (mails, redirects, canonical
//! links, Store API links) come from. With a public URL configured every link starts
//! with it. Without one, a request's Host is used only if it is one of the hosts the
//! shop answers for (the bind address and localhost unless configured otherwise);
//! anything else is refused before a handler runs, so a forged Host or
//! X-Forwarded-Host can never end up in a password-reset link.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::http::{header, HeaderMap};

/// A host name or address with an optional port, lowercase: `shop.example`,
/// `127.0.0.1:8080`, `[::1]:8080`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostPort {
    host: String,
    port: Option<u16>,
}

impl HostPort {
    pub fn parse(s: &str) -> Option<Self> {
        if s.is_empty() || s.len() > 255 {
            return None;
        }
        let (host, port) = if let Some(rest) = s.strip_prefix('[') {
            let (inner, after) = rest.split_once(']')?;
            inner.parse::<std::net::Ipv6Addr>().ok()?;
            let port = match after {
                "" => None,
                p => Some(p.strip_prefix(':')?.parse().ok()?),
            };
            (format!("[{inner}]"), port)
        } else {
            let (host, port) = match s.rsplit_once(':') {
                Some((h, p)) => (h, Some(p.parse::<u16>().ok()?)),
                None => (s, None),
            };
            let valid = !host.is_empty()
                && host.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                        && !label.starts_with('-')
                        && !label.ends_with('-')
                });
            if !valid {
                return None;
            }
            (host.to_string(), port)
        };
        Some(Self {
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    fn from_addr(ip: IpAddr, port: u16) -> Self {
        let host = match ip {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        };
        Self {
            host,
            port: Some(port),
        }
    }

    /// Whether both name the same host and port, a missing port being the scheme's.
    fn same_as(&self, other: &HostPort, default_port: u16) -> bool {
        self.names(&other.host, other.port, default_port)
    }

    /// Whether `host` (any case) and `port` name this host.
    fn names(&self, host: &str, port: Option<u16>, default_port: u16) -> bool {
        self.host.eq_ignore_ascii_case(host)
            && self.port.unwrap_or(default_port) == port.unwrap_or(default_port)
    }

    /// `host[:port]` as a link shows it: without the scheme's own port.
    fn shown(&self, default_port: u16) -> String {
        match self.port.filter(|&p| p != default_port) {
            Some(p) => format!("{}:{p}", self.host),
            None => self.host.clone(),
        }
    }
}

/// A Host header's value split without copying: `host` and its port, if any.
fn split_host(value: &str) -> Option<(&str, Option<u16>)> {
    if value.starts_with('[') {
        let end = value.find(']')?;
        let port = match &value[end + 1..] {
            "" => None,
            p => Some(p.strip_prefix(':')?.parse().ok()?),
        };
        return Some((&value[..=end], port));
    }
    match value.rsplit_once(':') {
        Some((h, p)) => Some((h, Some(p.parse().ok()?))),
        None => Some((value, None)),
    }
}

impl fmt::Display for HostPort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(p) => write!(f, "{}:{p}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// The start of every absolute link for one request: `https://shop.example`. Made
/// once at start-up for each host the shop answers for, and shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseUrl {
    origin: Arc<str>,
    https: bool,
}

impl BaseUrl {
    fn new(scheme_https: bool, host: &str) -> Self {
        let scheme = if scheme_https { "https" } else { "http" };
        Self {
            origin: format!("{scheme}://{host}").into(),
            https: scheme_https,
        }
    }
}

impl BaseUrl {
    pub fn as_str(&self) -> &str {
        &self.origin
    }

    /// Served over TLS (cookies get `Secure`, answers get HSTS).
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// `path` (starting with `/`) as an absolute link.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.origin)
    }
}

/// Why a request was refused before any handler saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownHost;

/// A host the shop answers for, with the bases of its links over http and https.
#[derive(Debug, Clone)]
struct Allowed {
    host: HostPort,
    http: BaseUrl,
    https: BaseUrl,
}

/// Where the shop is, worked out once at start-up.
#[derive(Debug, Clone)]
pub struct ShopAddress {
    public: Option<BaseUrl>,
    allowed: Vec<Allowed>,
    trust_proxy: bool,
}

impl ShopAddress {
    /// `bound` is the address the server actually listens on (its real port).
    /// `public_url` is checked by the configuration (a scheme and a host, no path);
    /// `allowed_hosts` are hosts besides it and the bound address.
    pub fn new(
        public_url: Option<&str>,
        allowed_hosts: &[String],
        trust_proxy: bool,
        bound: SocketAddr,
    ) -> Self {
        let public = public_url.map(|url| BaseUrl {
            origin: url.into(),
            https: url.starts_with("https://"),
        });
        let mut allowed: Vec<HostPort> = allowed_hosts
            .iter()
            .filter_map(|h| HostPort::parse(h))
            .collect();
        if let Some(host) = public.as_ref().and_then(|p| host_of_origin(&p.origin)) {
            allowed.push(host);
        }
        let port = bound.port();
        if !bound.ip().is_unspecified() {
            allowed.push(HostPort::from_addr(bound.ip(), port));
        }
        for loopback in ["localhost", "127.0.0.1", "[::1]"] {
            allowed.push(HostPort {
                host: loopback.into(),
                port: Some(port),
            });
        }
        let allowed = allowed
            .into_iter()
            .map(|host| Allowed {
                http: BaseUrl::new(false, &host.shown(80)),
                https: BaseUrl::new(true, &host.shown(443)),
                host,
            })
            .collect();
        Self {
            public,
            allowed,
            trust_proxy,
        }
    }

    /// The shop's address for links made outside any request (mails sent by upkeep or
    /// the command line): the public URL, else the first host it answers for.
    pub fn default_base(&self) -> BaseUrl {
        self.public
            .clone()
            .unwrap_or_else(|| self.allowed[0].http.clone())
    }

    fn find(&self, host: &str, port: Option<u16>, default_port: u16) -> Option<&Allowed> {
        self.allowed
            .iter()
            .find(|a| a.host.names(host, port, default_port))
    }

    fn is_allowed(&self, host: &HostPort, default_port: u16) -> bool {
        self.allowed
            .iter()
            .any(|a| a.host.same_as(host, default_port))
    }

    /// The base for links in the answer to a request. The Host (and X-Forwarded-Host,
    /// if a client or proxy sent one) must name a host the shop answers for.
    pub fn for_request(&self, headers: &HeaderMap) -> Result<BaseUrl, UnknownHost> {
        let forwarded_https = self.trust_proxy
            && header_text(headers, "x-forwarded-proto")
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
        let default_port = if forwarded_https || self.public.as_ref().is_some_and(|p| p.https) {
            443
        } else {
            80
        };
        let mut named = None;
        for name in [header::HOST.as_str(), "x-forwarded-host"] {
            for value in headers.get_all(name) {
                let text = value.to_str().map_err(|_| UnknownHost)?;
                // A proxy chain may list several; every one must be ours.
                for part in text.split(',') {
                    let (host, port) = split_host(part.trim()).ok_or(UnknownHost)?;
                    let allowed = self.find(host, port, default_port).ok_or(UnknownHost)?;
                    if name == header::HOST.as_str() {
                        named = Some(allowed);
                    }
                }
            }
        }
        if let Some(public) = &self.public {
            return Ok(public.clone());
        }
        Ok(match named {
            None => self.default_base(),
            Some(a) if forwarded_https => a.https.clone(),
            Some(a) => a.http.clone(),
        })
    }

    /// Whether a browser says a request comes from another site: `Sec-Fetch-Site`
    /// where sent (every current browser), else an `Origin` that is not one of ours.
    /// Requests without either come from programs, not from pages a shopper visits.
    pub fn is_cross_site(&self, headers: &HeaderMap) -> bool {
        match header_text(headers, "sec-fetch-site") {
            Some("same-origin" | "none") => return false,
            Some("cross-site") => return true,
            // "same-site" (a sibling subdomain) is trusted only if its origin is ours.
            _ => {}
        }
        match header_text(headers, header::ORIGIN.as_str()) {
            None => header_text(headers, "sec-fetch-site").is_some(),
            Some(origin) => {
                let https = origin.starts_with("https://");
                match host_of_origin(origin) {
                    Some(host) => !self.is_allowed(&host, if https { 443 } else { 80 }),
                    // "null" (sandboxed frames, some redirects) or nonsense.
                    None => true,
                }
            }
        }
    }
}

fn header_text<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// `https://shop.example:8443` → `shop.example:8443`.
fn host_of_origin(origin: &str) -> Option<HostPort> {
    let rest = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))?;
    HostPort::parse(rest.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(public: Option<&str>, allowed: &[&str], trust_proxy: bool) -> ShopAddress {
        let allowed: Vec<String> = allowed.iter().map(|s| s.to_string()).collect();
        ShopAddress::new(
            public,
            &allowed,
            trust_proxy,
            "127.0.0.1:8080".parse().unwrap(),
        )
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        h
    }

    #[test]
    fn without_a_public_url_only_the_bind_address_and_localhost_are_answered() {
        let a = address(None, &[], false);
        let base = a.for_request(&headers(&[("host", "localhost:8080")]));
        assert_eq!(base.unwrap().as_str(), "http://localhost:8080");
        assert_eq!(
            a.for_request(&headers(&[("host", "127.0.0.1:8080")]))
                .unwrap()
                .link("/cart"),
            "http://127.0.0.1:8080/cart"
        );
        assert_eq!(
            a.for_request(&headers(&[("host", "evil.example")])),
            Err(UnknownHost)
        );
        assert_eq!(
            a.for_request(&headers(&[("host", "localhost:9999")])),
            Err(UnknownHost)
        );
        assert_eq!(
            a.for_request(&headers(&[
                ("host", "localhost:8080"),
                ("x-forwarded-host", "evil.example")
            ])),
            Err(UnknownHost)
        );
        assert_eq!(
            a.for_request(&headers(&[("host", "local host")])),
            Err(UnknownHost)
        );
    }

    #[test]
    fn a_public_url_is_every_links_start_whatever_host_is_named() {
        let a = address(Some("https://shop.example"), &[], false);
        for host in ["shop.example", "SHOP.example:443", "127.0.0.1:8080"] {
            let base = a.for_request(&headers(&[("host", host)])).unwrap();
            assert_eq!(base.as_str(), "https://shop.example");
            assert!(base.is_https());
        }
        assert!(a
            .for_request(&headers(&[("host", "shop.example:80")]))
            .is_err());
        assert!(a
            .for_request(&headers(&[("host", "evil.example")]))
            .is_err());
        assert_eq!(a.default_base().as_str(), "https://shop.example");
    }

    #[test]
    fn configured_hosts_and_a_trusted_proxys_scheme_are_used() {
        let a = address(None, &["shop.internal"], true);
        let base = a
            .for_request(&headers(&[
                ("host", "shop.internal"),
                ("x-forwarded-proto", "https"),
            ]))
            .unwrap();
        assert_eq!(base.as_str(), "https://shop.internal");
        assert!(base.is_https());
        let untrusted = address(None, &["shop.internal"], false);
        let base = untrusted
            .for_request(&headers(&[
                ("host", "shop.internal"),
                ("x-forwarded-proto", "https"),
            ]))
            .unwrap();
        assert_eq!(base.as_str(), "http://shop.internal");
    }

    #[test]
    fn browsers_say_when_a_request_comes_from_another_site() {
        let a = address(Some("https://shop.example"), &[], false);
        assert!(a.is_cross_site(&headers(&[("sec-fetch-site", "cross-site")])));
        assert!(!a.is_cross_site(&headers(&[("sec-fetch-site", "same-origin")])));
        assert!(a.is_cross_site(&headers(&[
            ("sec-fetch-site", "same-site"),
            ("origin", "https://blog.shop.example")
        ])));
        assert!(a.is_cross_site(&headers(&[("origin", "https://evil.example")])));
        assert!(a.is_cross_site(&headers(&[("origin", "null")])));
        assert!(!a.is_cross_site(&headers(&[("origin", "https://shop.example")])));
        assert!(!a.is_cross_site(&HeaderMap::new()));
    }

    #[test]
    fn host_names_are_checked_before_use() {
        assert!(HostPort::parse("shop.example").is_some());
        assert!(HostPort::parse("[::1]:8080").is_some());
        assert!(HostPort::parse("a_b.example").is_none());
        assert!(HostPort::parse("shop.example:99999").is_none());
        assert!(HostPort::parse("shop.example/path").is_none());
        assert!(HostPort::parse("").is_none());
    }
}
