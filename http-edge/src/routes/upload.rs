//! POST /api/upload: multipart `file` (+ optional `expiresIn` before it) → FileService.Upload.

use axum::{
    body::Body,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::Response,
};
use quire_proto::{
    ErrorCode,
    v1::{UploadMetadata, UploadRequest, upload_request::Payload},
};
use serde::Serialize;

use super::json_with_metadata;
use crate::{
    EdgeState, forward,
    multipart::{self, Fields},
    problem::Problem,
};

/// SPEC 2.1, field for field.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadedFile {
    pub success: bool,
    pub token: String,
    pub filename: String,
    pub size: u64,
    pub mime_type: String,
    /// RFC 3339 in UTC, or null when the file never expires.
    pub expires_at: Option<String>,
    pub url: String,
}

pub async fn upload(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, &["expiresIn"]).await?;
    let head = UploadRequest {
        payload: Some(Payload::Metadata(UploadMetadata {
            filename: part.filename.clone(),
            expires_in_seconds: expires_in(&part.fields)?,
            size: None,
        })),
    };
    let (stream, failed) = part.into_request_stream(
        head,
        |chunk| UploadRequest {
            payload: Some(Payload::Chunk(chunk)),
        },
        |fields| {
            Ok(UploadRequest {
                payload: Some(Payload::Metadata(UploadMetadata {
                    expires_in_seconds: expires_in(fields)?,
                    ..Default::default()
                })),
            })
        },
    );
    let mut client = state.core.files.clone();
    let request = forward::request(&headers, stream);
    let response = multipart::race(async move { client.upload(request).await }, failed).await?;
    let (metadata, message, _) = response.into_parts();
    let file = message
        .file
        .ok_or_else(|| Problem::new(ErrorCode::Internal, "the core returned no file"))?;
    let body = UploadedFile {
        success: true,
        expires_at: file.expires_at.map(|t| rfc3339(t.seconds, t.nanos)),
        token: file.token,
        filename: file.filename,
        size: file.size,
        mime_type: file.mime_type,
        url: file.url,
    };
    Ok(json_with_metadata(StatusCode::CREATED, &metadata, body))
}

/// `expiresIn`: whole seconds; the core checks the range.
fn expires_in(fields: &Fields) -> Result<Option<u64>, Problem> {
    match fields.get("expiresIn").map(|v| v.trim()) {
        None | Some("") => Ok(None),
        Some(value) => value.parse::<u64>().map(Some).map_err(|_| {
            Problem::new(
                ErrorCode::InvalidArgument,
                format!("expiresIn must be a whole number of seconds, got {value:?}"),
            )
        }),
    }
}

/// `2026-11-21T10:00:00Z`: RFC 3339, UTC, seconds precision.
pub fn rfc3339(seconds: i64, nanos: i32) -> String {
    chrono::DateTime::from_timestamp(seconds, u32::try_from(nanos).unwrap_or(0))
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
