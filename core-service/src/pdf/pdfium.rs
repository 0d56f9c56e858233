//! PDFium, bound at run time from `libpdfium.so` (the pypdfium2 wheel's build 8149; the
//! `pdfium_latest` feature of pdfium-render 0.9 targets build 8125, the newest API it knows,
//! and 8149 keeps that API). Used only inside worker processes: PDFium is not thread-safe,
//! so each worker owns one instance and parallelism comes from the processes.

use std::path::Path;

use pdfium_render::prelude::*;

use crate::workers::protocol::{Failure, FailureKind, Info};

pub fn bind(library: &Path) -> anyhow::Result<Pdfium> {
    let bindings = Pdfium::bind_to_library(library).map_err(|e| {
        anyhow::anyhow!(
            "cannot load PDFium from {} ({e}); run scripts/setup.sh or set QUIRE_PDFIUM_LIB",
            library.display()
        )
    })?;
    Ok(Pdfium::new(bindings))
}

pub fn open<'a>(pdfium: &'a Pdfium, path: &str) -> Result<PdfDocument<'a>, Failure> {
    pdfium.load_pdf_from_file(path, None).map_err(describe)
}

/// Page count and the size of every page, in points, as displayed (rotation applied); fails
/// if any page cannot be loaded.
pub fn inspect(pdfium: &Pdfium, path: &str) -> Result<Info, Failure> {
    let document = open(pdfium, path)?;
    let pages = document.pages();
    let mut info = Info {
        pages: u32::try_from(pages.len()).unwrap_or(0),
        ..Info::default()
    };
    // Every page must load now: a page that fails later would cut a streamed answer short.
    for index in 0..pages.len() {
        let page = pages.get(index).map_err(|e| {
            Failure::new(
                FailureKind::InvalidFile,
                format!(
                    "page {} of the PDF cannot be read ({e:?}): the file is damaged",
                    index + 1
                ),
            )
        })?;
        info.widths.push(page.width().value);
        info.heights.push(page.height().value);
    }
    Ok(info)
}

pub fn page<'a>(document: &PdfDocument<'a>, index: u32) -> Result<PdfPage<'a>, Failure> {
    let count = document.pages().len();
    let index = i32::try_from(index)
        .ok()
        .filter(|i| *i < count)
        .ok_or_else(|| {
            Failure::new(
                FailureKind::InvalidFile,
                format!("page {} does not exist (the PDF has {count})", index + 1),
            )
        })?;
    document.pages().get(index).map_err(describe)
}

/// Pixel size of a page at `dpi`, rounded as every renderer does (A4 at 150 dpi: 1240x1754).
pub fn pixel_size(width_pt: f32, height_pt: f32, dpi: u32) -> (u32, u32) {
    let scale = dpi as f32 / 72.0;
    let px = |points: f32| ((points * scale).round() as u32).max(1);
    (px(width_pt), px(height_pt))
}

/// Checks a page's rendered size against the pixel cap before any memory is spent on it.
pub fn check_pixels(page: u32, size: (u32, u32), dpi: u32, max_pixels: u64) -> Result<(), Failure> {
    let pixels = u64::from(size.0) * u64::from(size.1);
    if pixels > max_pixels {
        return Err(Failure::new(
            FailureKind::TooManyPixels,
            format!(
                "page {} would be {}x{} pixels at {dpi} dpi ({pixels} pixels), over the limit of \
                 {max_pixels}: use a lower dpi",
                page + 1,
                size.0,
                size.1
            ),
        ));
    }
    Ok(())
}

fn describe(err: PdfiumError) -> Failure {
    match err {
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::PasswordError) => {
            Failure::new(
                FailureKind::Encrypted,
                "the PDF is protected by a password: remove the password and send it again",
            )
        }
        PdfiumError::PdfiumLibraryInternalError(
            PdfiumInternalError::FormatError | PdfiumInternalError::FileError,
        ) => Failure::new(
            FailureKind::InvalidFile,
            "the file is not a readable PDF (corrupt or truncated)",
        ),
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::SecurityError) => {
            Failure::new(
                FailureKind::Encrypted,
                "the PDF uses an unsupported security handler",
            )
        }
        other => Failure::new(
            FailureKind::InvalidFile,
            format!("PDFium could not read the PDF: {other}"),
        ),
    }
}
