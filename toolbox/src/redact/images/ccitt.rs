//! CCITT fax data (what scanners and OCR tools write for 1-bit pages) decoded into samples
//! by the `fax` crate, so that a scanned page can be painted like any image: Group 4, and
//! one-dimensional Group 3 with its end-of-line codes. Two-dimensional Group 3 and
//! byte-aligned rows are not decoded: their pages stay unsafe.

use lopdf::{Dictionary, Object};

/// The samples of a fax image `width` x `height` (rows byte-aligned), as the image's decoding
/// reads them: with /BlackIs1 false (the default) a black pixel is 0.
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
        for (i, colour) in fax::decoder::pels(transitions, width).enumerate() {
            let black = colour == fax::Color::Black;
            if black == black_is_1 {
                packed[i / 8] |= 0x80 >> (i % 8);
            }
        }
        samples.extend_from_slice(&packed);
    };
    match number(b"K", 0) {
        k if k < 0 => fax::decoder::decode_g4(data.iter().copied(), width, Some(height), line)?,
        0 if flag(b"EndOfLine") => {
            let reader = data.iter().map(|&b| Ok::<u8, std::convert::Infallible>(b));
            let mut decoder = fax::decoder::Group3Decoder::new(reader).ok()?;
            // Data often ends without the return-to-control codes, or without the last
            // line's end-of-line code: as readers do, what was read of that line counts and
            // missing lines are white (as the Group 4 decoder pads them).
            loop {
                let status = decoder.advance();
                line(decoder.transitions());
                if !matches!(status, Ok(fax::decoder::DecodeStatus::Incomplete)) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group4_round_trips_through_the_compressor_encoder() {
        // 16 x 2: a black bar on the left of the first row, white elsewhere.
        let samples = vec![0x00, 0xFF, 0xFF, 0xFF];
        let code = quire_compress::redaction::encode_ccitt(&samples, (16, 2)).expect("encodes");
        let parms = lopdf::dictionary! { "K" => -1, "Columns" => 16 };
        assert_eq!(decode(&code, Some(&parms), (16, 2)), Some(samples));
        let group3 = lopdf::dictionary! { "K" => 0, "Columns" => 16 };
        assert_eq!(decode(&code, Some(&group3), (16, 2)), None);
    }
}
