//! The walk over a file: every `N G obj` header wherever it is (engines jump to objects by
//! their offsets, so a string or a stream that seems to swallow an object hides nothing from
//! them, and must hide nothing from the guard), then every stream decoded and counted, object
//! streams first so that what they hold (a filter named by reference) is known.

use foldhash::{HashMap, HashMapExt};
use memchr::memmem;

use super::crypt::{self, Sealed};
use super::decode::{self, Budget, Filter, Over};
use super::syntax::{Lexer, Token, Value};
use super::{MAX_IMAGE_BYTES, MAX_OBJECTS, Refusal, Survey};

/// An object stream is parsed from at most this much of its decoded data.
const OBJECT_STREAM_KEPT: usize = 64 << 20;
/// How deep the trailer and the encryption dictionary are read: the trailer's `/Encrypt`
/// dictionary holds `/CF`, which holds the crypt filters.
const ENCRYPT_DEPTH: usize = 4;

struct StreamAt {
    id: u32,
    generation: u16,
    dict: Value,
    /// The first byte after the `stream` keyword.
    start: usize,
}

pub fn survey(data: &[u8], password: Option<&[u8]>) -> Result<Survey, Refusal> {
    let mut objects: HashMap<u32, Value> = HashMap::new();
    let mut streams = Vec::new();
    let mut survey = Survey::default();
    let mut declared = 0u64;
    // The last trailer (or cross-reference stream) that names an encryption dictionary.
    let mut encrypted_at = None;
    for at in memmem::find_iter(data, b"obj") {
        let Some((id, generation)) = header(data, at) else {
            continue;
        };
        survey.objects += 1;
        if survey.objects > MAX_OBJECTS {
            return Err(Refusal::TooManyObjects(survey.objects));
        }
        let mut lexer = Lexer::new(data, at + 3);
        let first = lexer.next();
        let value = lexer.value(first, 0)?;
        if matches!(value, Value::Dict(_)) && lexer.next() == Token::Keyword(b"stream") {
            if let Some(Value::Int(size)) = value.get(b"Size") {
                declared = declared.max(*size as u64);
            }
            if value.get(b"Encrypt").is_some() {
                encrypted_at = Some(at + 3);
            }
            streams.push(StreamAt {
                id,
                generation,
                dict: value,
                start: lexer.pos,
            });
        } else if keepable(&value) {
            objects.insert(id, value);
        }
    }
    for at in memmem::find_iter(data, b"trailer") {
        let mut lexer = Lexer::new(data, at + 7);
        let first = lexer.next();
        let trailer = lexer.value(first, 0)?;
        if let Value::Int(size) = resolve(trailer.get(b"Size"), &objects) {
            declared = declared.max(size as u64);
        }
        if trailer.get(b"Encrypt").is_some() && encrypted_at.is_none_or(|before| before < at) {
            encrypted_at = Some(at + 7);
        }
    }
    if declared > MAX_OBJECTS {
        return Err(Refusal::TooManyObjects(declared));
    }
    let sealed = match encrypted_at {
        Some(at) => sealed(data, at, password)?,
        None => Sealed::Raw,
    };
    let mut budget = Budget { total: 0 };
    // Object streams first: their objects may be what another stream's filter names.
    let (packed, others): (Vec<_>, Vec<_>) = streams
        .into_iter()
        .partition(|s| s.dict.get(b"Type") == Some(&Value::Name(b"ObjStm".to_vec())));
    for stream in &packed {
        let mut kept = Vec::new();
        decode_stream(
            data,
            stream,
            (&objects, &sealed),
            &mut budget,
            (&mut kept, OBJECT_STREAM_KEPT),
        )?;
        let n = match resolve(stream.dict.get(b"N"), &objects) {
            Value::Int(n) => n.max(0) as u64,
            _ => 0,
        };
        survey.objects = survey.objects.saturating_add(n);
        if survey.objects > MAX_OBJECTS {
            return Err(Refusal::TooManyObjects(survey.objects));
        }
        let first = match resolve(stream.dict.get(b"First"), &objects) {
            Value::Int(first) => first.max(0) as usize,
            _ => 0,
        };
        unpack(&kept, n, first, &mut objects)?;
    }
    survey.streams = (packed.len() + others.len()) as u64;
    for stream in &others {
        // Counted only: nothing of their data is kept.
        let context = (&objects, &sealed);
        decode_stream(data, stream, context, &mut budget, (&mut Vec::new(), 0))?;
    }
    survey.decoded = budget.total;
    Ok(survey)
}

