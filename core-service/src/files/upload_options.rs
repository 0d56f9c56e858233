//! The options an upload may carry, checked the same way wherever they arrive (the first
//! metadata, a trailer after the bytes, a resumable upload's creation): the file's lifetime
//! and its link's download limit.

use chrono::Utc;

use crate::error::{ApiError, ApiResult};

/// Most full downloads a link may allow.
pub const MAX_DOWNLOADS: u64 = 1_000_000;

/// Options sent after the bytes: each, when set, replaces the one given at the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LateOptions {
    pub expires_in: Option<u64>,
    pub max_downloads: Option<u64>,
}

/// The download limit as stored; 400 outside 1..=[`MAX_DOWNLOADS`].
pub fn download_limit(max_downloads: Option<u64>) -> ApiResult<Option<i64>> {
    match max_downloads {
        None => Ok(None),
        Some(n) if n == 0 || n > MAX_DOWNLOADS => Err(ApiError::invalid(format!(
            "maxDownloads must be a number of downloads from 1 to {MAX_DOWNLOADS}, got {n}"
        ))),
        Some(n) => Ok(Some(n as i64)),
    }
}

/// A lifetime in seconds as stored; 400 outside 1..=max.
pub fn lifetime(max: u64, expires_in: Option<u64>) -> ApiResult<Option<u64>> {
    match expires_in {
        Some(secs) if secs == 0 || secs > max => Err(ApiError::invalid(format!(
            "expiresIn must be a number of seconds from 1 to {max}, got {secs}"
        ))),
        other => Ok(other),
    }
}

/// The expiry date for a lifetime in seconds from now; 400 outside 1..=max.
pub fn expiry(max: u64, expires_in: Option<u64>) -> ApiResult<Option<chrono::DateTime<Utc>>> {
    Ok(lifetime(max, expires_in)?.map(|secs| Utc::now() + chrono::Duration::seconds(secs as i64)))
}
