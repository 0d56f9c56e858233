//! PNG, WebP, TIFF and BMP images decoded with `image` into 8-bit gray or RGB samples (1-bit
//! when a gray image is only black and white, as scans and fax pages are), Flate-compressed
//! with PNG predictors chosen row by row; the alpha channel as a soft mask when some pixel is
//! not opaque.

use std::io::{Cursor, Write};

use flate2::Compression;
use flate2::write::ZlibEncoder;
use image::metadata::Orientation as Exif;
use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits};
use lopdf::{Dictionary, Stream, dictionary};

/// zlib's default level, as the rest of the crate writes streams.
const LEVEL: u32 = 6;

/// What the decoder may allocate per pixel of the limit: an RGBA float image's samples, which
/// also leaves room for a TIFF decoder's strip buffers next to 8-bit output.
const ALLOC_PER_PIXEL: u64 = 16;
const MIN_ALLOC: u64 = 64 << 20;

/// One decoded image, as image XObject streams.
pub struct Raster {
    pub width: u32,
    pub height: u32,
    pub exif: Exif,
    pub image: Stream,
    pub mask: Option<Stream>,
}

/// Why an image could not be decoded.
#[derive(Debug)]
pub enum Failure {
    /// More pixels than allowed (width, height).
    TooLarge(u32, u32),
    /// A feature of the format the decoder does not have.
    Unsupported(String),
    /// Damaged or truncated.
    Damaged(String),
}

fn failure(error: ImageError, size: (u32, u32)) -> Failure {
    match error {
        ImageError::Limits(_) => Failure::TooLarge(size.0, size.1),
        ImageError::Unsupported(e) => Failure::Unsupported(e.to_string()),
        other => Failure::Damaged(other.to_string()),
    }
}

/// Decodes the first image of `bytes` (for a TIFF: the directory its header points at).
pub fn decode(bytes: &[u8], format: ImageFormat, max_pixels: u64) -> Result<Raster, Failure> {
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_alloc = Some(max_pixels.saturating_mul(ALLOC_PER_PIXEL).max(MIN_ALLOC));
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|e| failure(e, (0, 0)))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(Failure::TooLarge(width, height));
    }
    if width == 0 || height == 0 {
        return Err(Failure::Damaged("the image has no pixels".into()));
    }
    let exif = decoder.orientation().unwrap_or(Exif::NoTransforms);
    let image = DynamicImage::from_decoder(decoder).map_err(|e| failure(e, (width, height)))?;
    let mask = alpha(&image)
        .filter(|alpha| alpha.iter().any(|&a| a != u8::MAX))
        .map(|alpha| gray(width, height, &alpha));
    let image = if image.color().has_color() {
        let samples = image.into_rgb8().into_raw();
        sampled(width, height, "DeviceRGB", 3, &samples)
    } else {
        gray(width, height, &image.into_luma8().into_raw())
    };
    Ok(Raster {
        width,
        height,
        exif,
        image: image.map_err(|e| Failure::Damaged(e.to_string()))?,
        mask: mask
            .transpose()
            .map_err(|e| Failure::Damaged(e.to_string()))?,
    })
}

/// The alpha channel, 8-bit, when the image has one.
fn alpha(image: &DynamicImage) -> Option<Vec<u8>> {
    match image {
        DynamicImage::ImageLumaA8(pixels) => Some(channel(pixels.as_raw(), 2)),
        DynamicImage::ImageRgba8(pixels) => Some(channel(pixels.as_raw(), 4)),
        other if other.color().has_alpha() => Some(channel(other.to_luma_alpha8().as_raw(), 2)),
        _ => None,
    }
}

/// The last sample of each pixel of `samples` (`per_pixel` samples each).
fn channel(samples: &[u8], per_pixel: usize) -> Vec<u8> {
    samples
        .chunks_exact(per_pixel)
        .filter_map(|pixel| pixel.last().copied())
        .collect()
}

/// A gray image XObject: 1 bit per pixel when every sample is black or white, else 8.
fn gray(width: u32, height: u32, samples: &[u8]) -> std::io::Result<Stream> {
    let space = "DeviceGray";
    if !samples.iter().all(|&v| v == 0 || v == u8::MAX) {
        return sampled(width, height, space, 1, samples);
    }
    let columns = width as usize;
    let row = columns.div_ceil(8);
    let mut packed = vec![0u8; row * height as usize];
    for (line, bits) in samples
        .chunks_exact(columns)
        .zip(packed.chunks_exact_mut(row))
    {
        for (x, &value) in line.iter().enumerate() {
            if value != 0
                && let Some(byte) = bits.get_mut(x / 8)
            {
                *byte |= 0x80 >> (x % 8);
            }
        }
    }
    let mut dict = image_dict(width, height, space, 1);
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::new(LEVEL));
    encoder.write_all(&packed)?;
    dict.set("Filter", "FlateDecode");
    Ok(Stream::new(dict, encoder.finish()?).with_compression(false))
}

