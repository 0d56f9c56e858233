//! A toolbox request's inputs: the options, then each file staged on disk for the workers and
//! scanned by the antivirus on the way in, as uploads are. clamd's verdict on a file comes
//! after its last byte; the tool runs meanwhile (in a worker, which is where untrusted input
//! is read anyway), and its result is handed back only once every verdict says clean.

use bytes::Bytes;
use futures::{Stream, StreamExt};
use quire_proto::{
    ErrorCode,
    v1::{RunToolRequest, ToolInputFile, ToolOptions, run_tool_request::Payload},
};

use crate::{
    Core,
    error::{ApiError, ApiResult},
    files::tee::ScanTee,
    process::staged::{self, StagedInput},
    scan::{self, ScanError, Verdict},
};
use tokio::task::JoinHandle;

/// Files one call may bring (merge is the only tool that takes more than one).
pub const MAX_FILES: usize = 50;

pub struct Input {
    pub staged: StagedInput,
    /// The name the user gave the file.
    pub filename: String,
}

/// clamd's verdicts still to come, one per input.
pub struct Verdicts(Vec<(String, JoinHandle<Result<Verdict, ScanError>>)>);

impl Verdicts {
    /// Waits for every verdict: the first infected file, or a failed scan, is the error.
    pub async fn clean(self) -> ApiResult<()> {
        for (filename, verdict) in self.0 {
            let verdict = verdict
                .await
                .map_err(|e| scan::unavailable(ScanError::Refused(e.to_string())))?;
            match verdict.map_err(scan::unavailable)? {
                Verdict::Clean => {}
                Verdict::Infected(signature) => {
                    tracing::warn!(signature, "toolbox input rejected by antivirus");
                    return Err(ApiError::new(
                        ErrorCode::VirusFound,
                        format!(
                            "the antivirus found {signature} in {filename}; nothing was made \
                             from it: use a clean file"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Reads the options message, then every file; their verdicts follow.
pub async fn receive<S>(core: &Core, stream: S) -> ApiResult<(ToolOptions, Vec<Input>, Verdicts)>
where
    S: Stream<Item = ApiResult<RunToolRequest>> + Send,
{
    let mut stream = std::pin::pin!(stream.peekable());
    let options = match stream.next().await.transpose()?.and_then(|m| m.payload) {
        Some(Payload::Options(options)) => options,
        _ => {
            return Err(ApiError::invalid(
                "the first message must carry the tool's options, then each file: a `file` \
                 message followed by its chunks",
            ));
        }
    };
    let mut inputs = Vec::new();
    let mut verdicts = Vec::new();
    let mut total = 0u64;
    while let Some(message) = stream.next().await.transpose()? {
        let filename = match message.payload {
            Some(Payload::File(ToolInputFile { filename })) => filename,
            Some(Payload::Options(_)) => {
                return Err(ApiError::invalid(
                    "the options may only be sent once, first",
                ));
            }
            Some(Payload::Chunk(_)) | None => {
                return Err(ApiError::invalid(
                    "a chunk came before any `file` message: start each file with one",
                ));
            }
        };
        if inputs.len() == MAX_FILES {
            return Err(ApiError::invalid(format!(
                "at most {MAX_FILES} files per call: send fewer files"
            )));
        }
        // This file's chunks: the messages up to the next `file` message.
        let chunks = futures::stream::poll_fn(|cx| {
            match futures::ready!(stream.as_mut().poll_peek(cx)) {
                Some(Ok(RunToolRequest {
                    payload: Some(Payload::Chunk(_)),
                })) => {}
                _ => return std::task::Poll::Ready(None),
            }
            std::task::Poll::Ready(match futures::ready!(stream.as_mut().poll_next(cx)) {
                Some(Ok(RunToolRequest {
                    payload: Some(Payload::Chunk(bytes)),
                })) => Some(Ok(bytes)),
                _ => None,
            })
        });
        let (staged, verdict) = stage_scanned(core, chunks).await?;
        verdicts.extend(verdict.map(|v| (filename.clone(), v)));
        total += staged.size;
        if total > core.config.max_upload_size {
            return Err(ApiError::new(
                ErrorCode::FileTooLarge,
                format!(
                    "the files add up to more than the {}-byte limit: send fewer or smaller files",
                    core.config.max_upload_size
                ),
            ));
        }
        inputs.push(Input { staged, filename });
    }
    if inputs.is_empty() {
        return Err(ApiError::new(
            ErrorCode::MissingFile,
            "no file came with the options: add the PDF to work on",
        ));
    }
    Ok((options, inputs, Verdicts(verdicts)))
}

/// Stages one file while clamd reads the same chunks; the verdict, when a scanner is set,
/// comes in the task returned.
async fn stage_scanned<S>(
    core: &Core,
    chunks: S,
) -> ApiResult<(StagedInput, Option<JoinHandle<Result<Verdict, ScanError>>>)>
where
    S: Stream<Item = ApiResult<Bytes>> + Send,
{
    let Some(scanner) = &core.scanner else {
        let staged = staged::stage(
            &core.processing.staging,
            core.config.max_upload_size,
            chunks,
        )
        .await?;
        return Ok((staged, None));
    };
    let mut tee = ScanTee::start(scanner.start().await.map_err(scan::unavailable)?);
    let chunks = futures::stream::unfold(
        (Box::pin(chunks), &mut tee),
        |(mut chunks, tee)| async move {
            let chunk = match chunks.next().await? {
                Ok(bytes) => match tee.push(bytes.clone()).await {
                    Ok(()) => Ok(bytes),
                    Err(err) => Err(scan::unavailable(err)),
                },
                Err(err) => Err(err),
            };
            Some((chunk, (chunks, tee)))
        },
    );
    let staged = staged::stage(
        &core.processing.staging,
        core.config.max_upload_size,
        chunks,
    )
    .await?;
    Ok((staged, Some(tokio::spawn(tee.finish()))))
}
