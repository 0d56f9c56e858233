//! POST /tools/{slug}/run: the web toolbox's forms → quire.v1.ToolService. No public
//! endpoint: the call reaches the core with the session (cookie plus anti-CSRF token, see
//! `web::api_session`); a call with an API key is refused by the core with 403
//! `web-only-tool`. The result streams back as a download.

pub(crate) mod options;

use axum::{
    body::Body,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use futures::StreamExt;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use quire_proto::{
    ErrorCode,
    v1::{
        RunToolRequest, ToolInputFile, ToolNote, ToolSummary, run_tool_request::Payload,
        run_tool_response,
    },
};

use crate::{
    EdgeState, forward,
    multipart::{self, files::Messages},
    problem::Problem,
    routes::share::content_disposition,
};

pub async fn run(
    State(state): State<EdgeState>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, Problem> {
    let Some(allowed) = options::fields(&slug) else {
        return Err(Problem::new(
            ErrorCode::NotFound,
            format!("no tool named {slug:?}"),
        ));
    };
    let (stream, failed) = multipart::files::files_stream(
        &headers,
        body,
        allowed,
        |fields| {
            Ok(RunToolRequest {
                payload: Some(Payload::Options(options::options(&slug, fields)?)),
            })
        },
        Messages {
            file: |filename| RunToolRequest {
                payload: Some(Payload::File(ToolInputFile { filename })),
            },
            chunk: |bytes| RunToolRequest {
                payload: Some(Payload::Chunk(bytes)),
            },
        },
    )
    .await?;
    let mut client = state.core.tools.clone();
    let request = forward::request(&headers, stream);
    let response = multipart::race(async move { client.run_tool(request).await }, failed).await?;
    let (metadata, mut stream, _) = response.into_parts();
    let summary = match stream.next().await {
        Some(Ok(message)) => match message.payload {
            Some(run_tool_response::Payload::Summary(summary)) => summary,
            _ => {
                return Err(Problem::from(tonic::Status::internal(
                    "the answer began without its summary",
                )));
            }
        },
        Some(Err(status)) => return Err(Problem::from(status)),
        None => {
            return Err(Problem::from(tonic::Status::internal(
                "the answer was empty",
            )));
        }
    };
    let ToolSummary {
        filename,
        media_type,
        size,
        page_count,
        file_count,
        notes,
    } = summary;
    let mut out = HeaderMap::new();
    forward::copy_metadata(&metadata, &mut out);
    let mut set = |name: &'static str, value: String| {
        if let Ok(value) = HeaderValue::from_str(&value) {
            out.insert(name, value);
        }
    };
    set(header::CONTENT_TYPE.as_str(), media_type);
    set(header::CONTENT_LENGTH.as_str(), size.to_string());
    set(
        header::CONTENT_DISPOSITION.as_str(),
        content_disposition(false, &filename),
    );
    set("x-page-count", page_count.to_string());
    set("x-file-count", file_count.to_string());
    if !notes.is_empty() {
        // What the tool reports besides its file (what sanitize removed, ...): JSON, percent-
        // encoded so that any text fits a header; the page decodes it.
        let notes: Vec<_> = notes
            .into_iter()
            .map(|ToolNote { key, value }| serde_json::json!({"key": key, "value": value}))
            .collect();
        let json = serde_json::Value::Array(notes).to_string();
        set(
            "x-tool-notes",
            utf8_percent_encode(&json, NON_ALPHANUMERIC).to_string(),
        );
    }
    let body = stream.filter_map(|message| async move {
        match message {
            Ok(m) => match m.payload {
                Some(run_tool_response::Payload::Chunk(bytes)) => Some(Ok(bytes)),
                _ => None,
            },
            Err(status) => Some(Err(std::io::Error::other(status.message().to_owned()))),
        }
    });
    Ok((StatusCode::OK, out, Body::from_stream(body)).into_response())
}
