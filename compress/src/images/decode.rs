//! An image stream's filter chain, undone: the general filters (ASCII85, ASCIIHex, LZW,
//! RunLength, Flate with PNG or TIFF predictors) through lopdf, and a final DCT, JPX or CCITT
//! filter through its codec. Decoding is bounded by the declared image, so a bomb costs nothing.

use lopdf::{Dictionary, Object, Stream};

use super::jpeg::{self, Pixels};
use super::{ccitt, jpx};

/// What undoing the filters gives.
pub enum Decoded {
    /// Samples as the image dictionary describes them: rows byte-aligned, exactly the declared
    /// size (trailing bytes dropped).
    Samples(Vec<u8>),
    /// 8-bit pixels from JPEG or JPEG 2000, possibly already at a reduced scale, and whether
    /// the JPX file carries its own ICC profile.
    Pixels(Pixels, bool),
}

/// Filters whose images are kept as they are: JBIG2 (a bilevel codec that beats anything
/// here, and with no decoder here), and encryption filters.
pub fn is_kept_filter(name: &[u8]) -> bool {
    matches!(name, b"JBIG2Decode" | b"Crypt" | b"BrotliDecode")
}

/// The image codecs a chain may end with, decoded here after any general filters.
fn is_codec(name: &[u8]) -> bool {
    matches!(name, b"DCTDecode" | b"JPXDecode" | b"CCITTFaxDecode")
}

/// The stream's filter names, canonical, in decoding order; none for an unfiltered stream.
pub fn filters(stream: &Stream) -> Option<Vec<Vec<u8>>> {
    crate::plain::filter_names(stream).ok()
}

/// The declared image's facts decoding needs.
pub struct Declared {
    pub width: u32,
    pub height: u32,
    /// Components per stored sample (JPEG and JPX must produce this many).
    pub components: u8,
    pub bpc: u8,
    /// Smallest size a codec may scale down to (JPEG decodes at M/8 scales).
    pub at_least: (u32, u32),
}

impl Declared {
    fn sample_bytes(&self) -> Option<usize> {
        super::samples::row_bytes(self.width, self.components, self.bpc)?
            .checked_mul(self.height as usize)
    }
}

/// Undoes `filters` on the stream's content; `None` for anything unknown, corrupt or larger
/// than the declared image allows.
pub fn decode(stream: &Stream, filters: &[Vec<u8>], declared: &Declared) -> Option<Decoded> {
    let expected = declared.sample_bytes()?;
    let (last, leading) = match filters.split_last() {
        Some((last, leading)) if is_codec(last) => (Some(last.as_slice()), leading),
        _ => (None, filters),
    };
    if !only_general(leading) {
        return None;
    }
    let Some(codec) = last else {
        // Some writers add a byte or a row of padding; more than that is not this image.
        let limit = expected + expected / 16 + 1024;
        let mut samples = general(stream, leading.len(), limit, expected)?;
        if samples.len() < expected {
            return None;
        }
        samples.truncate(expected);
        return Some(Decoded::Samples(samples));
    };
    let input = codec_input(stream, leading.len(), expected)?;
    if codec == b"CCITTFaxDecode" {
        if (declared.components, declared.bpc) != (1, 1) {
            return None;
        }
        let parms = filter_parms(stream, leading.len(), filters.len())?;
        let size = (declared.width, declared.height);
        return ccitt::decode(&input, parms, size).map(Decoded::Samples);
    }
    let (pixels, own_icc) = if codec == b"DCTDecode" {
        let pixels = jpeg::decode(
            &input,
            (declared.width, declared.height),
            declared.components,
            declared.at_least,
        )?;
        (pixels, false)
    } else {
        jpx::decode(&input, (declared.width, declared.height))?
    };
    Some(Decoded::Pixels(pixels, own_icc))
}

/// What the codec at the end of the chain reads: the content after the `leading` general
/// filters before it. `None` past the bound: a codec's input is compressed, so it cannot
/// legitimately be larger than the raw image of `expected` bytes.
pub fn codec_input(stream: &Stream, leading: usize, expected: usize) -> Option<Vec<u8>> {
    general(stream, leading, expected + 64 * 1024, 0)
}

/// The JPEG a stream holds, under any general filters (`[/FlateDecode /DCTDecode]`, an
/// ASCII85 layer): `None` for any other chain.
pub fn jpeg_input(stream: &Stream, filters: &[Vec<u8>], declared: &Declared) -> Option<Vec<u8>> {
    let (last, leading) = filters.split_last()?;
    if last != b"DCTDecode" || !only_general(leading) {
        return None;
    }
    codec_input(stream, leading.len(), declared.sample_bytes()?)
}

/// Whether `filters` are all general ones (no image codec, nothing kept as it is), which
/// lopdf can undo in front of a codec.
fn only_general(filters: &[Vec<u8>]) -> bool {
    filters.iter().all(|f| !is_codec(f) && !is_kept_filter(f))
}

/// The content after its first `count` filters, each bounded by `limit` bytes, decoded
/// strictly (a damaged layer keeps the image as it is). `size` is what the samples should
/// come to, when known: a lone Flate layer inflates straight into a buffer of that size.
fn general(stream: &Stream, count: usize, limit: usize, size: usize) -> Option<Vec<u8>> {
    if count == 1
        && filters(stream).is_some_and(|names| names.first().is_some_and(|n| n == b"FlateDecode"))
        && matches!(stream.dict.get(b"DecodeParms"), Err(_) | Ok(Object::Null))
    {
        return crate::plain::inflate(&stream.content, limit, size).ok();
    }
    crate::plain::decode_leading(stream, count, limit).ok()
}

/// Whether the chain ends in CCITT Group 4 (K < 0).
pub fn is_group4(stream: &Stream, filters: &[Vec<u8>]) -> bool {
    filters.last().is_some_and(|f| f == b"CCITTFaxDecode")
        && filter_parms(stream, filters.len() - 1, filters.len())
            .flatten()
            .and_then(|parms| parms.get(b"K").ok()?.as_i64().ok())
            .is_some_and(|k| k < 0)
}

/// The parameters of filter `index` of a chain of `count`: a direct dictionary, or none;
/// `None` for anything else (a reference, a malformed entry), which keeps the image as it is.
pub(super) fn filter_parms(
    stream: &Stream,
    index: usize,
    count: usize,
) -> Option<Option<&Dictionary>> {
    let parms = match stream.dict.get(b"DecodeParms") {
        Err(_) | Ok(Object::Null) => return Some(None),
        Ok(Object::Array(items)) => items.get(index),
        Ok(parms @ Object::Dictionary(_)) if count == 1 => Some(parms),
        Ok(_) => return None,
    };
    match parms {
        None | Some(Object::Null) => Some(None),
        Some(Object::Dictionary(dict)) => Some(Some(dict)),
        Some(_) => None,
    }
}
