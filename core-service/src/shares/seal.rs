//! A share's seal as stored in `share_seal`: a flags byte (bit 0: a password is mixed in), the
//! 32-byte proof key, then the sealed metadata. A retired share keeps an empty seal: it is
//! still known as a share (its link answers 410), with nothing of the sender's kept.

use crate::error::{ApiError, ApiResult};

/// Most bytes of sealed metadata a share may carry: a name, a type and a size, encrypted.
pub const MAX_SEALED_METADATA: usize = 4096;
const PROOF_KEY_LEN: usize = 32;
const PASSWORD: u8 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seal {
    pub proof_key: [u8; PROOF_KEY_LEN],
    pub sealed_metadata: Vec<u8>,
    pub password: bool,
}

impl Seal {
    /// Checks what a sender's page sent: 400 with what to fix.
    pub fn new(proof_key: &[u8], sealed_metadata: &[u8], password: bool) -> ApiResult<Seal> {
        let proof_key = <[u8; PROOF_KEY_LEN]>::try_from(proof_key).map_err(|_| {
            ApiError::invalid(format!(
                "a share's proof key is {PROOF_KEY_LEN} bytes, got {}: send the key derived by the share format (docs/sharing.md)",
                proof_key.len()
            ))
        })?;
        if sealed_metadata.is_empty() || sealed_metadata.len() > MAX_SEALED_METADATA {
            return Err(ApiError::invalid(format!(
                "a share's sealed metadata is 1 to {MAX_SEALED_METADATA} bytes, got {}: shorten the file name",
                sealed_metadata.len()
            )));
        }
        Ok(Seal {
            proof_key,
            sealed_metadata: sealed_metadata.to_vec(),
            password,
        })
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(1 + PROOF_KEY_LEN + self.sealed_metadata.len());
        bytes.push(if self.password { PASSWORD } else { 0 });
        bytes.extend_from_slice(&self.proof_key);
        bytes.extend_from_slice(&self.sealed_metadata);
        bytes
    }

    /// `None` for an empty (retired) or malformed seal.
    pub fn decode(bytes: &[u8]) -> Option<Seal> {
        let (&flags, rest) = bytes.split_first()?;
        let proof_key = <[u8; PROOF_KEY_LEN]>::try_from(rest.get(..PROOF_KEY_LEN)?).ok()?;
        Some(Seal {
            proof_key,
            sealed_metadata: rest[PROOF_KEY_LEN..].to_vec(),
            password: flags & PASSWORD != 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_reads_back_as_written() {
        let seal = Seal::new(&[7; 32], b"sealed name", true).unwrap();
        assert_eq!(Seal::decode(&seal.encode()), Some(seal));
        assert_eq!(Seal::decode(&[]), None);
        assert_eq!(Seal::decode(&[0; 20]), None);
    }

    #[test]
    fn a_seal_refuses_a_short_key_or_oversized_metadata() {
        assert!(Seal::new(&[7; 31], b"x", false).is_err());
        assert!(Seal::new(&[7; 32], b"", false).is_err());
        assert!(Seal::new(&[7; 32], &[0; MAX_SEALED_METADATA + 1], false).is_err());
    }
}
