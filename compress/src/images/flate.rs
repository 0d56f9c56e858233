//! Lossless encodings: Flate with PNG predictors (chosen per row, as libpng does), and samples
//! packed at fewer bits.

use std::sync::Mutex;

use lopdf::{Dictionary, dictionary};

/// Rows at least this large in all are filtered in bands on all cores: the predictor choice
/// tries five filters on every byte, a sixth of the time spent on a 9000×9000 scan.
const PARALLEL_BYTES: usize = 4 << 20;
/// Bands of rows a large image is filtered in: a few per core.
const BANDS: usize = 8;

/// [`deflate_predicted_under`] with no limit.
#[cfg(test)]
pub fn deflate_predicted(
    rows: &[u8],
    dims: (u32, u32),
    components: u8,
    bpc: u8,
) -> Option<Vec<u8>> {
    deflate_predicted_under(rows, dims, components, bpc, usize::MAX)
}

/// Deflates `rows` (`height` rows of `width` samples of `components` × `bpc` bits, each row
/// byte-aligned) after a PNG predictor per row, when that comes to fewer than `limit` bytes:
/// `None` as soon as it cannot (a candidate that would lose to one already made). PNG's Paeth
/// and Up filters turn flat areas and repeated rows of line art and screenshots into zeros
/// that deflate well.
pub fn deflate_predicted_under(
    rows: &[u8],
    (width, height): (u32, u32),
    components: u8,
    bpc: u8,
    limit: usize,
) -> Option<Vec<u8>> {
    let row_len = super::samples::row_bytes(width, components, bpc)?;
    if row_len == 0 || rows.len() != row_len.checked_mul(height as usize)? {
        return None;
    }
    // Bytes per complete pixel, at least one, as PNG defines the left neighbour.
    let bpp = (usize::from(components) * usize::from(bpc))
        .div_ceil(8)
        .max(1);
    let zero = vec![0u8; row_len];
    let mut filtered = vec![0u8; rows.len() + height as usize];
    if rows.len() < PARALLEL_BYTES {
        filter(rows, &zero, row_len, bpp, &mut filtered);
    } else {
        // Each row's filter depends only on the row and the one above it, as stored: bands
        // of rows are filtered apart, each into its own part of the output. The output is
        // then deflated whole, as zlib's bytes depend on how its input comes in.
        let band_rows = (height as usize).div_ceil(BANDS);
        let bands: Vec<&[u8]> = rows.chunks(band_rows * row_len).collect();
        let outputs: Vec<Mutex<&mut [u8]>> = filtered
            .chunks_mut(band_rows * (row_len + 1))
            .map(Mutex::new)
            .collect();
        crate::parallel::parts(bands.len(), |i| {
            let above = match i {
                0 => zero.as_slice(),
                _ => &bands[i - 1][bands[i - 1].len() - row_len..],
            };
            let mut output = outputs[i].lock().ok()?;
            filter(bands[i], above, row_len, bpp, &mut output);
            Some(())
        })?
        .into_iter()
        .collect::<Option<()>>()?;
    }
    crate::zlib::deflate_under(&filtered, limit)
}

/// Writes into `out` each row of `rows` as its filter byte and the residues of the filter
/// that leaves the smallest sum of residues read as signed bytes (libpng's heuristic);
/// `above` is the row before the first.
fn filter(rows: &[u8], above: &[u8], row_len: usize, bpp: usize, out: &mut [u8]) {
    let mut previous = above;
    let mut candidate = vec![0u8; row_len];
    let mut best = vec![0u8; row_len];
    for (row, out) in rows
        .chunks_exact(row_len)
        .zip(out.chunks_exact_mut(row_len + 1))
    {
        // The rows of blank paper: a row of zeros is its own None residue, and a row equal to
        // the one above is all zeros after Up; no filter can beat a cost of 0, and the loop
        // below would pick the same one (the first of equal costs).
        let blank = row.iter().all(|&b| b == 0);
        if blank || row == previous {
            // None (0) for a row of zeros, else Up (2): zeros either way.
            out[0] = if blank { 0 } else { 2 };
            out[1..].fill(0);
            previous = row;
            continue;
        }
        let mut best_kind = 0u8;
        let mut best_cost = u64::MAX;
        for kind in 0..5u8 {
            predict(kind, row, previous, bpp, &mut candidate);
            let cost = cost(&candidate);
            if cost < best_cost {
                best_cost = cost;
                best_kind = kind;
                std::mem::swap(&mut best, &mut candidate);
            }
        }
        out[0] = best_kind;
        out[1..].copy_from_slice(&best);
        previous = row;
    }
}

/// The sum of the residues read as signed bytes, added up in 32 bits a slice at a time
/// (which vectorizes four times wider than 64 bits; a slice of 2^24 bytes cannot overflow).
fn cost(residues: &[u8]) -> u64 {
    residues
        .chunks(1 << 24)
        .map(|chunk| {
            let sum: u32 = chunk
                .iter()
                .map(|&b| u32::from((b as i8).unsigned_abs()))
                .sum();
            u64::from(sum)
        })
        .sum()
}

/// The /DecodeParms that undo [`deflate_predicted_under`].
pub fn predictor_parms(width: u32, components: u8, bpc: u8) -> Dictionary {
    dictionary! {
        "Predictor" => 15,
        "Colors" => i64::from(components),
        "BitsPerComponent" => i64::from(bpc),
        "Columns" => i64::from(width),
    }
}

/// zlib at the compressor's level ([`crate::streams::LEVEL`]).
#[cfg(test)]
pub fn deflate(data: &[u8]) -> Option<Vec<u8>> {
    crate::zlib::deflate_under(data, usize::MAX)
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

/// PNG's Paeth predictor (RFC 2083 6.6), for writing and for reading predicted rows.
pub(crate) fn paeth(a: u8, b: u8, c: u8) -> u8 {
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
        assert_eq!(crate::plain::decode(&stream, 1 << 20).ok(), Some(rows));
    }

    /// A large image, filtered in bands on several threads, comes out as the bytes of one
    /// pass over it.
    #[test]
    fn bands_deflate_to_the_bytes_of_one_pass() {
        let (width, height) = (1500u32, 1000u32);
        let row_len = width as usize * 3;
        let rows: Vec<u8> = (0..row_len * height as usize)
            .map(|i| {
                let (x, y) = (i % row_len, i / row_len);
                if y % 3 == 0 {
                    (x * 7 % 251) as u8
                } else {
                    ((x / 9) ^ (y / 5)) as u8
                }
            })
            .collect();
        assert!(rows.len() >= PARALLEL_BYTES);
        let mut filtered = vec![0; rows.len() + height as usize];
        filter(&rows, &vec![0; row_len], row_len, 3, &mut filtered);
        let one_pass = deflate(&filtered);
        assert_eq!(deflate_predicted(&rows, (width, height), 3, 8), one_pass);
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
                    crate::plain::decode(&stream, 1 << 20).ok().as_ref(),
                    Some(&rows),
                    "filter {kind}, {components}x{bpc} bits"
                );
            }
        }
    }
}
