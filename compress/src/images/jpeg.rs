//! JPEG decoding and encoding for the compressor, on libjpeg-turbo (the `turbojpeg` crate).
//! Its encoder is about 3× faster than jpeg-encoder's on photos (13 against 39 ms for a
//! 3000×2100 photo at quality 75, same size), and it can decode at M/8 scale inside the IDCT,
//! so a photo bound for a much lower resolution skips most of its pixel work. Huffman decoding
//! of the source is the part no scale skips. Runs in the worker processes only, where a native
//! fault costs one job.

use turbojpeg::{Colorspace, Compressor, Decompressor, Image, PixelFormat, ScalingFactor, Subsamp};

/// Pixels of one image, rows packed, `channels` bytes per pixel: 1 (grey), 3 (RGB) or 4 (CMYK).
pub struct Pixels {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub channels: u8,
}

/// Decodes `data` at the smallest M/8 scale that still gives at least `at_least` pixels on both
/// axes (at full size when none does). The JPEG's own header must agree with the PDF's
/// `width`×`height` and `channels`: anything else (a size mismatch, lossless JPEG) is
/// `None` and the image keeps its bytes. Corrupt or truncated data is `None` too, where a
/// viewer would draw what it could: a re-encode must not bake in the damage.
pub fn decode(
    data: &[u8],
    (width, height): (u32, u32),
    channels: u8,
    at_least: (u32, u32),
) -> Option<Pixels> {
    let mut decompressor = Decompressor::new().ok()?;
    let header = decompressor.read_header(data).ok()?;
    if (header.width, header.height) != (width as usize, height as usize) || header.is_lossless {
        return None;
    }
    let format = match (channels, header.colorspace) {
        (1, Colorspace::Gray) => PixelFormat::GRAY,
        (3, Colorspace::YCbCr | Colorspace::RGB) => PixelFormat::RGB,
        // Four channels as stored (YCCK turned back into CMYK), and only with Adobe's marker,
        // which every four-channel JPEG written here carries too: viewers that read Adobe CMYK
        // as inverted then read the new one the same way as the old.
        (4, Colorspace::CMYK | Colorspace::YCCK) if has_adobe_marker(data) => PixelFormat::CMYK,
        _ => return None,
    };
    let scale = decode_scale((width, height), at_least);
    decompressor.set_scaling_factor(scale).ok()?;
    let scaled = header.scaled(scale);
    let pitch = scaled.width * usize::from(channels);
    let mut image = Image {
        pixels: vec![0; pitch * scaled.height],
        width: scaled.width,
        pitch,
        height: scaled.height,
        format,
    };
    decompressor.decompress(data, image.as_deref_mut()).ok()?;
    Some(Pixels {
        data: image.pixels,
        width: u32::try_from(scaled.width).ok()?,
        height: u32::try_from(scaled.height).ok()?,
        channels,
    })
}

/// Encodes baseline JPEG at `quality`, colour with its chroma at full resolution (4:4:4) or
/// halved both ways (4:2:0), with optimized Huffman tables: about 20 % smaller for about 10 ms
/// more per 6 Mpx photo.
pub fn encode(pixels: &Pixels, quality: u8, full_chroma: bool) -> Option<Vec<u8>> {
    let (format, subsamp) = match (pixels.channels, full_chroma) {
        (1, _) => (PixelFormat::GRAY, Subsamp::Gray),
        (3, true) => (PixelFormat::RGB, Subsamp::None),
        (3, false) => (PixelFormat::RGB, Subsamp::Sub2x2),
        // TurboJPEG stores CMYK as YCCK (with Adobe's marker), whose chroma subsamples as
        // YCbCr's does; black stays at full resolution.
        (4, true) => (PixelFormat::CMYK, Subsamp::None),
        (4, false) => (PixelFormat::CMYK, Subsamp::Sub2x2),
        _ => return None,
    };
    let width = pixels.width as usize;
    let image = Image {
        pixels: pixels.data.as_slice(),
        width,
        pitch: width * usize::from(pixels.channels),
        height: pixels.height as usize,
        format,
    };
    let mut compressor = Compressor::new().ok()?;
    compressor.set_quality(i32::from(quality)).ok()?;
    compressor.set_subsamp(subsamp).ok()?;
    compressor.set_optimize(true).ok()?;
    compressor.compress_to_vec(image).ok()
}

