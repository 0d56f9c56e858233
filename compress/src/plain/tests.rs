use flate2::{Compression, write::ZlibEncoder};
use lopdf::{Object, Stream, dictionary};
use std::io::Write;

use super::*;

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).expect("test data");
    encoder.finish().expect("test data")
}

fn stream(filter: Object, parms: Option<Object>, content: Vec<u8>) -> Stream {
    let mut dict = dictionary! { "Filter" => filter };
    if let Some(parms) = parms {
        dict.set("DecodeParms", parms);
    }
    Stream::new(dict, content)
}

#[test]
fn a_sound_chain_decodes() {
    let text = b"BT /F1 12 Tf (Hello) Tj ET".repeat(20);
    let a85 = {
        // ASCII85 of the zlib bytes, written by hand through the decoder's inverse.
        let packed = zlib(&text);
        let mut out = Vec::new();
        for chunk in packed.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            let mut value = u32::from_be_bytes(word);
            let mut digits = [0u8; 5];
            for d in digits.iter_mut().rev() {
                *d = (value % 85) as u8 + b'!';
                value /= 85;
            }
            out.extend_from_slice(&digits[..chunk.len() + 1]);
        }
        out.extend_from_slice(b"~>");
        out
    };
    let s = stream(
        vec![Object::from("A85"), Object::from("FlateDecode")].into(),
        None,
        a85,
    );
    assert_eq!(decode(&s, 1 << 20).expect("test data"), text);
}

#[test]
fn a_truncated_or_corrupt_flate_stream_is_damaged_not_partial() {
    let text = b"0 0 m 100 100 l S\n".repeat(500);
    let packed = zlib(&text);
    let cut = stream(
        "FlateDecode".into(),
        None,
        packed[..packed.len() / 2].to_vec(),
    );
    assert_eq!(decode(&cut, 1 << 20), Err(Undecodable::Damaged));
    let mut corrupt = packed.clone();
    corrupt[packed.len() / 2] ^= 0x55;
    let corrupt = stream("FlateDecode".into(), None, corrupt);
    assert_eq!(decode(&corrupt, 1 << 20), Err(Undecodable::Damaged));
    // lopdf hands back what it got, with a warning: what the compressor used to keep.
    let lenient = cut
        .decompressed_content_with_limit(1 << 20)
        .unwrap_or_default();
    assert!(lenient.len() < text.len());
}

#[test]
fn ascii85_without_its_end_or_with_stray_bytes_is_damaged() {
    let s = stream("ASCII85Decode".into(), None, b"87cURD]i,\"Ebo7".to_vec());
    assert_eq!(decode(&s, 1 << 20), Err(Undecodable::Damaged));
    let s = stream(
        "ASCII85Decode".into(),
        None,
        b"87cUR\x01D]i,\"Ebo7~>".to_vec(),
    );
    assert_eq!(decode(&s, 1 << 20), Err(Undecodable::Damaged));
    let s = stream("ASCII85Decode".into(), None, b"87cURD]i,\"Ebo7~>".to_vec());
    assert_eq!(decode(&s, 1 << 20).expect("test data"), b"Hello World");
}

#[test]
fn png_and_tiff_predictors_are_undone() {
    // Two rows of three RGB pixels, PNG Up then Sub.
    let rows: [[u8; 9]; 2] = [
        [10, 20, 30, 11, 21, 31, 12, 22, 32],
        [13, 23, 33, 14, 24, 34, 15, 25, 35],
    ];
    let mut encoded = vec![2u8];
    encoded.extend_from_slice(&rows[0]);
    encoded.push(1);
    let mut sub = rows[1];
    for i in (3..9).rev() {
        sub[i] = sub[i].wrapping_sub(sub[i - 3]);
    }
    encoded.extend_from_slice(&sub);
    let parms = dictionary! { "Predictor" => 12, "Colors" => 3, "Columns" => 3 };
    let s = stream("FlateDecode".into(), Some(parms.into()), zlib(&encoded));
    assert_eq!(decode(&s, 1 << 20).expect("test data"), rows.concat());

    let mut tiff = rows.concat();
    for line in tiff.chunks_mut(9) {
        for i in (3..9).rev() {
            line[i] = line[i].wrapping_sub(line[i - 3]);
        }
    }
    let parms = dictionary! { "Predictor" => 2, "Colors" => 3, "Columns" => 3 };
    let s = stream("FlateDecode".into(), Some(parms.into()), zlib(&tiff));
    assert_eq!(decode(&s, 1 << 20).expect("test data"), rows.concat());
}

#[test]
fn hex_and_run_length() {
    let s = stream("AHx".into(), None, b"48 65 6C6c 6F 7>".to_vec());
    assert_eq!(decode(&s, 1 << 20).expect("test data"), b"Hello\x70");
    let s = stream("AHx".into(), None, b"48 65 6G>".to_vec());
    assert_eq!(decode(&s, 1 << 20), Err(Undecodable::Damaged));
    let s = stream(
        "RunLengthDecode".into(),
        None,
        vec![2, b'a', b'b', b'c', 254, b'x', 128],
    );
    assert_eq!(decode(&s, 1 << 20).expect("test data"), b"abcxxx");
    let s = stream("RunLengthDecode".into(), None, vec![5, b'a']);
    assert_eq!(decode(&s, 1 << 20), Err(Undecodable::Damaged));
}

#[test]
fn a_bomb_and_an_unknown_filter() {
    let s = stream("FlateDecode".into(), None, zlib(&vec![0u8; 1 << 20]));
    assert_eq!(decode(&s, 1 << 16), Err(Undecodable::Bomb));
    let s = stream("BrotliDecode".into(), None, vec![1, 2, 3]);
    assert_eq!(decode(&s, 1 << 16), Err(Undecodable::Unsupported));
    let s = stream(Object::Reference((4, 0)), None, vec![1, 2, 3]);
    assert_eq!(decode(&s, 1 << 16), Err(Undecodable::Damaged));
}
