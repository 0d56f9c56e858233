//! The predictors of Flate and LZW (PDF 32000-1 7.4.4.4): TIFF predictor 2 and the PNG
//! predictors, undone row by row. Rows cut short or a PNG row's unknown filter type fail.

use lopdf::Dictionary;

use super::Undecodable;
use crate::images::flate::paeth;

pub fn undo(
    data: Vec<u8>,
    parms: Option<&Dictionary>,
    limit: usize,
) -> Result<Vec<u8>, Undecodable> {
    let Some(parms) = parms else {
        return Ok(data);
    };
    let int = |key: &[u8], default: i64| match parms.get(key) {
        Err(_) => Ok(default),
        Ok(value) => value.as_i64().map_err(|_| Undecodable::Damaged),
    };
    let predictor = int(b"Predictor", 1)?;
    if predictor == 1 {
        return Ok(data);
    }
    let positive = |v: i64| {
        usize::try_from(v)
            .ok()
            .filter(|&v| v > 0)
            .ok_or(Undecodable::Damaged)
    };
    let columns = positive(int(b"Columns", 1)?)?;
    let colors = positive(int(b"Colors", 1)?)?;
    let bits = positive(int(b"BitsPerComponent", 8)?)?;
    if !matches!(bits, 1 | 2 | 4 | 8 | 16) || colors > 32 {
        return Err(Undecodable::Damaged);
    }
    let row = columns
        .checked_mul(colors)
        .and_then(|n| n.checked_mul(bits))
        .map(|n| n.div_ceil(8))
        .filter(|&row| row <= limit)
        .ok_or(Undecodable::Bomb)?;
    match predictor {
        2 => tiff(data, row, colors, bits),
        10..=15 => png(&data, row, (colors * bits).div_ceil(8)),
        _ => Err(Undecodable::Damaged),
    }
}

/// Horizontal differencing, for whole-byte samples; a sub-byte depth is rare enough to be
/// kept as it is.
fn tiff(mut data: Vec<u8>, row: usize, colors: usize, bits: usize) -> Result<Vec<u8>, Undecodable> {
    match bits {
        8 => {
            for line in data.chunks_mut(row) {
                for i in colors..line.len() {
                    line[i] = line[i].wrapping_add(line[i - colors]);
                }
            }
        }
        16 => {
            let step = colors * 2;
            for line in data.chunks_mut(row) {
                let mut i = step;
                while i + 1 < line.len() {
                    let left = u16::from_be_bytes([line[i - step], line[i - step + 1]]);
                    let here = u16::from_be_bytes([line[i], line[i + 1]]);
                    line[i..i + 2].copy_from_slice(&here.wrapping_add(left).to_be_bytes());
                    i += 2;
                }
            }
        }
        _ => return Err(Undecodable::Unsupported),
    }
    Ok(data)
}

/// Each row starts with its own filter type (0 to 4); `bpp` is the left neighbour's distance
/// in bytes. A last row cut short is decoded as far as it goes, as libpng and the viewers do,
/// but a row whose type byte is unknown fails.
fn png(data: &[u8], row: usize, bpp: usize) -> Result<Vec<u8>, Undecodable> {
    let mut out: Vec<u8> = Vec::with_capacity(data.len() / (row + 1) * row + row);
    for line in data.chunks(row + 1) {
        let (&kind, encoded) = line.split_first().ok_or(Undecodable::Damaged)?;
        if kind > 4 {
            return Err(Undecodable::Damaged);
        }
        let start = out.len();
        let above = start.checked_sub(row);
        out.extend_from_slice(encoded);
        for i in 0..encoded.len() {
            let left = if i >= bpp { out[start + i - bpp] } else { 0 };
            let up = above.map_or(0, |a| out[a + i]);
            let up_left = match above {
                Some(a) if i >= bpp => out[a + i - bpp],
                _ => 0,
            };
            let predicted = match kind {
                1 => left,
                2 => up,
                3 => ((u16::from(left) + u16::from(up)) / 2) as u8,
                4 => paeth(left, up, up_left),
                _ => 0,
            };
            out[start + i] = out[start + i].wrapping_add(predicted);
        }
    }
    Ok(out)
}
