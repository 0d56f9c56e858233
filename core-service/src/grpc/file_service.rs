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
        upload_options::LateOptions,
    },
    idempotency::Fingerprint,
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
        let (admitted, mut idempotency) =
            gate::admit_idempotent(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let mut stream = request.into_inner();
        let result = async {
            let first = first_metadata(&mut stream).await?;
            if idempotency.is_repeat() {
                // Read (not stored) only to tell whether it is the same request.
                let (late, digest) = digest_only(&self.core, chunks(stream)).await?;
                let fingerprint = upload_fingerprint(&first, late, &digest);
                if let Some(answer) = idempotency.replay(&fingerprint)? {
                    return Ok(answer);
                }
                return Err(ApiError::internal(
                    "replaying an upload",
                    "repeat without answer",
                ));
            }
            let UploadMetadata {
                filename,
                expires_in_seconds,
                size,
                max_downloads,
            } = first.clone();
            let meta = UploadMeta {
                filename,
                expires_in: expires_in_seconds,
                max_downloads,
                declared_size: size,
                reservation: None,
                share: None,
                stored_parts: None,
            };
            let trailer = std::sync::Arc::new(std::sync::Mutex::new(LateOptions::default()));
            let pieces = chunks(stream).inspect({
                let trailer = trailer.clone();
                move |piece| {
                    if let Ok(UploadPiece::Trailer(late)) = piece
                        && let Ok(mut trailer) = trailer.lock()
                    {
                        *trailer = *late;
                    }
                }
            });
            let file = upload::ingest(&self.core, &admitted.caller, meta, pieces).await?;
            let late = trailer.lock().map(|t| *t).unwrap_or_default();
            let fingerprint = upload_fingerprint(&first, late, &file.digest);
            let response = UploadResponse {
                file: Some(files::to_proto(&file, &self.core.config.base_url())),
            };
            let metadata = admitted.metadata();
            idempotency.keep(&fingerprint, &response, &metadata).await?;
            Ok((response, metadata))
        }
        .await;
        if result.is_err() {
            idempotency.release().await;
        }
        match result {
            Ok((response, metadata)) => Ok(respond(response, metadata)),
            Err(err) => Err(admitted.fail(err).await.into()),
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
            Err(err) => Err(admitted.fail(err).await.into()),
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
            Err(err) => Err(admitted.fail(err).await.into()),
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

/// What an upload asked for: its metadata, with the options a trailing metadata message set
/// in place of the first's, and the content's digest ("blake3:<hex>", as files store it).
fn upload_fingerprint(first: &UploadMetadata, late: LateOptions, digest: &str) -> Fingerprint {
    let metadata = UploadMetadata {
        expires_in_seconds: late.expires_in.or(first.expires_in_seconds),
        max_downloads: late.max_downloads.or(first.max_downloads),
        ..first.clone()
    };
    let mut fingerprint = Fingerprint::new("upload");
    fingerprint.message(&metadata).field(digest.as_bytes());
    fingerprint
}

/// Reads a repeated upload to its end without storing it: the trailing options, if any, and
/// the content's digest. The size limit and the upload timeout hold as for a stored upload.
async fn digest_only(
    core: &Core,
    pieces: impl Stream<Item = ApiResult<UploadPiece>>,
) -> ApiResult<(LateOptions, String)> {
    let max = core.config.max_upload_size;
    let read = async {
        let mut pieces = std::pin::pin!(pieces);
        let (mut hasher, mut size) = (blake3::Hasher::new(), 0u64);
        let mut late = LateOptions::default();
        while let Some(piece) = pieces.next().await {
            match piece? {
                UploadPiece::Chunk(bytes) => {
                    size += bytes.len() as u64;
                    if size > max {
                        return Err(ApiError::new(
                            ErrorCode::FileTooLarge,
                            format!("the file is over the {max}-byte limit: send a smaller file"),
                        ));
                    }
                    hasher.update(&bytes);
                }
                UploadPiece::Trailer(set) => late = set,
            }
        }
        Ok((late, format!("blake3:{}", hasher.finalize().to_hex())))
    };
    tokio::time::timeout(core.config.upload_timeout(), read)
        .await
        .map_err(|_| ApiError::invalid("the upload took longer than the upload timeout"))?
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
                    max_downloads,
                })),
        }) if filename.is_empty() && size.is_none() => Ok(UploadPiece::Trailer(LateOptions {
            expires_in: expires_in_seconds,
            max_downloads,
        })),
        Ok(_) => Err(ApiError::invalid(
            "after the first message an upload carries chunks, then at most one metadata message \
             with only expires_in_seconds and max_downloads set",
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
