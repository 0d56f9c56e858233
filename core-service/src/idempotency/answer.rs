//! A kept answer's parts outside its message: the metadata (as text in its row) and, for an
//! answer with a file, the file (a blob under `idempotency/`, counted in the account's storage
//! quota while it is kept).

use futures::StreamExt;

use quire_proto::metadata::{
    IDEMPOTENT_REPLAYED, RATELIMIT, RATELIMIT_LIMIT, RATELIMIT_POLICY, RATELIMIT_REMAINING,
    RATELIMIT_RESET, RETRY_AFTER,
};
use tonic::metadata::{KeyAndValueRef, MetadataKey, MetadataMap, MetadataValue};

use crate::{
    Core,
    error::{ApiError, ApiResult},
    files::blobs::read_blob,
    process::ByteStream,
};

/// Figures about the quota when the first answer went out: a repeat is not counted, and
/// yesterday's figures would mislead, so they are not kept.
const NOT_KEPT: [&str; 6] = [
    RATELIMIT_LIMIT,
    RATELIMIT_REMAINING,
    RATELIMIT_RESET,
    RATELIMIT_POLICY,
    RATELIMIT,
    RETRY_AFTER,
];

/// `key: value` lines (metadata values are visible ASCII, so neither breaks a line).
pub fn metadata_to_text(metadata: &MetadataMap) -> String {
    let mut text = String::new();
    for entry in metadata.iter() {
        if let KeyAndValueRef::Ascii(key, value) = entry
            && !NOT_KEPT.contains(&key.as_str())
            && let Ok(value) = value.to_str()
        {
            text.push_str(key.as_str());
            text.push_str(": ");
            text.push_str(value);
            text.push('\n');
        }
    }
    text
}

/// The kept metadata, marked as a repeat.
pub fn metadata_from_text(text: &str) -> MetadataMap {
    let mut metadata = MetadataMap::new();
    for line in text.lines() {
        if let Some((key, value)) = line.split_once(": ")
            && let (Ok(key), Ok(value)) = (
                MetadataKey::from_bytes(key.as_bytes()),
                MetadataValue::try_from(value),
            )
        {
            metadata.append(key, value);
        }
    }
    metadata.insert(IDEMPOTENT_REPLAYED, MetadataValue::from_static("true"));
    metadata
}

/// Writes a file answer to a new blob; returns its key and size. More than `room` bytes stop
/// the writing with `over(size)`, an answer that cannot be kept. Nothing is left behind on
/// failure.
pub async fn store_body(
    core: &Core,
    mut body: ByteStream,
    room: u64,
    over: impl Fn(u64) -> ApiError,
) -> ApiResult<(String, u64)> {
    let key = format!("idempotency/{}", uuid::Uuid::new_v4());
    let mut writer = core.store.writer(&key).await?;
    let mut size = 0u64;
    let written: ApiResult<()> = async {
        while let Some(chunk) = body.next().await {
            let chunk = chunk?;
            size += chunk.len() as u64;
            if size > room {
                return Err(over(size));
            }
            writer.wait_for_capacity(2).await?;
            writer.put(chunk);
        }
        Ok(())
    }
    .await;
    match written {
        Ok(()) => {
            writer.finish().await?;
            Ok((key, size))
        }
        Err(err) => {
            if let Err(error) = writer.abort().await {
                tracing::warn!(%error, blob = key, "unfinished answer blob not removed");
            }
            Err(err)
        }
    }
}

/// A kept file answer, streamed from its blob.
pub async fn read_body(core: &Core, key: &str) -> ApiResult<ByteStream> {
    read_blob(core, key, None).await
}
