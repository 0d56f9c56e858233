//! Fax images: one-dimensional Group 3 recoded (as Group 4 or Flate, the smaller), Group 4 at
//! its size kept.

use lopdf::{Document, dictionary};

use super::super::{ccitt, decode};
use super::{image_stream, run, stream};
use crate::Preset;

/// A 64 × 64 Group 3 image (K 0, an end-of-line code before each line), each line 32 white
/// then 32 black pixels: what fax software writes, line after line with no reference to the
/// one above.
fn group3() -> Vec<u8> {
    let line = "000000000001 00011011 000001101010";
    let bits: Vec<u8> = line
        .repeat(64)
        .bytes()
        .filter(|b| *b != b' ')
        .map(|b| b - b'0')
        .collect();
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |byte, (i, bit)| byte | bit << (7 - i))
        })
        .collect()
}

#[test]
fn group3_is_recoded_smaller_with_the_same_pixels() {
    let mut doc = Document::with_version("1.7");
    let mut image = image_stream((64, 64), "DeviceGray".into(), 1, "CCITTFaxDecode", group3());
    image.dict.set(
        "DecodeParms",
        dictionary! { "K" => 0, "Columns" => 64, "EndOfLine" => true, "BlackIs1" => true },
    );
    let before = image.content.len();
    let id = doc.add_object(image);
    // 64 px over 64 pt: 72 dpi, kept at its size at every preset.
    let report = run(&mut doc, &[(id, (64.0, 64.0))], Preset::Printer);
    assert_eq!(report.replaced, 1);
    let after = stream(&doc, id);
    assert!(
        after.content.len() * 4 < before,
        "{} bytes",
        after.content.len()
    );
    // The same samples as the source read with its /BlackIs1 (black is 1 there): each row 32
    // zero bits, then 32 one bits, whichever lossless code won (Flate, on rows this alike).
    let filters = decode::filters(after).expect("filters");
    let declared = decode::Declared {
        width: 64,
        height: 64,
        components: 1,
        bpc: 1,
        at_least: (64, 64),
    };
    let Some(decode::Decoded::Samples(samples)) = decode::decode(after, &filters, &declared) else {
        panic!("decodes to samples");
    };
    assert!(
        samples
            .chunks(8)
            .all(|row| row == [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
    );
}

#[test]
fn group4_at_its_size_keeps_its_bytes() {
    let packed: Vec<u8> = [0x00, 0xFF].repeat(32 * 64);
    let code = ccitt::encode(&packed, (16 * 16, 64)).expect("encodes");
    let mut doc = Document::with_version("1.7");
    let mut image = image_stream(
        (256, 64),
        "DeviceGray".into(),
        1,
        "CCITTFaxDecode",
        code.clone(),
    );
    image.dict.set("DecodeParms", ccitt::parms(256, 64));
    let id = doc.add_object(image);
    let report = run(&mut doc, &[(id, (256.0, 64.0))], Preset::Screen);
    assert_eq!(report.replaced, 0);
    assert_eq!(stream(&doc, id).content, code);
}
