//! Idempotent retries (draft-ietf-httpapi-idempotency-key-header): the first answer to an
//! account's `Idempotency-Key` is kept for `QUIRE_IDEMPOTENCY_TTL`; a retry of the same request
//! gets it again (no second upload, no second charge), a different request with the key gets
//! 422, and a retry while the first still runs gets 409. Failed requests keep nothing, so their
//! retries run again.
//!
//! What is kept is bounded: an answer's message and metadata are a row (a few hundred bytes,
//! as many as the calls an account may make), and the file of a processing answer (a
//! compressed PDF, a ZIP of pages) is a blob that counts in the account's storage quota while
//! it is kept, as the bytes of its unfinished uploads do.

mod answer;
pub mod key;
pub mod ledger;

use prost::Message;
use quire_proto::ErrorCode;
use tonic::metadata::MetadataMap;

use crate::{
    Core,
    db::idempotency_key,
    error::{ApiError, ApiResult},
    process::ByteStream,
};
pub use key::Fingerprint;
use ledger::{Claim, Kept};

/// A request's standing under its key: none sent, first with its key, or a repeat.
pub struct Idempotency {
    claim: Option<Claim>,
}

impl Idempotency {
    /// Reads the key from the request's metadata and claims it for the account.
    pub async fn claim(core: &Core, account_id: i64, metadata: &MetadataMap) -> ApiResult<Self> {
        let claim = match key::from_metadata(metadata)? {
            Some(key) => Some(ledger::claim(core, account_id, key).await?),
            None => None,
        };
        Ok(Idempotency { claim })
    }

    /// Whether this request repeats one answered before (it is then not counted again).
    pub fn is_repeat(&self) -> bool {
        matches!(self.claim, Some(Claim::Done(_)))
    }

    /// The kept answer when this request repeats the first one; 422 when the key came with
    /// another request; `None` when this request is to run.
    pub fn replay<M: Message + Default>(
        &self,
        fingerprint: &Fingerprint,
    ) -> ApiResult<Option<(M, MetadataMap)>> {
        self.repeated(fingerprint)?.map(decode).transpose()
    }

    /// As [`Self::replay`], for an answer with a file: the summary message, then the file.
    pub async fn replay_file<M: Message + Default>(
        &self,
        core: &Core,
        fingerprint: &Fingerprint,
    ) -> ApiResult<Option<(M, MetadataMap, ByteStream)>> {
        let Some(row) = self.repeated(fingerprint)? else {
            return Ok(None);
        };
        let (message, metadata) = decode(row)?;
        let Some(body_key) = row.body_key.as_deref() else {
            return Err(ApiError::internal("reading a kept answer", "no file kept"));
        };
        Ok(Some((
            message,
            metadata,
            answer::read_body(core, body_key).await?,
        )))
    }

    fn take_lease(&mut self) -> Option<ledger::Lease> {
        match self.claim.take() {
            Some(Claim::Fresh(lease)) => Some(lease),
            other => {
                self.claim = other;
                None
            }
        }
    }

    fn repeated(&self, fingerprint: &Fingerprint) -> ApiResult<Option<&idempotency_key::Model>> {
        match &self.claim {
            Some(Claim::Done(row)) if row.fingerprint == fingerprint.finish() => Ok(Some(row)),
            Some(Claim::Done(_)) => Err(ApiError::new(
                ErrorCode::IdempotencyKeyReused,
                "this Idempotency-Key was used for a different request (another endpoint, \
                 file or options): send a new key for a new request",
            )),
            _ => Ok(None),
        }
    }

    /// Lets the key go now that this first request failed, so a retry runs again. (Dropping
    /// the claim does it too, but later: a retry right after the error could then get 409.)
    pub async fn release(self) {
        if let Some(Claim::Fresh(lease)) = self.claim {
            lease.release().await;
        }
    }

    /// Keeps this first answer under the key (nothing without a key).
    pub async fn keep<M: Message>(
        &mut self,
        fingerprint: &Fingerprint,
        message: &M,
        metadata: &MetadataMap,
    ) -> ApiResult<()> {
        if let Some(lease) = self.take_lease() {
            lease
                .keep(Kept {
                    fingerprint: fingerprint.finish(),
                    response: message.encode_to_vec(),
                    metadata: answer::metadata_to_text(metadata),
                    body_key: None,
                    body_size: 0,
                })
                .await?;
        }
        Ok(())
    }

    /// Keeps a first answer with a file: the file is stored whole before it is sent, so a
    /// retry after a download cut short gets all of it. Returns the file to send. The kept
    /// file counts in the account's storage quota until it expires: an answer that does not
    /// fit is refused with 413 (and the key let go), rather than kept on a disk no quota
    /// bounds or sent with a promise of replay that could not be kept.
    pub async fn keep_file<M: Message>(
        &mut self,
        core: &Core,
        fingerprint: &Fingerprint,
        summary: &M,
        metadata: &MetadataMap,
        body: ByteStream,
    ) -> ApiResult<ByteStream> {
        let Some(lease) = self.take_lease() else {
            return Ok(body);
        };
        let standing =
            crate::quota::storage::standing(&core.db, &core.config, lease.account_id, None).await?;
        let over = |size| kept_answer_refused(standing.refuse(size));
        let (body_key, body_size) = answer::store_body(core, body, standing.room(), over).await?;
        let kept = Kept {
            fingerprint: fingerprint.finish(),
            response: summary.encode_to_vec(),
            metadata: answer::metadata_to_text(metadata),
            body_key: Some(body_key.clone()),
            body_size,
        };
        if let Err(err) = lease.keep(kept).await {
            crate::files::blobs::delete_blob(core, &body_key).await;
            return Err(match err.code {
                ErrorCode::StorageQuotaExceeded => kept_answer_refused(err),
                _ => err,
            });
        }
        answer::read_body(core, &body_key).await
    }
}

/// Says why an answer needs room in the storage quota, and how to do without.
fn kept_answer_refused(mut err: ApiError) -> ApiError {
    err.message = format!(
        "the answer's file is kept for retries with the same Idempotency-Key and counts in the \
         storage quota until it expires: {}; or send the request without an Idempotency-Key",
        err.message
    );
    err
}

fn decode<M: Message + Default>(row: &idempotency_key::Model) -> ApiResult<(M, MetadataMap)> {
    let message = M::decode(row.response.as_deref().unwrap_or_default())
        .map_err(|e| ApiError::internal("reading a kept answer", e))?;
    Ok((message, answer::metadata_from_text(&row.metadata)))
}
