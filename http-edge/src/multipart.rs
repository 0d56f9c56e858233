//! Streams the `file` part of a multipart/form-data body without buffering it: the text fields
//! before it are collected, the file's bytes are re-chunked to the gRPC chunk size and flow
//! into the client stream as they arrive, so memory stays flat whatever the file size.
//!
//! A body that breaks off must never look like a complete file to the core: the chunk stream
//! then stalls instead of ending, and [`FilePart::failed`] fires; the handler answers 400 and
//! drops the call, which cancels the gRPC stream and makes the core discard the upload.

use std::collections::HashMap;

use axum::{body::Body, http::HeaderMap};
use bytes::{Bytes, BytesMut};
use futures::{StreamExt, stream::BoxStream};
use quire_proto::ErrorCode;
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;

use crate::problem::Problem;

/// Size of the chunks sent to the core (the benchmark's best).
pub const CHUNK_SIZE: usize = 256 * 1024;
/// Text fields are options; anything longer is not one.
const MAX_TEXT_FIELD: u64 = 64 * 1024;

pub struct FilePart {
    /// Text fields sent before the file part.
    pub fields: HashMap<String, String>,
    pub filename: String,
    pub chunks: BoxStream<'static, Bytes>,
    /// Fires if the body breaks off or is malformed after the file part started.
    pub failed: oneshot::Receiver<String>,
}

/// Reads the body up to the `file` part. `allowed` lists the text fields the endpoint takes;
/// they must come before the file part, as in S3 POST uploads, because the core needs the
/// options before the first byte.
pub async fn file_part(
    headers: &HeaderMap,
    body: Body,
    allowed: &[&str],
) -> Result<FilePart, Problem> {
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let boundary = multer::parse_boundary(content_type).map_err(|_| {
        Problem::new(
            ErrorCode::InvalidMultipart,
            format!(
                "the body must be multipart/form-data with a part named `file` (got Content-Type {:?}); \
                 with curl: -F file=@path/to/file",
                content_type
            ),
        )
    })?;
    let constraints = multer::Constraints::new().size_limit(
        multer::SizeLimit::new()
            .for_field("file", u64::MAX)
            .per_field(MAX_TEXT_FIELD),
    );
    let mut multipart =
        multer::Multipart::with_constraints(body.into_data_stream(), boundary, constraints);
    let mut fields = HashMap::new();
    loop {
        let field = multipart.next_field().await.map_err(malformed)?;
        let Some(field) = field else {
            return Err(Problem::new(
                ErrorCode::MissingFile,
                "the form has no part named `file`: send the file as `file` (with curl: -F file=@path/to/file)",
            ));
        };
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            let filename = field.file_name().unwrap_or("file").to_owned();
            let (tx, failed) = oneshot::channel();
            let chunks = rechunk(field, multipart, tx, allowed.join(", "));
            return Ok(FilePart {
                fields,
                filename,
                chunks,
                failed,
            });
        }
        if !allowed.contains(&name.as_str()) {
            return Err(Problem::new(
                ErrorCode::InvalidArgument,
                format!(
                    "unknown form field {name:?}: this endpoint takes `file`{}",
                    allowed_list(allowed)
                ),
            ));
        }
        let value = field.text().await.map_err(malformed)?;
        fields.insert(name, value);
    }
}

fn allowed_list(allowed: &[&str]) -> String {
    allowed.iter().map(|f| format!(", `{f}`")).collect()
}

fn malformed(err: multer::Error) -> Problem {
    Problem::new(
        ErrorCode::InvalidMultipart,
        format!("the multipart body is malformed or incomplete ({err}): resend the whole request"),
    )
}

struct State {
    /// `None` once the part ended: multer needs it dropped before it reads the next part.
    field: Option<multer::Field<'static>>,
    multipart: multer::Multipart<'static>,
    buffer: BytesMut,
    failed: Option<oneshot::Sender<String>>,
    /// The endpoint's option fields, for the error message.
    allowed: String,
    done: bool,
}

