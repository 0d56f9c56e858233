//! GET /f/{token}: the public share link. Streams the file from FileService.Download with the
//! headers a careful file host sends: exact length, ETag, byte ranges, a safe
//! Content-Disposition, and no chance for uploaded HTML or SVG to run in our origin.

use axum::{
    body::Body,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, Method, StatusCode, header},
    response::{IntoResponse, Response},
};
use futures::StreamExt;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use quire_proto::{
    ErrorCode,
    v1::{
        ByteRange, DownloadMetadata, DownloadRequest, DownloadResponse, File,
        download_response::Payload,
    },
};
use tonic::Streaming;

use crate::{
    EdgeState, forward,
    openapi::problems::{FileGone, FileNotFound, RangeNotSatisfiable, Unavailable},
    problem::Problem,
};

/// Download a shared file.
///
/// Public: the unguessable token (96 random bits) is the capability. Images, PDF, plain text,
/// audio and video display inline; everything else, and always HTML, SVG, XML and JavaScript,
/// is an attachment sandboxed by `Content-Security-Policy`. `HEAD` answers the same headers
/// without reading the file or counting a download. A file uploaded with `maxDownloads`: a
/// full `GET` (200) uses one download up, claimed atomically before any byte is sent; `HEAD`,
/// a `Range` request (206) and a 304 use none. Once used up (or expired) the file is deleted
/// and the link answers 410 `file-gone`.
#[utoipa::path(
    get,
    path = "/f/{token}",
    tag = "files",
    params(
        ("token" = String, Path, description = "The `token` of the upload's answer.", example = "DxwB45H5M6mhJrVz"),
        ("Range" = Option<String>, Header, nullable = false, description = "One byte range (`bytes=0-1023`, \
            `bytes=1024-`, `bytes=-512`) for a 206; several ranges or other units get the whole \
            file.", example = "bytes=0-1023"),
        ("If-None-Match" = Option<String>, Header, nullable = false, description = "The `ETag` of a copy you \
            hold: 304 while the file is the same."),
        ("If-Range" = Option<String>, Header, nullable = false, description = "With `Range`: the range if the \
            file still has this `ETag`, otherwise the whole file."),
    ),
    responses(
        (status = 200, description = "The file, with its sniffed `Content-Type`.",
            content(("*/*")),
            headers(("ETag"), ("Last-Modified"), ("Content-Length"), ("Accept-Ranges"), ("Content-Disposition"),
                ("Cache-Control"), ("X-Content-Type-Options"), ("Referrer-Policy"), ("Content-Security-Policy"))),
        (status = 206, description = "The requested byte range of the file.",
            content(("*/*")),
            headers(("Content-Range"), ("ETag"), ("Last-Modified"), ("Content-Length"), ("Accept-Ranges"), ("Content-Disposition"),
                ("Cache-Control"), ("X-Content-Type-Options"), ("Referrer-Policy"), ("Content-Security-Policy"))),
        (status = 304, description = "`If-None-Match` holds the file's `ETag`: use your copy.",
            headers(("ETag"), ("Last-Modified"), ("Accept-Ranges"), ("Content-Disposition"),
                ("Cache-Control"), ("X-Content-Type-Options"), ("Referrer-Policy"), ("Content-Security-Policy"))),
        (status = 404, response = inline(FileNotFound)),
        (status = 410, response = inline(FileGone)),
        (status = 416, response = inline(RangeNotSatisfiable)),
        (status = 503, response = inline(Unavailable)),
    )
)]
pub async fn download(
    State(state): State<EdgeState>,
    Path(token): Path<String>,
    method: Method,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    // HEAD gets the same headers without reading the file or counting a download.
    let head = method == Method::HEAD;
    let mut range = parse_range(&headers);
    let if_range = headers.get(header::IF_RANGE).and_then(|v| v.to_str().ok());
    let if_none_match = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    // A conditional request is decided on the metadata alone (no range, nothing read or
    // counted), so a 304 or a stale If-Range never opens the file twice.
    if if_none_match.is_some() || (range.is_some() && if_range.is_some()) {
        let (meta, _) = open(&state, &headers, &token, None, true).await?;
        let file = meta.file.unwrap_or_default();
        let etag = etag(&file);
        if if_range.is_some_and(|tag| tag != etag) {
            range = None;
        }
        if if_none_match
            .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
        {
            return Ok((StatusCode::NOT_MODIFIED, file_headers(&file, &etag)).into_response());
        }
    }
    let (meta, stream) = open(&state, &headers, &token, range, head).await?;
    let file = meta.file.clone().unwrap_or_default();
    let etag = etag(&file);
    let mut response_headers = file_headers(&file, &etag);
    let status = if meta.partial {
        let last = meta.offset + meta.length - 1;
        insert(
            &mut response_headers,
            header::CONTENT_RANGE,
            format!("bytes {}-{last}/{}", meta.offset, file.size),
        );
        StatusCode::PARTIAL_CONTENT
    } else {
        StatusCode::OK
    };
    insert(
        &mut response_headers,
        header::CONTENT_LENGTH,
        meta.length.to_string(),
    );
    let body = stream.filter_map(|message| async move {
        match message {
            Ok(DownloadResponse {
                payload: Some(Payload::Chunk(bytes)),
            }) => Some(Ok(bytes)),
            Ok(_) => None,
            // The length is already sent; a broken stream must reach the client as an error.
            Err(status) => Some(Err(std::io::Error::other(status.message().to_owned()))),
        }
    });
    Ok((status, response_headers, Body::from_stream(body)).into_response())
}

