//! Lossless encodings: Flate with PNG predictors (chosen per row, as libpng does), and images of
//! few colours as palette indices at the fewest bits that hold them.

use std::io::Write;

use foldhash::{HashMap, HashMapExt};
use lopdf::{Dictionary, dictionary};

/// Deflates `rows` (`height` rows of `width` samples of `components` × `bpc` bits, each row
/// byte-aligned) after a PNG predictor per row. PNG's Paeth and Up filters turn flat areas and
/// repeated rows of line art and screenshots into zeros that deflate well.
pub fn deflate_predicted(
    rows: &[u8],
    (width, height): (u32, u32),
    components: u8,
    bpc: u8,
) -> Option<Vec<u8>> {
    let row_len = super::samples::row_bytes(width, components, bpc)?;
    if row_len == 0 || rows.len() != row_len.checked_mul(height as usize)? {
        return None;
    }
    // Bytes per complete pixel, at least one, as PNG defines the left neighbour.
    let bpp = (usize::from(components) * usize::from(bpc))
        .div_ceil(8)
        .max(1);
    let mut filtered = Vec::with_capacity(rows.len() + height as usize);
    let zero = vec![0u8; row_len];
    let mut previous: &[u8] = &zero;
    let mut candidate = vec![0u8; row_len];
    let mut best = vec![0u8; row_len];
    for row in rows.chunks_exact(row_len) {
        let mut best_kind = 0u8;
        let mut best_cost = u64::MAX;
        for kind in 0..5u8 {
            predict(kind, row, previous, bpp, &mut candidate);
            // libpng's heuristic: the smallest sum of the residues read as signed bytes.
            let cost: u64 = candidate
                .iter()
                .map(|&b| u64::from((b as i8).unsigned_abs()))
                .sum();
            if cost < best_cost {
                best_cost = cost;
                best_kind = kind;
                std::mem::swap(&mut best, &mut candidate);
            }
        }
        filtered.push(best_kind);
        filtered.extend_from_slice(&best);
        previous = row;
    }
    deflate(&filtered)
}

/// The /DecodeParms that undo [`deflate_predicted`].
pub fn predictor_parms(width: u32, components: u8, bpc: u8) -> Dictionary {
    dictionary! {
        "Predictor" => 15,
        "Colors" => i64::from(components),
        "BitsPerComponent" => i64::from(bpc),
        "Columns" => i64::from(width),
    }
}

/// zlib at the compressor's level ([`crate::streams::LEVEL`]).
pub fn deflate(data: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(data.len() / 4),
        flate2::Compression::new(crate::streams::LEVEL),
    );
    encoder.write_all(data).ok()?;
    encoder.finish().ok()
}

