//! Streams: filters and the XObject entries PDF/A forbids.
//!
//! LZW (and Brotli) data is decoded and compressed again with Flate, since PDF/A allows
//! neither (ISO 19005-1 6.1.10, ISO 19005-2 6.1.7.2); crypt filters are dropped (the data is
//! already decrypted when the file is read); a stream whose data lives in an external file
//! loses the reference to it (6.1.7: a PDF/A file carries everything it draws). Images lose
//! alternates, OPI comments and interpolation; forms their PostScript, OPI and references to
//! other files; PostScript XObjects are emptied.

use std::io::Write;

use lopdf::{Dictionary, Document, Object, Stream, dictionary};

use super::Level;
use super::catalog::keep_only;
use super::changes::Changes;
use super::transparency::INTENTS;
use crate::ToolError;

/// Filters PDF/A allows.
const ALLOWED: [&[u8]; 8] = [
    b"ASCIIHexDecode",
    b"ASCII85Decode",
    b"FlateDecode",
    b"RunLengthDecode",
    b"CCITTFaxDecode",
    b"JBIG2Decode",
    b"DCTDecode",
    b"JPXDecode",
];
/// Filters lopdf decodes, which can be undone and replaced by Flate.
const GENERIC: [&[u8]; 6] = [
    b"FlateDecode",
    b"LZWDecode",
    b"ASCII85Decode",
    b"ASCIIHexDecode",
    b"RunLengthDecode",
    b"BrotliDecode",
];
/// Largest stream decoded to be compressed again: the limit every input was checked against.
const MAX_DECODED: usize = quire_compress::pdf_limits::MAX_STREAM_DECODED as usize;

const IMAGE: [&[u8]; 21] = [
    b"Type",
    b"Subtype",
    b"Width",
    b"Height",
    b"ColorSpace",
    b"BitsPerComponent",
    b"ImageMask",
    b"Mask",
    b"Decode",
    b"Matte",
    b"SMask",
    b"Intent",
    b"Name",
    b"StructParent",
    b"ID",
    b"OC",
    b"Length",
    b"Filter",
    b"DecodeParms",
    b"DL",
    b"SMaskInData",
];
const FORM: [&[u8]; 17] = [
    b"Type",
    b"Subtype",
    b"FormType",
    b"BBox",
    b"Matrix",
    b"Resources",
    b"Group",
    b"StructParent",
    b"StructParents",
    b"Name",
    b"LastModified",
    b"OC",
    b"Length",
    b"Filter",
    b"DecodeParms",
    b"DL",
    b"Metadata",
];

#[derive(Default)]
struct Tally {
    recoded: u32,
    external: u32,
    images: u32,
    forms: u32,
}

/// Fixes every stream's filters and every XObject's dictionary.
pub fn apply(doc: &mut Document, level: Level, changes: &mut Changes) -> Result<(), ToolError> {
    let mut tally = Tally::default();
    for object in doc.objects.values_mut() {
        let Object::Stream(stream) = object else {
            continue;
        };
        for key in [b"F".as_slice(), b"FFilter", b"FDecodeParms"] {
            if stream.dict.remove(key).is_some() && key == b"F" {
                tally.external += 1;
            }
        }
        filters(stream, level, &mut tally)?;
        let subtype = stream
            .dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .ok()
            .map(<[u8]>::to_vec);
        let xobject = stream.dict.has_type(b"XObject")
            || stream.dict.has(b"BBox")
            || stream.dict.has(b"Width");
        match subtype.as_deref() {
            Some(b"Image") if xobject => image(&mut stream.dict, level, &mut tally)?,
            Some(b"Form") => form(&mut stream.dict, level, &mut tally),
            Some(b"PS") if xobject => {
                // A PostScript XObject draws nothing in a viewer: an empty form draws the same.
                stream.dict = dictionary! {
                    "Type" => "XObject", "Subtype" => "Form",
                    "BBox" => vec![0.into(), 0.into(), 0.into(), 0.into()],
                };
                stream.set_plain_content(Vec::new());
                tally.forms += 1;
            }
            _ => {}
        }
        if stream.dict.get(b"Metadata").is_ok() && !stream.dict.has_type(b"Metadata") {
            // Object-level XMP (images, forms, fonts): the validators do not read it.
            stream.dict.remove(b"Metadata");
        }
    }
    if tally.recoded > 0 {
        changes.count(
            "compressed with Flate",
            tally.recoded,
            "LZW stream",
            "LZW streams",
        );
    }
    if tally.external > 0 {
        changes.count(
            "removed the reference to external data of",
            tally.external,
            "stream",
            "streams",
        );
    }
    if tally.images + tally.forms > 0 {
        changes.note(
            "removed image and form entries PDF/A forbids (interpolation, alternates, PostScript, OPI)",
        );
    }
    Ok(())
}