/// Peak signal-to-noise ratio, in dB, of `jpeg` decoded against the `pixels` it was encoded
/// from: how far a lossy re-encode strays, before it is allowed in.
pub fn fidelity(jpeg: &[u8], pixels: &Pixels) -> Option<f64> {
    let size = (pixels.width, pixels.height);
    let decoded = decode(jpeg, size, pixels.channels, size)?;
    if decoded.data.len() != pixels.data.len() || pixels.data.is_empty() {
        return None;
    }
    // Summed in 32 bits a slice at a time, which vectorizes (2^15 squares of at most 255²
    // stay under 2^32): a 64-bit sum per byte was a tenth of a photo's time at printer.
    let squared: u64 = decoded
        .data
        .chunks(1 << 15)
        .zip(pixels.data.chunks(1 << 15))
        .map(|(a, b)| {
            let sum: u32 = a
                .iter()
                .zip(b)
                .map(|(&a, &b)| u32::from(a.abs_diff(b)).pow(2))
                .sum();
            u64::from(sum)
        })
        .sum();
    if squared == 0 {
        return Some(f64::INFINITY);
    }
    let mse = squared as f64 / pixels.data.len() as f64;
    Some(10.0 * (255.0f64 * 255.0 / mse).log10())
}

/// Whether the JPEG carries Adobe's APP14 marker before its first scan.
fn has_adobe_marker(data: &[u8]) -> bool {
    segments(data).any(|(marker, payload)| marker == 0xEE && payload.starts_with(b"Adobe"))
}

/// The marker segments before the first scan, each as its marker and its payload (after the
/// length); the walk stops at the scan, at the end of the image, or at a malformed segment.
pub fn segments(data: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut at = 2;
    std::iter::from_fn(move || {
        loop {
            let (Some(&0xFF), Some(&marker)) = (data.get(at), data.get(at + 1)) else {
                return None;
            };
            // Fill bytes may pad between segments.
            if marker == 0xFF {
                at += 1;
                continue;
            }
            if marker == 0xDA || marker == 0xD9 {
                return None;
            }
            let (Some(&high), Some(&low)) = (data.get(at + 2), data.get(at + 3)) else {
                return None;
            };
            let length = usize::from(u16::from_be_bytes([high, low]));
            let payload = data.get(at + 4..at + 2 + length.max(2))?;
            at += 2 + length;
            return Some((marker, payload));
        }
    })
}

/// libjpeg's reducing scales, smallest first, as reduced fractions: TurboJPEG takes only
/// these exact pairs (1/4, never 2/8).
const SCALES: [(usize, usize); 8] = [
    (1, 8),
    (1, 4),
    (3, 8),
    (1, 2),
    (5, 8),
    (3, 4),
    (7, 8),
    (1, 1),
];

