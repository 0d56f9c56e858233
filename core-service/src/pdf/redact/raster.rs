//! The fallback for a page that cannot be redacted safely in its content (text drawn in a way
//! that cannot be split, images that cannot be decoded, a check that failed): the input page
//! as PDFium draws it, the areas painted over in the box colour, stored as a JPEG with an
//! invisible text layer of what Tesseract reads on the rest of the page. The PDF/A conversion
//! pictures the pages whose transparency PDF/A-1 cannot keep the same way, with no area and
//! the page's own words (PDFium's text) as the text layer.

use pdfium_render::prelude::*;
use quire_toolbox::redact::{RasterPage, Rect};
use turbojpeg::{Compressor, Image, PixelFormat, Subsamp};

use super::frame::Frame;
use crate::{
    ocr::tesseract::Tesseract,
    pdf::render::{self, Pixels},
    workers::protocol::{Failure, FailureKind},
};

/// Pictures of pages are drawn at this resolution, or lower when the page would pass the
/// worker's pixel cap: enough for Tesseract and for reading on screen.
const DPI: u32 = 200;
const LOWEST_DPI: u32 = 72;
const JPEG_QUALITY: i32 = 85;
/// Tesseract's languages for the text layer: the trained data the setup installs.
const OCR_LANG: &str = "eng+fra";

/// Where a pictured page's invisible words come from.
pub enum Words<'a> {
    /// What Tesseract reads on the picture: the redaction, whose page text may hold what it
    /// removed.
    Ocr(&'a mut Tesseract),
    /// The page's own text as PDFium reads it, word by word: a page pictured whole.
    Text,
}

/// The pages `numbers` (1-based) of `document`, pictured with `areas` painted over.
pub fn rasterize(
    document: &PdfDocument,
    numbers: &[u32],
    areas: &[(u32, Rect)],
    fill: [u8; 3],
    mut source: Words,
    max_pixels: u64,
) -> Result<Vec<RasterPage>, Failure> {
    numbers
        .iter()
        .map(|&number| {
            let index = number.saturating_sub(1);
            let page = crate::pdf::pdfium::page(document, index)?;
            let frame = Frame::of(&page);
            let dpi = dpi_within(&page, max_pixels);
            let mut pixels = render::render(&page, index, dpi, max_pixels, false)?;
            let scale = f64::from(dpi) / 72.0;
            for (_, rect) in areas.iter().filter(|(p, _)| *p == number) {
                paint(&mut pixels, &frame, rect, scale, fill);
            }
            let read = match &mut source {
                Words::Ocr(tesseract) => tesseract.words(OCR_LANG, &to_grey(&pixels), Some(dpi))?,
                Words::Text => Vec::new(),
            };
            let own = match source {
                Words::Text => page_words(&page)?,
                Words::Ocr(_) => Vec::new(),
            };
            let words = read
                .into_iter()
                .map(|(text, [left, top, width, height])| {
                    let a = frame.from_pixels(f64::from(left), f64::from(top), scale);
                    let b =
                        frame.from_pixels(f64::from(left + width), f64::from(top + height), scale);
                    let rect = Rect {
                        x0: a.0.min(b.0),
                        y0: a.1.min(b.1),
                        x1: a.0.max(b.0),
                        y1: a.1.max(b.1),
                    };
                    (text, rect)
                })
                .chain(own)
                // A word Tesseract reads inside an area (the label, a sliver of a glyph) is
                // never written back.
                .filter(|(_, rect)| {
                    !areas
                        .iter()
                        .any(|(p, area)| *p == number && overlaps(area, rect))
                })
                .collect();
            Ok(RasterPage {
                page: number,
                image: jpeg(&pixels)?,
                words,
            })
        })
        .collect()
}

/// The page's words as PDFium reads them, each with the box of its characters.
fn page_words(page: &PdfPage) -> Result<Vec<(String, Rect)>, Failure> {
    let text = super::search::PageText::read(page)?;
    let mut words: Vec<(String, Rect)> = Vec::new();
    let mut open = false;
    for (c, (_, rect)) in text.text.chars().zip(&text.chars) {
        match rect {
            Some(r) if !c.is_whitespace() => match words.last_mut() {
                Some((word, last)) if open => {
                    word.push(c);
                    *last = Rect {
                        x0: last.x0.min(r.x0),
                        y0: last.y0.min(r.y0),
                        x1: last.x1.max(r.x1),
                        y1: last.y1.max(r.y1),
                    };
                }
                _ => {
                    words.push((c.to_string(), *r));
                    open = true;
                }
            },
            _ => open = false,
        }
    }
    Ok(words)
}

