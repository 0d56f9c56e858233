//! Passwords: Argon2id with the crate's default (OWASP) parameters, a random salt per hash,
//! stored as a PHC string. Hashing takes tens of milliseconds of CPU, so it runs on the blocking
//! pool, never on the async workers.

use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier, password_hash::SaltString};
use rand::Rng;

use crate::error::{ApiError, ApiResult};

pub const MIN_LEN: usize = 10;
pub const MAX_LEN: usize = 256;

/// 400 unless the password has MIN_LEN to MAX_LEN characters.
pub fn check_strength(password: &str) -> ApiResult<()> {
    let len = password.chars().count();
    if (MIN_LEN..=MAX_LEN).contains(&len) {
        Ok(())
    } else {
        Err(ApiError::invalid(format!(
            "a password needs {MIN_LEN} to {MAX_LEN} characters (got {len}): a few unrelated words make a good one"
        )))
    }
}

pub async fn hash(password: &str) -> ApiResult<String> {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        rand::rng().fill(&mut salt);
        let salt = SaltString::encode_b64(&salt)
            .map_err(|e| ApiError::internal("hashing a password", e))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|hash| hash.to_string())
            .map_err(|e| ApiError::internal("hashing a password", e))
    })
    .await
    .map_err(|e| ApiError::internal("hashing a password", e))?
}

/// Whether `password` matches `stored`. With no stored hash (unknown account, or one without a
/// password) a dummy hash is checked instead, so the answer takes as long either way.
pub async fn verify(password: &str, stored: Option<String>) -> bool {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let phc = stored.unwrap_or_else(|| DUMMY.to_owned());
        let matches = PasswordHash::new(&phc).is_ok_and(|hash| {
            Argon2::default()
                .verify_password(password.as_bytes(), &hash)
                .is_ok()
        });
        known && matches
    })
    .await
    .unwrap_or(false)
}

/// The Argon2id hash of a random password nobody knows, with the default parameters.
const DUMMY: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$RdescudvJCsgt3ub+b+dWRWJTmaaJObG";

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_differ_by_salt() {
        let a = hash("correct horse battery").await.unwrap();
        let b = hash("correct horse battery").await.unwrap();
        assert_ne!(a, b);
        assert!(a.starts_with("$argon2id$"));
        assert!(verify("correct horse battery", Some(a.clone())).await);
        assert!(!verify("wrong horse battery", Some(a)).await);
        assert!(!verify("anything at all", None).await);
    }

    #[test]
    fn strength_is_a_length_range() {
        assert!(check_strength("short").is_err());
        assert!(check_strength("long enough now").is_ok());
        assert!(check_strength(&"x".repeat(MAX_LEN + 1)).is_err());
    }
}
