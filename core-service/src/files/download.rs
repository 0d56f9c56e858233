//! Reading a stored file by its share token, whole or by byte range.

use bytes::Bytes;
use chrono::Utc;
use futures::{StreamExt, stream::BoxStream};
use quire_proto::{ErrorCode, metadata};
use sea_orm::{ColumnTrait, EntityTrait, ExprTrait, QueryFilter, sea_query::Expr};

use super::{blobs, names};
use crate::{
    Core,
    db::file::{self, STATE_GONE, STATE_READY},
    error::{ApiError, ApiResult},
    shares,
};

/// A byte range as in HTTP: `first-last` inclusive, `first-`, or `-suffix` (last only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RangeSpec {
    pub first: Option<u64>,
    pub last: Option<u64>,
}

pub struct Download {
    pub file: file::Model,
    pub offset: u64,
    pub length: u64,
    pub partial: bool,
    pub body: BoxStream<'static, ApiResult<Bytes>>,
}

/// Finds a visible (ready, unexpired, not used up) file or encrypted share by token, for its
/// owner: 410 for a link that was used up or expired while its row is kept, 404 for anything
/// else.
pub async fn find_visible(core: &Core, token: &str) -> ApiResult<file::Model> {
    lookup(core, token, None).await
}

/// As [`find_visible`], of one kind only: a share's token is never a plain link (`/f/`), and a
/// plain file's never a share (`/s/`).
pub async fn find_visible_of_kind(core: &Core, token: &str, share: bool) -> ApiResult<file::Model> {
    lookup(core, token, Some(share)).await
}

async fn lookup(core: &Core, token: &str, share: Option<bool>) -> ApiResult<file::Model> {
    let not_found = || match share {
        Some(true) => shares::not_found(),
        _ => ApiError::new(
            ErrorCode::FileNotFound,
            "no file with this token: the link is wrong, or the file expired or was deleted",
        ),
    };
    if !names::is_token(token) {
        return Err(not_found());
    }
    let row = file::Entity::find()
        .filter(file::Column::Token.eq(token))
        .one(&core.db)
        .await?
        .ok_or_else(not_found)?;
    if share.is_some_and(|share| share != row.is_share()) {
        return Err(not_found());
    }
    let expired = row.expires_at.is_some_and(|at| at <= Utc::now());
    match row.state.as_str() {
        STATE_READY if !expired && !used_up(&row) => Ok(row),
        STATE_READY | STATE_GONE => Err(gone(&row)),
        _ => Err(not_found()),
    }
}

/// Whether a limited link has had all its downloads.
pub(crate) fn used_up(row: &file::Model) -> bool {
    row.max_downloads.is_some_and(|max| row.downloads >= max)
}

pub(crate) fn gone(row: &file::Model) -> ApiError {
    if row.is_share() && row.share_wrong_tries >= shares::MAX_WRONG_TRIES {
        return ApiError::new(
            ErrorCode::FileGone,
            format!(
                "this share was deleted after {} wrong secrets or passwords: ask the sender to share the file again",
                shares::MAX_WRONG_TRIES
            ),
        );
    }
    let message = match row.max_downloads {
        Some(max) if row.downloads >= max => format!(
            "this link was used up: its {max} download(s) were made and the file was deleted; \
             ask the sender for a new link"
        ),
        _ => "this link expired and the file was deleted: ask the sender for a new link".to_owned(),
    };
    ApiError::new(ErrorCode::FileGone, message)
}

/// Opens a file for reading; with `metadata_only` the body is empty and nothing is counted. A
/// full download of a limited link claims one of its downloads first; the last one retires
/// the file once its bytes are sent.
pub async fn open(
    core: &Core,
    token: &str,
    range: Option<RangeSpec>,
    metadata_only: bool,
) -> ApiResult<Download> {
    let mut file = find_visible_of_kind(core, token, false).await?;
    let size = u64::try_from(file.size).unwrap_or(0);
    let (offset, end) = match range {
        None => (0, size),
        Some(spec) => resolve(spec, size)?,
    };
    if metadata_only {
        return Ok(Download {
            partial: range.is_some(),
            offset,
            length: end - offset,
            file,
            body: futures::stream::empty().boxed(),
        });
    }
    // The blob is opened before the claim: another download's retirement, once it is claimed,
    // cannot take the bytes away from under this one (an open file, a started GET).
    let mut body = read_file_blob(core, &file, Some(offset..end)).await?;
    let last = match (range, file.max_downloads) {
        (None, Some(_)) => {
            file = claim(core, &file).await?;
            used_up(&file)
        }
        (Some(_), Some(_)) => false,
        (_, None) => {
            count_download(core, file.id);
            false
        }
    };
    if last {
        body = retire_after(body, core, &file);
    }
    Ok(Download {
        partial: range.is_some(),
        offset,
        length: end - offset,
        file,
        body,
    })
}