/// How the streams are read: the trailer dictionary at `at` names the encryption dictionary,
/// directly or as an object (the last of that number in the file, as the engines read the
/// newest revision). One that is nowhere means the file is read as not encrypted, as PDFium
/// does.
fn sealed(data: &[u8], at: usize, password: Option<&[u8]>) -> Result<Sealed, Refusal> {
    let deep = |at: usize| {
        let mut lexer = Lexer::new(data, at);
        lexer.keep_depth = ENCRYPT_DEPTH;
        let first = lexer.next();
        lexer.value(first, 0)
    };
    let trailer = deep(at)?;
    let encrypt = match trailer.get(b"Encrypt") {
        Some(Value::Ref(id)) => {
            let found = memmem::find_iter(data, b"obj")
                .filter(|&at| header(data, at).is_some_and(|(n, _)| n == *id))
                .last();
            match found {
                Some(at) => deep(at + 3)?,
                None => return Ok(Sealed::Raw),
            }
        }
        Some(value) => value.clone(),
        None => return Ok(Sealed::Raw),
    };
    if !matches!(encrypt, Value::Dict(_)) {
        return Ok(Sealed::Raw);
    }
    crypt::open(&encrypt, trailer.get(b"ID"), password)
}

/// The object number and generation when `obj` at `at` ends an object header (`12 0 obj`).
fn header(data: &[u8], at: usize) -> Option<(u32, u16)> {
    let after = data.get(at + 3).copied();
    if after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let digits_before = |end: usize| {
        let start = data[..end]
            .iter()
            .rposition(|b| !b.is_ascii_digit())
            .map_or(0, |p| p + 1);
        (start < end).then_some(start)
    };
    let white_before = |end: usize| {
        let start = data[..end]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace() && *b != 0)
            .map_or(0, |p| p + 1);
        (start < end).then_some(start)
    };
    let generation_end = white_before(at)?;
    let generation = digits_before(generation_end)?;
    let number = digits_before(white_before(generation)?)?;
    let parse = |bytes: &[u8]| {
        std::str::from_utf8(bytes)
            .ok()?
            .trim_end()
            .parse::<u64>()
            .ok()
    };
    let id = u32::try_from(parse(&data[number..generation])?).ok()?;
    // Generations past 65535 are not valid; the engines keep the low bits, as lopdf's key does.
    let generation = parse(&data[generation..generation_end])? as u16;
    Some((id, generation))
}

/// Values another object may name: a filter, a length, a size, a count.
fn keepable(value: &Value) -> bool {
    matches!(
        value,
        Value::Int(_) | Value::Name(_) | Value::Array(_) | Value::Dict(_)
    )
}

fn resolve(value: Option<&Value>, objects: &HashMap<u32, Value>) -> Value {
    match value {
        Some(Value::Ref(id)) => objects.get(id).cloned().unwrap_or(Value::Other),
        Some(value) => value.clone(),
        None => Value::Other,
    }
}

/// The objects an object stream holds, read from its decoded data: `n` pairs of object number
/// and offset, then the objects from `first` on.
fn unpack(
    data: &[u8],
    n: u64,
    first: usize,
    objects: &mut HashMap<u32, Value>,
) -> Result<(), Refusal> {
    let mut pairs = Lexer::new(data, 0);
    for _ in 0..n {
        let (Token::Int(id), Token::Int(offset)) = (pairs.next(), pairs.next()) else {
            break;
        };
        let (Ok(id), Ok(offset)) = (u32::try_from(id), usize::try_from(offset)) else {
            break;
        };
        let Some(at) = first.checked_add(offset).filter(|&at| at < data.len()) else {
            continue;
        };
        let mut lexer = Lexer::new(data, at);
        let token = lexer.next();
        let value = lexer.value(token, 0)?;
        if keepable(&value) {
            objects.entry(id).or_insert(value);
        }
    }
    Ok(())
}

/// Where the stream's data ends: at `/Length` when `endstream` follows there, as the engines
/// read it, else at the next `endstream` (a length that lies is what they fall back on too).
fn data_of<'a>(data: &'a [u8], stream: &StreamAt, objects: &HashMap<u32, Value>) -> &'a [u8] {
    let mut start = stream.start;
    if data[start..].starts_with(b"\r\n") {
        start += 2;
    } else if data[start..].starts_with(b"\n") || data[start..].starts_with(b"\r") {
        start += 1;
    }
    if let Value::Int(length) = resolve(stream.dict.get(b"Length"), objects)
        && let Ok(length) = usize::try_from(length)
        && let Some(end) = start.checked_add(length).filter(|&end| end <= data.len())
    {
        let after = &data[end..];
        let white = after.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if after[white..].starts_with(b"endstream") {
            return &data[start..end];
        }
    }
    let end = memmem::find(&data[start..], b"endstream").map_or(data.len(), |at| start + at);
    &data[start..end]
}

