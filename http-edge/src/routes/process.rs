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

use super::{json_with_metadata, share::content_disposition};
use crate::{
    EdgeState, forward,
    multipart::{self, Fields},
    problem::Problem,
};

#[derive(Serialize)]
struct OcrResult {
    text: String,
    pages: u32,
    chars: u64,
    lang: String,
}

pub async fn ocr(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, &["lang"]).await?;
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

pub async fn compress_pdf(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, &["quality"]).await?;
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

pub async fn pdf_to_images(
    State(state): State<EdgeState>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let part = multipart::file_part(&headers, body, &["dpi"]).await?;
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
