//! pdf-to-jpg: every page rendered and written as JPEG (libjpeg-turbo) or lossy WebP
//! (libwebp), one file per page.

use std::path::Path;

use pdfium_render::prelude::*;
use turbojpeg::{Compressor, Image, PixelFormat, Subsamp};

use super::{check_all_pages, open_pages, page_digits, page_sizes, write_file};
use crate::pdf::{
    pdfium,
    render::{Pixels, render},
};
use crate::workers::protocol::{Failure, FailureKind, ToolFile};

pub const MIN_DPI: u32 = 36;
pub const MAX_DPI: u32 = 600;
pub const MIN_QUALITY: u8 = 1;
pub const MAX_QUALITY: u8 = 100;
/// From this quality on, JPEG keeps its chroma at full resolution (4:4:4): coloured text and
/// thin coloured rules stay sharp. Below, chroma is halved both ways (4:2:0).
pub const FULL_CHROMA_FROM: u8 = 90;
/// libwebp's effort, 0 (fastest) to 6; 4 is its default and cwebp's. On ten 150 dpi pages
/// of text, 2 halves the time for 4 % more bytes and 0 takes a third for 28 % more.
const WEBP_METHOD: i32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Jpeg,
    Webp,
}

impl ImageFormat {
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Webp => "webp",
        }
    }

    /// The longest side the format can hold.
    fn max_side(self) -> (u32, &'static str) {
        match self {
            Self::Jpeg => (65_535, "JPEG"),
            Self::Webp => (16_383, "WebP"),
        }
    }
}

/// Renders every page at `dpi` and writes `<stem>-page-001.jpg` (or `.webp`) into `out_dir`;
/// returns the files in page order. Every page's size is checked before the first render.
#[allow(clippy::too_many_arguments)]
pub fn page_images(
    pdfium: &Pdfium,
    path: &str,
    dpi: u32,
    quality: u8,
    format: ImageFormat,
    stem: &str,
    out_dir: &Path,
    max_pixels: u64,
) -> Result<Vec<ToolFile>, Failure> {
    check_options(dpi, quality)?;
    let (document, count) = open_pages(pdfium, path)?;
    let sizes = page_sizes(&document)?;
    check_all_pages(&sizes, dpi, MIN_DPI, max_pixels, Some(format.max_side()))?;
    let mut encoder = Encoder::new(format, quality)?;
    let digits = page_digits(count);
    (0..count)
        .map(|index| {
            let pixels = {
                let page = pdfium::page(&document, index)?;
                render(&page, index, dpi, max_pixels, false)?
            };
            let data = encoder.encode(&pixels, index)?;
            let name = format!("{stem}-page-{:0digits$}.{}", index + 1, format.extension());
            let path = write_file(out_dir, &name, &data)?;
            Ok(ToolFile {
                path,
                name,
                pages: 1,
            })
        })
        .collect()
}

fn check_options(dpi: u32, quality: u8) -> Result<(), Failure> {
    if !(MIN_DPI..=MAX_DPI).contains(&dpi) {
        return Err(Failure::new(
            FailureKind::BadOptions,
            format!("dpi must be a whole number from {MIN_DPI} to {MAX_DPI}, got {dpi}"),
        ));
    }
    if !(MIN_QUALITY..=MAX_QUALITY).contains(&quality) {
        return Err(Failure::new(
            FailureKind::BadOptions,
            format!(
                "quality must be a whole number from {MIN_QUALITY} to {MAX_QUALITY}, got {quality}"
            ),
        ));
    }
    Ok(())
}

enum Encoder {
    /// One compressor for the whole document: libjpeg-turbo keeps its buffers between pages.
    Jpeg(Compressor),
    Webp(Box<webp::WebPConfig>),
}

impl Encoder {
    fn new(format: ImageFormat, quality: u8) -> Result<Self, Failure> {
        match format {
            ImageFormat::Webp => {
                let mut config = webp::WebPConfig::new().map_err(|()| {
                    Failure::new(FailureKind::Engine, "the WebP encoder failed to start")
                })?;
                config.quality = f32::from(quality);
                config.method = WEBP_METHOD;
                Ok(Self::Webp(Box::new(config)))
            }
            ImageFormat::Jpeg => {
                let subsamp = if quality >= FULL_CHROMA_FROM {
                    Subsamp::None
                } else {
                    Subsamp::Sub2x2
                };
                let mut compressor = Compressor::new().map_err(jpeg_failure)?;
                compressor
                    .set_quality(i32::from(quality))
                    .map_err(jpeg_failure)?;
                compressor.set_subsamp(subsamp).map_err(jpeg_failure)?;
                compressor.set_progressive(false).map_err(jpeg_failure)?;
                // Optimized Huffman tables, still baseline: 12-18 % smaller pages of text for
                // 2-10 ms more a page at 150 dpi.
                compressor.set_optimize(true).map_err(jpeg_failure)?;
                Ok(Self::Jpeg(compressor))
            }
        }
    }

    fn encode(&mut self, pixels: &Pixels, index: u32) -> Result<Vec<u8>, Failure> {
        let (width, height) = (pixels.width as usize, pixels.height as usize);
        match self {
            Self::Jpeg(compressor) => compressor
                .compress_to_vec(Image {
                    pixels: pixels.data.as_slice(),
                    width,
                    pitch: width * 3,
                    height,
                    format: PixelFormat::RGB,
                })
                .map_err(|e| {
                    Failure::new(
                        FailureKind::Engine,
                        format!("JPEG encoding of page {} failed: {e}", index + 1),
                    )
                }),
            Self::Webp(config) => {
                webp::Encoder::from_rgb(&pixels.data, pixels.width, pixels.height)
                    .encode_advanced(config)
                    .map(|memory| memory.to_vec())
                    .map_err(|e| {
                        Failure::new(
                            FailureKind::Engine,
                            format!("WebP encoding of page {} failed: {e:?}", index + 1),
                        )
                    })
            }
        }
    }
}

