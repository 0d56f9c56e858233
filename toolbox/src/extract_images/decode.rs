//! One image stream to one file: JPEG and JPEG 2000 data copied as stored (after undoing
//! ASCII and Flate wrappers), everything else decoded through its filters (lopdf's, bounded by
//! the declared image so a bomb costs nothing) and written as an 8-bit PNG.

use image::ExtendedColorType;
use image::ImageEncoder;
use image::codecs::png::PngEncoder;
use lopdf::{Dictionary, Document, Object, Stream};

use super::pixels::{self, row_bytes};
use super::space::{self, Device, Space};

/// Why an image is not written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    Undecodable(&'static str),
    TooLarge,
}

/// A file's bytes and extension.
pub struct Encoded {
    pub bytes: Vec<u8>,
    pub ext: &'static str,
}

/// What a JPEG's bytes may take beyond one sample per pixel and component: its headers, an
/// embedded profile, EXIF, a thumbnail.
const JPEG_SLACK: usize = 16 << 20;

/// Turns `stream`, declared `width`×`height`, into a file. Only images decoded into pixels are
/// held to `max_pixels`; JPEG and JPEG 2000 data is copied, never decoded.
pub fn encode(
    doc: &Document,
    stream: &Stream,
    (width, height): (u32, u32),
    max_pixels: u64,
) -> Result<Encoded, Skip> {
    let filters = quire_compress::redaction::filters(stream)
        .ok_or(Skip::Undecodable("unreadable /Filter"))?;
    let pixels = u64::from(width) * u64::from(height);
    if let Some((last, leading)) = filters.split_last()
        && matches!(last.as_slice(), b"DCTDecode" | b"JPXDecode")
    {
        if !leading.iter().all(|f| is_wrapper(f)) {
            return Err(Skip::Undecodable(
                "JPEG data under a filter other than ASCII or Flate",
            ));
        }
        // Compressed data cannot legitimately be much larger than the pixels it holds.
        let bound = usize::try_from(pixels.min(max_pixels).saturating_mul(4)).unwrap_or(usize::MAX);
        let data = general(doc, stream, leading, bound.saturating_add(JPEG_SLACK))
            .ok_or(Skip::Undecodable("damaged ASCII or Flate wrapper"))?;
        return if last == b"DCTDecode" {
            jpeg(data)
        } else {
            jpx(data)
        };
    }
    if let Some(other) = filters.iter().find(|f| !is_general(f)) {
        tracing::debug!(filter = %String::from_utf8_lossy(other), "image filter not decoded");
        return Err(Skip::Undecodable("CCITT, JBIG2 or unknown filter"));
    }
    if pixels > max_pixels {
        return Err(Skip::TooLarge);
    }
    let dict = &stream.dict;
    let stencil = dict
        .get(b"ImageMask")
        .and_then(Object::as_bool)
        .unwrap_or(false);
    let (space, bpc) = if stencil {
        (Space::Device(Device::Gray), 1)
    } else {
        let space = dict
            .get(b"ColorSpace")
            .ok()
            .and_then(|cs| space::parse(doc, cs))
            .ok_or(Skip::Undecodable(
                "colour space not grey, RGB, CMYK or a palette",
            ))?;
        let bpc = dict
            .get(b"BitsPerComponent")
            .and_then(|o| doc.dereference(o))
            .and_then(|(_, o)| o.as_i64())
            .ok()
            .and_then(|bpc| u8::try_from(bpc).ok())
            .filter(|bpc| matches!(bpc, 1 | 2 | 4 | 8 | 16))
            .ok_or(Skip::Undecodable("bits per component"))?;
        (space, bpc)
    };
    let row = row_bytes(width, space.components(), bpc).ok_or(Skip::TooLarge)?;
    let expected = row.checked_mul(height as usize).ok_or(Skip::TooLarge)?;
    // Some writers add a byte or a row of padding; more than that is not this image.
    let limit = expected + expected / 16 + 1024;
    let mut raw = general(doc, stream, &filters, limit).ok_or(Skip::Undecodable("damaged data"))?;
    // Short data (a truncated stream, a writer's miscount) is padded with zeros, as viewers
    // show it, provided a row at least is there.
    if raw.len() < row {
        return Err(Skip::Undecodable("no data"));
    }
    if raw.len() < expected {
        raw.resize(expected, 0);
    }
    let decode = dict
        .get(b"Decode")
        .and_then(|o| doc.dereference(o))
        .and_then(|(_, o)| o.as_array())
        .ok()
        .and_then(|items| numbers(doc, items));
    let pixels = pixels::convert(&raw, (width, height), &space, bpc, decode.as_deref())
        .ok_or(Skip::Undecodable("data shorter than the image"))?;
    let colour = if pixels.channels == 1 {
        ExtendedColorType::L8
    } else {
        ExtendedColorType::Rgb8
    };
    let mut bytes = Vec::new();
    PngEncoder::new(&mut bytes)
        .write_image(&pixels.data, width, height, colour)
        .map_err(|_| Skip::Undecodable("PNG encoding"))?;
    Ok(Encoded { bytes, ext: "png" })
}

