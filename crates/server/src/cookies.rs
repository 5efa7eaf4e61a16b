//! Every cookie the shop sets, built with the `cookie` crate: the session, the login,
//! and the two cart cookies the original shop's scripts read. All are `SameSite=Lax`,
//! on the whole site, and `Secure` whenever the shop is served over https.

use axum::http::{header, HeaderMap, HeaderValue};
use cookie::time::Duration;
use cookie::{Cookie, SameSite};

use crate::shop_url::BaseUrl;

/// What a cookie is for, which decides whether scripts may read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Only the server reads it (session, login).
    ServerOnly,
    /// The storefront's scripts read it too (cart count and hash).
    Scripts,
}

fn build(
    base: &BaseUrl,
    name: &'static str,
    value: String,
    reach: Reach,
    max_age: Option<i64>,
) -> Cookie<'static> {
    let mut b = Cookie::build((name, value))
        .path("/")
        .same_site(SameSite::Lax)
        .http_only(reach == Reach::ServerOnly)
        .secure(base.is_https());
    if let Some(secs) = max_age {
        b = b.max_age(Duration::seconds(secs));
    }
    b.build()
}

fn append(headers: &mut HeaderMap, cookie: &Cookie<'_>) {
    if let Ok(v) = HeaderValue::from_str(&cookie.to_string()) {
        headers.append(header::SET_COOKIE, v);
    }
}

/// A server-only cookie; `max_age` None ends it with the browser session.
pub fn set(
    headers: &mut HeaderMap,
    base: &BaseUrl,
    name: &'static str,
    value: String,
    max_age: Option<i64>,
) {
    append(
        headers,
        &build(base, name, value, Reach::ServerOnly, max_age),
    );
}

/// A cookie the storefront's scripts read too (the wishlist's counter and refresh
/// signal); `max_age` None ends it with the browser session.
pub fn set_for_scripts(
    headers: &mut HeaderMap,
    base: &BaseUrl,
    name: &'static str,
    value: String,
    max_age: Option<i64>,
) {
    append(headers, &build(base, name, value, Reach::Scripts, max_age));
}

/// Ends a server-only cookie.
pub fn expire(headers: &mut HeaderMap, base: &BaseUrl, name: &'static str) {
    let mut c = build(base, name, String::new(), Reach::ServerOnly, None);
    c.make_removal();
    append(headers, &c);
}

/// `woocommerce_items_in_cart` and `woocommerce_cart_hash`, set while the cart holds
/// something and removed when it is empty.
pub fn cart_state(headers: &mut HeaderMap, base: &BaseUrl, cart_hash: &str, items: i64) {
    for (name, value) in [
        ("woocommerce_items_in_cart", "1"),
        ("woocommerce_cart_hash", cart_hash),
    ] {
        let mut c = build(base, name, value.to_string(), Reach::Scripts, None);
        if items <= 0 {
            c.make_removal();
        }
        append(headers, &c);
    }
}

/// Whether an answer already sets the named cookie.
pub fn sets(headers: &HeaderMap, name: &str) -> bool {
    headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split_once('=').is_some_and(|(n, _)| n == name))
}

/// The value of one cookie from the request's Cookie headers.
pub fn read(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shop_url::ShopAddress;

    fn base(public: &str) -> BaseUrl {
        ShopAddress::new(Some(public), &[], false, "127.0.0.1:8080".parse().unwrap()).default_base()
    }

    fn texts(h: &HeaderMap) -> Vec<String> {
        h.get_all(header::SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn cookies_are_secure_over_https_only() {
        let mut h = HeaderMap::new();
        set(
            &mut h,
            &base("https://shop.example"),
            "s",
            "v".into(),
            Some(60),
        );
        set(&mut h, &base("http://shop.example"), "s", "v".into(), None);
        let t = texts(&h);
        assert!(t[0].contains("Secure"), "{}", t[0]);
        assert!(t[0].contains("HttpOnly") && t[0].contains("SameSite=Lax"));
        assert!(t[0].contains("Max-Age=60") && t[0].contains("Path=/"));
        assert!(!t[1].contains("Secure"), "{}", t[1]);
        assert!(!t[1].contains("Max-Age"));
    }

    #[test]
    fn cart_cookies_are_readable_by_scripts_and_removed_when_empty() {
        let mut h = HeaderMap::new();
        cart_state(&mut h, &base("https://shop.example"), "abc", 2);
        cart_state(&mut h, &base("https://shop.example"), "", 0);
        let t = texts(&h);
        assert!(t[1].starts_with("woocommerce_cart_hash=abc;"));
        assert!(!t[1].contains("HttpOnly"));
        assert!(t[2].contains("Max-Age=0"), "{}", t[2]);
        assert!(sets(&h, "woocommerce_cart_hash"));
    }

    #[test]
    fn one_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            "a=1; wp_session=x%7C%7Cy; b=2".parse().unwrap(),
        );
        assert_eq!(read(&h, "wp_session").as_deref(), Some("x%7C%7Cy"));
        assert_eq!(read(&h, "c"), None);
    }
}
