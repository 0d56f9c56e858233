//! quire.v1.ProcessService: admit (counted), read the options and stage the file, call the
//! engine, map the result. Every request stream is one options message, the file's chunks,
//! then optionally a second options message whose set fields replace the first's (a form field
//! that came after the file part).

use bytes::Bytes;
use futures::{Stream, StreamExt, stream::BoxStream};
use quire_proto::{
    ErrorCode,
    metadata::{COMPRESSED_SIZE, DPI, ORIGINAL_SIZE, PAGE_COUNT, SAVINGS_PERCENT},
    v1::{
        CompressPdfOptions, CompressPdfRequest, CompressPdfResponse, CompressPdfSummary,
        CompressionQuality, OcrOptions, OcrRequest, OcrResponse, PdfToImagesOptions,
        PdfToImagesRequest, PdfToImagesResponse, PdfToImagesSummary, compress_pdf_request,
        compress_pdf_response, ocr_request, pdf_to_images_request, pdf_to_images_response,
        process_service_server::ProcessService,
    },
};
use tokio::sync::oneshot;
use tonic::{Request, Response, Status, Streaming, metadata::MetadataMap};

use super::{
    file_service::cancelled,
    gate::{self, respond},
};
use crate::{
    Core,
    auth::ScopeRule,
    error::{ApiError, ApiResult},
    idempotency::Fingerprint,
    ocr,
    pdf::{compress_request, to_images},
    process::{
        ByteStream, InputKind, sniff,
        staged::{self, StagedInput},
    },
};

pub struct ProcessApi {
    core: Core,
}

impl ProcessApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }
}

/// A request message is either the options or a chunk of the file.
enum Piece<O> {
    Options(O),
    Chunk(Bytes),
}

