//! OCR: images and PDFs to text. Requests are orchestrated here, on the core; decoding,
//! rendering and Tesseract run in the worker processes.

pub mod image_input;
pub mod languages;
pub mod tesseract;

use futures::{StreamExt, TryStreamExt, stream};

use crate::{
    error::ApiResult,
    process::{InputKind, Processing, staged::StagedInput, unexpected_answer},
    workers::protocol::{Answer, Job, Ocr, Source, Task},
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
    let path = input.path();
    let (source, pages) = match kind {
        InputKind::Pdf => (Source::Pdf, None),
        InputKind::Tiff => (Source::Image, None),
        // One frame: the OCR job itself checks the header and the pixel cap, so a round trip
        // to count pages would only add latency.
        InputKind::Image => (Source::Image, Some(1)),
    };
    let pages = match pages {
        Some(pages) => pages,
        None => processing.inspect(&path, source, "OCR").await?.pages,
    };
    let source = source as i32;
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
