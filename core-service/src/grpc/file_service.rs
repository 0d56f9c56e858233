//! quire.v1.FileService: validate, destructure, call the files domain, map the result.

use futures::{Stream, StreamExt, stream::BoxStream};
use quire_proto::{
    ErrorCode,
    v1::{
        DeleteFileRequest, DeleteFileResponse, DownloadMetadata, DownloadRequest, DownloadResponse,
        GetFileRequest, GetFileResponse, UploadMetadata, UploadRequest, UploadResponse,
        download_response, file_service_server::FileService, upload_request,
    },
};
use tonic::{Request, Response, Status, Streaming};

use super::gate::{self, respond};
use crate::{
    Core,
    auth::ScopeRule,
    error::{ApiError, ApiResult},
    files::{
        self,
        download::{self, RangeSpec},
        remove,
        upload::{self, UploadMeta, UploadPiece},
    },
};

pub struct FileApi {
    core: Core,
}

impl FileApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }
}

#[tonic::async_trait]
impl FileService for FileApi {
    async fn upload(
        &self,
        request: Request<Streaming<UploadRequest>>,
    ) -> Result<Response<UploadResponse>, Status> {
        let admitted = gate::admit(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let mut stream = request.into_inner();
        let result = async {
            let UploadMetadata {
                filename,
                expires_in_seconds,
                size,
            } = first_metadata(&mut stream).await?;
            let meta = UploadMeta {
                filename,
                expires_in: expires_in_seconds,
                declared_size: size,
            };
            upload::ingest(&self.core, &admitted.caller, meta, chunks(stream)).await
        }
        .await;
        match result {
            Ok(file) => {
                let file = files::to_proto(&file, &self.core.config.base_url());
                Ok(respond(
                    UploadResponse { file: Some(file) },
                    admitted.metadata(),
                ))
            }
            Err(err) => Err(admitted.annotate(err).into()),
        }
    }

    type DownloadStream = BoxStream<'static, Result<DownloadResponse, Status>>;

    async fn download(
        &self,
        request: Request<DownloadRequest>,
    ) -> Result<Response<Self::DownloadStream>, Status> {
        // The share token is the capability here, exactly as for the public link.
        let DownloadRequest {
            token,
            range,
            metadata_only,
        } = request.into_inner();
        let range = range.map(|r| RangeSpec {
            first: r.first,
            last: r.last,
        });
        let download::Download {
            file,
            offset,
            length,
            partial,
            body,
        } = download::open(&self.core, &token, range, metadata_only).await?;
        let metadata = DownloadMetadata {
            file: Some(files::to_proto(&file, &self.core.config.base_url())),
            offset,
            length,
            partial,
        };
        let head = futures::stream::once(async move {
            Ok(DownloadResponse {
                payload: Some(download_response::Payload::Metadata(metadata)),
            })
        });
        let chunks = body.map(|chunk| {
            chunk
                .map(|bytes| DownloadResponse {
                    payload: Some(download_response::Payload::Chunk(bytes)),
                })
                .map_err(Status::from)
        });
        Ok(Response::new(head.chain(chunks).boxed()))
    }

    async fn get_file(
        &self,
        request: Request<GetFileRequest>,
    ) -> Result<Response<GetFileResponse>, Status> {
        let admitted =
            gate::admit(&self.core, request.metadata(), ScopeRule::READ_OR_UPLOAD).await?;
        let GetFileRequest { token } = request.into_inner();
        let result = owned_file(&self.core, admitted.caller.account_id, &token).await;
        match result {
            Ok(file) => {
                let file = files::to_proto(&file, &self.core.config.base_url());
                Ok(respond(
                    GetFileResponse { file: Some(file) },
                    admitted.metadata(),
                ))
            }
            Err(err) => Err(admitted.annotate(err).into()),
        }
    }

    async fn delete_file(
        &self,
        request: Request<DeleteFileRequest>,
    ) -> Result<Response<DeleteFileResponse>, Status> {
        let admitted = gate::admit(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let DeleteFileRequest { token } = request.into_inner();
        let result = async {
            let file = owned_file(&self.core, admitted.caller.account_id, &token).await?;
            remove::remove(&self.core, &file).await?;
            Ok::<_, ApiError>(())
        }
        .await;
        match result {
            Ok(()) => Ok(respond(DeleteFileResponse {}, admitted.metadata())),
            Err(err) => Err(admitted.annotate(err).into()),
        }
    }
}

/// A visible file of this account; another account's file is reported as missing, so tokens
/// cannot be probed for ownership.
async fn owned_file(
    core: &Core,
    account_id: i64,
    token: &str,
) -> ApiResult<crate::db::file::Model> {
    let file = download::find_visible(core, token).await?;
    if file.account_id == account_id {
        Ok(file)
    } else {
        Err(ApiError::new(
            ErrorCode::FileNotFound,
            "no file with this token in this account",
        ))
    }
}

/// Reads the first message, which must carry the metadata.
async fn first_metadata(stream: &mut Streaming<UploadRequest>) -> ApiResult<UploadMetadata> {
    match stream.message().await {
        Ok(Some(UploadRequest {
            payload: Some(upload_request::Payload::Metadata(meta)),
        })) => Ok(meta),
        Ok(_) => Err(ApiError::invalid(
            "the first message of an upload must carry its metadata (filename), then the chunks",
        )),
        Err(status) => Err(cancelled(status)),
    }
}

/// The messages after the first metadata. A transport error (client cancelled or vanished) is
/// an error, never a clean end, so a cut upload is never committed.
fn chunks(stream: Streaming<UploadRequest>) -> impl Stream<Item = ApiResult<UploadPiece>> + Send {
    stream.map(|message| match message {
        Ok(UploadRequest {
            payload: Some(upload_request::Payload::Chunk(bytes)),
        }) => Ok(UploadPiece::Chunk(bytes)),
        Ok(UploadRequest {
            payload:
                Some(upload_request::Payload::Metadata(UploadMetadata {
                    filename,
                    expires_in_seconds,
                    size,
                })),
        }) if filename.is_empty() && size.is_none() => Ok(UploadPiece::Trailer {
            expires_in: expires_in_seconds,
        }),
        Ok(_) => Err(ApiError::invalid(
            "after the first message an upload carries chunks, then at most one metadata message \
             with only expires_in_seconds set",
        )),
        Err(status) => Err(cancelled(status)),
    })
}

pub(super) fn cancelled(status: Status) -> ApiError {
    tracing::info!(code = ?status.code(), message = status.message(), "upload stream broke off");
    ApiError::invalid(format!(
        "the upload stream broke off before it ended ({}): nothing was stored, send the file again",
        status.message()
    ))
}
