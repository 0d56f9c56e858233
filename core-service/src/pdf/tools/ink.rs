//! remove-blank's measure: the share of each page covered by ink, from a small greyscale
//! render. 36 dpi is enough: a line of 10 pt text still darkens whole pixels, and a page
//! costs about a millisecond.

use pdfium_render::prelude::*;

use super::{check_all_pages, open_pages, page_sizes};
use crate::pdf::{pdfium, render::render};
use crate::workers::protocol::Failure;

/// Resolution of the render ink is counted on.
pub const INK_DPI: u32 = 36;
/// A pixel darker than this (luminance, 0-255) is ink: paper tints, scanner noise and
/// faint rules stay above it.
pub const INK_BELOW: u8 = 245;

/// The share of ink (0.0-1.0) on every page, 1-based pages in order, annotations and form
/// fields included.
pub fn ink(pdfium: &Pdfium, path: &str, max_pixels: u64) -> Result<Vec<f32>, Failure> {
    let (document, count) = open_pages(pdfium, path)?;
    check_all_pages(&page_sizes(&document)?, INK_DPI, INK_DPI, max_pixels, None)?;
    (0..count)
        .map(|index| {
            let page = pdfium::page(&document, index)?;
            let pixels = render(&page, index, INK_DPI, max_pixels, true)?;
            Ok(share(&pixels.data))
        })
        .collect()
}

/// The share of greyscale pixels darker than [`INK_BELOW`].
fn share(grey: &[u8]) -> f32 {
    if grey.is_empty() {
        return 0.0;
    }
    let dark = grey.iter().filter(|&&v| v < INK_BELOW).count();
    (dark as f64 / grey.len() as f64) as f32
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::testing::{BLANK, FAINT_LINE, IMAGE, TEXT, corpus, make_pdf, with_pdfium};
    use super::*;
    use crate::workers::protocol::FailureKind;

    const MAX_PIXELS: u64 = 100_000_000;

    #[test]
    fn counts_ink_and_leaves_blank_and_faint_pages_at_zero() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("mixed.pdf");
        make_pdf(&path, &[TEXT, BLANK, FAINT_LINE, IMAGE]);
        let shares =
            with_pdfium(|p| ink(p, path.to_str().expect("utf-8"), MAX_PIXELS)).expect("measured");
        assert_eq!(shares.len(), 4);
        assert!(shares[0] > 0.001 && shares[0] < 0.05, "text: {shares:?}");
        assert_eq!(shares[1], 0.0, "blank: {shares:?}");
        assert_eq!(shares[2], 0.0, "faint line: {shares:?}");
        // 300x300 pt of image on 595x842: about 18 %.
        assert!(shares[3] > 0.15 && shares[3] < 0.2, "image: {shares:?}");
    }

    #[test]
    fn bad_input_fails_as_open_does() {
        let dir = tempfile::tempdir().expect("temp dir");
        let not_pdf = dir.path().join("not.pdf");
        std::fs::write(&not_pdf, b"hello, not a PDF").expect("written");
        let empty = dir.path().join("empty.pdf");
        make_pdf(&empty, &[]);
        let truncated = dir.path().join("truncated.pdf");
        make_pdf(&truncated, &[TEXT, TEXT]);
        let bytes = std::fs::read(&truncated).expect("read");
        std::fs::write(&truncated, &bytes[..bytes.len() / 3]).expect("written");
        with_pdfium(|p| {
            for path in [&not_pdf, &empty, dir.path().join("missing.pdf").as_path()] {
                let failure = ink(p, path.to_str().expect("utf-8"), MAX_PIXELS).unwrap_err();
                assert_eq!(failure.kind, FailureKind::InvalidFile as i32, "{failure:?}");
            }
            let locked = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../.cache/pdf-corpus/pypdf__resources__encryption__r3-user-password.pdf");
            if locked.is_file() {
                let failure = ink(p, locked.to_str().expect("utf-8"), MAX_PIXELS).unwrap_err();
                assert_eq!(failure.kind, FailureKind::Encrypted as i32, "{failure:?}");
            }
            // A truncated file is either refused or read as far as PDFium can: never a panic.
            if let Ok(shares) = ink(p, truncated.to_str().expect("utf-8"), MAX_PIXELS) {
                assert!(shares.iter().all(|s| (0.0..=1.0).contains(s)));
            }
        });
        let tiny_cap = with_pdfium(|p| {
            let path = dir.path().join("one.pdf");
            make_pdf(&path, &[TEXT]);
            ink(p, path.to_str().expect("utf-8"), 1000)
        });
        assert_eq!(
            tiny_cap.unwrap_err().kind,
            FailureKind::TooManyPixels as i32
        );
    }

    #[test]
    fn real_world_pdfs_measure_without_panics() {
        with_pdfium(|p| {
            for path in corpus() {
                let shares = ink(p, path.to_str().expect("utf-8"), MAX_PIXELS)
                    .unwrap_or_else(|f| panic!("{}: {f:?}", path.display()));
                assert!(!shares.is_empty());
                assert!(
                    shares.iter().all(|s| (0.0..=1.0).contains(s)),
                    "{}: {shares:?}",
                    path.display()
                );
            }
        });
    }

    /// Every PDF of both corpora, damaged and fuzzed ones included: a failure or an answer,
    /// never a panic. `cargo test -p quire-core --lib pdf::tools -- --ignored --nocapture`
    #[test]
    #[ignore = "slow, by hand"]
    fn every_corpus_pdf_answers() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache");
        let mut paths: Vec<_> = ["pdf-corpus", "compress-corpus"]
            .iter()
            .filter_map(|dir| std::fs::read_dir(root.join(dir)).ok())
            .flatten()
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "pdf"))
            .collect();
        paths.sort();
        with_pdfium(|p| {
            for path in paths {
                let start = Instant::now();
                let answer = ink(p, path.to_str().expect("utf-8"), MAX_PIXELS);
                let outcome = match answer {
                    Ok(shares) => format!("{} pages", shares.len()),
                    Err(failure) => format!("{failure:?}"),
                };
                eprintln!("{:?} {}: {outcome}", start.elapsed(), path.display());
            }
        });
    }

    /// `cargo test -p quire-core --lib pdf::tools -- --ignored --nocapture`
    #[test]
    #[ignore = "timing, by hand"]
    fn timing_of_a_long_document() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/compress-corpus/r-doc-pdf__R-intro.pdf");
        if !path.is_file() {
            return;
        }
        with_pdfium(|p| {
            let start = Instant::now();
            let shares = ink(p, path.to_str().expect("utf-8"), MAX_PIXELS).expect("measured");
            let blank = shares.iter().filter(|&&s| s < 0.001).count();
            eprintln!(
                "ink: {} pages in {:?} ({blank} blank)",
                shares.len(),
                start.elapsed()
            );
        });
    }
}
