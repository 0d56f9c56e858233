//! quire.v1.ResumableUploadService: authorize (an upload's daily call is counted when its last
//! byte stores the file), destructure, call the resumable domain, map the result.

use futures::{Stream, StreamExt};
use quire_proto::v1::{
    AppendResumableUploadRequest, AppendResumableUploadResponse, AppendStart,
    CancelResumableUploadRequest, CancelResumableUploadResponse, CreateResumableUploadRequest,
    CreateResumableUploadResponse, GetResumableUploadRequest, GetResumableUploadResponse,
    ShareSeal, append_resumable_upload_request::Payload,
    resumable_upload_service_server::ResumableUploadService,
};
use tonic::{Request, Response, Status, Streaming, metadata::MetadataMap};

use super::{file_service::cancelled, gate};
use crate::{
    Core,
    auth::ScopeRule,
    error::{ApiError, ApiResult},
    resumable::{self, Appended},
    shares::Seal,
};

pub struct ResumableApi {
    core: Core,
}

impl ResumableApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }
}

#[tonic::async_trait]
impl ResumableUploadService for ResumableApi {
    async fn create_resumable_upload(
        &self,
        request: Request<CreateResumableUploadRequest>,
    ) -> Result<Response<CreateResumableUploadResponse>, Status> {
        let caller = gate::authorize(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let CreateResumableUploadRequest {
            length,
            filename,
            expires_in_seconds,
            max_downloads,
            share,
        } = request.into_inner();
        let options = (expires_in_seconds, max_downloads);
        let share = match share {
            Some(ShareSeal {
                proof_key,
                sealed_metadata,
                password,
            }) => Some(Seal::new(&proof_key, &sealed_metadata, password)?),
            None => None,
        };
        let row = resumable::create(&self.core, &caller, length, &filename, options, share).await?;
        let upload = resumable::to_proto(&row, None, &self.core.config.base_url());
        Ok(Response::new(CreateResumableUploadResponse {
            upload: Some(upload),
        }))
    }

    async fn get_resumable_upload(
        &self,
        request: Request<GetResumableUploadRequest>,
    ) -> Result<Response<GetResumableUploadResponse>, Status> {
        let caller = gate::authorize(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let GetResumableUploadRequest { id } = request.into_inner();
        let row = resumable::find(&self.core, caller.account_id, &id).await?;
        let file = resumable::stored_file(&self.core, &row).await?;
        let upload = resumable::to_proto(&row, file.as_ref(), &self.core.config.base_url());
        Ok(Response::new(GetResumableUploadResponse {
            upload: Some(upload),
        }))
    }

    async fn append_resumable_upload(
        &self,
        request: Request<Streaming<AppendResumableUploadRequest>>,
    ) -> Result<Response<AppendResumableUploadResponse>, Status> {
        let caller = gate::authorize(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let mut stream = request.into_inner();
        let AppendStart { id, offset } = first_start(&mut stream).await?;
        let Appended {
            upload,
            file,
            rate_limit,
        } = resumable::append(&self.core, &caller, &id, offset, chunks(stream)).await?;
        let mut metadata = MetadataMap::new();
        if let Some(limit) = rate_limit {
            limit.write_to(&mut metadata);
        }
        let upload = resumable::to_proto(&upload, file.as_ref(), &self.core.config.base_url());
        Ok(gate::respond(
            AppendResumableUploadResponse {
                upload: Some(upload),
            },
            metadata,
        ))
    }

    async fn cancel_resumable_upload(
        &self,
        request: Request<CancelResumableUploadRequest>,
    ) -> Result<Response<CancelResumableUploadResponse>, Status> {
        let caller = gate::authorize(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let CancelResumableUploadRequest { id } = request.into_inner();
        resumable::cancel(&self.core, caller.account_id, &id).await?;
        Ok(Response::new(CancelResumableUploadResponse {}))
    }
}

async fn first_start(
    stream: &mut Streaming<AppendResumableUploadRequest>,
) -> ApiResult<AppendStart> {
    match stream.message().await {
        Ok(Some(AppendResumableUploadRequest {
            payload: Some(Payload::Start(start)),
        })) => Ok(start),
        Ok(_) => Err(ApiError::invalid(
            "the first message of an append must name the upload and its offset (start), then \
             the chunks",
        )),
        Err(status) => Err(cancelled(status)),
    }
}

/// The chunks after the start. A broken stream ends the append; the bytes before it count.
fn chunks(
    stream: Streaming<AppendResumableUploadRequest>,
) -> impl Stream<Item = ApiResult<bytes::Bytes>> + Send + 'static {
    stream.map(|message| match message {
        Ok(AppendResumableUploadRequest {
            payload: Some(Payload::Chunk(bytes)),
        }) => Ok(bytes),
        Ok(_) => Err(ApiError::invalid(
            "after its start an append carries only chunks",
        )),
        Err(status) => Err(cancelled(status)),
    })
}