fn jpeg_failure(err: turbojpeg::Error) -> Failure {
    Failure::new(
        FailureKind::Engine,
        format!("the JPEG encoder failed: {err}"),
    )
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use image::GenericImageView;

    use super::super::testing::{BLANK, IMAGE, TEXT, make_pdf, with_pdfium};
    use super::*;

    const MAX_PIXELS: u64 = 100_000_000;

    fn run(
        pdf: &Path,
        dpi: u32,
        quality: u8,
        format: ImageFormat,
        out: &Path,
        max_pixels: u64,
    ) -> Result<Vec<ToolFile>, Failure> {
        with_pdfium(|p| {
            let pdf = pdf.to_str().expect("utf-8");
            page_images(p, pdf, dpi, quality, format, "doc", out, max_pixels)
        })
    }

    #[test]
    fn writes_decodable_pages_of_the_right_size() {
        let dir = tempfile::tempdir().expect("temp dir");
        let pdf = dir.path().join("in.pdf");
        make_pdf(&pdf, &[TEXT, IMAGE, BLANK]);
        for (dpi, quality, format, size) in [
            (72, 80, ImageFormat::Jpeg, (595, 842)),
            (150, 95, ImageFormat::Jpeg, (1240, 1754)),
            (72, 75, ImageFormat::Webp, (595, 842)),
            (150, 50, ImageFormat::Webp, (1240, 1754)),
        ] {
            let out = tempfile::tempdir().expect("temp dir");
            let files = run(&pdf, dpi, quality, format, out.path(), MAX_PIXELS).expect("rendered");
            let ext = format.extension();
            let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(
                names,
                [1, 2, 3].map(|n| format!("doc-page-00{n}.{ext}")),
                "{format:?}"
            );
            for file in &files {
                assert_eq!(file.pages, 1);
                let data = std::fs::read(&file.path).expect("written");
                if format == ImageFormat::Jpeg {
                    let header = turbojpeg::read_header(&data).expect("a JPEG");
                    let full = if quality >= 90 {
                        Subsamp::None
                    } else {
                        Subsamp::Sub2x2
                    };
                    assert_eq!(header.subsamp, full);
                }
                let decoded = image::load_from_memory(&data).expect("decodes");
                assert_eq!(decoded.dimensions(), size, "{} at {dpi} dpi", file.name);
            }
            // The image page carries its colours; the blank page stays white.
            let picture = image::open(&files[1].path).expect("decodes").to_rgb8();
            let [r, g, b] = picture.get_pixel(size.0 / 2, size.1 / 2).0;
            assert!(r.max(g).max(b) - r.min(g).min(b) > 20, "{r} {g} {b}");
            let blank = image::open(&files[2].path).expect("decodes").to_luma8();
            assert!(blank.pixels().all(|p| p.0[0] > 245));
        }
    }

    #[test]
    fn refuses_bad_options_and_oversized_pages_before_writing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let pdf = dir.path().join("in.pdf");
        make_pdf(&pdf, &[TEXT, TEXT]);
        let out = tempfile::tempdir().expect("temp dir");
        for (dpi, quality, range) in [(35, 80, "36 to 600"), (601, 80, "36 to 600")]
            .into_iter()
            .chain([(150, 0, "1 to 100"), (150, 101, "1 to 100")])
        {
            let failure = run(
                &pdf,
                dpi,
                quality,
                ImageFormat::Jpeg,
                out.path(),
                MAX_PIXELS,
            )
            .unwrap_err();
            assert_eq!(failure.kind, FailureKind::BadOptions as i32);
            assert!(failure.message.contains(range), "{}", failure.message);
        }
        // A4 at 150 dpi is 2.2 Mpx: a cap of 1 Mpx fits 100 dpi (827x1169 = 967k pixels).
        let failure = run(&pdf, 150, 80, ImageFormat::Webp, out.path(), 1_000_000).unwrap_err();
        assert_eq!(failure.kind, FailureKind::TooManyPixels as i32);
        assert!(
            failure.message.starts_with("page 1 would be 1240x1754")
                && failure.message.ends_with("use 101 dpi or less"),
            "{}",
            failure.message
        );
        assert_eq!(std::fs::read_dir(out.path()).expect("listed").count(), 0);
        let failure = run(
            &dir.path().join("nope.pdf"),
            150,
            80,
            ImageFormat::Jpeg,
            out.path(),
            MAX_PIXELS,
        )
        .unwrap_err();
        assert_eq!(failure.kind, FailureKind::InvalidFile as i32);
    }

    /// `cargo test -p quire-core --lib pdf::tools -- --ignored --nocapture`
    #[test]
    #[ignore = "timing, by hand"]
    fn timing_of_ten_pages_at_150_dpi() {
        let pdf = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/compress-corpus/fonts-sil-gentiumplus__features.pdf");
        if !pdf.is_file() {
            return;
        }
        for (format, quality) in [
            (ImageFormat::Jpeg, 85),
            (ImageFormat::Jpeg, 95),
            (ImageFormat::Webp, 80),
        ] {
            let out = tempfile::tempdir().expect("temp dir");
            let start = Instant::now();
            let files = run(&pdf, 150, quality, format, out.path(), MAX_PIXELS).expect("rendered");
            let bytes: u64 = files
                .iter()
                .map(|f| std::fs::metadata(&f.path).map(|m| m.len()).unwrap_or(0))
                .sum();
            eprintln!(
                "page_images {format:?} q{quality}: {} pages in {:?}, {} KB",
                files.len(),
                start.elapsed(),
                bytes / 1024
            );
        }
    }
}
