//! Who is asking: the shopper's session, identified by a signed `Cart-Token` header or
//! a signed session cookie; the signed-in customer, from a login cookie whose login
//! the database still holds (`identify`, the one place that decides it); and the
//! request nonces that guard writes, bound to that session or login. Everything is
//! signed with one secret kept in the database, so any server instance can check what
//! another issued; nothing here lives in memory between requests.

use axum::http::HeaderMap;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use secrecy::{ExposeSecret, SecretSlice};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::cookies;
use store::{customers, Db, StoreResult};

/// The session cookie; named like the original shop's so its clients feel at home.
pub const SESSION_COOKIE: &str = "wp_woocommerce_session_ferroshop";
/// The signed-in customer's cookie: `customer id|login token|expiry|signature`.
pub const LOGIN_COOKIE: &str = "wordpress_logged_in_ferroshop";
/// How long a session lives after its last write.
pub const SESSION_TTL_SECS: i64 = 48 * 3600;
/// The Cart-Token's JWT header, `{"alg":"HS256","typ":"JWT"}` in base64url.
const JWT_HEADER: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
/// Nonces change every twelve hours and stay valid for one more period.
const NONCE_TICK_SECS: i64 = 12 * 3600;

/// The signing key: HMAC-SHA256 keyed once with the shop's secret (so each signature
/// starts from the keyed state instead of hashing the key again). The secret itself is
/// not kept, and nothing here prints it.
#[derive(Clone)]
pub struct Keys {
    mac: Hmac<Sha256>,
}

/// A session id: 32 lowercase hex characters, or `t_` and 30 for a guest, as the
/// original shop writes them. Only ids that pass `parse` are ever looked up.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

impl SessionId {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 15];
        rand::thread_rng().fill_bytes(&mut bytes);
        let mut id = String::with_capacity(32);
        id.push_str("t_");
        id.push_str(&hex::encode(bytes));
        Self(id)
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
    /// The signed-in customer's id, from a login the database still holds; 0 for a
    /// guest. Only `identify` and signing in or out set it.
    pub user_id: i64,
    /// The token of that login: nonces are bound to it, so they die with the login.
    login_token: Option<String>,
    /// What the signed-in account is to the shop (staff see it in coming-soon mode).
    pub role: rules::staff::Role,
}

impl Session {
    /// A session nobody has named yet; it is stored when something is saved in it.
    pub fn fresh() -> Self {
        Self {
            id: SessionId::generate(),
            source: SessionSource::New,
            user_id: 0,
            login_token: None,
            role: rules::staff::Role::Customer,
        }
    }

    /// This session, now speaking for a customer signed in with `token`.
    pub fn signed_in(&mut self, customer_id: i64, token: &str) {
        self.user_id = customer_id;
        self.login_token = Some(token.to_string());
    }

    /// The stored form of the token of the login this session speaks for.
    pub fn login_token_hash(&self) -> Option<String> {
        self.login_token
            .as_deref()
            .filter(|_| self.user_id > 0)
            .map(token_hash)
    }

    /// What nonces of this session are bound to: the signed-in customer and their
    /// login, or for a guest the session itself (so one guest's nonce is worthless in
    /// another guest's browser).
    fn nonce_binding(&self) -> String {
        match &self.login_token {
            Some(token) if self.user_id > 0 => {
                format!("customer:{}:{}", self.user_id, token_hash(token))
            }
            _ => {
                let mut b = String::with_capacity(6 + self.id.as_str().len());
                b.push_str("guest:");
                b.push_str(self.id.as_str());
                b
            }
        }
    }
}

/// Who a request speaks for, with what `identify` found on the way.
#[derive(Debug, Clone)]
pub struct Identified {
    pub session: Session,
    /// A validly signed login cookie whose login was revoked (logout, password
    /// change) or expired: the answer should end the cookie.
    pub revoked_login: bool,
}

/// How login tokens and reset keys are stored: their SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The one function that decides who the shopper is: the session the request names,
/// and the customer its login cookie signs in, if that login is still in the database
/// (not logged out, not ended by a password change, not expired).
pub async fn identify(
    keys: &Keys,
    db: &Db,
    headers: &HeaderMap,
    now: i64,
) -> StoreResult<Identified> {
    let mut session = keys.session_from(headers, now);
    let Some(claim) = keys.login_from(headers, now) else {
        return Ok(Identified {
            session,
            revoked_login: false,
        });
    };
    let holder = customers::login_customer(db, &token_hash(&claim.token), now).await?;
    let role = holder
        .filter(|(id, _)| id.0 == claim.customer_id)
        .map(|(_, role)| role);
    let valid = role.is_some();
    if let Some(role) = role {
        session.signed_in(claim.customer_id, &claim.token);
        session.role = role;
    }
    Ok(Identified {
        session,
        revoked_login: !valid,
    })
}