/// Claims one of a limited link's downloads: the count goes up only while one is left, in one
/// statement, so that parallel requests never get the same one. The row as it is after.
async fn claim(core: &Core, file: &file::Model) -> ApiResult<file::Model> {
    let claimed = file::Entity::update_many()
        .col_expr(
            file::Column::Downloads,
            Expr::col(file::Column::Downloads).add(1),
        )
        .filter(file::Column::Id.eq(file.id))
        .filter(file::Column::State.eq(STATE_READY))
        .filter(Expr::col(file::Column::Downloads).lt(Expr::col(file::Column::MaxDownloads)))
        .exec(&core.db)
        .await?;
    let used = || file::Model {
        downloads: file.max_downloads.unwrap_or(file.downloads),
        ..file.clone()
    };
    if claimed.rows_affected == 0 {
        return Err(gone(&used()));
    }
    Ok(file::Entity::find_by_id(file.id)
        .one(&core.db)
        .await?
        .unwrap_or_else(used))
}

/// The last download's body, which retires the used-up file (blob deleted, storage released)
/// when it is dropped: sent whole, or cut off by the client.
pub(crate) fn retire_after(
    body: BoxStream<'static, ApiResult<Bytes>>,
    core: &Core,
    row: &file::Model,
) -> BoxStream<'static, ApiResult<Bytes>> {
    let retire = RetireOnDrop {
        core: core.clone(),
        row: row.clone(),
    };
    body.map(move |chunk| {
        let _kept_until_the_body_goes = &retire;
        chunk
    })
    .boxed()
}

struct RetireOnDrop {
    core: Core,
    row: file::Model,
}

impl Drop for RetireOnDrop {
    fn drop(&mut self) {
        let (core, row) = (self.core.clone(), self.row.clone());
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            if let Err(error) = super::remove::retire(&core, &row).await {
                tracing::warn!(%error, file_id = row.id, "could not retire a used-up file");
            }
        });
    }
}

/// Resolves a range against the size: `[offset, end)`, or 416 with `content-range: bytes */size`.
pub fn resolve(spec: RangeSpec, size: u64) -> ApiResult<(u64, u64)> {
    let resolved = match (spec.first, spec.last) {
        (Some(first), None) if first < size => Some((first, size)),
        (Some(first), Some(last)) if first <= last && first < size => {
            Some((first, std::cmp::min(size, last + 1)))
        }
        (None, Some(suffix)) if suffix > 0 && size > 0 => Some((size.saturating_sub(suffix), size)),
        (None, None) => Some((0, size)),
        _ => None,
    };
    resolved.ok_or_else(|| {
        ApiError::new(
            ErrorCode::RangeNotSatisfiable,
            format!("the requested range is outside the file, which has {size} bytes"),
        )
        .with_metadata(metadata::CONTENT_RANGE, format!("bytes */{size}"))
    })
}

/// A file's bytes ([`blobs::read`]), for a file read as visible: a parallel last download, a burn
/// or the sweeper may have retired the file since, and then its missing blob is the file being
/// gone (410, said as the row now says it), not a fault of the server.
pub(crate) async fn read_file_blob(
    core: &Core,
    row: &file::Model,
    range: Option<std::ops::Range<u64>>,
) -> ApiResult<BoxStream<'static, ApiResult<Bytes>>> {
    match blobs::read(core, row, range).await {
        Ok(body) => Ok(body),
        Err(object_store::Error::NotFound { .. }) => Err(retired_meanwhile(core, row).await),
        Err(error) => Err(error.into()),
    }
}

/// The answer for a file whose blob went after its row was read.
pub(crate) async fn retired_meanwhile(core: &Core, row: &file::Model) -> ApiError {
    match file::Entity::find_by_id(row.id).one(&core.db).await {
        Ok(Some(now)) => gone(&now),
        Ok(None) => ApiError::new(ErrorCode::FileNotFound, "this file was deleted"),
        Err(error) => error.into(),
    }
}

fn count_download(core: &Core, file_id: i64) {
    let db = core.db.clone();
    tokio::spawn(async move {
        let result = file::Entity::update_many()
            .col_expr(
                file::Column::Downloads,
                Expr::col(file::Column::Downloads).add(1),
            )
            .filter(file::Column::Id.eq(file_id))
            .exec(&db)
            .await;
        if let Err(error) = result {
            tracing::warn!(%error, file_id, "could not count download");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(first: Option<u64>, last: Option<u64>) -> RangeSpec {
        RangeSpec { first, last }
    }

    #[test]
    fn ranges_resolve_like_http() {
        assert_eq!(resolve(spec(Some(0), Some(9)), 100).unwrap(), (0, 10));
        assert_eq!(resolve(spec(Some(90), Some(200)), 100).unwrap(), (90, 100));
        assert_eq!(resolve(spec(Some(10), None), 100).unwrap(), (10, 100));
        assert_eq!(resolve(spec(None, Some(10)), 100).unwrap(), (90, 100));
        assert_eq!(resolve(spec(None, Some(500)), 100).unwrap(), (0, 100));
        assert!(resolve(spec(Some(100), None), 100).is_err());
        assert!(resolve(spec(Some(5), Some(4)), 100).is_err());
        assert!(resolve(spec(None, Some(0)), 100).is_err());
    }
}