/// Writes into `out` the residues of PNG filter `kind` (0 None, 1 Sub, 2 Up, 3 Average,
/// 4 Paeth) for `row` under `previous`. One loop per filter, so that each compiles to straight
/// (vectorizable) code instead of a five-way branch per byte.
fn predict(kind: u8, row: &[u8], previous: &[u8], bpp: usize, out: &mut [u8]) {
    let head = bpp.min(row.len());
    match kind {
        0 => out.copy_from_slice(row),
        1 => {
            out[..head].copy_from_slice(&row[..head]);
            for ((o, &x), &left) in out[head..].iter_mut().zip(&row[head..]).zip(row) {
                *o = x.wrapping_sub(left);
            }
        }
        2 => {
            for ((o, &x), &up) in out.iter_mut().zip(row).zip(previous) {
                *o = x.wrapping_sub(up);
            }
        }
        3 => {
            for i in 0..head {
                out[i] = row[i].wrapping_sub(previous[i] / 2);
            }
            for (((o, &x), &left), &up) in out[head..]
                .iter_mut()
                .zip(&row[head..])
                .zip(row)
                .zip(&previous[head..])
            {
                *o = x.wrapping_sub(((u16::from(left) + u16::from(up)) / 2) as u8);
            }
        }
        _ => {
            // Paeth with no left neighbour predicts from above.
            for i in 0..head {
                out[i] = row[i].wrapping_sub(previous[i]);
            }
            for ((((o, &x), &left), &up), &up_left) in out[head..]
                .iter_mut()
                .zip(&row[head..])
                .zip(row)
                .zip(&previous[head..])
                .zip(previous)
            {
                *o = x.wrapping_sub(paeth(left, up, up_left));
            }
        }
    }
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

/// An image of at most 256 colours as palette indices.
pub struct Palette {
    /// The colours, `channels` bytes each: the /Indexed lookup string.
    pub colours: Vec<u8>,
    /// Indices packed at `bpc` bits, rows byte-aligned.
    pub indices: Vec<u8>,
    pub bpc: u8,
}

/// The image's palette when it has at most 256 distinct colours (line art, charts,
/// screenshots); `None` as soon as a 257th colour turns up.
pub fn palettize(pixels: &[u8], (width, height): (u32, u32), channels: u8) -> Option<Palette> {
    let n = usize::from(channels);
    if !(1..=4).contains(&n) || pixels.len() != width as usize * height as usize * n {
        return None;
    }
    let key = |pixel: &[u8]| pixel.iter().fold(0u32, |k, &b| (k << 8) | u32::from(b));
    let mut index_of: HashMap<u32, u8> = HashMap::with_capacity(256);
    let mut colours = Vec::with_capacity(256 * n);
    let mut plain = Vec::with_capacity(pixels.len() / n);
    for pixel in pixels.chunks_exact(n) {
        let next = index_of.len();
        let index = match index_of.get(&key(pixel)) {
            Some(&index) => index,
            None => {
                let index = u8::try_from(next).ok()?;
                index_of.insert(key(pixel), index);
                colours.extend_from_slice(pixel);
                index
            }
        };
        plain.push(index);
    }
    let bpc = match index_of.len() {
        0..=2 => 1,
        3..=4 => 2,
        5..=16 => 4,
        _ => 8,
    };
    Some(Palette {
        colours,
        indices: pack(&plain, width, bpc),
        bpc,
    })
}

/// One byte per sample to `bpc`-bit samples, rows padded to a byte.
pub fn pack(plain: &[u8], width: u32, bpc: u8) -> Vec<u8> {
    if bpc == 8 {
        return plain.to_vec();
    }
    let per_byte = usize::from(8 / bpc);
    let mut out = Vec::with_capacity(plain.len() / per_byte + 1);
    for row in plain.chunks(width.max(1) as usize) {
        for group in row.chunks(per_byte) {
            let mut byte = 0u8;
            for (i, &value) in group.iter().enumerate() {
                byte |= value << (8 - usize::from(bpc) * (i + 1));
            }
            out.push(byte);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::images::samples::unpack;

    #[test]
    fn predicted_flate_round_trips_through_lopdf() {
        let (width, height) = (37u32, 11u32);
        let rows: Vec<u8> = (0..width * height * 3)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        let packed = deflate_predicted(&rows, (width, height), 3, 8).expect("encodes");
        let stream = lopdf::Stream::new(
            dictionary! {
                "Filter" => "FlateDecode",
                "DecodeParms" => predictor_parms(width, 3, 8),
            },
            packed,
        );
        assert_eq!(
            stream.decompressed_content_with_limit(1 << 20).ok(),
            Some(rows)
        );
    }

    #[test]
    fn every_png_filter_is_undone_by_the_pdf_predictor() {
        let (width, height) = (23u32, 7u32);
        for (components, bpc) in [(3u8, 8u8), (1, 8), (1, 1), (1, 4)] {
            let row_len = crate::images::samples::row_bytes(width, components, bpc).expect("row");
            let rows: Vec<u8> = (0..row_len * height as usize)
                .map(|i| (i * 37 % 253) as u8)
                .collect();
            let bpp = (usize::from(components) * usize::from(bpc))
                .div_ceil(8)
                .max(1);
            for kind in 0..5u8 {
                let mut filtered = Vec::new();
                let mut previous = vec![0u8; row_len];
                let mut out = vec![0u8; row_len];
                for row in rows.chunks_exact(row_len) {
                    predict(kind, row, &previous, bpp, &mut out);
                    filtered.push(kind);
                    filtered.extend_from_slice(&out);
                    previous = row.to_vec();
                }
                let stream = lopdf::Stream::new(
                    dictionary! {
                        "Filter" => "FlateDecode",
                        "DecodeParms" => predictor_parms(width, components, bpc),
                    },
                    deflate(&filtered).expect("deflates"),
                );
                assert_eq!(
                    stream
                        .decompressed_content_with_limit(1 << 20)
                        .ok()
                        .as_ref(),
                    Some(&rows),
                    "filter {kind}, {components}x{bpc} bits"
                );
            }
        }
    }

    #[test]
    fn palettes_pack_to_the_fewest_bits() {
        let pixels = [0, 0, 0, 255, 255, 255, 0, 0, 0];
        let palette = palettize(&pixels, (3, 1), 3).expect("two colours");
        assert_eq!(palette.bpc, 1);
        assert_eq!(palette.colours, vec![0, 0, 0, 255, 255, 255]);
        assert_eq!(palette.indices, vec![0b0100_0000]);
        assert_eq!(
            unpack(&palette.indices, (3, 1), 1, 1, false),
            Some(vec![0, 1, 0])
        );
        let many: Vec<u8> = (0..=255u8).chain([7]).flat_map(|v| [v, 0, 0]).collect();
        assert_eq!(palettize(&many, (257, 1), 3).map(|p| p.bpc), Some(8));
        let too_many: Vec<u8> = (0..300u32)
            .flat_map(|v| [(v % 256) as u8, (v / 256) as u8, 0])
            .collect();
        assert!(palettize(&too_many, (300, 1), 3).is_none());
    }
}