/// The filters engines would apply, by their names.
fn filter_names(stream: &StreamAt, objects: &HashMap<u32, Value>) -> Vec<Vec<u8>> {
    let names = |value: &Value| match value {
        Value::Name(name) => vec![name.clone()],
        Value::Array(items) => items
            .iter()
            .map(|item| match resolve(Some(item), objects) {
                Value::Name(name) => name,
                // A filter that cannot be told: tried as Flate, the most common (and what a
                // bomb would use); anything else fails at its first bytes.
                _ => b"FlateDecode".to_vec(),
            })
            .collect(),
        Value::Other => vec![b"FlateDecode".to_vec()],
        _ => Vec::new(),
    };
    match stream.dict.get(b"Filter").or_else(|| stream.dict.get(b"F")) {
        None => Vec::new(),
        Some(value) => names(&resolve(Some(value), objects)),
    }
}

/// `/EarlyChange` of the LZW filter at `index`: 1 unless its parameters say 0.
fn early_change(stream: &StreamAt, index: usize, objects: &HashMap<u32, Value>) -> bool {
    let parms = match resolve(stream.dict.get(b"DecodeParms"), objects) {
        Value::Array(items) => items.get(index).cloned().unwrap_or(Value::Other),
        other => other,
    };
    parms.get(b"EarlyChange") != Some(&Value::Int(0))
}

fn transport(name: &[u8], early: bool) -> Option<Filter> {
    Some(match name {
        b"FlateDecode" | b"Fl" => Filter::Flate,
        b"LZWDecode" | b"LZW" => Filter::Lzw { early },
        b"ASCII85Decode" | b"A85" => Filter::Ascii85,
        b"ASCIIHexDecode" | b"AHx" => Filter::AsciiHex,
        b"RunLengthDecode" | b"RL" => Filter::RunLength,
        _ => return None,
    })
}

fn decode_stream(
    data: &[u8],
    stream: &StreamAt,
    (objects, sealed): (&HashMap<u32, Value>, &Sealed),
    budget: &mut Budget,
    (kept, keep_max): (&mut Vec<u8>, usize),
) -> Result<(), Refusal> {
    let names = filter_names(stream, objects);
    let mut chain = Vec::new();
    for (index, name) in names.iter().enumerate() {
        // Decryption, done below (or nothing, in a file not encrypted): what follows it is
        // measured all the same.
        if name == b"Crypt" {
            continue;
        }
        match transport(name, early_change(stream, index, objects)) {
            Some(filter) => chain.push(filter),
            None => {
                // An image codec decodes to what the image declares; a crypt or unknown
                // filter ends what anyone can decode.
                image_bound(stream, name, objects)?;
                break;
            }
        }
    }
    if chain.is_empty() {
        return Ok(());
    }
    let raw = data_of(data, stream, objects);
    let decrypted = match sealed {
        Sealed::Key(state) => crypt::decrypt(
            state,
            (stream.id, stream.generation),
            &stream.dict,
            &names,
            raw,
        ),
        Sealed::Raw => None,
    };
    decode::run(
        &chain,
        decrypted.as_deref().unwrap_or(raw),
        budget,
        kept,
        keep_max,
    )
    .map(|_| ())
    .map_err(|over| match over {
        Over::Stream => Refusal::StreamTooLarge(stream.id),
        Over::Total => Refusal::TotalTooLarge,
    })
}

/// An image whose codec is `codec`: its declared width x height x components x bits.
fn image_bound(
    stream: &StreamAt,
    codec: &[u8],
    objects: &HashMap<u32, Value>,
) -> Result<(), Refusal> {
    let int = |key: &[u8]| match resolve(stream.dict.get(key), objects) {
        Value::Int(n) => Some(n.max(0) as u64),
        _ => None,
    };
    let (Some(width), Some(height)) = (int(b"Width"), int(b"Height")) else {
        return Ok(());
    };
    let bilevel = matches!(codec, b"CCITTFaxDecode" | b"CCF" | b"JBIG2Decode");
    let bits = if bilevel {
        1
    } else {
        int(b"BitsPerComponent").unwrap_or(8).min(16)
    };
    let components = match resolve(stream.dict.get(b"ColorSpace"), objects) {
        _ if bilevel => 1,
        Value::Name(name) if matches!(&name[..], b"DeviceGray" | b"G" | b"CalGray") => 1,
        Value::Name(name) if matches!(&name[..], b"DeviceRGB" | b"RGB" | b"CalRGB") => 3,
        _ => 4,
    };
    let bytes = width
        .saturating_mul(height)
        .saturating_mul(components * bits)
        / 8;
    if bytes > MAX_IMAGE_BYTES {
        return Err(Refusal::ImageTooLarge {
            object: stream.id,
            width,
            height,
        });
    }
    Ok(())
}
