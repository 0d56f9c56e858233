//! Toolbox tools that run on PDFium inside a worker process, one job at a time: the share of
//! ink on each page (remove-blank), pages to JPEG or WebP (pdf-to-jpg), and two PDFs compared
//! page by page (compare).

pub mod compare;
mod compare_picture;
#[cfg(test)]
mod compare_tests;
pub mod content_box;
pub mod ink;
pub mod page_images;
pub mod repair;
#[cfg(test)]
pub(crate) mod testing;

use std::path::Path;

use pdfium_render::prelude::*;

pub use compare::compare;
pub use content_box::content_boxes;
pub use ink::ink;
pub use page_images::{ImageFormat, page_images};
pub use repair::{Repaired, repair};

use super::pdfium::pixel_size;
use crate::workers::protocol::{Failure, FailureKind};

/// Opens `path` as `pdfium::open` does, and refuses a PDF without pages as damaged.
fn open_pages<'a>(pdfium: &'a Pdfium, path: &str) -> Result<(PdfDocument<'a>, u32), Failure> {
    let document = super::pdfium::open(pdfium, path)?;
    let count = u32::try_from(document.pages().len()).unwrap_or(0);
    if count == 0 {
        return Err(Failure::new(
            FailureKind::InvalidFile,
            "the PDF has no pages: the file is damaged or empty",
        ));
    }
    Ok((document, count))
}

/// Every page's size in points, as displayed (rotation applied), read without parsing any
/// page's content.
fn page_sizes(document: &PdfDocument) -> Result<Vec<(f32, f32)>, Failure> {
    let pages = document.pages();
    (0..pages.len())
        .map(|index| {
            let rect = pages.page_size(index).map_err(|e| {
                Failure::new(
                    FailureKind::InvalidFile,
                    format!(
                        "page {} of the PDF cannot be read ({e:?}): the file is damaged",
                        index + 1
                    ),
                )
            })?;
            Ok((rect.width().value, rect.height().value))
        })
        .collect()
}

/// Checks every page against the pixel cap (and an encoder's largest side, if any) at `dpi`
/// before anything is rendered: a job fails at once rather than after half its pages.
fn check_all_pages(
    sizes: &[(f32, f32)],
    dpi: u32,
    min_dpi: u32,
    max_pixels: u64,
    max_side: Option<(u32, &str)>,
) -> Result<(), Failure> {
    for (index, &(width, height)) in sizes.iter().enumerate() {
        let size = pixel_size(width, height, dpi);
        let fits = |dpi| {
            let (w, h) = pixel_size(width, height, dpi);
            u64::from(w) * u64::from(h) <= max_pixels
                && max_side.is_none_or(|(side, _)| w <= side && h <= side)
        };
        if fits(dpi) {
            continue;
        }
        let hint = match (min_dpi..dpi).rev().find(|&d| fits(d)) {
            Some(lower) => format!("use {lower} dpi or less"),
            None => format!("the page is too large even at {min_dpi} dpi"),
        };
        let pixels = u64::from(size.0) * u64::from(size.1);
        let message = match max_side {
            Some((side, format)) if pixels <= max_pixels => format!(
                "page {} would be {}x{} pixels at {dpi} dpi, over {format}'s largest side of \
                 {side} pixels: {hint}",
                index + 1,
                size.0,
                size.1
            ),
            _ => format!(
                "page {} would be {}x{} pixels at {dpi} dpi ({pixels} pixels), over the limit \
                 of {max_pixels}: {hint}",
                index + 1,
                size.0,
                size.1
            ),
        };
        return Err(Failure::new(FailureKind::TooManyPixels, message));
    }
    Ok(())
}

/// `page-001` numbering: three digits, more when the document has more than 999 pages.
fn page_digits(pages: u32) -> usize {
    pages.to_string().len().max(3)
}

fn write_file(dir: &Path, name: &str, data: &[u8]) -> Result<String, Failure> {
    let path = dir.join(name);
    std::fs::write(&path, data).map_err(|e| {
        Failure::new(
            FailureKind::Engine,
            format!("cannot write {}: {e}", path.display()),
        )
    })?;
    Ok(path.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_precheck_names_the_page_and_a_dpi_that_fits() {
        let a4 = (595.276, 841.89);
        let sizes = [a4, (a4.0 * 4.0, a4.1 * 4.0)];
        assert!(check_all_pages(&sizes, 150, 36, 40_000_000, None).is_ok());
        let failure = check_all_pages(&sizes, 300, 36, 40_000_000, None).unwrap_err();
        assert_eq!(failure.kind, FailureKind::TooManyPixels as i32);
        assert!(
            failure.message.starts_with("page 2 would be"),
            "{}",
            failure.message
        );
        let hint: u32 = failure
            .message
            .rsplit("use ")
            .next()
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a dpi in the message");
        let (w, h) = pixel_size(sizes[1].0, sizes[1].1, hint);
        assert!(u64::from(w) * u64::from(h) <= 40_000_000);
        let (w, h) = pixel_size(sizes[1].0, sizes[1].1, hint + 1);
        assert!(u64::from(w) * u64::from(h) > 40_000_000);
        // Within the cap but over WebP's side.
        let tall = [(595.0, 595.0 * 30.0)];
        let failure = check_all_pages(&tall, 72, 36, u64::MAX, Some((16383, "WebP"))).unwrap_err();
        assert!(
            failure.message.contains("WebP's largest side"),
            "{}",
            failure.message
        );
        assert_eq!(page_digits(5), 3);
        assert_eq!(page_digits(1000), 4);
    }
}