#[tonic::async_trait]
impl ProcessService for ProcessApi {
    async fn ocr(
        &self,
        request: Request<Streaming<OcrRequest>>,
    ) -> Result<Response<OcrResponse>, Status> {
        let (admitted, mut idempotency) =
            gate::admit_idempotent(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let split = |m: OcrRequest| match m.payload {
            Some(ocr_request::Payload::Options(o)) => Some(Piece::Options(o)),
            Some(ocr_request::Payload::Chunk(c)) => Some(Piece::Chunk(c)),
            None => None,
        };
        let merge = |first: &mut OcrOptions, OcrOptions { filename: _, lang }: OcrOptions| {
            if !lang.is_empty() {
                first.lang = lang;
            }
        };
        let result = async {
            let (options, input) = self.receive(request.into_inner(), split, merge).await?;
            let fingerprint = fingerprint("ocr", &options, &input);
            if let Some(answer) = idempotency.replay(&fingerprint)? {
                return Ok(answer);
            }
            let OcrOptions { filename: _, lang } = options;
            let lang = self.resolve_lang(&lang)?;
            let kind = sniff(&input.head).map_err(|received| {
                ApiError::new(
                    ErrorCode::UnsupportedFileType,
                    format!(
                        "received {received}: OCR reads PNG, JPEG, TIFF, WebP, BMP images and PDFs"
                    ),
                )
            })?;
            let ocr::OcrResult {
                text,
                pages,
                chars,
                lang,
            } = ocr::extract(&self.core.processing, &input, kind, lang).await?;
            let response = OcrResponse {
                text,
                pages,
                chars,
                lang,
            };
            let metadata = admitted.metadata();
            idempotency.keep(&fingerprint, &response, &metadata).await?;
            Ok((response, metadata))
        }
        .await;
        if result.is_err() {
            idempotency.release().await;
        }
        match result {
            Ok((response, metadata)) => Ok(respond(response, metadata)),
            Err(err) => Err(admitted.fail(err).await.into()),
        }
    }

    type CompressPdfStream = BoxStream<'static, Result<CompressPdfResponse, Status>>;

    async fn compress_pdf(
        &self,
        request: Request<Streaming<CompressPdfRequest>>,
    ) -> Result<Response<Self::CompressPdfStream>, Status> {
        let (mut admitted, mut idempotency) =
            gate::admit_idempotent(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let split = |m: CompressPdfRequest| match m.payload {
            Some(compress_pdf_request::Payload::Options(o)) => Some(Piece::Options(o)),
            Some(compress_pdf_request::Payload::Chunk(c)) => Some(Piece::Chunk(c)),
            None => None,
        };
        let merge = |first: &mut CompressPdfOptions,
                     CompressPdfOptions {
                         filename: _,
                         quality,
                     }: CompressPdfOptions| {
            if quality != 0 {
                first.quality = quality;
            }
        };
        let result = async {
            let (options, input) = self.receive(request.into_inner(), split, merge).await?;
            let fingerprint = fingerprint("compress-pdf", &options, &input);
            if let Some(answer) = idempotency.replay_file(&self.core, &fingerprint).await? {
                return Ok(answer);
            }
            let CompressPdfOptions {
                filename: _,
                quality,
            } = options;
            if quire_compress::Preset::from_quality(quality).is_none() {
                return Err(ApiError::invalid(format!(
                    "quality {quality} is not one of {} (default ebook)",
                    CompressionQuality::NAMES.join(", ")
                )));
            }
            expect_pdf(&input)?;
            let compress_request::Compressed {
                original_size,
                compressed_size,
                savings_percent,
                pdf,
            } = compress_request::compress(&self.core.processing, input, quality).await?;
            let mut metadata = admitted.metadata();
            insert(&mut metadata, ORIGINAL_SIZE, original_size);
            insert(&mut metadata, COMPRESSED_SIZE, compressed_size);
            if let Ok(value) = format!("{savings_percent:.2}").parse() {
                metadata.insert(SAVINGS_PERCENT, value);
            }
            let summary = CompressPdfResponse {
                payload: Some(compress_pdf_response::Payload::Summary(
                    CompressPdfSummary {
                        original_size,
                        compressed_size,
                        savings_percent,
                    },
                )),
            };
            let pdf = idempotency
                .keep_file(&self.core, &fingerprint, &summary, &metadata, pdf)
                .await?;
            Ok((summary, metadata, pdf))
        }
        .await;
        if result.is_err() {
            idempotency.release().await;
        }
        match result {
            Ok((summary, metadata, pdf)) => {
                let stream = summary_then_chunks(summary, pdf, |bytes| CompressPdfResponse {
                    payload: Some(compress_pdf_response::Payload::Chunk(bytes)),
                });
                Ok(respond(admitted.until_sent(stream), metadata))
            }
            Err(err) => Err(admitted.fail(err).await.into()),
        }
    }

    type PdfToImagesStream = BoxStream<'static, Result<PdfToImagesResponse, Status>>;

    async fn pdf_to_images(
        &self,
        request: Request<Streaming<PdfToImagesRequest>>,
    ) -> Result<Response<Self::PdfToImagesStream>, Status> {
        let (mut admitted, mut idempotency) =
            gate::admit_idempotent(&self.core, request.metadata(), ScopeRule::UPLOAD).await?;
        let split = |m: PdfToImagesRequest| match m.payload {
            Some(pdf_to_images_request::Payload::Options(o)) => Some(Piece::Options(o)),
            Some(pdf_to_images_request::Payload::Chunk(c)) => Some(Piece::Chunk(c)),
            None => None,
        };
        let merge = |first: &mut PdfToImagesOptions, PdfToImagesOptions { filename: _, dpi }| {
            if dpi != 0 {
                first.dpi = dpi;
            }
        };
        let result = async {
            let (options, input) = self.receive(request.into_inner(), split, merge).await?;
            let fingerprint = fingerprint("pdf-to-images", &options, &input);
            if let Some(answer) = idempotency.replay_file(&self.core, &fingerprint).await? {
                return Ok(answer);
            }
            let PdfToImagesOptions { filename: _, dpi } = options;
            let dpi = to_images::check_dpi(dpi)?;
            expect_pdf(&input)?;
            let to_images::Rendering { pages, dpi, zip } =
                to_images::render_zip(&self.core.processing, input, dpi).await?;
            let mut metadata = admitted.metadata();
            insert(&mut metadata, PAGE_COUNT, pages);
            insert(&mut metadata, DPI, dpi);
            let summary = PdfToImagesResponse {
                payload: Some(pdf_to_images_response::Payload::Summary(
                    PdfToImagesSummary {
                        page_count: pages,
                        dpi,
                    },
                )),
            };
            let zip = idempotency
                .keep_file(&self.core, &fingerprint, &summary, &metadata, zip)
                .await?;
            Ok((summary, metadata, zip))
        }
        .await;
        if result.is_err() {
            idempotency.release().await;
        }
        match result {
            Ok((summary, metadata, zip)) => {
                let stream = summary_then_chunks(summary, zip, |bytes| PdfToImagesResponse {
                    payload: Some(pdf_to_images_response::Payload::Chunk(bytes)),
                });
                Ok(respond(admitted.until_sent(stream), metadata))
            }
            Err(err) => Err(admitted.fail(err).await.into()),
        }
    }
}

impl ProcessApi {
    /// Reads the options, stages the file, merges trailing options.
    async fn receive<M, O>(
        &self,
        mut stream: Streaming<M>,
        split: impl Fn(M) -> Option<Piece<O>> + Send + Sync,
        merge: impl FnOnce(&mut O, O) + Send,
    ) -> ApiResult<(O, StagedInput)>
    where
        M: Send + 'static,
        O: Send,
    {
        let mut options = match stream.message().await {
            Ok(Some(message)) => match split(message) {
                Some(Piece::Options(options)) => options,
                _ => return Err(first_message()),
            },
            Ok(None) => return Err(first_message()),
            Err(status) => return Err(cancelled(status)),
        };
        let (trailer_tx, trailer_rx) = oneshot::channel();
        let mut trailer_tx = Some(trailer_tx);
        let chunks = file_chunks(stream, &split, &mut trailer_tx);
        let input = staged::stage(
            &self.core.processing.staging,
            self.core.config.max_upload_size,
            chunks,
        )
        .await?;
        drop(trailer_tx);
        if let Ok(trailer) = trailer_rx.await {
            merge(&mut options, trailer);
        }
        Ok((options, input))
    }

    fn resolve_lang(&self, lang: &str) -> ApiResult<String> {
        self.core
            .processing
            .languages
            .resolve(lang)
            .map_err(ApiError::invalid)
    }
}

/// The chunks after the options; a trailing options message goes to `trailer`, and anything
/// after it is an error.
fn file_chunks<'a, M, O>(
    stream: Streaming<M>,
    split: &'a (impl Fn(M) -> Option<Piece<O>> + Send + Sync),
    trailer: &'a mut Option<oneshot::Sender<O>>,
) -> impl Stream<Item = ApiResult<Bytes>> + Send + 'a
where
    M: Send + 'static,
    O: Send,
{
    stream
        .map(move |message| match message {
            Ok(message) => match split(message) {
                Some(Piece::Chunk(bytes)) if trailer.is_some() => Some(Ok(bytes)),
                Some(Piece::Options(options)) => match trailer.take() {
                    Some(tx) => {
                        let _ = tx.send(options);
                        None
                    }
                    None => Some(Err(ApiError::invalid(
                        "at most one options message may follow the file's chunks",
                    ))),
                },
                Some(Piece::Chunk(_)) => Some(Err(ApiError::invalid(
                    "no chunk may follow the trailing options message",
                ))),
                None => Some(Err(ApiError::invalid(
                    "a request message carries no payload",
                ))),
            },
            Err(status) => Some(Err(cancelled(status))),
        })
        .filter_map(futures::future::ready)
}

/// A file answer: the summary message first (its figures are also in the metadata), then the
/// file's chunks, each wrapped by `chunk`.
fn summary_then_chunks<R: Send + 'static>(
    summary: R,
    bytes: ByteStream,
    chunk: fn(Bytes) -> R,
) -> BoxStream<'static, Result<R, Status>> {
    futures::stream::once(async { Ok(summary) })
        .chain(bytes.map(move |piece| piece.map(chunk).map_err(Status::from)))
        .boxed()
}

/// What a processing request asked for: the endpoint, its options (after any trailing
/// options message) and the file's content.
fn fingerprint(rpc: &str, options: &impl prost::Message, input: &StagedInput) -> Fingerprint {
    let mut fingerprint = Fingerprint::new(rpc);
    fingerprint.message(options).field(input.digest.as_bytes());
    fingerprint
}

fn first_message() -> ApiError {
    ApiError::invalid(
        "the first message must carry the options (filename and settings), then the file's chunks",
    )
}

fn expect_pdf(input: &StagedInput) -> ApiResult<()> {
    match sniff(&input.head) {
        Ok(InputKind::Pdf) => Ok(()),
        Ok(InputKind::Image | InputKind::Tiff) => Err(ApiError::new(
            ErrorCode::UnsupportedFileType,
            "received an image: this endpoint takes a PDF",
        )),
        Err(received) => Err(ApiError::new(
            ErrorCode::UnsupportedFileType,
            format!("received {received}: this endpoint takes a PDF"),
        )),
    }
}

fn insert(metadata: &mut MetadataMap, key: &'static str, value: impl Into<u64>) {
    let value: u64 = value.into();
    metadata.insert(key, value.into());
}
