//! The decoders against lopdf's own, and their stop at the limit.

use std::io::Write;

use super::*;

fn decoded(filters: &[Filter], data: &[u8]) -> (Result<u64, Over>, Vec<u8>) {
    let mut budget = Budget { total: 0 };
    let mut keep = Vec::new();
    let result = run(filters, data, &mut budget, &mut keep, usize::MAX);
    (result, keep)
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(data).expect("in the test");
    z.finish().expect("in the test")
}

#[test]
fn chains_decode_as_lopdf_does() {
    let text: Vec<u8> = (0..300_000u32)
        .map(|i| (i % 251) as u8 ^ (i / 7) as u8)
        .collect();
    let flated = zlib(&text);
    let hex: Vec<u8> = flated
        .iter()
        .flat_map(|b| format!("{b:02X} ").into_bytes())
        .chain(*b">")
        .collect();
    let (size, keep) = decoded(&[Filter::AsciiHex, Filter::Flate], &hex);
    assert_eq!(size, Ok(text.len() as u64));
    assert_eq!(keep, text);

    // The same through lopdf's own encoders, for ASCII85, RunLength and LZW.
    for (name, filter) in [
        ("ASCII85Decode", Filter::Ascii85),
        ("RunLengthDecode", Filter::RunLength),
        ("LZWDecode", Filter::Lzw { early: true }),
    ] {
        let encoded = lopdf_encode(name, &text);
        let (size, keep) = decoded(&[filter], &encoded);
        assert_eq!(size, Ok(text.len() as u64), "{name}");
        assert_eq!(keep, text, "{name}");
    }
}

/// Data encoded with `filter` by lopdf, checked by decoding it back with lopdf.
fn lopdf_encode(filter: &str, text: &[u8]) -> Vec<u8> {
    let encoded = match filter {
        "ASCII85Decode" => {
            let mut out = Vec::new();
            for chunk in text.chunks(4) {
                let mut word = [0u8; 4];
                word[..chunk.len()].copy_from_slice(chunk);
                let mut n = u32::from_be_bytes(word) as u64;
                let mut digits = [0u8; 5];
                for d in digits.iter_mut().rev() {
                    *d = (n % 85) as u8 + b'!';
                    n /= 85;
                }
                out.extend_from_slice(&digits[..chunk.len() + 1]);
            }
            out.extend_from_slice(b"~>");
            out
        }
        "RunLengthDecode" => {
            let mut out = Vec::new();
            for chunk in text.chunks(128) {
                out.push(chunk.len() as u8 - 1);
                out.extend_from_slice(chunk);
            }
            out.push(128);
            out
        }
        _ => lzw_encode(text),
    };
    let stream = lopdf::Stream::new(lopdf::dictionary! { "Filter" => filter }, encoded.clone());
    assert_eq!(
        stream.decompressed_content().expect(filter),
        text,
        "{filter}"
    );
    encoded
}

/// A plain LZW encoder (early change 1), to check the decoder against lopdf's.
fn lzw_encode(data: &[u8]) -> Vec<u8> {
    let mut table: std::collections::HashMap<Vec<u8>, u16> =
        (0..=255u8).map(|b| (vec![b], b as u16)).collect();
    let (mut acc, mut bits, mut width, mut next) = (0u64, 0u32, 9u32, 258u16);
    let mut out = Vec::new();
    let mut put = |code: u16, width: u32, out: &mut Vec<u8>| {
        acc = (acc << width) | code as u64;
        bits += width;
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    };
    put(256, width, &mut out);
    let mut word: Vec<u8> = Vec::new();
    for &b in data {
        let mut grown = word.clone();
        grown.push(b);
        if table.contains_key(&grown) {
            word = grown;
            continue;
        }
        put(table[&word], width, &mut out);
        table.insert(grown, next);
        next += 1;
        // The encoder widens once its next code needs it; an early-change decoder, a
        // code behind, widens one code early.
        if next >= 1 << width {
            if width == 12 {
                put(256, width, &mut out);
                table.retain(|k, _| k.len() == 1);
                next = 258;
                width = 9;
            } else {
                width += 1;
            }
        }
        word = vec![b];
    }
    put(table[&word], width, &mut out);
    put(257, width, &mut out);
    put(0, 7, &mut out);
    out
}

#[test]
fn stops_at_the_limit_of_one_stream_without_holding_it() {
    let zeros = vec![0u8; 1 << 20];
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..(MAX_STREAM_DECODED >> 20) + 1 {
        z.write_all(&zeros).expect("in the test");
    }
    let bomb = z.finish().expect("in the test");
    let mut budget = Budget { total: 0 };
    let mut keep = Vec::new();
    let result = run(&[Filter::Flate], &bomb, &mut budget, &mut keep, 1024);
    assert_eq!(result, Err(Over::Stream));
    assert_eq!(keep.len(), 1024);
    assert!(budget.total <= MAX_STREAM_DECODED + CHUNK as u64);
}
