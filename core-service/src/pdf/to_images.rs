//! PDF to PNG pages in a ZIP. Pages render in parallel across the workers and enter the
//! archive in order, stored (PNG is already compressed), so the ZIP streams out while later
//! pages are still rendering.

use async_zip::{Compression, ZipEntryBuilder, tokio::write::ZipFileWriter};
use futures::{StreamExt, stream};

use super::pdfium::{check_pixels, pixel_size};
use crate::{
    error::{ApiError, ApiResult},
    process::{
        ByteStream, Processing, failure_error, read_stream, staged::StagedInput, unexpected_answer,
    },
    workers::protocol::{Answer, Job, Render, Source, Task},
};

pub const DEFAULT_DPI: u32 = 150;
pub const MIN_DPI: u32 = 72;
pub const MAX_DPI: u32 = 300;
/// Bytes of ZIP buffered between the archive writer and the response.
const PIPE: usize = 256 * 1024;

pub struct Rendering {
    pub pages: u32,
    pub dpi: u32,
    pub zip: ByteStream,
}

/// `0` means the default.
pub fn check_dpi(dpi: u32) -> ApiResult<u32> {
    match dpi {
        0 => Ok(DEFAULT_DPI),
        MIN_DPI..=MAX_DPI => Ok(dpi),
        _ => Err(ApiError::invalid(format!(
            "dpi must be a whole number from {MIN_DPI} to {MAX_DPI} (default {DEFAULT_DPI}), got {dpi}"
        ))),
    }
}

/// Checks the whole document (page count, every page's pixel size) before the first byte of
/// the answer, then returns the ZIP as a stream.
pub async fn render_zip(
    processing: &Processing,
    input: StagedInput,
    dpi: u32,
) -> ApiResult<Rendering> {
    let path = input.path();
    let info = processing
        .inspect(&path, Source::Pdf, "PDF to images")
        .await?;
    let pages = info.pages;
    for (page, (width, height)) in info.widths.iter().zip(&info.heights).enumerate() {
        let size = pixel_size(*width, *height, dpi);
        check_pixels(page as u32, size, dpi, processing.max_pixels).map_err(failure_error)?;
    }

    let (reader, writer) = tokio::io::duplex(PIPE);
    let processing = processing.clone();
    let task = tokio::spawn(async move {
        // The staged file must outlive every render job.
        let _input = input;
        write_zip(&processing, &path, pages, dpi, writer).await
    });
    let body = read_stream(reader, (), "streaming the ZIP").chain(
            stream::once(async move {
                // The archive ended: say why if it ended early.
                match task.await {
                    Ok(Ok(())) => None,
                    Ok(Err(err)) => {
                    tracing::warn!(error = %err, "zip cut short: a page failed after the answer began");
                    Some(Err(err))
                }
                    Err(err) => Some(Err(ApiError::internal("building the ZIP", err))),
                }
            })
            .filter_map(|end| async move { end }),
        );
    Ok(Rendering {
        pages,
        dpi,
        zip: Box::pin(body),
    })
}

async fn write_zip(
    processing: &Processing,
    path: &str,
    pages: u32,
    dpi: u32,
    out: tokio::io::DuplexStream,
) -> ApiResult<()> {
    let mut zip = ZipFileWriter::with_tokio(out);
    let mut rendered = stream::iter(0..pages)
        .map(|page| {
            processing.run(Job {
                task: Some(Task::Render(Render {
                    path: path.to_owned(),
                    page,
                    dpi,
                    max_pixels: processing.max_pixels,
                })),
            })
        })
        .buffered(processing.pool.workers())
        .enumerate();
    while let Some((index, answer)) = rendered.next().await {
        let Answer::Page(page) = answer? else {
            return Err(unexpected_answer());
        };
        let entry = ZipEntryBuilder::new(
            format!("page-{:03}.png", index + 1).into(),
            Compression::Stored,
        );
        zip.write_entry_whole(entry, &page.png)
            .await
            .map_err(|e| ApiError::internal("writing the ZIP", e))?;
    }
    zip.close()
        .await
        .map_err(|e| ApiError::internal("writing the ZIP", e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpi_bounds() {
        assert_eq!(check_dpi(0).unwrap(), 150);
        assert_eq!(check_dpi(72).unwrap(), 72);
        assert_eq!(check_dpi(300).unwrap(), 300);
        assert!(check_dpi(71).is_err());
        assert!(check_dpi(301).is_err());
    }

    #[test]
    fn a4_at_150_dpi_is_1240_by_1754() {
        assert_eq!(pixel_size(595.276, 841.89, 150), (1240, 1754));
    }
}
