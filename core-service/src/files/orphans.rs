//! Blobs with no record: what a process killed between writing a blob and recording it (or
//! between retiring a row and deleting its blob, or a delete that failed) leaves in the store.
//! Nothing serves them, but they fill the disk or the bucket. The sweeper lists the store by
//! prefix, a page at a time, and deletes the blobs older than the upload timeout that no row
//! names: every blob is named by a row before it is written or, for a kept answer, within the
//! request that wrote it, so an older blob without one never gains one. Several replicas may
//! sweep at once: a blob another one deleted first is simply gone.

use std::{collections::HashSet, time::Duration};

use chrono::Utc;
use futures::TryStreamExt;
use object_store::path::Path;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QuerySelect};

use super::blobs;
use crate::{
    Core,
    db::{
        file::{self, STATE_GONE},
        idempotency_key, resumable_upload,
    },
    error::ApiResult,
};

/// Keys looked up in the database at once, and deleted before the listing goes on.
const PAGE: usize = 200;
/// A pause between pages, so that a large store is swept without a burst of queries.
const PACE: Duration = Duration::from_millis(20);

/// The kinds of blob, by the first segment of their keys.
#[derive(Clone, Copy)]
enum Kind {
    /// `files/<token>`: a file uploaded in one request (`files.blob_key`).
    File,
    /// `resumable/<token>/<index>`: a tus upload's part, the upload's or, once finished, its
    /// file's (`resumable_uploads.token`, `files.blob_key` = `resumable/<token>`).
    Part,
    /// `idempotency/<id>`: a kept file answer (`idempotency_keys.body_key`).
    Answer,
}

const KINDS: [(&str, Kind); 3] = [
    ("files", Kind::File),
    ("resumable", Kind::Part),
    ("idempotency", Kind::Answer),
];

/// Deletes the blobs older than `older_than` that no row names; returns how many.
pub async fn sweep(core: &Core, older_than: Duration) -> ApiResult<usize> {
    let cutoff =
        Utc::now() - chrono::Duration::from_std(older_than).unwrap_or(chrono::Duration::MAX);
    let mut deleted = 0;
    for (prefix, kind) in KINDS {
        let mut listing = core.store.list(Some(&Path::from(prefix)));
        let mut page = Vec::with_capacity(PAGE);
        while let Some(meta) = listing.try_next().await? {
            if meta.last_modified >= cutoff {
                continue;
            }
            page.push(meta.location.to_string());
            if page.len() == PAGE {
                deleted += sweep_page(core, kind, &page).await?;
                page.clear();
                tokio::time::sleep(PACE).await;
            }
        }
        deleted += sweep_page(core, kind, &page).await?;
    }
    Ok(deleted)
}

/// `resumable/<token>` for a part's key `resumable/<token>/<index>`: the name its rows use.
fn part_owner(key: &str) -> Option<&str> {
    let (owner, _index) = key.rsplit_once('/')?;
    (owner.matches('/').count() == 1).then_some(owner)
}

/// The name a row would use for the blob `key` of `kind`.
fn owner(kind: Kind, key: &str) -> Option<&str> {
    match kind {
        Kind::Part => part_owner(key),
        Kind::File | Kind::Answer => Some(key),
    }
}

/// Deletes the blobs of `keys` whose names no row holds.
async fn sweep_page(core: &Core, kind: Kind, keys: &[String]) -> ApiResult<usize> {
    if keys.is_empty() {
        return Ok(0);
    }
    let owners: Vec<String> = keys
        .iter()
        .filter_map(|key| owner(kind, key))
        .map(str::to_owned)
        .collect();
    let named = named(core, kind, owners).await?;
    let mut deleted = 0;
    for key in keys {
        // A key of a shape no row could name is not one of ours to judge.
        let Some(owner) = owner(kind, key) else {
            continue;
        };
        if !named.contains(owner) {
            tracing::info!(blob = key.as_str(), "deleting a blob no row names");
            blobs::delete_blob(core, key).await;
            deleted += 1;
        }
    }
    Ok(deleted)
}

/// Which of `owners` rows still name.
async fn named(core: &Core, kind: Kind, owners: Vec<String>) -> ApiResult<HashSet<String>> {
    // A file row that is gone has given its blob up (deleting it may have failed).
    let files = |owners: Vec<String>| {
        file::Entity::find()
            .select_only()
            .column(file::Column::BlobKey)
            .filter(file::Column::BlobKey.is_in(owners))
            .filter(file::Column::State.ne(STATE_GONE))
            .into_tuple::<String>()
            .all(&core.db)
    };
    let named: HashSet<String> = match kind {
        Kind::File => files(owners).await?.into_iter().collect(),
        Kind::Part => {
            let tokens: Vec<String> = owners
                .iter()
                .filter_map(|o| o.strip_prefix("resumable/"))
                .map(str::to_owned)
                .collect();
            let uploads = resumable_upload::Entity::find()
                .select_only()
                .column(resumable_upload::Column::Token)
                .filter(resumable_upload::Column::Token.is_in(tokens))
                .into_tuple::<String>()
                .all(&core.db)
                .await?;
            let mut named: HashSet<String> = uploads
                .iter()
                .map(|token| crate::resumable::parts_prefix(token))
                .collect();
            named.extend(files(owners).await?);
            named
        }
        Kind::Answer => idempotency_key::Entity::find()
            .select_only()
            .column(idempotency_key::Column::BodyKey)
            .filter(idempotency_key::Column::BodyKey.is_in(owners))
            .into_tuple::<Option<String>>()
            .all(&core.db)
            .await?
            .into_iter()
            .flatten()
            .collect(),
    };
    Ok(named)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_named_by_its_upload_s_prefix() {
        assert_eq!(part_owner("resumable/abc/000003"), Some("resumable/abc"));
        assert_eq!(part_owner("resumable/abc"), None);
        assert_eq!(part_owner("resumable/abc/def/000001"), None);
        assert_eq!(owner(Kind::File, "files/abc"), Some("files/abc"));
    }
}
