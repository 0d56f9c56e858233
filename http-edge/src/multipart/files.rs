//! A form with option fields first, then one or more files (the web toolbox: merge takes
//! several). The fields become the first message; each file part becomes a "file" message with
//! its name, then its chunks, so the whole body streams through without being held.
//!
//! As for one file, a body that breaks off must never look complete: the client stream then
//! stalls instead of ending, and the handler answers with the body's problem.

use axum::{body::Body, http::HeaderMap};
use bytes::Bytes;
use quire_proto::{ErrorCode, transport::CHUNK_SIZE};
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;

use super::{Fields, check_allowed, malformed, reader};
use crate::problem::Problem;

/// How the caller's messages are made: the options from the fields, a file's start from its
/// name, a chunk from bytes.
pub struct Messages<M> {
    pub file: fn(String) -> M,
    pub chunk: fn(Bytes) -> M,
}

/// Reads the fields up to the first `file` part and builds the first message from them with
/// `options` (its refusal is answered before the core is called); the rest of the body then
/// streams in the returned channel. The second value fires with the problem if the body fails.
pub async fn files_stream<M: Send + 'static>(
    headers: &HeaderMap,
    body: Body,
    allowed: &'static [&'static str],
    options: impl FnOnce(&Fields) -> Result<M, Problem>,
    messages: Messages<M>,
) -> Result<(ReceiverStream<M>, oneshot::Receiver<Problem>), Problem> {
    let mut multipart = reader(headers, body, |content_type| {
        format!(
            "the body must be multipart/form-data (got Content-Type {content_type:?}): the \
             options, then the files as `file` parts"
        )
    })?;
    let mut fields = Fields::new();
    let first = loop {
        let Some(field) = multipart.next_field().await.map_err(malformed)? else {
            return Err(Problem::new(
                ErrorCode::MissingFile,
                "the form has no file: add the PDF to work on as a `file` part",
            ));
        };
        if field.name() == Some("file") {
            break field;
        }
        let name = field.name().unwrap_or_default().to_owned();
        check_allowed(&name, allowed)?;
        fields.insert(name, field.text().await.map_err(malformed)?);
    };
    let head = options(&fields)?;

    let (tx, rx) = mpsc::channel(2);
    let (failed_tx, failed_rx) = oneshot::channel();
    tokio::spawn(async move {
        let sent = async {
            tx.send(head).await.map_err(|_| None)?;
            let mut field = first;
            loop {
                let name = field.file_name().unwrap_or("file").to_owned();
                tx.send((messages.file)(name)).await.map_err(|_| None)?;
                while let Some(mut bytes) = field.chunk().await.map_err(|e| Some(malformed(e)))? {
                    while !bytes.is_empty() {
                        let piece = bytes.split_to(bytes.len().min(CHUNK_SIZE));
                        tx.send((messages.chunk)(piece)).await.map_err(|_| None)?;
                    }
                }
                drop(field);
                field = match multipart
                    .next_field()
                    .await
                    .map_err(|e| Some(malformed(e)))?
                {
                    None => return Ok(()),
                    Some(next) if next.name() == Some("file") => next,
                    Some(next) => {
                        return Err(Some(Problem::new(
                            ErrorCode::InvalidArgument,
                            format!(
                                "the field {:?} came after a file: send the option fields \
                                 first, then the files",
                                next.name().unwrap_or_default()
                            ),
                        )));
                    }
                };
            }
        };
        let result: Result<(), Option<Problem>> = sent.await;
        if let Err(Some(problem)) = result {
            let _ = failed_tx.send(problem);
            // Keep the stream open: ending it would hand the core a cut file.
            tx.closed().await;
        }
    });
    Ok((ReceiverStream::new(rx), failed_rx))
}
