//! Stored files: scanned upload, share links and download, deletion and expiry.

pub mod blobs;
pub mod download;
pub mod mime;
pub mod names;
pub mod orphans;
mod receive;
pub mod remove;
pub mod sweeper;
pub(crate) mod tee;
pub mod upload;
mod upload_guard;
pub mod upload_options;

use quire_proto::v1;

use crate::db::file;

pub use quire_proto::transport::CHUNK_SIZE;

/// A protobuf timestamp for a database time.
pub fn timestamp(t: chrono::DateTime<chrono::Utc>) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: t.timestamp(),
        nanos: t.timestamp_subsec_nanos() as i32,
    }
}

/// The account's visible files, newest first (the dashboard's list).
pub async fn list_ready(
    db: &sea_orm::DatabaseConnection,
    account_id: i64,
) -> crate::error::ApiResult<Vec<file::Model>> {
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder};
    Ok(file::Entity::find()
        .filter(file::Column::AccountId.eq(account_id))
        .filter(file::Column::State.eq(file::STATE_READY))
        .order_by_desc(file::Column::Id)
        .all(db)
        .await?)
}

/// The public view of a stored file.
pub fn to_proto(model: &file::Model, base_url: &str) -> v1::File {
    v1::File {
        token: model.token.clone(),
        filename: model.filename.clone(),
        size: model.size.max(0) as u64,
        mime_type: model.mime_type.clone(),
        expires_at: model.expires_at.map(timestamp),
        url: match model.is_share() {
            true => format!("{base_url}/s/{}", model.token),
            false => format!("{base_url}/f/{}", model.token),
        },
        created_at: Some(timestamp(model.created_at)),
        digest: model.digest.clone(),
        downloads: model.downloads.max(0) as u64,
        max_downloads: model.max_downloads.map(|max| max.max(0) as u64),
        downloads_left: model.downloads_left(),
        encrypted: model.is_share(),
    }
}
