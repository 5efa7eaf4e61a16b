//! Password hashing: Argon2id with the library's default cost (19 MiB, two passes),
//! stored as a PHC string. Each hash needs 19 MiB of working memory and tens of
//! milliseconds of CPU, so hashing is bounded: at most one hash per core runs at a
//! time (registration, login, reset and password changes queue for the same
//! permits), each on the blocking pool, each in one of a fixed set of working buffers
//! that are allocated once and reused. However many requests arrive at once, hashing
//! never holds more than `cores × 19 MiB`, and memory the allocator would otherwise
//! keep per thread is never asked for again.

use std::sync::{Mutex, OnceLock};

use argon2::password_hash::{Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::Semaphore;

use super::error::AccountError;
use rules::customers::NewPassword;

/// The hashing permits and their working buffers.
struct Pool {
    permits: Semaphore,
    buffers: Mutex<Vec<Vec<Block>>>,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Pool {
            permits: Semaphore::new(cores),
            buffers: Mutex::new(Vec::new()),
        }
    })
}

fn params() -> Params {
    Params::DEFAULT
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params())
}

/// Runs `work` with a working buffer, once a permit is free.
async fn with_buffer<T: Send + 'static>(
    work: impl FnOnce(&mut [Block]) -> T + Send + 'static,
) -> Result<T, AccountError> {
    let pool = pool();
    let _permit = pool
        .permits
        .acquire()
        .await
        .map_err(|e| AccountError::Internal(format!("hashing permits: {e}")))?;
    let taken = pool.buffers.lock().map(|mut b| b.pop()).unwrap_or(None);
    let mut buffer = taken.unwrap_or_else(|| vec![Block::default(); params().block_count()]);
    let (result, buffer) = tokio::task::spawn_blocking(move || {
        let result = work(&mut buffer);
        (result, buffer)
    })
    .await
    .map_err(|e| AccountError::Internal(format!("password hashing task: {e}")))?;
    if let Ok(mut buffers) = pool.buffers.lock() {
        buffers.push(buffer);
    }
    Ok(result)
}

pub async fn hash_password(password: &NewPassword) -> Result<String, AccountError> {
    let password = password.as_str().to_string();
    with_buffer(move |blocks| hash_now(&password, blocks)).await?
}

fn hash_now(password: &str, blocks: &mut [Block]) -> Result<String, AccountError> {
    let fail = |e: String| AccountError::Internal(format!("password hashing: {e}"));
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_bytes)
        .map_err(|e| fail(e.to_string()))?;
    let output = Output::init_with(Params::DEFAULT_OUTPUT_LEN, |out| {
        argon2()
            .hash_password_into_with_memory(password.as_bytes(), salt_bytes, out, &mut *blocks)
            .map_err(|_| argon2::password_hash::Error::Password)
    })
    .map_err(|e| fail(e.to_string()))?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params()).map_err(|e| fail(e.to_string()))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(hash.to_string())
}

/// Whether `password` produces `stored` (a PHC string made by `hash_now`).
fn matches_now(password: &str, stored: &str, blocks: &mut [Block]) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let Ok(stored_params) = Params::try_from(&parsed) else {
        return false;
    };
    if stored_params.block_count() > blocks.len() {
        tracing::error!("a stored password hash asks for more memory than the shop hashes with");
        return false;
    }
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = parsed
        .version
        .and_then(|v| Version::try_from(v).ok())
        .unwrap_or(Version::V0x13);
    let mut salt_bytes = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let argon = Argon2::new(algorithm, version, stored_params);
    let computed = Output::init_with(expected.len(), |out| {
        argon
            .hash_password_into_with_memory(password.as_bytes(), salt_bytes, out, &mut *blocks)
            .map_err(|_| argon2::password_hash::Error::Password)
    });
    // `Output`'s comparison is constant-time.
    computed.is_ok_and(|c| c == expected)
}

/// Whether `password` matches `stored`. With no stored hash (no such account) a hash
/// is still checked, so the answer takes as long as for a real account and its timing
/// does not tell which addresses have one.
pub async fn verify_password(password: &str, stored: Option<&str>) -> bool {
    let password = password.to_string();
    let stored = stored.map(str::to_string);
    let outcome = with_buffer(move |blocks| match &stored {
        Some(hash) => matches_now(&password, hash, blocks),
        None => {
            // The work of a real check, for its timing; there is nothing to match.
            let stand_in = stand_in_hash(blocks);
            let _ = matches_now(&password, &stand_in, blocks);
            false
        }
    })
    .await;
    outcome.unwrap_or(false)
}

/// A hash of a random password made once per process, with the same cost as real ones.
fn stand_in_hash(blocks: &mut [Block]) -> String {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        let random = crate::session::Keys::generate_secret();
        hash_now(&random, blocks).unwrap_or_default()
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_accepts_its_password_only() {
        let pw = NewPassword::parse("correct horse").unwrap();
        let hash = hash_password(&pw).await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(verify_password("correct horse", Some(&hash)).await);
        assert!(!verify_password("correct horsE", Some(&hash)).await);
        assert!(!verify_password("correct horse", None).await);
        assert!(!verify_password("correct horse", Some("not a hash")).await);
        let again = hash_password(&pw).await.unwrap();
        assert_ne!(hash, again, "every hash has its own salt");
    }

    #[test]
    fn hashes_made_by_the_library_itself_are_accepted() {
        use argon2::password_hash::PasswordHasher;
        let salt = SaltString::generate(&mut rand::rngs::OsRng);
        let made = Argon2::default()
            .hash_password(b"hunter42", &salt)
            .unwrap()
            .to_string();
        let mut blocks = vec![Block::default(); params().block_count()];
        assert!(matches_now("hunter42", &made, &mut blocks));
        assert!(!matches_now("hunter43", &made, &mut blocks));
    }

    #[tokio::test]
    async fn no_more_hashes_run_at_once_than_there_are_permits() {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let pw = NewPassword::parse("correct horse").unwrap();
        let jobs: Vec<_> = (0..cores * 3)
            .map(|_| {
                let pw = pw.clone();
                tokio::spawn(async move { hash_password(&pw).await.unwrap() })
            })
            .collect();
        for job in jobs {
            job.await.unwrap();
        }
        let kept = pool().buffers.lock().unwrap().len();
        assert!(kept <= cores, "{kept} buffers for {cores} permits");
    }
}
