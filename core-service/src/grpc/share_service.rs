//! quire.v1.ShareService: the recipient's side of encrypted shares. No key: the token and the
//! proof of the secret are the authority. Destructure, call the shares domain, map the result.

use chrono::{DateTime, Utc};
use futures::{StreamExt, stream::BoxStream};
use quire_proto::v1::{
    ChallengeShareRequest, ChallengeShareResponse, ClaimShareRequest, ClaimShareResponse,
    GetShareRequest, GetShareResponse, OpenShareRequest, OpenShareResponse, ShareInfo, ShareProof,
    claim_share_response::Payload, share_service_server::ShareService,
};
use tonic::{Request, Response, Status};

use crate::{
    Core,
    error::{ApiError, ApiResult},
    files::timestamp,
    shares::{self, challenge::Proof},
};

pub struct ShareApi {
    core: Core,
}

impl ShareApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }
}

#[tonic::async_trait]
impl ShareService for ShareApi {
    async fn get_share(
        &self,
        request: Request<GetShareRequest>,
    ) -> Result<Response<GetShareResponse>, Status> {
        let GetShareRequest { token } = request.into_inner();
        let info = shares::info(&self.core, &token).await?;
        Ok(Response::new(GetShareResponse {
            share: Some(to_proto(info)),
        }))
    }

    async fn challenge_share(
        &self,
        request: Request<ChallengeShareRequest>,
    ) -> Result<Response<ChallengeShareResponse>, Status> {
        let ChallengeShareRequest { token } = request.into_inner();
        let (nonce, expires_at) = shares::challenge::challenge(&self.core, &token).await?;
        Ok(Response::new(ChallengeShareResponse {
            nonce: nonce.into(),
            expires_at: Some(timestamp(expires_at)),
        }))
    }

    async fn open_share(
        &self,
        request: Request<OpenShareRequest>,
    ) -> Result<Response<OpenShareResponse>, Status> {
        let OpenShareRequest { proof } = request.into_inner();
        let proof = proof_of(proof)?;
        let (sealed_metadata, info) = shares::claim::open(&self.core, &proof).await?;
        Ok(Response::new(OpenShareResponse {
            sealed_metadata: sealed_metadata.into(),
            share: Some(to_proto(info)),
        }))
    }

    type ClaimShareStream = BoxStream<'static, Result<ClaimShareResponse, Status>>;

    async fn claim_share(
        &self,
        request: Request<ClaimShareRequest>,
    ) -> Result<Response<Self::ClaimShareStream>, Status> {
        let ClaimShareRequest { proof } = request.into_inner();
        let proof = proof_of(proof)?;
        let shares::claim::Claimed { info, body } =
            shares::claim::claim(&self.core, &proof).await?;
        let head = futures::stream::once(async move {
            Ok(ClaimShareResponse {
                payload: Some(Payload::Share(to_proto(info))),
            })
        });
        let chunks = body.map(|chunk| {
            chunk
                .map(|bytes| ClaimShareResponse {
                    payload: Some(Payload::Chunk(bytes)),
                })
                .map_err(Status::from)
        });
        Ok(Response::new(head.chain(chunks).boxed()))
    }
}

fn proof_of(proof: Option<ShareProof>) -> ApiResult<Proof> {
    let ShareProof {
        token,
        nonce,
        proof,
    } = proof.ok_or_else(|| {
        ApiError::invalid("the request has no proof: send the token, the nonce and its HMAC")
    })?;
    Ok(Proof {
        token,
        nonce: nonce.to_vec(),
        proof: proof.to_vec(),
    })
}

fn to_proto(info: shares::ShareInfo) -> ShareInfo {
    let shares::ShareInfo {
        size,
        expires_at,
        downloads_left,
        password,
        tries_left,
        salt,
    } = info;
    ShareInfo {
        size,
        expires_at: expires_at.map(|at: DateTime<Utc>| timestamp(at)),
        downloads_left,
        password,
        tries_left,
        salt: salt.into(),
    }
}