/// The highest resolution up to DPI at which the page fits the pixel cap.
fn dpi_within(page: &PdfPage, max_pixels: u64) -> u32 {
    let (w, h) = (page.width().value, page.height().value);
    (LOWEST_DPI..=DPI)
        .rev()
        .step_by(8)
        .find(|&dpi| {
            let (pw, ph) = crate::pdf::pdfium::pixel_size(w, h, dpi);
            u64::from(pw) * u64::from(ph) <= max_pixels
        })
        .unwrap_or(LOWEST_DPI)
}

/// Every pixel whose square touches the area takes the fill colour.
pub fn paint(pixels: &mut Pixels, frame: &Frame, rect: &Rect, scale: f64, fill: [u8; 3]) {
    let a = frame.to_pixels(rect.x0, rect.y0, scale);
    let b = frame.to_pixels(rect.x1, rect.y1, scale);
    let clamp = |v: f64, max: u32| (v.max(0.0) as u32).min(max);
    let (x0, x1) = (
        clamp(a.0.min(b.0).floor(), pixels.width),
        clamp(a.0.max(b.0).ceil(), pixels.width),
    );
    let (y0, y1) = (
        clamp(a.1.min(b.1).floor(), pixels.height),
        clamp(a.1.max(b.1).ceil(), pixels.height),
    );
    let channels = usize::from(pixels.channels);
    let colour: &[u8] = if channels == 1 {
        &[
            ((u32::from(fill[0]) * 299 + u32::from(fill[1]) * 587 + u32::from(fill[2]) * 114)
                / 1000) as u8,
        ]
    } else {
        &fill
    };
    for y in y0..y1 {
        let row = y as usize * pixels.width as usize * channels;
        for x in x0..x1 {
            let at = row + x as usize * channels;
            pixels.data[at..at + channels].copy_from_slice(colour);
        }
    }
}

fn to_grey(pixels: &Pixels) -> Pixels {
    Pixels {
        width: pixels.width,
        height: pixels.height,
        channels: 1,
        data: pixels
            .data
            .chunks_exact(3)
            .map(|p| {
                ((u32::from(p[0]) * 299 + u32::from(p[1]) * 587 + u32::from(p[2]) * 114) / 1000)
                    as u8
            })
            .collect(),
    }
}

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

fn jpeg(pixels: &Pixels) -> Result<Vec<u8>, Failure> {
    let failed = |e: turbojpeg::Error| {
        Failure::new(
            FailureKind::Engine,
            format!("the page picture could not be encoded: {e}"),
        )
    };
    let mut compressor = Compressor::new().map_err(failed)?;
    compressor.set_quality(JPEG_QUALITY).map_err(failed)?;
    compressor.set_subsamp(Subsamp::Sub2x2).map_err(failed)?;
    let image = Image {
        pixels: pixels.data.as_slice(),
        width: pixels.width as usize,
        pitch: pixels.width as usize * 3,
        height: pixels.height as usize,
        format: PixelFormat::RGB,
    };
    compressor.compress_to_vec(image).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painting_covers_the_area_and_nothing_else() {
        let mut pixels = Pixels {
            width: 100,
            height: 100,
            channels: 3,
            data: vec![255; 100 * 100 * 3],
        };
        // A 100x100 pt page drawn at one pixel per point: the top-left quarter.
        let frame = Frame::new([0.0, 0.0, 100.0, 100.0], 0);
        let rect = Rect {
            x0: 0.0,
            y0: 50.0,
            x1: 50.0,
            y1: 100.0,
        };
        paint(&mut pixels, &frame, &rect, 1.0, [0, 0, 0]);
        let at = |x: usize, y: usize| pixels.data[(y * 100 + x) * 3];
        assert_eq!(at(0, 0), 0);
        assert_eq!(at(49, 49), 0);
        assert_eq!(at(50, 49), 255);
        assert_eq!(at(49, 50), 255);
    }
}
