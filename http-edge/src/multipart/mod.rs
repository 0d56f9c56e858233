//! Streams the `file` part of a multipart/form-data body into a gRPC client stream without
//! buffering it: memory stays flat whatever the file size. Option fields may come before the
//! file part (they go into the first message) or after it (they go into a trailing options
//! message), so `curl -F file=@x -F quality=screen` works as well as the other order.
//!
//! A body that breaks off must never look like a complete file to the core: the client stream
//! then stalls instead of ending and the handler answers 400, dropping the call, which cancels
//! the gRPC stream and makes the core discard what it received.

use std::{collections::HashMap, task::Poll};

use axum::{body::Body, http::HeaderMap};
use bytes::{Bytes, BytesMut};
use futures::{StreamExt, stream::BoxStream};
use quire_proto::{ErrorCode, transport::CHUNK_SIZE};
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;

use crate::problem::Problem;

pub mod files;

/// Smallest message the file is sent in, but for its last: smaller reads are gathered.
const MIN_CHUNK: usize = 64 * 1024;

/// Text fields are options; anything longer is not one.
const MAX_TEXT_FIELD: u64 = 64 * 1024;

pub type Fields = HashMap<String, String>;

/// What the body yields after the start of the file part.
enum Piece {
    Chunk(Bytes),
    /// Option fields that came after the file part.
    Trailer(Fields),
}

pub struct FilePart {
    /// Option fields sent before the file part.
    pub fields: Fields,
    pub filename: String,
    pieces: BoxStream<'static, Result<Piece, Problem>>,
}

/// The body's reads, handed to multer at most [`CHUNK_SIZE`] bytes per poll. multer drains its
/// stream until the stream is pending, so behind a fast client one poll would take in all the
/// socket holds and keep it in one buffer that the file's chunks then share; pausing after a
/// chunk's worth keeps the parser about one chunk ahead, with one extra wake-up per chunk.
struct BoundedReads<S> {
    reads: S,
    /// Bytes handed over since the stream last paused.
    taken: usize,
}

impl<S> futures::Stream for BoundedReads<S>
where
    S: futures::Stream<Item = Result<Bytes, axum::Error>> + Unpin,
{
    type Item = S::Item;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<Option<S::Item>> {
        if self.taken >= CHUNK_SIZE {
            self.taken = 0;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let Poll::Ready(next) = self.reads.poll_next_unpin(cx) else {
            self.taken = 0;
            return Poll::Pending;
        };
        if let Some(Ok(bytes)) = &next {
            self.taken += bytes.len();
        }
        Poll::Ready(next)
    }
}

/// Reads the body up to the start of the `file` part. `allowed` lists the option fields the
/// endpoint takes; any other field is a 400 that names the allowed ones.
pub async fn file_part(
    headers: &HeaderMap,
    body: Body,
    allowed: &'static [&'static str],
) -> Result<FilePart, Problem> {
    let mut multipart = reader(headers, body, |content_type| {
        format!(
            "the body must be multipart/form-data with a part named `file` (got Content-Type {content_type:?}); \
             with curl: -F file=@path/to/file"
        )
    })?;
    let mut fields = Fields::new();
    loop {
        let Some(field) = multipart.next_field().await.map_err(malformed)? else {
            return Err(Problem::new(
                ErrorCode::MissingFile,
                "the form has no part named `file`: send the file as `file` (with curl: -F file=@path/to/file)",
            ));
        };
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            let filename = field.file_name().unwrap_or("file").to_owned();
            return Ok(FilePart {
                fields,
                filename,
                pieces: pieces(field, multipart, allowed),
            });
        }
        check_allowed(&name, allowed)?;
        let value = field.text().await.map_err(malformed)?;
        fields.insert(name, value);
    }
}

/// A multipart reader of `body` whose `file` parts may be of any size and whose other fields
/// are options of at most [`MAX_TEXT_FIELD`] bytes; `not_multipart` words the refusal of a
/// body of another type.
pub(super) fn reader(
    headers: &HeaderMap,
    body: Body,
    not_multipart: impl FnOnce(&str) -> String,
) -> Result<multer::Multipart<'static>, Problem> {
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let boundary = multer::parse_boundary(content_type)
        .map_err(|_| Problem::new(ErrorCode::InvalidMultipart, not_multipart(content_type)))?;
    let constraints = multer::Constraints::new().size_limit(
        multer::SizeLimit::new()
            .for_field("file", u64::MAX)
            .per_field(MAX_TEXT_FIELD),
    );
    let reads = BoundedReads {
        reads: body.into_data_stream(),
        taken: 0,
    };
    Ok(multer::Multipart::with_constraints(
        reads,
        boundary,
        constraints,
    ))
}

pub(super) fn check_allowed(name: &str, allowed: &[&str]) -> Result<(), Problem> {
    if allowed.contains(&name) {
        return Ok(());
    }
    let listed: String = allowed.iter().map(|f| format!(", `{f}`")).collect();
    Err(Problem::new(
        ErrorCode::InvalidArgument,
        format!("unknown form field {name:?}: this endpoint takes `file`{listed}"),
    ))
}

pub(super) fn malformed(err: multer::Error) -> Problem {
    Problem::new(
        ErrorCode::InvalidMultipart,
        format!(
            "the multipart body is malformed or incomplete ({err}); nothing was stored: resend the whole request"
        ),
    )
}

struct Reader {
    /// `None` once the part ended: multer needs it dropped before it reads the next part.
    field: Option<multer::Field<'static>>,
    multipart: multer::Multipart<'static>,
    allowed: &'static [&'static str],
    /// What is left of the last read from the part.
    rest: Bytes,
    buffer: BytesMut,
    finished: bool,
}

