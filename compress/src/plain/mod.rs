//! A stream's bytes with its transport filters undone (Flate and LZW with their predictors,
//! ASCII85, ASCIIHex, RunLength), strictly: a layer that is damaged (a corrupt or truncated
//! Flate or LZW stream, ASCII85 or hex with stray bytes or no end marker, a RunLength run cut
//! short) fails the whole decode, where lopdf logs a warning and returns what it got. A
//! rewrite made from partial bytes would replace what viewers show (their own decoders often
//! recover more) with less: a stream that does not decode cleanly is kept as it is.

mod predictor;
mod text;

use lopdf::{Dictionary, Object, Stream};

/// Why a stream's bytes could not be had.
#[derive(Debug, PartialEq, Eq)]
pub enum Undecodable {
    /// A layer decodes past the limit: a decompression bomb.
    Bomb,
    /// A layer's data is damaged, or its parameters are not ones viewers agree on.
    Damaged,
    /// A filter that is not a transport filter (an image codec, a crypt filter, one unknown).
    Unsupported,
}

/// The stream's content with every filter undone; each layer's output bounded by `limit`.
pub fn decode(stream: &Stream, limit: usize) -> Result<Vec<u8>, Undecodable> {
    let names = filter_names(stream)?;
    decode_layers(stream, &names, names.len(), limit)
}

/// The content with its first `count` filters undone, each bounded by `limit` (the general
/// filters in front of an image codec).
pub fn decode_leading(stream: &Stream, count: usize, limit: usize) -> Result<Vec<u8>, Undecodable> {
    let names = filter_names(stream)?;
    decode_layers(stream, &names, count.min(names.len()), limit)
}

/// Whether a stream has no filter at all.
pub fn is_unfiltered(stream: &Stream) -> bool {
    matches!(filter_names(stream), Ok(names) if names.is_empty())
}

/// The filter names in decoding order; `Damaged` for a `/Filter` that is neither a name nor
/// an array of names (references are resolved when the document is loaded).
pub fn filter_names(stream: &Stream) -> Result<Vec<Vec<u8>>, Undecodable> {
    match stream.dict.get(b"Filter") {
        Err(_) | Ok(Object::Null) => Ok(Vec::new()),
        Ok(Object::Name(name)) => Ok(vec![canonical(name).to_vec()]),
        Ok(Object::Array(items)) => items
            .iter()
            .map(|item| match item {
                Object::Name(name) => Ok(canonical(name).to_vec()),
                _ => Err(Undecodable::Damaged),
            })
            .collect(),
        Ok(_) => Err(Undecodable::Damaged),
    }
}

/// Filter abbreviations of inline-image syntax, which some writers use in streams too.
pub fn canonical(name: &[u8]) -> &[u8] {
    match name {
        b"AHx" => b"ASCIIHexDecode",
        b"A85" => b"ASCII85Decode",
        b"LZW" => b"LZWDecode",
        b"Fl" => b"FlateDecode",
        b"RL" => b"RunLengthDecode",
        b"DCT" => b"DCTDecode",
        b"CCF" => b"CCITTFaxDecode",
        other => other,
    }
}

fn decode_layers(
    stream: &Stream,
    names: &[Vec<u8>],
    count: usize,
    limit: usize,
) -> Result<Vec<u8>, Undecodable> {
    if count == 0 {
        return if stream.content.len() <= limit {
            Ok(stream.content.clone())
        } else {
            Err(Undecodable::Bomb)
        };
    }
    let mut data = std::borrow::Cow::Borrowed(stream.content.as_slice());
    for (index, name) in names.iter().take(count).enumerate() {
        let parms = parms(stream, index, names.len())?;
        let out = match name.as_slice() {
            b"FlateDecode" => predictor::undo(
                inflate(&data, limit, 0).map_err(bomb_or_damaged)?,
                parms,
                limit,
            )?,
            b"LZWDecode" => predictor::undo(lzw(&data, parms, limit)?, parms, limit)?,
            b"ASCII85Decode" => text::ascii85(&data, limit)?,
            b"ASCIIHexDecode" => text::ascii_hex(&data, limit)?,
            b"RunLengthDecode" => text::run_length(&data, limit)?,
            _ => return Err(Undecodable::Unsupported),
        };
        data = std::borrow::Cow::Owned(out);
    }
    Ok(data.into_owned())
}

