//! One image or mask stream decoded, its covered pixels painted, and encoded again: JPEG as
//! JPEG, fax as fax, the rest as Flate, with the dictionary cut of what no longer describes it.

use std::io::Write;

use lopdf::{Dictionary, Document, Object, Stream};
use quire_compress::redaction::{self as codecs, Declared, Decoded};

use super::cover::Cover;
use super::samples::{self, Target};
use super::{flag, size};
use crate::geometry::number_of;

/// The quality JPEG images are written again at: the second lossy pass should not show.
const JPEG_QUALITY: u8 = 92;

/// Entries of an image dictionary that no longer describe the painted copy: its encoding, and
/// other versions of the picture (alternates, OPI proxies, metadata that may hold a thumbnail).
const STALE: [&[u8]; 7] = [
    b"Length",
    b"Filter",
    b"DecodeParms",
    b"Alternates",
    b"OPI",
    b"Metadata",
    b"SMaskInData",
];

/// One image or mask stream decoded, painted and encoded again.
pub fn paint(
    doc: &Document,
    stream: &Stream,
    cover: &Cover,
    target: Target,
) -> Result<Stream, &'static str> {
    let dict = &stream.dict;
    let (width, height) = size(doc, dict)?;
    let stencil = flag(doc, dict, b"ImageMask");
    let resolved = |key: &[u8]| {
        dict.get(key)
            .ok()
            .and_then(|v| doc.dereference(v).ok())
            .map(|(_, v)| v)
    };
    let space = match (stencil, resolved(b"ColorSpace")) {
        (true, _) | (false, None) => None,
        (false, Some(object)) => {
            Some(codecs::parse_space(doc, object).ok_or("a colour space that cannot be read")?)
        }
    };
    let bpc = if stencil {
        1
    } else {
        resolved(b"BitsPerComponent")
            .and_then(|b| b.as_i64().ok())
            .and_then(|b| u8::try_from(b).ok())
            .filter(|b| matches!(b, 1 | 2 | 4 | 8 | 16))
            .unwrap_or(8)
    };
    let decode: Option<Vec<f64>> = resolved(b"Decode")
        .and_then(|d| d.as_array().ok())
        .and_then(|d| {
            d.iter()
                .map(|v| number_of(doc.dereference(v).ok()?.1))
                .collect()
        });
    let filters = codecs::filters(stream).ok_or("an unreadable /Filter")?;
    let jpx = filters.last().is_some_and(|f| f == b"JPXDecode");
    let components = match &space {
        Some(space) => space.components(),
        // A JPEG 2000 image may carry its colour space itself.
        None if jpx => 4,
        None => 1,
    };
    let mut clean = stream.clone();
    clean.dict = resolved_parms(doc, dict);
    let declared = Declared {
        width,
        height,
        components,
        bpc,
        at_least: (width, height),
    };
    // Filter names come canonical (`CCF` is already `CCITTFaxDecode`).
    let fax = filters.last().is_some_and(|f| f == b"CCITTFaxDecode");
    let decoded = codecs::decode(&clean, &filters, &declared).ok_or(
        "data that cannot be decoded (JBIG2, two-dimensional Group 3 fax, damaged or unknown)",
    )?;
    let mut out = dict.clone();
    for key in STALE {
        out.remove(key);
    }
    match decoded {
        Decoded::Samples(mut samples) => {
            let row = row_bytes(width, components, bpc)?;
            let values = samples::values(space.as_ref(), bpc, decode.as_deref(), target);
            samples::paint(&mut samples, row, bpc, &values, cover);
            // A fax image is written as fax again: Flate would make a scan several times larger.
            if fax && let Some(code) = codecs::encode_ccitt(&samples, (width, height)) {
                out.set("Filter", Object::Name(b"CCITTFaxDecode".to_vec()));
                out.set(
                    "DecodeParms",
                    Object::Dictionary(codecs::ccitt_parms(width, height)),
                );
                return Ok(Stream::new(out, code).with_compression(false));
            }
            Ok(flate(out, &samples))
        }
        Decoded::Pixels(mut pixels, _) => {
            let channels = pixels.channels;
            // JPEG 2000 ignores /Decode; a JPEG honours it.
            let decode = if jpx { None } else { decode };
            let space = space.filter(|s| s.components() == channels);
            let values = samples::values(space.as_ref(), 8, decode.as_deref(), target);
            if values.len() != usize::from(channels) && !matches!(target, Target::One) {
                return Err("decoded colours that do not match the colour space");
            }
            let row = usize::try_from(pixels.width).unwrap_or(0) * usize::from(channels);
            let values = if values.len() == usize::from(channels) {
                values
            } else {
                vec![255; usize::from(channels)]
            };
            samples::paint(&mut pixels.data, row, 8, &values, cover);
            out.set("BitsPerComponent", 8);
            if jpx {
                out.remove(b"Decode");
                if !out.has(b"ColorSpace") && !stencil {
                    let device = match channels {
                        1 => "DeviceGray",
                        4 => "DeviceCMYK",
                        _ => "DeviceRGB",
                    };
                    out.set("ColorSpace", Object::Name(device.as_bytes().to_vec()));
                }
                return Ok(flate(out, &pixels.data));
            }
            match codecs::encode_jpeg(&pixels, JPEG_QUALITY, true) {
                Some(jpeg) => {
                    out.set("Filter", Object::Name(b"DCTDecode".to_vec()));
                    Ok(Stream::new(out, jpeg).with_compression(false))
                }
                None => Ok(flate(out, &pixels.data)),
            }
        }
    }
}

fn row_bytes(width: u32, components: u8, bpc: u8) -> Result<usize, &'static str> {
    (width as usize)
        .checked_mul(usize::from(components))
        .and_then(|bits| bits.checked_mul(usize::from(bpc)))
        .map(|bits| bits.div_ceil(8))
        .ok_or("an image too large to decode")
}

/// The dictionary with its /DecodeParms resolved (the decoders read only direct ones).
fn resolved_parms(doc: &Document, dict: &Dictionary) -> Dictionary {
    let mut out = dict.clone();
    let resolve = |o: &Object| doc.dereference(o).map_or(Object::Null, |(_, o)| o.clone());
    if let Ok(parms) = dict.get(b"DecodeParms") {
        let value = match resolve(parms) {
            Object::Array(items) => Object::Array(items.iter().map(resolve).collect()),
            other => other,
        };
        out.set("DecodeParms", value);
    }
    if let Ok(filter) = dict.get(b"Filter") {
        out.set("Filter", resolve(filter));
    }
    out
}

/// Samples written as a Flate stream under `dict`.
fn flate(mut dict: Dictionary, samples: &[u8]) -> Stream {
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(samples.len() / 4),
        flate2::Compression::new(6),
    );
    // Writing into a vector cannot fail.
    let packed = encoder.write_all(samples).and_then(|()| encoder.finish());
    match packed {
        Ok(packed) => {
            dict.set("Filter", Object::Name(b"FlateDecode".to_vec()));
            Stream::new(dict, packed).with_compression(false)
        }
        Err(_) => Stream::new(dict, samples.to_vec()),
    }
}