/// The file's bytes in chunks of [`MIN_CHUNK`] to [`CHUNK_SIZE`] (the last one may be
/// smaller), then the fields after the file, if any.
fn pieces(
    field: multer::Field<'static>,
    multipart: multer::Multipart<'static>,
    allowed: &'static [&'static str],
) -> BoxStream<'static, Result<Piece, Problem>> {
    let reader = Reader {
        field: Some(field),
        multipart,
        allowed,
        rest: Bytes::new(),
        buffer: BytesMut::new(),
        finished: false,
    };
    futures::stream::unfold(reader, |mut reader| async move {
        if reader.finished {
            return None;
        }
        // Every message is at most CHUNK_SIZE and at most one chunk plus one read is held, however
        // large the reads from the socket are. Reads of MIN_CHUNK or more go out as they are
        // (sliced, never copied); only smaller ones are gathered, up to MIN_CHUNK, so that each
        // byte is copied at most once here and tiny reads do not become tiny messages.
        loop {
            if reader.buffer.is_empty() && reader.rest.len() >= MIN_CHUNK {
                let take = reader.rest.len().min(CHUNK_SIZE);
                return Some((Ok(Piece::Chunk(reader.rest.split_to(take))), reader));
            }
            if !reader.rest.is_empty() {
                let take = (MIN_CHUNK - reader.buffer.len()).min(reader.rest.len());
                reader.buffer.extend_from_slice(&reader.rest.split_to(take));
                if reader.buffer.len() == MIN_CHUNK {
                    let chunk = reader.buffer.split().freeze();
                    return Some((Ok(Piece::Chunk(chunk)), reader));
                }
                continue;
            }
            let Some(field) = reader.field.as_mut() else {
                break;
            };
            match field.chunk().await {
                Ok(Some(bytes)) => reader.rest = bytes,
                Ok(None) => reader.field = None,
                Err(err) => return Some((Err(malformed(err)), reader)),
            }
        }
        if !reader.buffer.is_empty() {
            let chunk = reader.buffer.split().freeze();
            return Some((Ok(Piece::Chunk(chunk)), reader));
        }
        reader.finished = true;
        match trailing_fields(&mut reader.multipart, reader.allowed).await {
            Ok(fields) if fields.is_empty() => None,
            Ok(fields) => Some((Ok(Piece::Trailer(fields)), reader)),
            Err(problem) => Some((Err(problem), reader)),
        }
    })
    .boxed()
}

/// Reads the rest of the body: option fields only, and it must end properly.
async fn trailing_fields(
    multipart: &mut multer::Multipart<'static>,
    allowed: &[&str],
) -> Result<Fields, Problem> {
    let mut fields = Fields::new();
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "file" {
            return Err(Problem::new(
                ErrorCode::InvalidArgument,
                "the form has more than one `file` part: send one file per request",
            ));
        }
        check_allowed(&name, allowed)?;
        fields.insert(name, field.text().await.map_err(malformed)?);
    }
    Ok(fields)
}

impl FilePart {
    /// The gRPC client stream: `head`, each chunk wrapped by `chunk`, then, if fields followed
    /// the file part, the message `trailer` makes of them. The second value fires with the
    /// problem if the body fails.
    ///
    /// A channel fed by a task, rather than a stream adapter, because a boxed stream in a
    /// tonic client-streaming call trips rustc's "higher-ranked lifetime error"
    /// (rust-lang/rust#102211). The task ends when the stream ends or the call is dropped.
    pub fn into_request_stream<M: Send + 'static>(
        self,
        head: M,
        chunk: fn(Bytes) -> M,
        trailer: fn(&Fields) -> Result<M, Problem>,
    ) -> (ReceiverStream<M>, oneshot::Receiver<Problem>) {
        let (tx, rx) = mpsc::channel(2);
        let (failed_tx, failed_rx) = oneshot::channel();
        let mut pieces = self.pieces;
        tokio::spawn(async move {
            if tx.send(head).await.is_err() {
                return;
            }
            loop {
                let next = tokio::select! {
                    _ = tx.closed() => return,
                    next = pieces.next() => next,
                };
                let message = match next {
                    None => return,
                    Some(Ok(Piece::Chunk(bytes))) => Ok(chunk(bytes)),
                    Some(Ok(Piece::Trailer(fields))) => trailer(&fields),
                    Some(Err(problem)) => Err(problem),
                };
                match message {
                    Ok(message) => {
                        if tx.send(message).await.is_err() {
                            return;
                        }
                    }
                    Err(problem) => {
                        let _ = failed_tx.send(problem);
                        // Keep the stream open: ending it would commit a cut file.
                        tx.closed().await;
                        return;
                    }
                }
            }
        });
        (ReceiverStream::new(rx), failed_rx)
    }
}

/// Runs a gRPC call fed by [`FilePart::into_request_stream`], answering with the body's
/// problem if it fails first. Dropping the call future cancels the gRPC stream, which makes
/// the core discard what it received.
pub async fn race<T>(
    call: impl Future<Output = Result<T, tonic::Status>>,
    failed: oneshot::Receiver<Problem>,
) -> Result<T, Problem> {
    let failed = async {
        match failed.await {
            Ok(problem) => problem,
            // The stream ended cleanly: only the call decides now.
            Err(_) => futures::future::pending().await,
        }
    };
    tokio::select! {
        result = call => result.map_err(Problem::from),
        problem = failed => Err(problem),
    }
}

#[cfg(test)]
mod tests;