async fn open(
    state: &EdgeState,
    headers: &HeaderMap,
    token: &str,
    range: Option<ByteRange>,
    metadata_only: bool,
) -> Result<(DownloadMetadata, Streaming<DownloadResponse>), Problem> {
    let request = DownloadRequest {
        token: token.to_owned(),
        range,
        metadata_only,
    };
    let mut client = state.core.files.clone();
    let mut stream = client
        .download(forward::request(headers, request))
        .await?
        .into_inner();
    match stream.message().await? {
        Some(DownloadResponse {
            payload: Some(Payload::Metadata(meta)),
        }) => Ok((meta, stream)),
        _ => Err(Problem::new(
            ErrorCode::Internal,
            "the core sent no file metadata",
        )),
    }
}

/// The strong validator of a stored file: its quoted digest ("blake3:…").
fn etag(file: &File) -> String {
    format!("\"{}\"", file.digest)
}

/// A single `bytes=` range; anything else (several ranges, other units, garbage) is ignored
/// and the whole file is served, as RFC 9110 allows.
fn parse_range(headers: &HeaderMap) -> Option<ByteRange> {
    let value = headers.get(header::RANGE)?.to_str().ok()?.trim();
    let spec = value.strip_prefix("bytes=")?.trim();
    if spec.contains(',') {
        return None;
    }
    let (first, last) = spec.split_once('-')?;
    let parse = |s: &str| -> Option<Option<u64>> {
        let s = s.trim();
        if s.is_empty() {
            Some(None)
        } else {
            s.parse().ok().map(Some)
        }
    };
    let (first, last) = (parse(first)?, parse(last)?);
    match (first, last) {
        (None, None) => None,
        (Some(f), Some(l)) if f > l => None,
        _ => Some(ByteRange { first, last }),
    }
}

/// Types a browser may show inline; everything else is downloaded. HTML, SVG, XML and scripts
/// are never on this list: they would run with our origin's rights.
fn is_inline_safe(mime: &str) -> bool {
    let essence = mime.split(';').next().unwrap_or_default().trim();
    matches!(
        essence,
        "image/png"
            | "image/jpeg"
            | "image/gif"
            | "image/webp"
            | "image/bmp"
            | "image/avif"
            | "application/pdf"
            | "text/plain"
    ) || essence.starts_with("audio/")
        || essence.starts_with("video/")
}

