//! Who is asking: the shopper's session, identified by a signed `Cart-Token` header or
//! a signed session cookie, and the request nonces that guard writes. Everything is
//! signed with one secret kept in the database, so any server instance can check what
//! another issued; nothing here lives in memory between requests.

use axum::http::HeaderMap;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

use crate::clock;

/// The session cookie; named like the original shop's so its clients feel at home.
pub const SESSION_COOKIE: &str = "wp_woocommerce_session_ferroshop";
/// The signed-in customer's cookie: `customer id|login token|expiry|signature`.
pub const LOGIN_COOKIE: &str = "wordpress_logged_in_ferroshop";
/// How long a session lives after its last write.
pub const SESSION_TTL_SECS: i64 = 48 * 3600;
/// Nonces change every twelve hours and stay valid for one more period.
const NONCE_TICK_SECS: i64 = 12 * 3600;

#[derive(Clone)]
pub struct Keys {
    secret: Vec<u8>,
}

/// A session id: 32 lowercase hex characters, or `t_` and 30 for a guest, as the
/// original shop writes them. Only ids that pass `parse` are ever looked up.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

impl SessionId {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 15];
        rand::thread_rng().fill_bytes(&mut bytes);
        Self(format!("t_{}", hex::encode(bytes)))
    }

    pub fn parse(s: &str) -> Option<Self> {
        let hexpart = s.strip_prefix("t_").unwrap_or(s);
        let ok =
            (8..=64).contains(&hexpart.len()) && hexpart.bytes().all(|b| b.is_ascii_hexdigit());
        ok.then(|| Self(s.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How the request named its session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionSource {
    CartToken,
    Cookie,
    /// None given, or none valid: a new session, stored only when something is saved.
    New,
}

/// What a valid login cookie says: who signed in, with which login token, until when.
/// The signature and expiry are checked here; whether the token was revoked (logout)
/// is the account code's question, answered from the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginClaim {
    pub customer_id: i64,
    pub token: String,
    pub expires: i64,
}

#[derive(Debug, Clone)]
pub struct Session {
    pub id: SessionId,
    pub source: SessionSource,
    /// The signed-in customer's id from a valid login cookie; 0 for a guest.
    pub user_id: i64,
}

impl Keys {
    pub fn new(secret: Vec<u8>) -> Self {
        Self { secret }
    }

    /// A fresh random secret, hex-encoded, for a shop's first start.
    pub fn generate_secret() -> String {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        hex::encode(bytes)
    }

    fn sign(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes any key length");
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                mac.update(b"|");
            }
            mac.update(part);
        }
        mac.finalize().into_bytes().into()
    }

    /// Finds the session a request names: a valid Cart-Token first, then a valid
    /// session cookie, otherwise a new one.
    pub fn session_from(&self, headers: &HeaderMap) -> Session {
        let now = clock::now();
        let user_id = self.login_from(headers, now).map_or(0, |c| c.customer_id);
        if let Some(id) = headers
            .get("cart-token")
            .and_then(|v| v.to_str().ok())
            .and_then(|t| self.verify_cart_token(t, now))
        {
            return Session {
                id,
                source: SessionSource::CartToken,
                user_id,
            };
        }
        if let Some(id) =
            cookie(headers, SESSION_COOKIE).and_then(|c| self.verify_session_cookie(&c, now))
        {
            return Session {
                id,
                source: SessionSource::Cookie,
                user_id,
            };
        }
        Session {
            id: SessionId::generate(),
            source: SessionSource::New,
            user_id,
        }
    }

    /// The login cookie's claim, if the request carries a validly signed, unexpired one.
    pub fn login_from(&self, headers: &HeaderMap, now: i64) -> Option<LoginClaim> {
        cookie(headers, LOGIN_COOKIE).and_then(|c| self.verify_login_cookie(&c, now))
    }

    /// `customer id|token|expiry|signature`, with `|` written `%7C` as the original
    /// shop's cookies are.
    pub fn login_cookie_value(&self, customer_id: i64, token: &str, expires: i64) -> String {
        let sig = self.login_signature(customer_id, token, expires);
        format!("{customer_id}%7C{token}%7C{expires}%7C{sig}")
    }

    fn login_signature(&self, customer_id: i64, token: &str, expires: i64) -> String {
        hex::encode(self.sign(&[
            b"logged_in",
            customer_id.to_string().as_bytes(),
            token.as_bytes(),
            expires.to_string().as_bytes(),
        ]))
    }

    pub fn verify_login_cookie(&self, value: &str, now: i64) -> Option<LoginClaim> {
        if value.len() > 512 {
            return None;
        }
        let value = value.replace("%7C", "|").replace("%7c", "|");
        let mut parts = value.split('|');
        let (id, token, expires, sig) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let customer_id: i64 = id.parse().ok()?;
        let expires: i64 = expires.parse().ok()?;
        let token_ok = (16..=128).contains(&token.len())
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if customer_id <= 0 || !token_ok {
            return None;
        }
        let expected = self.login_signature(customer_id, token, expires);
        if !constant_time_eq(sig.as_bytes(), expected.as_bytes()) || expires <= now {
            return None;
        }
        Some(LoginClaim {
            customer_id,
            token: token.to_string(),
            expires,
        })
    }

    /// A JWT (HS256) naming the session, as the Store API's Cart-Token.
    pub fn cart_token(&self, id: &SessionId, now: i64) -> String {
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
        let claims = serde_json::json!({
            "user_id": id.as_str(),
            "exp": now + SESSION_TTL_SECS,
            "iss": "store-api",
            "iat": now,
        });
        let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signature =
            URL_SAFE_NO_PAD.encode(self.sign(&[format!("{header}.{payload}").as_bytes()]));
        format!("{header}.{payload}.{signature}")
    }

    pub fn verify_cart_token(&self, token: &str, now: i64) -> Option<SessionId> {
        if token.len() > 1024 {
            return None;
        }
        let mut parts = token.split('.');
        let (header, payload, signature) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let given = URL_SAFE_NO_PAD.decode(signature).ok()?;
        let expected = self.sign(&[format!("{header}.{payload}").as_bytes()]);
        if !constant_time_eq(&given, &expected) {
            return None;
        }
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
        if claims.get("exp")?.as_i64()? <= now {
            return None;
        }
        SessionId::parse(claims.get("user_id")?.as_str()?)
    }

    /// `id||expires||expiring||signature`, the layout of the original shop's cookie.
    pub fn session_cookie_value(&self, id: &SessionId, now: i64) -> String {
        let expires = now + SESSION_TTL_SECS;
        let expiring = expires - 3600;
        let sig = hex::encode(
            &self.sign(&[id.as_str().as_bytes(), expires.to_string().as_bytes()])[..16],
        );
        format!("{}||{expires}||{expiring}||{sig}", id.as_str())
    }

    pub fn verify_session_cookie(&self, value: &str, now: i64) -> Option<SessionId> {
        let value = value.replace("%7C", "|").replace("%7c", "|");
        let mut parts = value.split("||");
        let (id, expires, _expiring, sig) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let expected = hex::encode(&self.sign(&[id.as_bytes(), expires.as_bytes()])[..16]);
        if !constant_time_eq(sig.as_bytes(), expected.as_bytes())
            || expires.parse::<i64>().ok()? <= now
        {
            return None;
        }
        SessionId::parse(id)
    }

    /// A ten-character nonce for `action`, bound to the user (0 for every guest, as in
    /// the original shop) and to the current twelve-hour period.
    pub fn nonce(&self, action: &str, user_id: i64, now: i64) -> String {
        self.nonce_at(action, user_id, now.div_euclid(NONCE_TICK_SECS))
    }

    fn nonce_at(&self, action: &str, user_id: i64, tick: i64) -> String {
        let mac = self.sign(&[
            action.as_bytes(),
            user_id.to_string().as_bytes(),
            tick.to_string().as_bytes(),
        ]);
        hex::encode(&mac[..5])
    }

    /// Accepts this period's nonce and the previous one's.
    pub fn verify_nonce(&self, action: &str, user_id: i64, nonce: &str, now: i64) -> bool {
        let tick = now.div_euclid(NONCE_TICK_SECS);
        [tick, tick - 1].iter().any(|&t| {
            constant_time_eq(
                nonce.as_bytes(),
                self.nonce_at(action, user_id, t).as_bytes(),
            )
        })
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The value of one cookie from the request's Cookie headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Keys {
        Keys::new(b"test secret".to_vec())
    }

    #[test]
    fn a_cart_token_names_its_session_until_it_expires() {
        let id = SessionId::generate();
        let token = keys().cart_token(&id, 1000);
        assert_eq!(keys().verify_cart_token(&token, 1001), Some(id));
        assert_eq!(
            keys().verify_cart_token(&token, 1000 + SESSION_TTL_SECS),
            None
        );
    }

    #[test]
    fn a_tampered_or_foreign_cart_token_is_refused() {
        let token = keys().cart_token(&SessionId::generate(), 1000);
        let other = Keys::new(b"another".to_vec());
        assert_eq!(other.verify_cart_token(&token, 1001), None);
        let mut forged = token.clone();
        forged.replace_range(40..41, if &token[40..41] == "A" { "B" } else { "A" });
        assert_eq!(keys().verify_cart_token(&forged, 1001), None);
        assert_eq!(keys().verify_cart_token("not.a.token", 1001), None);
    }

    #[test]
    fn the_session_cookie_round_trips_percent_encoded() {
        let id = SessionId::generate();
        let value = keys().session_cookie_value(&id, 50).replace('|', "%7C");
        assert_eq!(keys().verify_session_cookie(&value, 60), Some(id.clone()));
        let tampered = value.replacen(&id.as_str()[2..6], "ffff", 1);
        assert_eq!(keys().verify_session_cookie(&tampered, 60), None);
    }

    #[test]
    fn nonces_last_two_periods_and_differ_by_action_and_user() {
        let k = keys();
        let n = k.nonce("wc_store_api", 0, 100);
        assert_eq!(n.len(), 10);
        assert!(k.verify_nonce("wc_store_api", 0, &n, 100 + NONCE_TICK_SECS));
        assert!(!k.verify_nonce("wc_store_api", 0, &n, 100 + 2 * NONCE_TICK_SECS));
        assert!(!k.verify_nonce("woocommerce-cart", 0, &n, 100));
        assert!(!k.verify_nonce("wc_store_api", 7, &n, 100));
    }

    #[test]
    fn a_login_cookie_names_its_customer_until_it_expires() {
        let k = keys();
        let token = "abcdefghijklmnopqrstuvwxyz012345";
        let value = k.login_cookie_value(7, token, 2000);
        let claim = k.verify_login_cookie(&value, 1000).unwrap();
        assert_eq!(claim.customer_id, 7);
        assert_eq!(claim.token, token);
        assert_eq!(k.verify_login_cookie(&value, 2000), None);
        assert_eq!(
            k.verify_login_cookie(&value.replace('|', "%7C"), 1000)
                .map(|c| c.customer_id),
            Some(7)
        );
        let mut h = HeaderMap::new();
        h.insert("cookie", format!("{LOGIN_COOKIE}={value}").parse().unwrap());
        assert_eq!(k.login_from(&h, 1000).map(|c| c.customer_id), Some(7));
    }

    #[test]
    fn a_forged_login_cookie_is_refused() {
        let k = keys();
        let token = "abcdefghijklmnopqrstuvwxyz012345";
        let value = k.login_cookie_value(7, token, 2000);
        // Another customer's id, a later expiry, another key: all break the signature.
        assert_eq!(
            k.verify_login_cookie(&value.replacen('7', "8", 1), 1000),
            None
        );
        assert_eq!(
            k.verify_login_cookie(&value.replace("2000", "9000"), 1000),
            None
        );
        assert_eq!(
            Keys::new(b"another".to_vec()).verify_login_cookie(&value, 1000),
            None
        );
        assert_eq!(k.verify_login_cookie("7%7Cx%7C2000%7Cff", 1000), None);
        assert_eq!(k.verify_login_cookie("", 1000), None);
    }

    #[test]
    fn session_ids_are_checked_before_use() {
        assert!(SessionId::parse("t_0123456789abcdef").is_some());
        assert!(SessionId::parse("t_../../etc").is_none());
        assert!(SessionId::parse("").is_none());
    }

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            "cookie",
            "a=1; wp_woocommerce_session_ferroshop=x%7C%7Cy; b=2"
                .parse()
                .unwrap(),
        );
        assert_eq!(cookie(&h, SESSION_COOKIE).as_deref(), Some("x%7C%7Cy"));
        assert_eq!(cookie(&h, "c"), None);
    }
}
