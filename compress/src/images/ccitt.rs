//! CCITT fax code, on the `fax` crate. Group 4 is what Ghostscript's MonoImageFilter writes
//! for 1-bit images, two to five times smaller than Flate on scanned text; each encoding is
//! decoded again and compared bit for bit before it is offered (the encoder is a young crate;
//! a wrong bit would be a wrong pixel in every viewer). Decoding reads Group 4 and
//! one-dimensional Group 3 with its end-of-line codes (what fax and older scanner software
//! write, often three times Group 4's size); two-dimensional Group 3 and byte-aligned rows are
//! not decoded, and such images keep their bytes.

use fax::{Color, VecWriter, decoder, encoder::Encoder};
use lopdf::{Dictionary, Object, dictionary};

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

/// The samples of a fax image `width` x `height` (rows byte-aligned), as the image's decoding
/// reads them: with /BlackIs1 false (the default) a black pixel is 0. `None` for what is not
/// decoded here, or data that does not hold the image.
pub fn decode(
    data: &[u8],
    parms: Option<&Dictionary>,
    (width, height): (u32, u32),
) -> Option<Vec<u8>> {
    let number = |key: &[u8], default: i64| {
        parms
            .and_then(|p| p.get(key).ok())
            .and_then(|v| v.as_i64().ok())
            .unwrap_or(default)
    };
    let flag = |key: &[u8]| {
        parms
            .and_then(|p| p.get(key).ok())
            .is_some_and(|v| matches!(v, Object::Boolean(true)))
    };
    if flag(b"EncodedByteAlign") || number(b"Columns", 1728) != i64::from(width) {
        return None;
    }
    let black_is_1 = flag(b"BlackIs1");
    let row = usize::try_from(width.div_ceil(8)).ok()?;
    let mut samples = Vec::with_capacity(row.checked_mul(height as usize)?);
    let mut lines = 0u32;
    let mut line = |transitions: &[u32]| {
        if lines >= height {
            return;
        }
        lines += 1;
        let mut packed = vec![0u8; row];
        for (i, colour) in decoder::pels(transitions, width).enumerate() {
            let black = colour == Color::Black;
            if black == black_is_1 {
                packed[i / 8] |= 0x80 >> (i % 8);
            }
        }
        samples.extend_from_slice(&packed);
    };
    match number(b"K", 0) {
        k if k < 0 => decoder::decode_g4(data.iter().copied(), width, Some(height), line)?,
        0 if flag(b"EndOfLine") => {
            let reader = data.iter().map(|&b| Ok::<u8, std::convert::Infallible>(b));
            let mut decoder = decoder::Group3Decoder::new(reader).ok()?;
            // Data often ends without the return-to-control codes, or without the last
            // line's end-of-line code: as readers do, what was read of that line counts and
            // missing lines are white (as the Group 4 decoder pads them).
            loop {
                let status = decoder.advance();
                line(decoder.transitions());
                if !matches!(status, Ok(decoder::DecodeStatus::Incomplete)) {
                    break;
                }
            }
            // Lines past the height are not kept: this adds only the missing ones.
            for _ in 0..height {
                line(&[]);
            }
        }
        _ => return None,
    }
    (lines == height).then_some(samples)
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
    fn group4_round_trips_and_two_dimensional_group3_is_refused() {
        // 16 x 2: a black bar on the left of the first row, white elsewhere.
        let samples = vec![0x00, 0xFF, 0xFF, 0xFF];
        let code = encode(&samples, (16, 2)).expect("encodes");
        let parms = dictionary! { "K" => -1, "Columns" => 16 };
        assert_eq!(decode(&code, Some(&parms), (16, 2)), Some(samples.clone()));
        let black_is_1 = dictionary! { "K" => -1, "Columns" => 16, "BlackIs1" => true };
        let inverted: Vec<u8> = samples.iter().map(|b| !b).collect();
        assert_eq!(decode(&code, Some(&black_is_1), (16, 2)), Some(inverted));
        let group3 = dictionary! { "K" => 0, "Columns" => 16 };
        assert_eq!(decode(&code, Some(&group3), (16, 2)), None);
        let two_dimensional = dictionary! { "K" => 2, "Columns" => 16, "EndOfLine" => true };
        assert_eq!(decode(&code, Some(&two_dimensional), (16, 2)), None);
    }

    #[test]
    fn one_dimensional_group3_with_end_of_line_codes_decodes() {
        // 8 x 2, each line after an end-of-line code: 8 white; 4 white, 4 black.
        let bits = "000000000001 10011 000000000001 1011 011 000000000001";
        let bits: Vec<u8> = bits
            .bytes()
            .filter(|b| *b != b' ')
            .map(|b| b - b'0')
            .collect();
        let code: Vec<u8> = bits
            .chunks(8)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |byte, (i, bit)| byte | bit << (7 - i))
            })
            .collect();
        let parms = dictionary! { "K" => 0, "Columns" => 8, "EndOfLine" => true };
        assert_eq!(decode(&code, Some(&parms), (8, 2)), Some(vec![0xFF, 0xF0]));
        // Without its end-of-line codes declared, it is not read as Group 3.
        let without = dictionary! { "K" => 0, "Columns" => 8 };
        assert_eq!(decode(&code, Some(&without), (8, 2)), None);
    }

    #[test]
    fn refuses_rows_that_do_not_fit() {
        assert_eq!(encode(&[0; 3], (9, 2)), None);
        assert_eq!(encode(&[], (0, 0)), None);
    }
}
