//! The proof of the secret: a nonce the server hands out (60 s, answered once) and the
//! recipient's HMAC-SHA-256 of it under the proof key derived from the secret (and password).
//! A wrong proof uses the nonce and one of the share's tries; the last try deletes the share.

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use quire_proto::{ErrorCode, metadata};
use rand::RngCore;
use sea_orm::{ColumnTrait, EntityTrait, ExprTrait, QueryFilter, sea_query::Expr};
use sha2::Sha256;

use super::{MAX_WRONG_TRIES, Seal, find};
use crate::{
    Core,
    db::file::{self, STATE_READY},
    error::{ApiError, ApiResult},
    files::{download, remove},
};

const NONCE_LEN: usize = 32;
const NONCE_TTL_SECS: i64 = 60;

/// A recipient's answer to a challenge.
#[derive(Clone, Debug)]
pub struct Proof {
    pub token: String,
    pub nonce: Vec<u8>,
    pub proof: Vec<u8>,
}

/// A new nonce for the share, replacing any earlier one.
pub async fn challenge(core: &Core, token: &str) -> ApiResult<(Vec<u8>, DateTime<Utc>)> {
    let (row, _) = find(core, token).await?;
    let mut nonce = vec![0u8; NONCE_LEN];
    rand::rng().fill_bytes(&mut nonce);
    let expires_at = Utc::now() + chrono::Duration::seconds(NONCE_TTL_SECS);
    file::Entity::update_many()
        .col_expr(file::Column::ShareNonce, Expr::value(Some(nonce.clone())))
        .col_expr(
            file::Column::ShareNonceExpiresAt,
            Expr::value(Some(expires_at)),
        )
        .filter(file::Column::Id.eq(row.id))
        .filter(file::Column::State.eq(STATE_READY))
        .exec(&core.db)
        .await?;
    Ok((nonce, expires_at))
}

/// The share, once the proof answers its current nonce; the nonce is not used yet (the caller
/// uses it in the statement that does what the proof allows). A wrong proof uses the nonce and
/// a try: 403 with the tries left, or 410 once the share is deleted.
pub async fn verify(core: &Core, proof: &Proof) -> ApiResult<(file::Model, Seal)> {
    let (row, seal) = find(core, &proof.token).await?;
    if !fresh(&row, &proof.nonce) {
        return Err(stale());
    }
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&seal.proof_key)
        .map_err(|e| ApiError::internal("checking a share's proof", e))?;
    mac.update(&proof.nonce);
    // Constant time: the comparison tells an attacker nothing about how close a guess was.
    if mac.verify_slice(&proof.proof).is_ok() {
        return Ok((row, seal));
    }
    Err(wrong_try(core, &row, &proof.nonce).await)
}

/// Whether `nonce` is the share's current challenge and still in time.
fn fresh(row: &file::Model, nonce: &[u8]) -> bool {
    row.share_nonce.as_deref() == Some(nonce)
        && row.share_nonce_expires_at.is_some_and(|at| at > Utc::now())
}

/// Counts a wrong proof (once per nonce: the nonce goes with it) and deletes the share at the
/// last try.
async fn wrong_try(core: &Core, row: &file::Model, nonce: &[u8]) -> ApiError {
    let counted = file::Entity::update_many()
        .col_expr(
            file::Column::ShareWrongTries,
            Expr::col(file::Column::ShareWrongTries).add(1),
        )
        .col_expr(
            file::Column::ShareNonce,
            Expr::value(Option::<Vec<u8>>::None),
        )
        .filter(file::Column::Id.eq(row.id))
        .filter(file::Column::ShareNonce.eq(nonce.to_vec()))
        .exec(&core.db)
        .await;
    match counted {
        Ok(done) if done.rows_affected == 0 => return stale(),
        Ok(_) => {}
        Err(error) => return error.into(),
    }
    let now = match file::Entity::find_by_id(row.id).one(&core.db).await {
        Ok(Some(now)) => now,
        Ok(None) => return super::not_found(),
        Err(error) => return error.into(),
    };
    let left = std::cmp::max(MAX_WRONG_TRIES.saturating_sub(now.share_wrong_tries), 0);
    tracing::info!(
        file_id = row.id,
        tries_left = left,
        "wrong proof for a share"
    );
    if left == 0 {
        if let Err(error) = remove::retire(core, &now).await {
            return error;
        }
        return download::gone(&now);
    }
    ApiError::new(
        ErrorCode::ShareSecretWrong,
        format!(
            "the secret or the password is wrong: check them and try again ({left} {} left before the share is deleted)",
            if left == 1 { "try" } else { "tries" }
        ),
    )
    .with_metadata(metadata::SHARE_TRIES_LEFT, left)
}

pub(crate) fn stale() -> ApiError {
    ApiError::new(
        ErrorCode::ShareChallengeStale,
        "this challenge expired (60 s) or was already answered: ask for a new one and answer it",
    )
}