impl Keys {
    pub fn new(secret: Vec<u8>) -> Self {
        let secret = SecretSlice::from(secret);
        Self {
            mac: Hmac::<Sha256>::new_from_slice(secret.expose_secret())
                .expect("HMAC takes any key length"),
        }
    }

    /// A fresh random secret, hex-encoded, for a shop's first start.
    pub fn generate_secret() -> String {
        let mut bytes = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut bytes);
        hex::encode(bytes)
    }

    /// A key of its own for one purpose (`"contact-quiz"`), derived from the shop's
    /// secret, so no feature holds the secret itself.
    pub fn derive(&self, purpose: &str) -> [u8; 32] {
        self.sign(&[b"derive", purpose.as_bytes()])
    }

    fn sign(&self, parts: &[&[u8]]) -> [u8; 32] {
        let mut mac = self.mac.clone();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                mac.update(b"|");
            }
            mac.update(part);
        }
        mac.finalize().into_bytes().into()
    }

    /// Finds the session a request names: a valid Cart-Token first, then a valid
    /// session cookie, otherwise a new one. Nobody is signed in yet: that is
    /// `identify`'s decision.
    fn session_from(&self, headers: &HeaderMap, now: i64) -> Session {
        let named = |id, source| Session {
            id,
            source,
            user_id: 0,
            login_token: None,
            role: rules::staff::Role::Customer,
        };
        if let Some(id) = headers
            .get("cart-token")
            .and_then(|v| v.to_str().ok())
            .and_then(|t| self.verify_cart_token(t, now))
        {
            return named(id, SessionSource::CartToken);
        }
        if let Some(id) =
            cookies::read(headers, SESSION_COOKIE).and_then(|c| self.verify_session_cookie(&c, now))
        {
            return named(id, SessionSource::Cookie);
        }
        Session::fresh()
    }

    /// The login cookie's claim, if the request carries a validly signed, unexpired
    /// one. Whether its login still stands is `identify`'s question.
    pub fn login_from(&self, headers: &HeaderMap, now: i64) -> Option<LoginClaim> {
        cookies::read(headers, LOGIN_COOKIE).and_then(|c| self.verify_login_cookie(&c, now))
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

    /// A JWT (HS256) naming the session, as the Store API's Cart-Token. Written
    /// directly: it is made for every Store API answer.
    pub fn cart_token(&self, id: &SessionId, now: i64) -> String {
        use std::fmt::Write as _;
        let mut claims = String::with_capacity(96);
        // A session id is `t_` and hex digits: nothing in it needs escaping.
        let _ = write!(
            claims,
            r#"{{"user_id":"{}","exp":{},"iss":"store-api","iat":{now}}}"#,
            id.as_str(),
            now + SESSION_TTL_SECS
        );
        let mut token = String::with_capacity(240);
        token.push_str(JWT_HEADER);
        token.push('.');
        URL_SAFE_NO_PAD.encode_string(claims, &mut token);
        let signature = self.sign(&[token.as_bytes()]);
        token.push('.');
        URL_SAFE_NO_PAD.encode_string(signature, &mut token);
        token
    }

    pub fn verify_cart_token(&self, token: &str, now: i64) -> Option<SessionId> {
        #[derive(serde::Deserialize)]
        struct Claims<'a> {
            #[serde(borrow)]
            user_id: std::borrow::Cow<'a, str>,
            exp: i64,
        }
        if token.len() > 1024 {
            return None;
        }
        let (signed, signature) = token.rsplit_once('.')?;
        let (_header, payload) = signed.split_once('.')?;
        if payload.contains('.') {
            return None;
        }
        let given = URL_SAFE_NO_PAD.decode(signature).ok()?;
        if !constant_time_eq(&given, &self.sign(&[signed.as_bytes()])) {
            return None;
        }
        let json = URL_SAFE_NO_PAD.decode(payload).ok()?;
        let claims: Claims = serde_json::from_slice(&json).ok()?;
        if claims.exp <= now {
            return None;
        }
        SessionId::parse(&claims.user_id)
    }

    /// `id||expires||expiring||signature`, the layout of the original shop's cookie,
    /// with `|` written `%7C` as its cookies carry it.
    pub fn session_cookie_value(&self, id: &SessionId, now: i64) -> String {
        let expires = (now + SESSION_TTL_SECS).to_string();
        let expiring = now + SESSION_TTL_SECS - 3600;
        let sig = self.sign(&[id.as_str().as_bytes(), expires.as_bytes()]);
        format!(
            "{}%7C%7C{expires}%7C%7C{expiring}%7C%7C{}",
            id.as_str(),
            hex::encode(&sig[..16])
        )
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

    /// A ten-character nonce for `action`, bound to the session's customer and login,
    /// or to the guest's session (as the original shop binds a guest's nonces to the
    /// session's customer id), and to the current twelve-hour period.
    pub fn nonce(&self, action: &str, session: &Session, now: i64) -> String {
        self.nonce_at(
            action,
            &session.nonce_binding(),
            now.div_euclid(NONCE_TICK_SECS),
        )
    }

    fn nonce_at(&self, action: &str, binding: &str, tick: i64) -> String {
        let mac = self.sign(&[
            b"nonce",
            action.as_bytes(),
            binding.as_bytes(),
            tick.to_string().as_bytes(),
        ]);
        hex::encode(&mac[..5])
    }

    /// Accepts this period's nonce and the previous one's.
    pub fn verify_nonce(&self, action: &str, session: &Session, nonce: &str, now: i64) -> bool {
        let tick = now.div_euclid(NONCE_TICK_SECS);
        let binding = session.nonce_binding();
        [tick, tick - 1].iter().any(|&t| {
            constant_time_eq(
                nonce.as_bytes(),
                self.nonce_at(action, &binding, t).as_bytes(),
            )
        })
    }
}