fn names(value: Option<&Object>) -> Vec<Vec<u8>> {
    match value {
        Some(Object::Name(n)) => vec![n.clone()],
        Some(Object::Array(items)) => items
            .iter()
            .filter_map(|i| i.as_name().ok().map(<[u8]>::to_vec))
            .collect(),
        _ => Vec::new(),
    }
}

fn filters(stream: &mut Stream, level: Level, tally: &mut Tally) -> Result<(), ToolError> {
    let mut list = names(stream.dict.get(b"Filter").ok());
    if list.is_empty() {
        if stream.dict.has(b"Filter") {
            stream.dict.remove(b"Filter");
        }
        return Ok(());
    }
    // A crypt filter has nothing left to do: the reader decrypted the data.
    if let Some(at) = list.iter().position(|f| f == b"Crypt") {
        list.remove(at);
        let mut params = params_list(&stream.dict, list.len() + 1);
        params.remove(at);
        set_filters(&mut stream.dict, &list, params);
    }
    if list.iter().all(|f| ALLOWED.contains(&f.as_slice())) {
        if level.part1() && list.iter().any(|f| f == b"JPXDecode") {
            return Err(ToolError::InvalidFile(
                "the PDF has JPEG 2000 images, which PDF/A-1 does not allow: convert it to PDF/A-2b instead".into(),
            ));
        }
        return Ok(());
    }
    let generic = list
        .iter()
        .take_while(|f| GENERIC.contains(&f.as_slice()))
        .count();
    let rest_allowed = list[generic..]
        .iter()
        .all(|f| ALLOWED.contains(&f.as_slice()));
    if generic == 0 || !rest_allowed {
        let bad: Vec<String> = list
            .iter()
            .filter(|f| !ALLOWED.contains(&f.as_slice()))
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect();
        return Err(ToolError::InvalidFile(format!(
            "a stream is encoded with {}, which PDF/A does not allow and this converter cannot decode",
            bad.join(", ")
        )));
    }
    let params = params_list(&stream.dict, list.len());
    let mut head = Stream::new(Dictionary::new(), stream.content.clone());
    set_filters(&mut head.dict, &list[..generic], params[..generic].to_vec());
    let decoded = head
        .decompressed_content_with_limit(MAX_DECODED)
        .map_err(|e| {
            ToolError::InvalidFile(format!(
                "an LZW stream cannot be decoded to re-encode it: {e}"
            ))
        })?;
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(6));
    encoder
        .write_all(&decoded)
        .map_err(|e| ToolError::Io(format!("cannot compress a stream: {e}")))?;
    let packed = encoder
        .finish()
        .map_err(|e| ToolError::Io(format!("cannot compress a stream: {e}")))?;
    let mut new_list = vec![b"FlateDecode".to_vec()];
    new_list.extend_from_slice(&list[generic..]);
    let mut new_params = vec![Object::Null];
    new_params.extend_from_slice(&params[generic..]);
    set_filters(&mut stream.dict, &new_list, new_params);
    stream.set_content(packed);
    tally.recoded += 1;
    Ok(())
}

/// The /DecodeParms of each filter (null where none).
fn params_list(dict: &Dictionary, count: usize) -> Vec<Object> {
    match dict.get(b"DecodeParms") {
        Ok(Object::Array(items)) => (0..count)
            .map(|i| items.get(i).cloned().unwrap_or(Object::Null))
            .collect(),
        Ok(single @ Object::Dictionary(_)) if count == 1 => vec![single.clone()],
        _ => vec![Object::Null; count],
    }
}

fn set_filters(dict: &mut Dictionary, list: &[Vec<u8>], params: Vec<Object>) {
    match list {
        [] => {
            dict.remove(b"Filter");
            dict.remove(b"DecodeParms");
            return;
        }
        [one] => dict.set("Filter", Object::Name(one.clone())),
        many => dict.set(
            "Filter",
            many.iter()
                .map(|f| Object::Name(f.clone()))
                .collect::<Vec<_>>(),
        ),
    }
    if params.iter().all(|p| matches!(p, Object::Null)) {
        dict.remove(b"DecodeParms");
    } else if let [one] = params.as_slice() {
        dict.set("DecodeParms", one.clone());
    } else {
        dict.set("DecodeParms", params);
    }
}

