//! POST /api/upload: multipart `file` (+ optional `expiresIn` and `maxDownloads`, before or
//! after it) → FileService.Upload.

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
use utoipa::{
    ToSchema,
    openapi::{ObjectBuilder, RefOr, Schema, Type},
};

use super::json_with_metadata;
use crate::{
    EdgeState, forward,
    multipart::{self, Fields},
    openapi::blank_is_default,
    openapi::problems::{
        Forbidden, KeyInUse, QuotaExceeded, Unauthorized, UploadBadRequest, UploadTooLarge,
        UploadUnavailable, UploadUnprocessable,
    },
    problem::Problem,
};

// SPEC 2.1, field for field, then Quire's own: the download limit.
/// The stored file and its share link.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({
    "success": true, "token": "DxwB45H5M6mhJrVz", "filename": "report.pdf", "size": 48213,
    "mimeType": "application/pdf", "expiresAt": "2026-11-22T11:36:38Z",
    "url": "http://127.0.0.1:8080/f/DxwB45H5M6mhJrVz", "maxDownloads": 1, "downloadsLeft": 1
}))]
pub struct UploadedFile {
    /// Always true: errors are problem+json.
    pub success: bool,
    /// The share link's last path segment (`GET /f/{token}`).
    pub token: String,
    /// The name sent, without path components or control characters.
    pub filename: String,
    /// Bytes stored.
    pub size: u64,
    /// Sniffed from the content; the client's Content-Type is ignored.
    pub mime_type: String,
    /// RFC 3339 in UTC, or null when the file never expires.
    #[schema(format = DateTime)]
    pub expires_at: Option<String>,
    /// The share link: `<base URL>/f/<token>`, public to whoever has it.
    pub url: String,
    /// Full downloads the link allows, or null for no limit.
    pub max_downloads: Option<u64>,
    /// Full downloads left, or null for no limit.
    pub downloads_left: Option<u64>,
    /// Present (true) only for an end-to-end encrypted share made by the web interface's
    /// `/share` page: its `url` is then the share's page `<base URL>/s/<token>`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub encrypted: bool,
}

/// The option fields the form may carry besides `file`.
pub const FIELDS: &[&str] = &["expiresIn", "maxDownloads"];

// The form, for the document only: the handler streams it (multipart.rs), never builds it.
/// A file and its options. Unknown fields are refused (400), so a typo never passes silently.
#[derive(ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schema(as = UploadForm)]
#[allow(dead_code)]
pub struct UploadForm {
    /// The file, of any type and up to the server's maximum upload size (512 MiB by default).
    /// Option fields may come before or after it.
    #[schema(value_type = String, format = Binary, min_length = 1, example = crate::openapi::example_pdf)]
    file: Vec<u8>,
    #[schema(schema_with = expires_in_schema)]
    expires_in: Option<u64>,
    #[schema(schema_with = max_downloads_schema)]
    max_downloads: Option<u64>,
}

fn max_downloads_schema() -> RefOr<Schema> {
    whole_number_schema(
        1_000_000,
        1,
        "Full downloads the share link allows; without it, no limit. A full `GET` of the link \
         uses one up, claimed atomically before any byte is sent (two parallel requests for the \
         last one: one gets the file, the other 410); `HEAD`, a `Range` request and a 304 use \
         none. The last download deletes the file, and the link then answers 410 `file-gone`.",
    )
}

fn expires_in_schema() -> RefOr<Schema> {
    whole_number_schema(
        31_622_400,
        86_400,
        "Lifetime in seconds, up to the server's QUIRE_MAX_EXPIRES_IN (366 days by default, the \
         maximum shown); without it the file never expires.",
    )
}

/// An option field holding a whole number from 1 to `maximum`, blank taken as left out.
fn whole_number_schema(maximum: u64, example: u64, description: &str) -> RefOr<Schema> {
    let number = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(1))
        .maximum(Some(maximum))
        .examples([example]);
    blank_is_default(number, description)
}

/// Upload a file and get its share link.
///
/// The file is scanned by the antivirus and stored only if it is clean and the whole body
/// arrived: a virus, an unreachable scanner, a quota error or a cut body leaves nothing. A 201
/// means the file is on stable storage. Scope `upload`; the call counts against the daily quota.
#[utoipa::path(
    post,
    path = "/api/upload",
    tag = "files",
    security(("apiKey" = [])),
    params(("Idempotency-Key" = String, Header)),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Stored: the share link and what was stored.", body = UploadedFile,
            headers(("Idempotent-Replayed")),
            links(("download" = (operation_id = "download", parameters(("token" = "$response.body#/token")),
                description = "The share link of the stored file.")))),
        (status = 400, response = inline(UploadBadRequest)),
        (status = 401, response = inline(Unauthorized)),
        (status = 403, response = inline(Forbidden)),
        (status = 409, response = inline(KeyInUse)),
        (status = 413, response = inline(UploadTooLarge)),
        (status = 422, response = inline(UploadUnprocessable)),
        (status = 429, response = inline(QuotaExceeded)),
        (status = 503, response = inline(UploadUnavailable)),
    )
)]
pub async fn upload(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, FIELDS).await?;
    let head = UploadRequest {
        payload: Some(Payload::Metadata(UploadMetadata {
            filename: part.filename.clone(),
            expires_in_seconds: expires_in(&part.fields)?,
            size: None,
            max_downloads: max_downloads(&part.fields)?,
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
                    max_downloads: max_downloads(fields)?,
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
    Ok(json_with_metadata(
        StatusCode::CREATED,
        &metadata,
        UploadedFile::from(file),
    ))
}

/// `expiresIn`: whole seconds; the core checks the range.
fn expires_in(fields: &Fields) -> Result<Option<u64>, Problem> {
    whole_number(fields, "expiresIn", "seconds")
}

/// `maxDownloads`: a whole number; the core checks the range.
fn max_downloads(fields: &Fields) -> Result<Option<u64>, Problem> {
    whole_number(fields, "maxDownloads", "downloads")
}

/// An option field holding a whole number of `unit`; blank is left out.
fn whole_number(fields: &Fields, name: &str, unit: &str) -> Result<Option<u64>, Problem> {
    match fields.get(name).map(|v| v.trim()) {
        None | Some("") => Ok(None),
        Some(value) => value.parse::<u64>().map(Some).map_err(|_| {
            Problem::new(
                ErrorCode::InvalidArgument,
                format!("{name} must be a whole number of {unit}, got {value:?}"),
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

impl From<quire_proto::v1::File> for UploadedFile {
    fn from(file: quire_proto::v1::File) -> Self {
        UploadedFile {
            success: true,
            expires_at: file.expires_at.map(|t| rfc3339(t.seconds, t.nanos)),
            token: file.token,
            filename: file.filename,
            size: file.size,
            mime_type: file.mime_type,
            url: file.url,
            max_downloads: file.max_downloads,
            downloads_left: file.downloads_left,
            encrypted: file.encrypted,
        }
    }
}