/// JPEG data begins with its SOI marker; a few stray bytes before it are cut.
fn jpeg(mut data: Vec<u8>) -> Result<Encoded, Skip> {
    let head = &data[..data.len().min(1024)];
    let start = head
        .windows(3)
        .position(|w| w == [0xFF, 0xD8, 0xFF])
        .ok_or(Skip::Undecodable("not JPEG data"))?;
    if start > 0 {
        data.drain(..start);
    }
    Ok(Encoded {
        bytes: data,
        ext: "jpg",
    })
}

/// A JP2 file (signature box) is `.jp2`, a bare codestream (SOC then SIZ) `.j2k`.
fn jpx(data: Vec<u8>) -> Result<Encoded, Skip> {
    const JP2: [u8; 12] = [
        0, 0, 0, 0x0C, b'j', b'P', b' ', b' ', 0x0D, 0x0A, 0x87, 0x0A,
    ];
    let ext = if data.starts_with(&JP2) {
        "jp2"
    } else if data.starts_with(&[0xFF, 0x4F, 0xFF, 0x51]) {
        "j2k"
    } else {
        return Err(Skip::Undecodable("not JPEG 2000 data"));
    };
    Ok(Encoded { bytes: data, ext })
}

/// Filters that may wrap JPEG and JPEG 2000 data.
fn is_wrapper(name: &[u8]) -> bool {
    matches!(name, b"ASCII85Decode" | b"ASCIIHexDecode" | b"FlateDecode")
}

/// Filters lopdf undoes.
fn is_general(name: &[u8]) -> bool {
    is_wrapper(name) || matches!(name, b"LZWDecode" | b"RunLengthDecode")
}

/// The content after the `names` filters (the stream's first ones), each bounded by `limit`
/// bytes: lopdf decodes them from a copy that names just those filters, with their
/// parameters resolved (lopdf reads only direct parameter dictionaries).
fn general(doc: &Document, stream: &Stream, names: &[Vec<u8>], limit: usize) -> Option<Vec<u8>> {
    if names.is_empty() {
        return (stream.content.len() <= limit).then(|| stream.content.clone());
    }
    let resolve = |o: &Object| -> Option<Dictionary> {
        match doc.dereference(o).ok()?.1 {
            Object::Dictionary(d) => Some(d.clone()),
            _ => None,
        }
    };
    let params: Vec<Option<Dictionary>> = match stream.dict.get(b"DecodeParms") {
        Err(_) => vec![None; names.len()],
        Ok(object) => match doc.dereference(object).ok()?.1 {
            Object::Array(items) => (0..names.len())
                .map(|i| items.get(i).and_then(resolve))
                .collect(),
            Object::Dictionary(lone) => {
                // One dictionary for a chain: it belongs to the filter that takes parameters.
                let last = names
                    .iter()
                    .rposition(|n| matches!(n.as_slice(), b"FlateDecode" | b"LZWDecode"));
                (0..names.len())
                    .map(|i| (Some(i) == last).then(|| lone.clone()))
                    .collect()
            }
            _ => vec![None; names.len()],
        },
    };
    let mut dict = Dictionary::new();
    dict.set(
        "Filter",
        names
            .iter()
            .map(|n| Object::Name(n.clone()))
            .collect::<Vec<_>>(),
    );
    dict.set(
        "DecodeParms",
        params
            .into_iter()
            .map(|p| p.map_or(Object::Null, Object::Dictionary))
            .collect::<Vec<_>>(),
    );
    let partial = Stream::new(dict, stream.content.clone());
    partial.decompressed_content_with_limit(limit).ok()
}

/// A /Decode array's numbers, or `None` if any is not a number.
fn numbers(doc: &Document, items: &[Object]) -> Option<Vec<f32>> {
    items
        .iter()
        .map(|item| doc.dereference(item).ok()?.1.as_float().ok())
        .collect()
}
