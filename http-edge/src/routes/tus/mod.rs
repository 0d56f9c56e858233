//! Resumable uploads with the tus 1.0 protocol (core, creation, termination, expiration) at
//! `/api/tus`, beside `POST /api/upload` and under the same key, scope, quotas and scan: each
//! request translates into a ResumableUploadService call.

mod protocol;

use axum::{
    body::Body,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use futures::StreamExt;
use quire_proto::{
    ErrorCode,
    v1::{
        AppendResumableUploadRequest, AppendStart, CancelResumableUploadRequest,
        CreateResumableUploadRequest, GetResumableUploadRequest, ResumableUpload, ShareSeal,
        append_resumable_upload_request::Payload,
    },
};

use tonic::metadata::MetadataMap;

use super::{json_with_metadata, upload::UploadedFile};
use crate::{EdgeState, forward, problem::Problem};
use protocol::{
    OFFSET_OCTET_STREAM, TUS_EXTENSION, TUS_RESUMABLE, TUS_VERSION, UPLOAD_DEFER_LENGTH,
    UPLOAD_EXPIRES, UPLOAD_LENGTH, UPLOAD_OFFSET,
};

/// Where uploads are created; each lives at `{BASE}/{id}`.
pub const BASE: &str = "/api/tus";

/// OPTIONS /api/tus: what this server speaks (no key needed).
pub async fn options() -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(TUS_RESUMABLE, HeaderValue::from_static(protocol::VERSION));
    headers.insert(TUS_VERSION, HeaderValue::from_static(protocol::VERSION));
    headers.insert(
        TUS_EXTENSION,
        HeaderValue::from_static(protocol::EXTENSIONS),
    );
    (StatusCode::NO_CONTENT, headers).into_response()
}

/// POST /api/tus (creation): `Upload-Length`, optional `Upload-Metadata` → 201 + Location.
/// The length is reserved in the account's storage quota until the upload ends (413 when it
/// does not fit), and a plan allows so many unfinished uploads at once (429 past them).
pub async fn create(State(state): State<EdgeState>, headers: HeaderMap) -> Response {
    answer(async {
        protocol::check_version(&headers)?;
        let Some(length) = protocol::number(&headers, &UPLOAD_LENGTH)? else {
            let why = match headers.contains_key(&UPLOAD_DEFER_LENGTH) {
                // An upload reserves its length in the storage quota when it is created; a
                // deferred one would have to reserve the largest file allowed, which would let
                // a Free account hold two at most.
                true => {
                    "this server needs the length up front (no creation-defer-length): each \
                     upload reserves its length in the storage quota when it is created"
                }
                false => "Upload-Length is missing",
            };
            return Err(Problem::new(
                ErrorCode::InvalidArgument,
                format!("{why}: send Upload-Length with the file's size in bytes"),
            ));
        };
        let protocol::Metadata {
            filename,
            expires_in,
            max_downloads,
            share_proof_key,
            share_metadata,
            share_password,
        } = protocol::metadata(&headers)?;
        let share = match (share_proof_key, share_metadata) {
            (None, None) => None,
            (Some(proof_key), Some(sealed_metadata)) => Some(ShareSeal {
                proof_key: proof_key.into(),
                sealed_metadata: sealed_metadata.into(),
                password: share_password,
            }),
            _ => {
                return Err(Problem::new(
                    ErrorCode::InvalidArgument,
                    "Upload-Metadata has only one of shareProofKey and shareMetadata: an \
                     encrypted share needs both",
                ));
            }
        };
        let request = CreateResumableUploadRequest {
            length,
            filename,
            expires_in_seconds: expires_in,
            max_downloads,
            share,
        };
        let mut client = state.core.resumable.clone();
        let (metadata, message, _) = client
            .create_resumable_upload(forward::request(&headers, request))
            .await?
            .into_parts();
        let upload = message.upload.ok_or_else(no_upload)?;
        let location =
            HeaderValue::from_str(&format!("{BASE}/{}", upload.id)).map_err(|_| no_upload())?;
        let mut response = described(StatusCode::CREATED, &metadata, &upload);
        response.headers_mut().insert(header::LOCATION, location);
        Ok(response)
    })
    .await
}

/// HEAD /api/tus/{id}: the offset to resume from.
pub async fn head(
    State(state): State<EdgeState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    answer(async {
        protocol::check_version(&headers)?;
        let upload = get_upload(&state, &headers, id).await?;
        let mut response = described(StatusCode::OK, &MetadataMap::new(), &upload);
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        Ok(response)
    })
    .await
}

