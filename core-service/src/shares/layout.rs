//! The ciphertext's shape, checked before a share is stored: the server cannot decrypt it, but
//! it can refuse what the format could never produce (docs/sharing.md): a `QSH1` header with a
//! chunk size the format writes, then chunks of that size plus a 16-byte tag, the last one
//! shorter or empty but present. A client that sent the wrong file or a truncated stream hears
//! it now, not its recipient later.

use crate::error::{ApiError, ApiResult};

pub const HEADER_LEN: usize = 31;
/// Where the header keeps the salt every key is derived with.
pub const SALT: std::ops::Range<usize> = 15..31;
const MAGIC: &[u8; 4] = b"QSH1";
const TAG_LEN: u64 = 16;
const MIN_CHUNK: u64 = 1024;
const MAX_CHUNK: u64 = 16 * 1024 * 1024;

/// Checks the header (the first bytes of the ciphertext, at least [`HEADER_LEN`]) against the
/// ciphertext's whole length.
pub fn check(head: &[u8], size: u64) -> ApiResult<()> {
    let refuse = |why: &str| {
        Err(ApiError::invalid(format!(
            "this is not a share's ciphertext: {why}; encrypt the file with the share format (docs/sharing.md) and upload its whole output"
        )))
    };
    let Some(header) = head.get(..HEADER_LEN) else {
        return refuse("it is shorter than the 31-byte header");
    };
    if &header[..4] != MAGIC {
        return refuse("it does not start with the QSH1 header");
    }
    let chunk = u64::from(u32::from_be_bytes([
        header[4], header[5], header[6], header[7],
    ]));
    if !(MIN_CHUNK..=MAX_CHUNK).contains(&chunk) {
        return refuse("its chunk size is not one the format writes");
    }
    let body = size - HEADER_LEN as u64;
    let sealed = chunk + TAG_LEN;
    // Every chunk but the last is full; the last holds 1 to `chunk` bytes, or none when it is
    // the only one (an empty file).
    let full = body.saturating_sub(1) / sealed;
    let last = body - full * sealed;
    let fits = last >= TAG_LEN && last <= sealed && (full == 0 || last > TAG_LEN);
    if !fits {
        return refuse("its length does not end on a chunk (cut short, or bytes added)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(chunk: u32) -> Vec<u8> {
        let mut h = b"QSH1".to_vec();
        h.extend_from_slice(&chunk.to_be_bytes());
        h.extend_from_slice(&[9; 23]);
        h
    }

    /// The length crypto.mjs writes for `plain` bytes.
    fn length(plain: u64, chunk: u64) -> u64 {
        let chunks = plain.div_ceil(chunk).max(1);
        31 + plain + 16 * chunks
    }

    #[test]
    fn every_length_the_format_writes_passes() {
        let h = header(1024);
        for plain in [0, 1, 1023, 1024, 1025, 2048, 5000] {
            assert!(check(&h, length(plain, 1024)).is_ok(), "{plain}");
        }
    }

    #[test]
    fn cut_or_padded_ciphertext_is_refused() {
        let h = header(1024);
        for size in [
            31,
            31 + 15,
            length(1024, 1024) + 1,
            length(1024, 1024) + 16,
            length(2048, 1024) - 1040 + 5,
        ] {
            assert!(check(&h, size).is_err(), "{size}");
        }
        assert!(check(&h[..20], 100).is_err());
        assert!(check(&header(10), 100).is_err());
        let mut other = h.clone();
        other[0] = b'P';
        assert!(check(&other, length(1, 1024)).is_err());
    }
}