fn image(dict: &mut Dictionary, level: Level, tally: &mut Tally) -> Result<(), ToolError> {
    let mut changed = false;
    // [/DeviceGray] and the like: the family's name alone says the same.
    if let Ok(Object::Array(items)) = dict.get(b"ColorSpace")
        && let [Object::Name(name)] = items.as_slice()
        && matches!(
            name.as_slice(),
            b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK"
        )
    {
        let name = name.clone();
        dict.set("ColorSpace", Object::Name(name));
    }
    if dict.get(b"Interpolate").is_ok() {
        dict.remove(b"Interpolate");
        changed = true;
    }
    if dict
        .get(b"Intent")
        .and_then(Object::as_name)
        .is_ok_and(|i| !INTENTS.contains(&i))
        || matches!(dict.get(b"Intent"), Ok(v) if v.as_name().is_err())
    {
        dict.remove(b"Intent");
        changed = true;
    }
    let mut allowed: Vec<&[u8]> = IMAGE.to_vec();
    if level.part1() {
        allowed.retain(|k| *k != b"SMaskInData" && *k != b"OC");
    }
    changed |= keep_only(dict, &allowed) > 0;
    let bits = dict.get(b"BitsPerComponent").and_then(Object::as_i64).ok();
    if level.part1() && bits == Some(16) {
        return Err(ToolError::InvalidFile(
            "the PDF has 16-bit images, which PDF/A-1 does not allow: convert it to PDF/A-2b instead".into(),
        ));
    }
    if dict.get(b"ImageMask").and_then(Object::as_bool).ok() == Some(true) && bits != Some(1) {
        dict.set("BitsPerComponent", 1);
    }
    if changed {
        tally.images += 1;
    }
    Ok(())
}

fn form(dict: &mut Dictionary, level: Level, tally: &mut Tally) {
    let mut allowed: Vec<&[u8]> = FORM.to_vec();
    if level.part1() {
        allowed.retain(|k| *k != b"Group" && *k != b"OC");
    }
    if keep_only(dict, &allowed) > 0 {
        tally.forms += 1;
    }
    if !matches!(dict.get(b"FormType"), Ok(Object::Integer(1)) | Err(_)) {
        dict.set("FormType", 1);
    }
    dict.set("Type", Object::Name(b"XObject".to_vec()));
}

/// Inline images that ask for interpolation (ISO 19005-1 6.2.4, ISO 19005-2 6.2.8) are told
/// not to, in place: `/I true` becomes `/I false` in their dictionaries.
pub fn inline_images(doc: &mut Document, changes: &mut Changes) {
    let mut fixed = 0u32;
    for id in super::layers::content_streams(doc) {
        let Ok(Object::Stream(stream)) = doc.get_object_mut(id) else {
            continue;
        };
        let Ok(data) = stream.decompressed_content() else {
            continue;
        };
        if !data.windows(2).any(|w| w == b"BI") {
            continue;
        }
        let Ok(ops) = super::content::parse(&data) else {
            continue;
        };
        // Where each "true" to turn into "false" starts, in the decoded data.
        let mut positions: Vec<usize> = Vec::new();
        for op in &ops {
            let (Some((start, _)), true) = (op.image_data, op.operator == b"BI") else {
                continue;
            };
            let interpolate = matches!(op.operands.first(), Some(super::content::Operand::Dict(entries))
                if entries.iter().any(|(k, v)| (k == b"I" || k == b"Interpolate") && *v == super::content::Operand::Bool(true)));
            if !interpolate {
                continue;
            }
            let region = &data[op.span.0..start];
            for key in [b"/Interpolate".as_slice(), b"/I"] {
                let mut at = 0;
                while let Some(found) = region[at..].windows(key.len()).position(|w| w == key) {
                    let after = at + found + key.len();
                    let rest = &region[after..];
                    let spaces = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
                    if spaces > 0 && rest[spaces..].starts_with(b"true") {
                        positions.push(op.span.0 + after + spaces);
                    }
                    at = after;
                }
            }
        }
        positions.sort_unstable();
        positions.dedup();
        let changed = !positions.is_empty();
        let mut out = data.clone();
        for &pos in positions.iter().rev() {
            out.splice(pos..pos + 4, b"false".iter().copied());
            fixed += 1;
        }
        if changed {
            stream.set_plain_content(out);
            stream.dict.remove(b"DecodeParms");
        }
    }
    changes.count(
        "turned off interpolation of",
        fixed,
        "inline image",
        "inline images",
    );
}
