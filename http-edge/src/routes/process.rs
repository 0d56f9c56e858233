//! POST /api/v1/process/{ocr,compress-pdf,pdf-to-images}: multipart `file` plus options →
//! ProcessService. Binary results stream back with the core's metadata as headers.

use axum::{
    body::Body,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use futures::StreamExt;
use quire_proto::{
    ErrorCode,
    v1::{
        CompressPdfOptions, CompressPdfRequest, CompressionQuality, OcrOptions, OcrRequest,
        PdfToImagesOptions, PdfToImagesRequest, compress_pdf_request, compress_pdf_response,
        ocr_request, pdf_to_images_request, pdf_to_images_response,
    },
};
use serde::Serialize;
use tonic::Streaming;
use utoipa::{
    ToSchema,
    openapi::{ObjectBuilder, RefOr, Schema, Type},
};

use super::{json_with_metadata, share::content_disposition};
use crate::{
    EdgeState, forward,
    multipart::{self, Fields},
    openapi::blank_is_default,
    openapi::problems::{
        Forbidden, KeyInUse, ProcessBadRequest, ProcessTooLarge, ProcessUnavailable,
        ProcessUnprocessable, ProcessingFailed, QuotaExceeded, Unauthorized,
    },
    problem::Problem,
};

// SPEC 2.2.
/// The text of the file.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({
    "text": "Quire OpenAPI example: this page has a text layer, so OCR returns it as it is.",
    "pages": 1, "chars": 78, "lang": "fra+eng"
}))]
struct OcrResult {
    /// The text found; pages are separated by a form feed (`\f`).
    text: String,
    /// Pages (or TIFF frames) read.
    pages: u32,
    /// Unicode characters in `text`.
    chars: u64,
    /// The language value used.
    lang: String,
}

/// The option fields each form may carry besides `file`.
pub const OCR_FIELDS: &[&str] = &["lang"];
pub const COMPRESS_FIELDS: &[&str] = &["quality"];
pub const PDF_TO_IMAGES_FIELDS: &[&str] = &["dpi"];

// The forms, for the document only: the handlers stream them (multipart.rs), never build them.
/// An image or a PDF and its options. Unknown fields are refused (400).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct OcrForm {
    /// A PNG, JPEG, TIFF (every page), WebP or BMP image, or a PDF of up to 30 pages; the type
    /// is told from the bytes, never from the name. Option fields may come before or after it.
    #[schema(value_type = String, format = Binary, min_length = 1, example = crate::openapi::example_pdf)]
    file: Vec<u8>,
    /// Tesseract languages joined by `+` (at most 4), each one installed on the server (the
    /// 400 for any other value lists them). Empty: as if left out.
    #[schema(
        default = "fra+eng",
        examples("fra+eng", "eng", "fra"),
        nullable = false
    )]
    lang: Option<String>,
}

/// A PDF and its options. Unknown fields are refused (400).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct CompressPdfForm {
    /// The PDF. Option fields may come before or after it.
    #[schema(value_type = String, format = Binary, min_length = 1, example = crate::openapi::example_pdf)]
    file: Vec<u8>,
    #[schema(schema_with = quality_schema)]
    quality: Option<String>,
}

fn quality_schema() -> RefOr<Schema> {
    let preset = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(CompressionQuality::NAMES.iter().copied()))
        .default(Some("ebook".into()));
    blank_is_default(
        preset,
        "Ghostscript's presets of the same names: image resolution and JPEG quality fall from \
         `prepress` to `screen`; `ebook` by default.",
    )
}

/// A PDF and its options. Unknown fields are refused (400).
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct PdfToImagesForm {
    /// The PDF, of up to 30 pages. Option fields may come before or after it.
    #[schema(value_type = String, format = Binary, min_length = 1, example = crate::openapi::example_pdf)]
    file: Vec<u8>,
    #[schema(schema_with = dpi_schema)]
    dpi: Option<u32>,
}

fn dpi_schema() -> RefOr<Schema> {
    let dpi = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(72))
        .maximum(Some(300))
        .default(Some(150.into()));
    blank_is_default(
        dpi,
        "Resolution of the PNG pages, 150 by default (A4 at 150 dpi is 1240×1754).",
    )
}