fn image_dict(width: u32, height: u32, space: &str, bits: u8) -> Dictionary {
    dictionary! {
        "Type" => "XObject", "Subtype" => "Image", "Width" => width, "Height" => height,
        "ColorSpace" => space, "BitsPerComponent" => bits,
    }
}

/// An 8-bit image XObject of `colors` samples per pixel, each row filtered by the PNG predictor
/// that leaves the smallest sum of magnitudes (libpng's choice), then deflated.
fn sampled(
    width: u32,
    height: u32,
    space: &str,
    colors: usize,
    samples: &[u8],
) -> std::io::Result<Stream> {
    let row = width as usize * colors;
    let mut encoder = ZlibEncoder::new(
        Vec::with_capacity(samples.len() / 4),
        Compression::new(LEVEL),
    );
    let zeros = vec![0u8; row];
    let mut above: &[u8] = &zeros;
    let mut best = vec![0u8; row + 1];
    let mut trial = vec![0u8; row + 1];
    for line in samples.chunks_exact(row).take(height as usize) {
        let mut best_score = u64::MAX;
        for kind in 0..5u8 {
            let score = predict(kind, line, above, colors, &mut trial);
            if score < best_score {
                best_score = score;
                std::mem::swap(&mut best, &mut trial);
            }
        }
        encoder.write_all(&best)?;
        above = line;
    }
    let mut dict = image_dict(width, height, space, 8);
    dict.set("Filter", "FlateDecode");
    dict.set(
        "DecodeParms",
        dictionary! {
            "Predictor" => 15, "Colors" => colors as i64, "BitsPerComponent" => 8,
            "Columns" => width,
        },
    );
    Ok(Stream::new(dict, encoder.finish()?).with_compression(false))
}

/// Writes `line` filtered by PNG filter `kind` (0 none, 1 sub, 2 up, 3 average, 4 Paeth),
/// its type byte first, into `out`; returns the sum of the filtered bytes' magnitudes.
fn predict(kind: u8, line: &[u8], above: &[u8], step: usize, out: &mut [u8]) -> u64 {
    let Some((tag, out)) = out.split_first_mut() else {
        return u64::MAX;
    };
    *tag = kind;
    let mut score = 0u64;
    for (i, (slot, (&x, &b))) in out.iter_mut().zip(line.iter().zip(above)).enumerate() {
        let (a, c) = match i.checked_sub(step) {
            Some(left) => (line[left], above[left]),
            None => (0, 0),
        };
        let guess = match kind {
            0 => 0,
            1 => a,
            2 => b,
            3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
            _ => paeth(a, b, c),
        };
        *slot = x.wrapping_sub(guess);
        score += u64::from((*slot as i8).unsigned_abs());
    }
    score
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Undoes the predictors as a reader does.
    fn unfilter(data: &[u8], row: usize, step: usize) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        for line in data.chunks_exact(row + 1) {
            let start = out.len();
            for (i, &value) in line.iter().skip(1).enumerate() {
                let a = if i >= step { out[start + i - step] } else { 0 };
                let b = if start >= row {
                    out[start - row + i]
                } else {
                    0
                };
                let c = if i >= step && start >= row {
                    out[start - row + i - step]
                } else {
                    0
                };
                let guess = match line[0] {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                    _ => paeth(a, b, c),
                };
                out.push(value.wrapping_add(guess));
            }
        }
        out
    }

    #[test]
    fn predicted_rows_decode_to_the_samples() {
        let (width, height) = (7u32, 5u32);
        let samples: Vec<u8> = (0..width * height * 3)
            .map(|i| (i * 37 % 251) as u8)
            .collect();
        let stream = sampled(width, height, "DeviceRGB", 3, &samples).expect("deflated");
        let mut inflated = Vec::new();
        let mut decoder = flate2::read::ZlibDecoder::new(stream.content.as_slice());
        std::io::Read::read_to_end(&mut decoder, &mut inflated).expect("inflated");
        assert_eq!(unfilter(&inflated, 21, 3), samples);
    }

    #[test]
    fn black_and_white_gray_is_packed_to_one_bit() {
        let samples = [0, 255, 255, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0];
        let stream = gray(9, 2, &samples).expect("deflated");
        assert_eq!(stream.dict.get(b"BitsPerComponent").ok(), Some(&1.into()));
        let packed = stream.decompressed_content().expect("inflated");
        assert_eq!(packed, [0b0110_0000, 0b1000_0000, 0b1000_0000, 0]);
    }
}
