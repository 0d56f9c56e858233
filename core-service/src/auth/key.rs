//! API key format: `qk_` + 40 random base62 characters (≈238 bits). Only the SHA-256 is stored.

use rand::Rng;
use sha2::{Digest, Sha256};

pub const PREFIX: &str = "qk_";
pub const RANDOM_LEN: usize = 40;
/// Characters shown in listings so a person can tell keys apart (`qk_` + 8).
const DISPLAY_LEN: usize = PREFIX.len() + 8;
const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

pub fn generate() -> String {
    format!("{PREFIX}{}", random_base62(RANDOM_LEN))
}

/// `len` random letters and digits (≈5.95 bits each), for keys, session and CSRF tokens.
pub fn random_base62(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| BASE62[rng.random_range(0..BASE62.len())] as char)
        .collect()
}

pub fn is_well_formed(key: &str) -> bool {
    key.strip_prefix(PREFIX).is_some_and(|rest| {
        rest.len() == RANDOM_LEN && rest.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

pub fn hash(key: &str) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

pub fn display_prefix(key: &str) -> String {
    key.chars().take(DISPLAY_LEN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_are_well_formed_and_distinct() {
        let a = generate();
        let b = generate();
        assert!(is_well_formed(&a), "{a}");
        assert_ne!(a, b);
        assert_eq!(display_prefix(&a).len(), 11);
        assert_eq!(hash(&a).len(), 64);
    }

    #[test]
    fn malformed_keys_are_refused() {
        assert!(!is_well_formed("qk_short"));
        assert!(!is_well_formed(&format!("xx_{}", "a".repeat(RANDOM_LEN))));
        assert!(!is_well_formed(&format!(
            "qk_{}-",
            "a".repeat(RANDOM_LEN - 1)
        )));
    }
}
