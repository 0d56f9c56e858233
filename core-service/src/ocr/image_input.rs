//! Images to OCR, decoded inside a worker: PNG, JPEG, WebP and BMP through `image`, TIFF
//! through `tiff` so that each page of a multi-page TIFF is its own frame. Dimensions are read
//! and checked against the pixel cap before any pixel is decoded, so a decompression bomb costs
//! nothing.

use std::{fs::File, io::BufReader};

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use tiff::decoder::{Decoder, DecodingResult};

use crate::{
    pdf::render::Pixels,
    workers::protocol::{Failure, FailureKind},
};

/// An image opened once, its format told from its first bytes.
enum Opened {
    /// Boxed: the TIFF decoder's state is large and short-lived.
    Tiff(Box<Decoder<BufReader<File>>>),
    Other(ImageReader<BufReader<File>>),
}

fn open(path: &str) -> Result<Opened, Failure> {
    let reader = ImageReader::open(path)
        .map_err(|e| {
            Failure::new(
                FailureKind::Engine,
                format!("cannot open staged input: {e}"),
            )
        })?
        .with_guessed_format()
        .map_err(invalid)?;
    match reader.format() {
        Some(ImageFormat::Tiff) => Ok(Opened::Tiff(Box::new(
            Decoder::new(reader.into_inner()).map_err(invalid)?,
        ))),
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP | ImageFormat::Bmp) => {
            Ok(Opened::Other(reader))
        }
        _ => Err(Failure::new(
            FailureKind::InvalidFile,
            "the file is not a PNG, JPEG, TIFF, WebP or BMP image",
        )),
    }
}

/// Frames in the image: pages of a TIFF, 1 for everything else.
pub fn frames(path: &str, max_pixels: u64) -> Result<u32, Failure> {
    match open(path)? {
        Opened::Tiff(mut decoder) => {
            let mut frames = 1;
            check(
                frames - 1,
                decoder.dimensions().map_err(invalid)?,
                max_pixels,
            )?;
            while decoder.more_images() {
                decoder.next_image().map_err(invalid)?;
                check(frames, decoder.dimensions().map_err(invalid)?, max_pixels)?;
                frames += 1;
            }
            Ok(frames)
        }
        Opened::Other(reader) => {
            check(0, reader.into_dimensions().map_err(invalid)?, max_pixels)?;
            Ok(1)
        }
    }
}

/// The resolution a PNG declares (pHYs), which Tesseract otherwise has to estimate from the
/// text, as the tesseract CLI reads it through Leptonica.
pub fn declared_dpi(path: &str) -> Option<u32> {
    let file = File::open(path).ok()?;
    let reader = png::Decoder::new(BufReader::new(file)).read_info().ok()?;
    let dims = reader.info().pixel_dims?;
    (dims.unit == png::Unit::Meter && dims.xppu > 0)
        .then(|| (f64::from(dims.xppu) * 0.0254).round() as u32)
        .filter(|dpi| (70..=2400).contains(dpi))
}

/// Grey pixels of frame `frame`.
pub fn decode(path: &str, frame: u32, max_pixels: u64) -> Result<Pixels, Failure> {
    match open(path)? {
        Opened::Tiff(mut decoder) => {
            decoder.seek_to_image(frame as usize).map_err(invalid)?;
            let (width, height) = decoder.dimensions().map_err(invalid)?;
            check(frame, (width, height), max_pixels)?;
            let colour = decoder.colortype().map_err(invalid)?;
            let data = decoder.read_image().map_err(invalid)?;
            tiff_to_grey(width, height, colour, data)
        }
        Opened::Other(mut reader) => {
            let mut limits = Limits::default();
            limits.max_alloc = Some(max_pixels.saturating_mul(8));
            reader.limits(limits);
            // The header is read once: its size is checked before any pixel is decoded.
            let decoder = reader.into_decoder().map_err(invalid)?;
            check(0, decoder.dimensions(), max_pixels)?;
            let image = DynamicImage::from_decoder(decoder)
                .map_err(invalid)?
                .into_luma8();
            Ok(Pixels {
                width: image.width(),
                height: image.height(),
                channels: 1,
                data: image.into_raw(),
            })
        }
    }
}

fn check(frame: u32, (width, height): (u32, u32), max_pixels: u64) -> Result<(), Failure> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels > max_pixels {
        return Err(Failure::new(
            FailureKind::TooManyPixels,
            format!(
                "image {} is {width}x{height} ({pixels} pixels), over the limit of {max_pixels}: \
                 scale it down",
                frame + 1
            ),
        ));
    }
    if pixels == 0 {
        return Err(Failure::new(
            FailureKind::InvalidFile,
            "the image has no pixels",
        ));
    }
    Ok(())
}

fn tiff_to_grey(
    width: u32,
    height: u32,
    colour: tiff::ColorType,
    data: DecodingResult,
) -> Result<Pixels, Failure> {
    use tiff::ColorType::*;
    let count = width as usize * height as usize;
    let grey: Vec<u8> = match (colour, data) {
        (Gray(8), DecodingResult::U8(d)) => d,
        (Gray(16), DecodingResult::U16(d)) => d.iter().map(|v| (v >> 8) as u8).collect(),
        (RGB(8), DecodingResult::U8(d)) => d.chunks_exact(3).map(luma).collect(),
        (RGBA(8), DecodingResult::U8(d)) => d.chunks_exact(4).map(luma).collect(),
        (Gray(1), DecodingResult::U8(d)) => {
            // Bilevel, rows padded to whole bytes; 0 is black (WhiteIsZero is rare in scans
            // and the decoder reports it as the same colour type).
            let stride = (width as usize).div_ceil(8);
            d.chunks(stride)
                .take(height as usize)
                .flat_map(|row| {
                    (0..width as usize).map(move |x| {
                        if row.get(x / 8).is_some_and(|b| b & (0x80 >> (x % 8)) != 0) {
                            255
                        } else {
                            0
                        }
                    })
                })
                .collect()
        }
        (other, _) => {
            return Err(Failure::new(
                FailureKind::InvalidFile,
                format!("TIFF colour type {other:?} is not supported: use 8-bit grey or RGB"),
            ));
        }
    };
    if grey.len() < count {
        return Err(Failure::new(
            FailureKind::InvalidFile,
            "the TIFF image is truncated",
        ));
    }
    Ok(Pixels {
        width,
        height,
        channels: 1,
        data: grey,
    })
}

fn luma(px: &[u8]) -> u8 {
    ((u32::from(px[0]) * 299 + u32::from(px[1]) * 587 + u32::from(px[2]) * 114) / 1000) as u8
}

fn invalid(err: impl std::fmt::Display) -> Failure {
    Failure::new(
        FailureKind::InvalidFile,
        format!("the image cannot be decoded (corrupt or truncated): {err}"),
    )
}
