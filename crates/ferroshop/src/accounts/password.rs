//! Password hashing: Argon2id with the library's default cost, stored as a PHC string.
//! Hashing takes tens of milliseconds of CPU, so it runs on the blocking pool, never on
//! the threads that serve requests.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use super::error::AccountError;
use super::model::NewPassword;

pub async fn hash_password(password: &NewPassword) -> Result<String, AccountError> {
    let password = password.as_str().to_string();
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(|e| AccountError::Internal(format!("password hashing task: {e}")))?
}

fn hash_now(password: &str) -> Result<String, AccountError> {
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AccountError::Internal(format!("password hashing: {e}")))
}

/// Whether `password` matches `stored`. With no stored hash (no such account) a hash
/// is still checked, so the answer takes as long as for a real account and its timing
/// does not tell which addresses have one. The comparison itself is the library's,
/// in constant time.
pub async fn verify_password(password: &str, stored: Option<&str>) -> bool {
    let password = password.to_string();
    let stored = stored.map(str::to_string);
    tokio::task::spawn_blocking(move || {
        let (hash, real) = match &stored {
            Some(h) => (h.as_str(), true),
            None => (stand_in_hash(), false),
        };
        let matches = PasswordHash::new(hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false);
        real && matches
    })
    .await
    .unwrap_or(false)
}

/// A hash of a random password made once per process, with the same cost as real ones.
fn stand_in_hash() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let random = crate::session::Keys::generate_secret();
        hash_now(&random).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_accepts_its_password_only() {
        let pw = NewPassword::parse("correct horse").unwrap();
        let hash = hash_password(&pw).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", Some(&hash)).await);
        assert!(!verify_password("correct horsE", Some(&hash)).await);
        assert!(!verify_password("correct horse", None).await);
        assert!(!verify_password("correct horse", Some("not a hash")).await);
        let again = hash_password(&pw).await.unwrap();
        assert_ne!(hash, again, "every hash has its own salt");
    }
}
