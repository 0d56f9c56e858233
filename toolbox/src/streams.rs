//! Streams stored without any filter, Flate-compressed on the way out, as qpdf does by default:
//! some producers write fonts and content plain, and a part of such a file would otherwise be
//! twice the size qpdf makes it. Compressed streams are never decoded or recompressed.

use std::io::Write;

use lopdf::{Document, Object};

/// Below this a stream gains nothing from Flate (its header and checksum take 6 bytes).
const MIN_PLAIN: usize = 64;

/// zlib's default level, as qpdf and the compressor use; lopdf's own `Stream::compress` takes
/// level 9, which took the merge of a file with 4 MB of plain fonts from 0.5x qpdf's time
/// to 0.85x for a hundredth of the size.
const LEVEL: u32 = 6;

/// Compresses every plain stream of `doc`; returns how many.
pub fn compress_plain(doc: &mut Document) -> usize {
    doc.objects
        .values_mut()
        .map(compress)
        .filter(|&done| done)
        .count()
}

/// Compresses `object` if it is a plain stream worth compressing, but not XMP metadata, which
/// stays readable to tools that look for it without parsing the PDF. A stream Flate does not
/// shrink is marked so that it is not tried again.
pub fn compress(object: &mut Object) -> bool {
    let Object::Stream(stream) = object else {
        return false;
    };
    if !stream.allows_compression
        || stream.dict.has(b"Filter")
        || stream.content.len() < MIN_PLAIN
        || stream.dict.has_type(b"Metadata")
    {
        return false;
    }
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(stream.content.len() / 2),
        flate2::Compression::new(LEVEL),
    );
    let packed = encoder
        .write_all(&stream.content)
        .and_then(|()| encoder.finish());
    match packed {
        Ok(packed) if packed.len() < stream.content.len() => {
            stream
                .dict
                .set("Filter", Object::Name(b"FlateDecode".to_vec()));
            stream.dict.remove(b"DecodeParms");
            stream.set_content(packed);
            true
        }
        _ => {
            stream.allows_compression = false;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use lopdf::{Stream, dictionary};

    use super::*;

    #[test]
    fn plain_streams_are_compressed_once_and_metadata_is_not() {
        let text = b"BT /F1 12 Tf (hello) Tj ET ".repeat(20);
        let mut plain = Object::Stream(Stream::new(dictionary! {}, text.clone()));
        assert!(compress(&mut plain));
        let stream = plain.as_stream().expect("a stream");
        assert_eq!(stream.decompressed_content().ok(), Some(text.clone()));
        assert!(!compress(&mut plain));
        let mut xmp = Object::Stream(Stream::new(dictionary! { "Type" => "Metadata" }, text));
        assert!(!compress(&mut xmp));
        let mut noise = Object::Stream(Stream::new(dictionary! {}, (0..=255).collect()));
        assert!(!compress(&mut noise));
        assert!(!noise.as_stream().expect("a stream").allows_compression);
    }
}