/// PATCH /api/tus/{id}: bytes at `Upload-Offset` → 204 with the new offset. The request that
/// brings the last byte answers once the file is stored (scanned, within the quotas).
pub async fn patch(
    State(state): State<EdgeState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    answer(async {
        protocol::check_version(&headers)?;
        let content_type = headers.get(header::CONTENT_TYPE).map(HeaderValue::as_bytes);
        if content_type != Some(OFFSET_OCTET_STREAM.as_bytes()) {
            return Err(Problem::new(
                ErrorCode::UnsupportedMediaType,
                format!("a PATCH body must be sent as Content-Type: {OFFSET_OCTET_STREAM}"),
            ));
        }
        let offset = protocol::number(&headers, &UPLOAD_OFFSET)?.ok_or_else(|| {
            Problem::new(
                ErrorCode::InvalidArgument,
                "Upload-Offset is missing: send the offset HEAD reports",
            )
        })?;
        let start = AppendResumableUploadRequest {
            payload: Some(Payload::Start(AppendStart { id, offset })),
        };
        // A body that breaks off ends the append: the bytes before the break are kept, which
        // is what makes the upload resumable.
        let chunks = body
            .into_data_stream()
            .take_while(|read| std::future::ready(read.is_ok()))
            .filter_map(|read| std::future::ready(read.ok()))
            .map(|chunk| AppendResumableUploadRequest {
                payload: Some(Payload::Chunk(chunk)),
            });
        let stream = futures::stream::once(std::future::ready(start)).chain(chunks);
        let mut client = state.core.resumable.clone();
        let (metadata, message, _) = client
            .append_resumable_upload(forward::request(&headers, stream))
            .await?
            .into_parts();
        let upload = message.upload.ok_or_else(no_upload)?;
        Ok(described(StatusCode::NO_CONTENT, &metadata, &upload))
    })
    .await
}

/// DELETE /api/tus/{id} (termination): the unfinished upload and its bytes go.
pub async fn delete(
    State(state): State<EdgeState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    answer(async {
        protocol::check_version(&headers)?;
        let mut client = state.core.resumable.clone();
        let request = CancelResumableUploadRequest { id };
        client
            .cancel_resumable_upload(forward::request(&headers, request))
            .await?;
        Ok(StatusCode::NO_CONTENT.into_response())
    })
    .await
}

/// GET /api/tus/{id}: the stored file of a finished upload, as `POST /api/upload`'s 201 body.
pub async fn file(
    State(state): State<EdgeState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    answer(async {
        let upload = get_upload(&state, &headers, id).await?;
        let Some(file) = upload.file else {
            return Err(Problem::new(
                ErrorCode::UploadIncomplete,
                format!(
                    "the upload holds {} of {} bytes: send the rest with PATCH, then ask again",
                    upload.offset, upload.length
                ),
            ));
        };
        let body = UploadedFile::from(file);
        Ok(json_with_metadata(
            StatusCode::OK,
            &Default::default(),
            body,
        ))
    })
    .await
}

async fn get_upload(
    state: &EdgeState,
    headers: &HeaderMap,
    id: String,
) -> Result<ResumableUpload, Problem> {
    let mut client = state.core.resumable.clone();
    let request = GetResumableUploadRequest { id };
    let message = client
        .get_resumable_upload(forward::request(headers, request))
        .await?
        .into_inner();
    message.upload.ok_or_else(no_upload)
}

/// An answer about an upload: the core's metadata (rate-limit figures) as headers, then the
/// tus headers that describe the upload: its offset and length, and until it is stored, when
/// it expires.
fn described(status: StatusCode, metadata: &MetadataMap, upload: &ResumableUpload) -> Response {
    let mut response = status.into_response();
    forward::copy_metadata(metadata, response.headers_mut());
    let headers = response.headers_mut();
    headers.insert(UPLOAD_OFFSET, HeaderValue::from(upload.offset));
    headers.insert(UPLOAD_LENGTH, HeaderValue::from(upload.length));
    if upload.file.is_none()
        && let Some(expires) = &upload.expires_at
    {
        headers.insert(UPLOAD_EXPIRES, protocol::http_date(expires.seconds));
    }
    response
}

/// Every answer, errors included, names the protocol version.
async fn answer(work: impl Future<Output = Result<Response, Problem>>) -> Response {
    let mut response = work.await.unwrap_or_else(IntoResponse::into_response);
    response
        .headers_mut()
        .insert(TUS_RESUMABLE, HeaderValue::from_static(protocol::VERSION));
    response
}

fn no_upload() -> Problem {
    Problem::new(ErrorCode::Internal, "the core returned no upload")
}