/// The smallest of libjpeg's scales whose output still covers `at_least`.
fn decode_scale((width, height): (u32, u32), (min_w, min_h): (u32, u32)) -> ScalingFactor {
    SCALES
        .into_iter()
        .map(|(num, denom)| ScalingFactor::new(num, denom))
        .find(|scale| {
            scale.scale(width as usize) >= min_w as usize
                && scale.scale(height as usize) >= min_h as usize
        })
        .unwrap_or(ScalingFactor::ONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn photo(width: u32, height: u32) -> Pixels {
        let data = (0..width * height)
            .flat_map(|i| {
                let (x, y) = (i % width, i / width);
                [(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8]
            })
            .collect();
        Pixels {
            data,
            width,
            height,
            channels: 3,
        }
    }

    #[test]
    fn picks_the_smallest_scale_that_still_covers_the_target() {
        let pick = |size, min| {
            let scale = decode_scale(size, min);
            (scale.num(), scale.denom())
        };
        // 3000 px down to 595: 1/4 gives 750, 1/8 only 375.
        assert_eq!(pick((3000, 2100), (595, 417)), (1, 4));
        assert_eq!(pick((3000, 2100), (375, 263)), (1, 8));
        assert_eq!(pick((3000, 2100), (3000, 2100)), (1, 1));
        // The tighter axis decides.
        assert_eq!(pick((3000, 2100), (100, 1100)), (5, 8));
    }

    #[test]
    fn round_trips_and_decodes_at_a_reduced_scale() {
        let source = photo(640, 480);
        let jpeg = encode(&source, 75, false).expect("encodes");
        let full = decode(&jpeg, (640, 480), 3, (640, 480)).expect("decodes");
        assert_eq!(
            (full.width, full.height, full.data.len()),
            (640, 480, 640 * 480 * 3)
        );
        let quarter = decode(&jpeg, (640, 480), 3, (150, 100)).expect("decodes");
        assert_eq!((quarter.width, quarter.height), (160, 120));
    }

    #[test]
    fn measures_what_a_re_encode_loses() {
        let source = photo(64, 48);
        let good = encode(&source, 95, true).expect("encodes");
        let poor = encode(&source, 10, false).expect("encodes");
        let (good, poor) = (
            fidelity(&good, &source).expect("measured"),
            fidelity(&poor, &source).expect("measured"),
        );
        assert!(good > poor && good > 35.0, "{good} {poor}");
    }

    #[test]
    fn keeps_full_chroma_only_when_asked() {
        let subsamp = |full_chroma| {
            let jpeg = encode(&photo(64, 48), 80, full_chroma).expect("encodes");
            turbojpeg::read_header(&jpeg).expect("a header").subsamp
        };
        assert_eq!(subsamp(true), Subsamp::None);
        assert_eq!(subsamp(false), Subsamp::Sub2x2);
    }

    #[test]
    fn four_channels_carry_the_adobe_marker() {
        let cmyk = Pixels {
            data: [10u8, 200, 30, 40].repeat(64 * 48),
            width: 64,
            height: 48,
            channels: 4,
        };
        let jpeg = encode(&cmyk, 90, false).expect("encodes");
        assert!(has_adobe_marker(&jpeg));
        assert_eq!(
            turbojpeg::read_header(&jpeg).expect("a header").colorspace,
            Colorspace::YCCK
        );
        let back = decode(&jpeg, (64, 48), 4, (64, 48)).expect("decodes");
        assert!(
            back.data
                .iter()
                .zip(&cmyk.data)
                .all(|(a, b)| a.abs_diff(*b) <= 2)
        );
        assert!(!has_adobe_marker(
            &encode(&photo(64, 48), 75, false).expect("encodes")
        ));
        assert!(!has_adobe_marker(b"\xFF\xD8\xFF"));
    }

    #[test]
    fn refuses_what_it_cannot_carry_exactly() {
        let jpeg = encode(&photo(64, 48), 75, false).expect("encodes");
        // The PDF says another size, or grey for a colour JPEG.
        assert!(decode(&jpeg, (64, 64), 3, (1, 1)).is_none());
        assert!(decode(&jpeg, (64, 48), 1, (1, 1)).is_none());
        // Truncated data decodes with grey blocks in libjpeg; here it is refused.
        assert!(decode(&jpeg[..jpeg.len() / 2], (64, 48), 3, (1, 1)).is_none());
        assert!(decode(b"not a jpeg", (64, 48), 3, (1, 1)).is_none());
    }
}