/// Compares secrets (signatures, keys) in time that does not depend on where they differ.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
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
    fn a_cart_token_is_a_jwt_of_the_session() {
        assert_eq!(
            JWT_HEADER,
            URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#)
        );
        let id = SessionId::generate();
        let token = keys().cart_token(&id, 1000);
        let payload = token.split('.').nth(1).unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        assert_eq!(claims["user_id"], id.as_str());
        assert_eq!(claims["exp"], 1000 + SESSION_TTL_SECS);
        assert_eq!(claims["iss"], "store-api");
        assert_eq!(claims["iat"], 1000);
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
        let value = keys().session_cookie_value(&id, 50);
        assert!(
            value.starts_with(&format!("{}%7C%7C", id.as_str())),
            "{value}"
        );
        assert_eq!(keys().verify_session_cookie(&value, 60), Some(id.clone()));
        let tampered = value.replacen(&id.as_str()[2..6], "ffff", 1);
        assert_eq!(keys().verify_session_cookie(&tampered, 60), None);
    }

    #[test]
    fn nonces_last_two_periods_and_differ_by_action_session_and_login() {
        let k = keys();
        let guest = Session::fresh();
        let n = k.nonce("wc_store_api", &guest, 100);
        assert_eq!(n.len(), 10);
        assert!(k.verify_nonce("wc_store_api", &guest, &n, 100 + NONCE_TICK_SECS));
        assert!(!k.verify_nonce("wc_store_api", &guest, &n, 100 + 2 * NONCE_TICK_SECS));
        assert!(!k.verify_nonce("woocommerce-cart", &guest, &n, 100));
        // Another guest's session, and the same session once signed in, refuse it.
        assert!(!k.verify_nonce("wc_store_api", &Session::fresh(), &n, 100));
        let mut signed = guest.clone();
        signed.signed_in(7, "tokentokentokentoken");
        assert!(!k.verify_nonce("wc_store_api", &signed, &n, 100));
        let m = k.nonce("wc_store_api", &signed, 100);
        assert!(k.verify_nonce("wc_store_api", &signed, &m, 100));
        // A new login of the same customer gets new nonces.
        let mut again = guest.clone();
        again.signed_in(7, "othertokenothertoken");
        assert!(!k.verify_nonce("wc_store_api", &again, &m, 100));
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
        // A session found from the request never speaks for anyone by itself.
        assert_eq!(k.session_from(&h, 1000).user_id, 0);
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
    fn secrets_compare_equal_only_when_equal() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
    }
}
