//! What a proven secret opens: the sealed metadata (no download used), or the ciphertext, one
//! download claimed atomically with the nonce it answers. The claim is one statement that
//! needs a download left and the nonce still current: parallel claims never both get the last
//! download, and a proof cannot be replayed.

use bytes::Bytes;
use chrono::Utc;
use futures::{StreamExt, stream::BoxStream};
use sea_orm::{ColumnTrait, EntityTrait, ExprTrait, QueryFilter, sea_query::Expr};

use super::{
    ShareInfo,
    challenge::{Proof, stale, verify},
    layout,
};
use crate::{
    Core,
    db::file::{self, STATE_READY},
    error::{ApiError, ApiResult},
    files::download::{gone, read_file_blob, retire_after, used_up},
};

/// The sealed metadata, for a proof of the secret; uses the nonce, claims nothing.
pub async fn open(core: &Core, proof: &Proof) -> ApiResult<(Vec<u8>, ShareInfo)> {
    let (row, seal) = verify(core, proof).await?;
    let used = file::Entity::update_many()
        .col_expr(
            file::Column::ShareNonce,
            Expr::value(Option::<Vec<u8>>::None),
        )
        .filter(file::Column::Id.eq(row.id))
        .filter(file::Column::ShareNonce.eq(proof.nonce.clone()))
        .exec(&core.db)
        .await?;
    if used.rows_affected == 0 {
        return Err(stale());
    }
    let info = ShareInfo::of(&row, &seal, super::salt(core, &row).await?);
    Ok((seal.sealed_metadata, info))
}

pub struct Claimed {
    /// The share after this claim.
    pub info: ShareInfo,
    pub body: BoxStream<'static, ApiResult<Bytes>>,
}

/// One download of the ciphertext, for a proof of the secret. The last one retires the share
/// (ciphertext deleted, storage released) once its body is dropped, sent or cut off.
pub async fn claim(core: &Core, proof: &Proof) -> ApiResult<Claimed> {
    let (row, seal) = verify(core, proof).await?;
    // Opened before the claim, as plain downloads do: a parallel last download's retirement
    // cannot take the bytes away from this one.
    let mut body = read_file_blob(core, &row, None).await?;
    // The salt comes from the header the body starts with, not from a second read of the
    // blob. A share kept as a resumable upload's parts may split its header over several
    // chunks (a first PATCH cut off after a few bytes): they are read until it is whole.
    let mut head = Vec::with_capacity(layout::HEADER_LEN);
    let mut read = Vec::new();
    while head.len() < layout::HEADER_LEN {
        let Some(chunk) = body.next().await.transpose()? else {
            break;
        };
        let take = (layout::HEADER_LEN - head.len()).min(chunk.len());
        head.extend_from_slice(&chunk[..take]);
        read.push(Ok(chunk));
    }
    let salt = head.get(layout::SALT).map(<[u8]>::to_vec).ok_or_else(|| {
        ApiError::internal(
            "reading a share's header",
            "ciphertext shorter than its header",
        )
    })?;
    let body = futures::stream::iter(read).chain(body).boxed();
    let claimed = file::Entity::update_many()
        .col_expr(
            file::Column::Downloads,
            Expr::col(file::Column::Downloads).add(1),
        )
        .col_expr(
            file::Column::ShareNonce,
            Expr::value(Option::<Vec<u8>>::None),
        )
        .filter(file::Column::Id.eq(row.id))
        .filter(file::Column::State.eq(STATE_READY))
        .filter(Expr::col(file::Column::Downloads).lt(Expr::col(file::Column::MaxDownloads)))
        .filter(file::Column::ShareNonce.eq(proof.nonce.clone()))
        .filter(file::Column::ShareNonceExpiresAt.gt(Utc::now()))
        .exec(&core.db)
        .await?;
    let after = file::Entity::find_by_id(row.id)
        .one(&core.db)
        .await?
        .ok_or_else(super::not_found)?;
    if claimed.rows_affected == 0 {
        return Err(if used_up(&after) || after.state != STATE_READY {
            gone(&after)
        } else {
            stale()
        });
    }
    let info = ShareInfo::of(&after, &seal, salt);
    let body = if used_up(&after) {
        retire_after(body, core, &after)
    } else {
        body
    };
    Ok(Claimed { info, body })
}
