//! An upload's bytes as blobs, one per append (`resumable/<token>/<index>`): an append cut
//! short keeps the bytes that arrived, the finished upload reads them back in order (to hash
//! and scan them), and its file takes them over where they are (`files::blobs`).

use bytes::Bytes;
use futures::{Stream, StreamExt};
use object_store::{ObjectStoreExt, path::Path};
use sea_orm::{ColumnTrait, DatabaseTransaction, EntityTrait, QueryFilter, sea_query::Expr};

use crate::{
    Core,
    db::resumable_upload,
    error::{ApiError, ApiResult},
    files::{
        blobs::{self, delete_blob},
        tee::DigestTee,
    },
};

/// Silence after which an append ends. A connection that dies without a FIN or RST (a
/// dropped Wi-Fi, a NAT timeout) would otherwise hold the upload, and its resumption get 409,
/// until the upload timeout.
const IDLE: std::time::Duration = std::time::Duration::from_secs(20);

/// Where an upload's parts are: the prefix of their keys.
pub fn prefix(token: &str) -> String {
    format!("resumable/{token}")
}

fn part_key(token: &str, index: i32) -> String {
    blobs::part_key(&prefix(token), index.max(0) as usize)
}

/// How an append's stream ended.
pub struct Written {
    /// Bytes stored in the new part (0: no part was made).
    pub size: u64,
    /// Why it stopped before its end: the client went away, sent too much, or took too long.
    /// The bytes before are kept all the same, as tus asks of a server.
    pub broke_off: Option<ApiError>,
    /// The digest given to [`write`], having also hashed the bytes stored.
    pub digest: Option<blake3::Hasher>,
}

/// Writes the chunks as part `index`, at most `room` bytes, hashing them after `digest` (the
/// upload's bytes so far) when given; whatever arrives before an error is committed. Only a
/// failure of the store itself is an error.
pub async fn write<S>(
    core: &Core,
    token: &str,
    (index, room): (i32, u64),
    digest: Option<blake3::Hasher>,
    chunks: S,
) -> ApiResult<Written>
where
    S: Stream<Item = ApiResult<Bytes>> + Send,
{
    let key = part_key(token, index);
    let mut writer = core.store.writer(&key).await?;
    let digest = digest.map(DigestTee::resume);
    let (mut size, mut broke_off) = (0u64, None);
    let mut chunks = std::pin::pin!(chunks);
    loop {
        let chunk = match tokio::time::timeout(IDLE, chunks.next()).await {
            Ok(None) => break,
            Ok(Some(Ok(chunk))) => chunk,
            Ok(Some(Err(err))) => {
                broke_off = Some(err);
                break;
            }
            Err(_) => {
                broke_off = Some(ApiError::invalid(format!(
                    "no byte arrived for {} s: the bytes before were kept; resume from the \
                     offset HEAD reports",
                    IDLE.as_secs()
                )));
                break;
            }
        };
        let fits = (room - size).min(chunk.len() as u64) as usize;
        if fits > 0 {
            let stored = chunk.slice(..fits);
            if let Some(digest) = &digest {
                digest.push(stored.clone()).await?;
            }
            writer.wait_for_capacity(2).await?;
            writer.put(stored);
            size += fits as u64;
        }
        if fits < chunk.len() {
            broke_off = Some(ApiError::invalid(format!(
                "more bytes than the upload's length ({room} were left): the bytes that fit \
                 were kept; send no more than Upload-Length"
            )));
            break;
        }
    }
    if size == 0 {
        if let Err(error) = writer.abort().await {
            tracing::warn!(%error, blob = key, "empty part not removed");
        }
    } else {
        writer.finish().await?;
    }
    let digest = match digest {
        Some(digest) => Some(digest.into_hasher().await?),
        None => None,
    };
    Ok(Written {
        size,
        broke_off,
        digest,
    })
}

/// The upload's bytes, part after part.
pub fn read(
    core: &Core,
    token: &str,
    parts: i32,
) -> impl Stream<Item = ApiResult<Bytes>> + Send + 'static {
    let token = token.to_owned();
    blobs::read_in_turn(
        core,
        (0..parts).map(move |index| (part_key(&token, index), None)),
    )
}

/// Deletes parts 0 to `parts - 1`.
pub async fn delete(core: &Core, token: &str, parts: i32) {
    for index in 0..parts {
        delete_blob(core, &part_key(token, index)).await;
    }
}

/// The sizes of parts 0 to `parts - 1`, as the store has them.
pub async fn sizes(core: &Core, token: &str, parts: i32) -> ApiResult<Vec<u64>> {
    let mut sizes = Vec::with_capacity(parts.max(0) as usize);
    for index in 0..parts {
        let meta = core.store.head(&Path::from(part_key(token, index))).await?;
        sizes.push(meta.size);
    }
    Ok(sizes)
}

/// Hands the upload's parts over to its file, in the transaction that makes the file ready:
/// from then on the file deletes them, and the upload (its expiry, a DELETE) no longer does.
pub async fn hand_over(txn: &DatabaseTransaction, upload_id: i64) -> ApiResult<()> {
    resumable_upload::Entity::update_many()
        .col_expr(resumable_upload::Column::Parts, Expr::value(0))
        .filter(resumable_upload::Column::Id.eq(upload_id))
        .exec(txn)
        .await?;
    Ok(())
}