fn file_headers(file: &File, etag: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    insert(&mut headers, header::CONTENT_TYPE, file.mime_type.clone());
    insert(&mut headers, header::ETAG, etag.to_owned());
    insert(&mut headers, header::ACCEPT_RANGES, "bytes".to_owned());
    insert(
        &mut headers,
        header::X_CONTENT_TYPE_OPTIONS,
        "nosniff".to_owned(),
    );
    insert(
        &mut headers,
        header::CACHE_CONTROL,
        "private, no-cache".to_owned(),
    );
    insert(
        &mut headers,
        header::REFERRER_POLICY,
        "no-referrer".to_owned(),
    );
    let inline = is_inline_safe(&file.mime_type);
    insert(
        &mut headers,
        header::CONTENT_DISPOSITION,
        content_disposition(inline, &file.filename),
    );
    // PDF viewers refuse sandboxed documents; every other type gets the sandbox as a second wall.
    if !file.mime_type.starts_with("application/pdf") {
        insert(
            &mut headers,
            header::CONTENT_SECURITY_POLICY,
            "sandbox".to_owned(),
        );
    }
    if let Some(created) = &file.created_at
        && let Some(time) = chrono::DateTime::from_timestamp(created.seconds, 0)
    {
        insert(
            &mut headers,
            header::LAST_MODIFIED,
            time.format("%a, %d %b %Y %H:%M:%S GMT").to_string(),
        );
    }
    headers
}

fn insert(headers: &mut HeaderMap, name: header::HeaderName, value: String) {
    if let Ok(value) = HeaderValue::from_str(&value) {
        headers.insert(name, value);
    }
}

/// RFC 5987 attr-char: what may stay unencoded in `filename*`.
const ATTR_CHAR: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'!')
    .remove(b'#')
    .remove(b'$')
    .remove(b'&')
    .remove(b'+')
    .remove(b'-')
    .remove(b'.')
    .remove(b'^')
    .remove(b'_')
    .remove(b'`')
    .remove(b'|')
    .remove(b'~');

/// RFC 6266: an ASCII `filename` fallback and the exact name as UTF-8 in `filename*`.
pub fn content_disposition(inline: bool, filename: &str) -> String {
    let kind = if inline { "inline" } else { "attachment" };
    let fallback: String = filename
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded = utf8_percent_encode(filename, ATTR_CHAR);
    format!("{kind}; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disposition_has_ascii_fallback_and_utf8_name() {
        assert_eq!(
            content_disposition(false, "résumé \"final\".pdf"),
            "attachment; filename=\"r_sum_ _final_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf"
        );
        assert_eq!(
            content_disposition(true, "a.png"),
            "inline; filename=\"a.png\"; filename*=UTF-8''a.png"
        );
    }

    #[test]
    fn active_content_is_never_inline() {
        for mime in [
            "text/html",
            "image/svg+xml",
            "application/xml",
            "text/javascript",
            "application/octet-stream",
        ] {
            assert!(!is_inline_safe(mime), "{mime}");
        }
        assert!(is_inline_safe("text/plain; charset=utf-8"));
        assert!(is_inline_safe("image/png"));
    }

    #[test]
    fn ranges_parse_or_are_ignored() {
        let with = |v: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::RANGE, HeaderValue::from_str(v).unwrap());
            parse_range(&h)
        };
        assert_eq!(
            with("bytes=0-9"),
            Some(ByteRange {
                first: Some(0),
                last: Some(9)
            })
        );
        assert_eq!(
            with("bytes=5-"),
            Some(ByteRange {
                first: Some(5),
                last: None
            })
        );
        assert_eq!(
            with("bytes=-3"),
            Some(ByteRange {
                first: None,
                last: Some(3)
            })
        );
        assert_eq!(with("bytes=0-1,4-5"), None);
        assert_eq!(with("bytes=9-2"), None);
        assert_eq!(with("items=0-1"), None);
    }
}