/// The parameters of filter `index` of a chain of `count`: a direct dictionary or none. A lone
/// dictionary for a chain of several, or anything but a dictionary, is read differently by
/// different viewers: `Damaged`.
fn parms(stream: &Stream, index: usize, count: usize) -> Result<Option<&Dictionary>, Undecodable> {
    let parms = match stream.dict.get(b"DecodeParms") {
        Err(_) | Ok(Object::Null) => return Ok(None),
        Ok(Object::Array(items)) => items.get(index),
        Ok(parms @ Object::Dictionary(_)) if count == 1 => Some(parms),
        Ok(_) => return Err(Undecodable::Damaged),
    };
    match parms {
        None | Some(Object::Null) => Ok(None),
        Some(Object::Dictionary(dict)) => Ok(Some(dict)),
        Some(_) => Err(Undecodable::Damaged),
    }
}

/// Why [`inflate`] gave up.
#[derive(Debug, PartialEq, Eq)]
pub enum InflateError {
    OverLimit,
    /// Corrupt, or it ends before its end marker.
    Damaged,
}

fn bomb_or_damaged(err: InflateError) -> Undecodable {
    match err {
        InflateError::OverLimit => Undecodable::Bomb,
        InflateError::Damaged => Undecodable::Damaged,
    }
}

/// A whole, sound zlib stream of at most `limit` bytes, inflated straight into a buffer of
/// `size` bytes when the size is known (an image's samples): lopdf's reader grows its buffer
/// by doubling, copying and zeroing each new part before inflating into it, three more passes
/// over a 243 MB scan.
pub fn inflate(input: &[u8], limit: usize, size: usize) -> Result<Vec<u8>, InflateError> {
    let mut inflater = flate2::Decompress::new(true);
    let mut out = Vec::with_capacity(size.min(limit).max(1));
    let total_in = |inflater: &flate2::Decompress| {
        usize::try_from(inflater.total_in()).map_err(|_| InflateError::Damaged)
    };
    loop {
        let consumed = total_in(&inflater)?;
        let produced = out.len();
        let rest = input.get(consumed..).ok_or(InflateError::Damaged)?;
        let status = inflater
            .decompress_vec(rest, &mut out, flate2::FlushDecompress::None)
            .map_err(|_| InflateError::Damaged)?;
        if out.len() > limit {
            return Err(InflateError::OverLimit);
        }
        match status {
            flate2::Status::StreamEnd => return Ok(out),
            // Doubling, up to one byte past the limit: a bomb stops there.
            _ if out.len() == out.capacity() => {
                out.reserve(out.len().max(1 << 16).min(limit + 1 - out.len()));
            }
            // No room was missing, so input was: the stream ends early.
            _ if out.len() == produced && total_in(&inflater)? == consumed => {
                return Err(InflateError::Damaged);
            }
            _ => {}
        }
    }
}

/// LZW with the stream's `/EarlyChange` (1 unless it says 0); an invalid code fails.
fn lzw(input: &[u8], parms: Option<&Dictionary>, limit: usize) -> Result<Vec<u8>, Undecodable> {
    let early = parms
        .and_then(|p| p.get(b"EarlyChange").ok())
        .and_then(|v| v.as_i64().ok())
        .is_none_or(|v| v != 0);
    let mut decoder = if early {
        weezl::decode::Decoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8)
    } else {
        weezl::decode::Decoder::new(weezl::BitOrder::Msb, 8)
    };
    let mut out = Vec::new();
    let mut at = 0;
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let result = decoder.decode_bytes(&input[at..], &mut buffer);
        at += result.consumed_in;
        out.extend_from_slice(&buffer[..result.consumed_out]);
        if out.len() > limit {
            return Err(Undecodable::Bomb);
        }
        match result.status {
            Ok(weezl::LzwStatus::Done) => return Ok(out),
            // Writers often stop at the last code without an end-of-data code.
            Ok(weezl::LzwStatus::NoProgress) if at == input.len() => return Ok(out),
            Ok(weezl::LzwStatus::NoProgress) => return Err(Undecodable::Damaged),
            Ok(weezl::LzwStatus::Ok) => {}
            Err(_) => return Err(Undecodable::Damaged),
        }
    }
}

#[cfg(test)]
mod tests;