/// Extract the text of an image or a PDF (OCR).
///
/// A PDF page whose own text layer holds real text gives that text at once; other pages, and
/// images, are read by Tesseract at 300 dpi. Scope `upload`; the call counts against the daily
/// quota. Nothing is stored.
#[utoipa::path(
    post,
    path = "/api/v1/process/ocr",
    tag = "processing",
    security(("apiKey" = [])),
    params(("Idempotency-Key" = String, Header)),
    request_body(content = OcrForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The text found.", body = OcrResult,
            headers(("Idempotent-Replayed"))),
        (status = 400, response = inline(ProcessBadRequest)),
        (status = 401, response = inline(Unauthorized)),
        (status = 403, response = inline(Forbidden)),
        (status = 409, response = inline(KeyInUse)),
        (status = 413, response = inline(ProcessTooLarge)),
        (status = 422, response = inline(ProcessUnprocessable)),
        (status = 429, response = inline(QuotaExceeded)),
        (status = 500, response = inline(ProcessingFailed)),
        (status = 503, response = inline(ProcessUnavailable)),
    )
)]
pub async fn ocr(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, OCR_FIELDS).await?;
    let head = ocr_options(part.filename.clone(), &part.fields)?;
    let (stream, failed) = part.into_request_stream(
        head,
        |c| OcrRequest {
            payload: Some(ocr_request::Payload::Chunk(c)),
        },
        |fields| ocr_options(String::new(), fields),
    );
    let mut client = state.core.process.clone();
    let request = forward::request(&headers, stream);
    let response = multipart::race(async move { client.ocr(request).await }, failed).await?;
    let (metadata, result, _) = response.into_parts();
    let body = OcrResult {
        text: result.text,
        pages: result.pages,
        chars: result.chars,
        lang: result.lang,
    };
    Ok(json_with_metadata(StatusCode::OK, &metadata, body))
}

fn ocr_options(filename: String, fields: &Fields) -> Result<OcrRequest, Problem> {
    Ok(OcrRequest {
        payload: Some(ocr_request::Payload::Options(OcrOptions {
            filename,
            lang: fields
                .get("lang")
                .map(|l| l.trim().to_owned())
                .unwrap_or_default(),
        })),
    })
}

/// Compress a PDF.
///
/// Rewritten by Quire's own engine: fonts cut to the glyphs shown, images resampled and
/// re-encoded to the preset, streams recompressed, unused objects dropped. Never worse: when the
/// result is not smaller, the PDF comes back unchanged with `X-Savings-Percent: 0.00`. Scope
/// `upload`; the call counts against the daily quota. Nothing is stored.
#[utoipa::path(
    post,
    path = "/api/v1/process/compress-pdf",
    tag = "processing",
    security(("apiKey" = [])),
    params(("Idempotency-Key" = String, Header)),
    request_body(content = CompressPdfForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The compressed PDF, named after the original \
            (`report.pdf` → `report-compressed.pdf`).",
            content(("application/pdf")),
            headers(("X-Original-Size"), ("X-Compressed-Size"), ("X-Savings-Percent"), ("Content-Disposition"),
                ("Idempotent-Replayed"))),
        (status = 400, response = inline(ProcessBadRequest)),
        (status = 401, response = inline(Unauthorized)),
        (status = 403, response = inline(Forbidden)),
        (status = 409, response = inline(KeyInUse)),
        (status = 413, response = inline(ProcessTooLarge)),
        (status = 422, response = inline(ProcessUnprocessable)),
        (status = 429, response = inline(QuotaExceeded)),
        (status = 500, response = inline(ProcessingFailed)),
        (status = 503, response = inline(ProcessUnavailable)),
    )
)]
pub async fn compress_pdf(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, COMPRESS_FIELDS).await?;
    let output_name = derived_name(&part.filename, "-compressed.pdf");
    let head = compress_options(part.filename.clone(), &part.fields)?;
    let (stream, failed) = part.into_request_stream(
        head,
        |c| CompressPdfRequest {
            payload: Some(compress_pdf_request::Payload::Chunk(c)),
        },
        |fields| compress_options(String::new(), fields),
    );
    let mut client = state.core.process.clone();
    let request = forward::request(&headers, stream);
    let response =
        multipart::race(async move { client.compress_pdf(request).await }, failed).await?;
    Ok(stream_out(
        response,
        "application/pdf",
        &output_name,
        |m| match m.payload {
            Some(compress_pdf_response::Payload::Chunk(bytes)) => Some(bytes),
            _ => None,
        },
    ))
}

