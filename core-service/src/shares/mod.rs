//! End-to-end encrypted shares (issue 37): files whose bytes the sender's browser encrypted
//! (docs/sharing.md) and whose secret the server never sees. A share is made by a resumable
//! upload carrying a [`Seal`]; its recipient reads it through [`challenge`] and [`claim`]:
//! facts first (changing nothing, so that link previewers cannot burn it), then a proof of the
//! secret against a nonce, then the ciphertext, one claimed download at a time.

pub mod challenge;
pub mod claim;
pub mod layout;
mod seal;

use chrono::{DateTime, Utc};
use futures::TryStreamExt;
use quire_proto::ErrorCode;

pub use seal::Seal;

use crate::{
    Core,
    db::file,
    error::{ApiError, ApiResult},
    files::download,
};

/// Wrong proofs a share allows; the next one deletes it. Five wrong tries of a 100-bit typeable
/// secret (or a 256-bit one in the link) leave guessing online hopeless.
pub const MAX_WRONG_TRIES: i32 = 5;
/// How long a share lives when its sender does not say: a day. A share always expires.
pub const DEFAULT_LIFETIME_SECS: u64 = 24 * 3600;

/// The name a share's row holds in place of the real one, which only the sealed metadata has.
pub const FILENAME: &str = "encrypted share";

/// What a recipient sees before proving anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareInfo {
    pub size: u64,
    pub expires_at: Option<DateTime<Utc>>,
    pub downloads_left: u64,
    pub password: bool,
    pub tries_left: u32,
    /// The salt of the ciphertext's header, which every key is derived with: the recipient's
    /// page needs it before it can prove anything. Not secret.
    pub salt: Vec<u8>,
}

impl ShareInfo {
    pub fn of(row: &file::Model, seal: &Seal, salt: Vec<u8>) -> ShareInfo {
        ShareInfo {
            size: row.size.max(0) as u64,
            expires_at: row.expires_at,
            downloads_left: row.downloads_left().unwrap_or(0),
            password: seal.password,
            tries_left: MAX_WRONG_TRIES.saturating_sub(row.share_wrong_tries).max(0) as u32,
            salt,
        }
    }
}

/// A share that can still be read: ready, unexpired, downloads left. 410 for one used up,
/// expired or burned; 404 for a plain file's token or anything unknown (a share's token is
/// never a plain link, nor the reverse).
pub async fn find(core: &Core, token: &str) -> ApiResult<(file::Model, Seal)> {
    let row = download::find_visible_of_kind(core, token, true).await?;
    let seal = Seal::decode(row.share_seal.as_deref().unwrap_or_default())
        .ok_or_else(|| ApiError::internal("reading a share's seal", "malformed seal"))?;
    Ok((row, seal))
}

/// The facts a recipient's page shows; changes nothing.
pub async fn info(core: &Core, token: &str) -> ApiResult<ShareInfo> {
    let (row, seal) = find(core, token).await?;
    let salt = salt(core, &row).await?;
    Ok(ShareInfo::of(&row, &seal, salt))
}

/// The salt from the stored ciphertext's header (checked by [`layout::check`] when stored): a
/// 16-byte range read, so the database keeps nothing of the ciphertext. A share retired since
/// its row was read (a parallel last download, a burn) is gone, not a fault.
pub(crate) async fn salt(core: &Core, row: &file::Model) -> ApiResult<Vec<u8>> {
    let range = layout::SALT.start as u64..layout::SALT.end as u64;
    let chunks: Vec<_> = download::read_file_blob(core, row, Some(range))
        .await?
        .try_collect()
        .await?;
    Ok(chunks.concat())
}

/// 404 with what a recipient can do.
pub(crate) fn not_found() -> ApiError {
    ApiError::new(
        ErrorCode::FileNotFound,
        "no share with this link: check that the link was copied whole, or ask the sender for a new one",
    )
}
