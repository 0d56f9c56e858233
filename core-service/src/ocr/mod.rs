//! OCR: images and PDFs to text. Requests are orchestrated here, on the core; decoding,
//! rendering and Tesseract run in the worker processes.

pub mod image_input;
pub mod languages;
pub mod tesseract;

use futures::{StreamExt, TryStreamExt, stream};
use quire_proto::ErrorCode;

use crate::{
    error::{ApiError, ApiResult},
    process::{InputKind, MAX_PAGES, Processing, staged::StagedInput, unexpected_answer},
    workers::protocol::{Answer, Inspect, Job, Ocr, Source, Task},
};

#[derive(Debug)]
pub struct OcrResult {
    pub text: String,
    pub pages: u32,
    /// Unicode characters (not bytes) in `text`.
    pub chars: u64,
    pub lang: String,
}

/// Text of every page or frame of `input`, in order, pages separated by a form feed.
pub async fn extract(
    processing: &Processing,
    input: &StagedInput,
    kind: InputKind,
    lang: String,
) -> ApiResult<OcrResult> {
    let source = match kind {
        InputKind::Pdf => Source::Pdf,
        InputKind::Image => Source::Image,
    } as i32;
    let path = input.path();
    let pages = count_pages(processing, &path, source).await?;
    if pages > MAX_PAGES {
        return Err(ApiError::new(
            ErrorCode::TooManyPages,
            format!(
                "the file has {pages} pages and OCR takes at most {MAX_PAGES}: split it and send \
                 the parts"
            ),
        ));
    }
    // At most one job per worker in flight for this request, so a 30-page file does not
    // hold the whole queue and other requests' pages interleave with its own.
    let texts: Vec<String> = stream::iter(0..pages)
        .map(|page| {
            processing.run(Job {
                task: Some(Task::Ocr(Ocr {
                    path: path.clone(),
                    source,
                    page,
                    lang: lang.clone(),
                    max_pixels: processing.max_pixels,
                })),
            })
        })
        .buffered(processing.pool.workers())
        .map_ok(|answer| match answer {
            Answer::Text(text) => Ok(text.text.trim_end().to_owned()),
            _ => Err(unexpected_answer()),
        })
        .and_then(|text| async move { text })
        .try_collect()
        .await?;
    let text = texts.join("\u{c}");
    Ok(OcrResult {
        chars: text.chars().count() as u64,
        text,
        pages,
        lang,
    })
}

async fn count_pages(processing: &Processing, path: &str, source: i32) -> ApiResult<u32> {
    let answer = processing
        .run(Job {
            task: Some(Task::Inspect(Inspect {
                path: path.to_owned(),
                source,
            })),
        })
        .await?;
    match answer {
        Answer::Info(info) if info.pages > 0 => Ok(info.pages),
        Answer::Info(_) => Err(ApiError::new(
            ErrorCode::InvalidFile,
            "the file has no pages",
        )),
        _ => Err(unexpected_answer()),
    }
}