fn compress_options(filename: String, fields: &Fields) -> Result<CompressPdfRequest, Problem> {
    let quality = match fields.get("quality").map(|q| q.trim()) {
        None | Some("") => CompressionQuality::Unspecified,
        Some(name) => CompressionQuality::from_rest_name(name).ok_or_else(|| {
            Problem::new(
                ErrorCode::InvalidArgument,
                format!(
                    "quality must be one of {}, got {name:?}",
                    CompressionQuality::NAMES.join(", ")
                ),
            )
        })?,
    };
    Ok(CompressPdfRequest {
        payload: Some(compress_pdf_request::Payload::Options(CompressPdfOptions {
            filename,
            quality: quality as i32,
        })),
    })
}

/// Convert a PDF into PNG pages in a ZIP.
///
/// The ZIP holds `page-001.png`, `page-002.png`, ... stored without recompression and streamed
/// as pages finish; every page's size is checked before the first byte goes out, and a page
/// that fails mid-stream cuts the connection, so a truncated ZIP never looks complete. Scope
/// `upload`; the call counts against the daily quota. Nothing is stored.
#[utoipa::path(
    post,
    path = "/api/v1/process/pdf-to-images",
    tag = "processing",
    security(("apiKey" = [])),
    params(("Idempotency-Key" = String, Header)),
    request_body(content = PdfToImagesForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The pages as PNG files in a ZIP, named after the PDF \
            (`report.pdf` → `report-pages.zip`).",
            content(("application/zip")),
            headers(("X-Page-Count"), ("X-DPI"), ("Content-Disposition"), ("Idempotent-Replayed"))),
        (status = 400, response = inline(ProcessBadRequest)),
        (status = 401, response = inline(Unauthorized)),
        (status = 403, response = inline(Forbidden)),
        (status = 409, response = inline(KeyInUse)),
        (status = 413, response = inline(ProcessTooLarge)),
        (status = 422, response = inline(ProcessUnprocessable)),
        (status = 429, response = inline(QuotaExceeded)),
        (status = 500, response = inline(ProcessingFailed)),
        (status = 503, response = inline(ProcessUnavailable)),
    )
)]
pub async fn pdf_to_images(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, PDF_TO_IMAGES_FIELDS).await?;
    let output_name = derived_name(&part.filename, "-pages.zip");
    let head = render_options(part.filename.clone(), &part.fields)?;
    let (stream, failed) = part.into_request_stream(
        head,
        |c| PdfToImagesRequest {
            payload: Some(pdf_to_images_request::Payload::Chunk(c)),
        },
        |fields| render_options(String::new(), fields),
    );
    let mut client = state.core.process.clone();
    let request = forward::request(&headers, stream);
    let response =
        multipart::race(async move { client.pdf_to_images(request).await }, failed).await?;
    Ok(stream_out(
        response,
        "application/zip",
        &output_name,
        |m| match m.payload {
            Some(pdf_to_images_response::Payload::Chunk(bytes)) => Some(bytes),
            _ => None,
        },
    ))
}

fn render_options(filename: String, fields: &Fields) -> Result<PdfToImagesRequest, Problem> {
    let dpi = match fields.get("dpi").map(|d| d.trim()) {
        None | Some("") => 0,
        Some(value) => value.parse::<u32>().map_err(|_| {
            Problem::new(
                ErrorCode::InvalidArgument,
                format!("dpi must be a whole number from 72 to 300, got {value:?}"),
            )
        })?,
    };
    Ok(PdfToImagesRequest {
        payload: Some(pdf_to_images_request::Payload::Options(
            PdfToImagesOptions { filename, dpi },
        )),
    })
}

/// `report.pdf` → `report-compressed.pdf`.
fn derived_name(filename: &str, suffix: &str) -> String {
    let stem = filename.rsplit_once('.').map_or(filename, |(stem, _)| stem);
    format!("{}{suffix}", if stem.is_empty() { "file" } else { stem })
}

/// Streams the chunk messages of a server stream as the body; the summary message is skipped
/// because its figures already arrived as metadata (now headers).
fn stream_out<M: Send + 'static>(
    response: tonic::Response<Streaming<M>>,
    content_type: &'static str,
    filename: &str,
    chunk: fn(M) -> Option<Bytes>,
) -> Response {
    let (metadata, stream, _) = response.into_parts();
    let mut headers = HeaderMap::new();
    forward::copy_metadata(&metadata, &mut headers);
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(value) = HeaderValue::from_str(&content_disposition(false, filename)) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    let body = stream.filter_map(move |message| async move {
        match message {
            Ok(m) => chunk(m).map(Ok),
            Err(status) => Some(Err(std::io::Error::other(status.message().to_owned()))),
        }
    });
    (StatusCode::OK, headers, Body::from_stream(body)).into_response()
}
