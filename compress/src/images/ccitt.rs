//! CCITT Group 4, the fax code: what Ghostscript's MonoImageFilter writes for 1-bit images,
//! two to five times smaller than Flate on scanned text. Each encoding is decoded again and
//! compared bit for bit before it is offered (the encoder is a young crate; a wrong bit would
//! be a wrong pixel in every viewer).

use fax::{Color, VecWriter, decoder, encoder::Encoder};
use lopdf::{Dictionary, dictionary};

/// `packed` (rows of `width` 1-bit samples, each row byte-aligned) as CCITT G4, 0 bits
/// coded black as /BlackIs1 false reads them back; `None` if the code does not round-trip.
pub fn encode(packed: &[u8], (width, height): (u32, u32)) -> Option<Vec<u8>> {
    let row = usize::try_from(width.div_ceil(8)).ok()?;
    // Bytes past the last row (some writers pad) are not part of the image.
    let packed = packed.get(..row.checked_mul(height as usize)?)?;
    if width == 0 || height == 0 {
        return None;
    }
    let colour = |bit: bool| if bit { Color::White } else { Color::Black };
    let encode = || {
        let mut encoder = Encoder::new(VecWriter::with_capacity(packed.len() / 4));
        for line in packed.chunks_exact(row) {
            let pels = fax::slice_bits(line).take(width as usize).map(colour);
            encoder.encode_line(pels, width).ok()?;
        }
        Some(encoder.finish().ok()?.finish())
    };
    let code = std::panic::catch_unwind(encode).ok()??;
    let mut lines = packed.chunks_exact(row);
    let mut same = true;
    let mut decoded = 0u32;
    decoder::decode_g4(code.iter().copied(), width, Some(height), |transitions| {
        decoded += 1;
        let Some(line) = lines.next() else {
            same = false;
            return;
        };
        same &= decoder::pels(transitions, width)
            .zip(fax::slice_bits(line).map(colour))
            .all(|(a, b)| a == b);
    })?;
    (same && decoded == height).then_some(code)
}

/// The /DecodeParms that read [`encode`]'s code back.
pub fn parms(width: u32, height: u32) -> Dictionary {
    dictionary! {
        "K" => -1,
        "Columns" => i64::from(width),
        "Rows" => i64::from(height),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanned_text_round_trips_and_shrinks() {
        // Black strokes on white, like a line of scanned text, and a width off a byte.
        let (width, height) = (203u32, 64u32);
        let row = width.div_ceil(8) as usize;
        let mut packed = vec![0xffu8; row * height as usize];
        for y in 20..40 {
            for x in (10..190).filter(|x| x % 12 < 3 || y % 19 == 0) {
                packed[y * row + x / 8] &= !(0x80 >> (x % 8));
            }
        }
        let code = encode(&packed, (width, height)).expect("round-trips");
        assert!(code.len() * 4 < packed.len(), "{} bytes", code.len());
        let mut lines = Vec::new();
        decoder::decode_g4(code.iter().copied(), width, Some(height), |t| {
            lines.push(decoder::pels(t, width).collect::<Vec<_>>())
        })
        .expect("decodes");
        assert_eq!(
            (lines[25][12], lines[25][15], lines[38][15]),
            (Color::Black, Color::White, Color::Black)
        );
        assert_eq!(lines[0][0], Color::White);
    }

    #[test]
    fn refuses_rows_that_do_not_fit() {
        assert_eq!(encode(&[0; 3], (9, 2)), None);
        assert_eq!(encode(&[], (0, 0)), None);
    }
}