fn rechunk(
    field: multer::Field<'static>,
    multipart: multer::Multipart<'static>,
    failed: oneshot::Sender<String>,
    allowed: String,
) -> BoxStream<'static, Bytes> {
    let state = State {
        field: Some(field),
        multipart,
        buffer: BytesMut::new(),
        failed: Some(failed),
        allowed,
        done: false,
    };
    futures::stream::unfold(state, |mut state| async move {
        while !state.done && state.buffer.len() < CHUNK_SIZE {
            let chunk = match state.field.as_mut() {
                Some(field) => field.chunk().await,
                None => Ok(None),
            };
            match chunk {
                Ok(Some(bytes)) => state.buffer.extend_from_slice(&bytes),
                Ok(None) => {
                    state.field = None;
                    // The part ended; the body must end too, so nothing is silently ignored.
                    match state.multipart.next_field().await {
                        Ok(None) => state.done = true,
                        Ok(Some(extra)) => {
                            let name = extra.name().unwrap_or_default().to_owned();
                            let reason = format!(
                                "form field {name:?} comes after `file`: send the options ({}) before the file part",
                                state.allowed
                            );
                            return fail(state, reason).await;
                        }
                        Err(err) => return fail(state, err.to_string()).await,
                    }
                }
                Err(err) => return fail(state, err.to_string()).await,
            }
        }
        if state.buffer.is_empty() {
            return None;
        }
        let take = state.buffer.len().min(CHUNK_SIZE);
        let chunk = state.buffer.split_to(take).freeze();
        Some((chunk, state))
    })
    .boxed()
}

/// Reports the failure, then never yields again: ending the stream would commit a cut file.
async fn fail(mut state: State, reason: String) -> Option<(Bytes, State)> {
    if let Some(tx) = state.failed.take() {
        let _ = tx.send(reason);
    }
    futures::future::pending::<()>().await;
    None
}

impl FilePart {
    /// The gRPC client stream: `head` (the options message), then each chunk wrapped by `wrap`.
    ///
    /// A channel fed by a task, rather than the chunk stream itself, because a boxed stream in
    /// a tonic client-streaming call trips rustc's "higher-ranked lifetime error"
    /// (rust-lang/rust#102211). The task ends when the stream ends or the call is dropped.
    pub fn into_request_stream<M: Send + 'static>(
        chunks: BoxStream<'static, Bytes>,
        head: M,
        wrap: fn(Bytes) -> M,
    ) -> ReceiverStream<M> {
        let (tx, rx) = mpsc::channel(2);
        tokio::spawn(async move {
            let mut chunks = chunks;
            if tx.send(head).await.is_err() {
                return;
            }
            loop {
                tokio::select! {
                    _ = tx.closed() => return,
                    next = chunks.next() => match next {
                        Some(chunk) => if tx.send(wrap(chunk)).await.is_err() { return },
                        None => return,
                    },
                }
            }
        });
        ReceiverStream::new(rx)
    }
}

/// Runs a gRPC call fed by a [`FilePart`], answering 400 if the body fails first. Dropping the
/// call future cancels the gRPC stream, which makes the core discard what it received.
pub async fn race<T>(
    call: impl Future<Output = Result<T, tonic::Status>>,
    failed: oneshot::Receiver<String>,
) -> Result<T, Problem> {
    let failed = async {
        match failed.await {
            Ok(reason) => reason,
            // The stream ended cleanly and dropped its sender: only the call decides now.
            Err(_) => futures::future::pending().await,
        }
    };
    tokio::select! {
        result = call => result.map_err(Problem::from),
        reason = failed => Err(Problem::new(
            ErrorCode::InvalidMultipart,
            format!("the multipart body broke off or is malformed ({reason}); nothing was stored: resend the whole request"),
        )),
    }
}
