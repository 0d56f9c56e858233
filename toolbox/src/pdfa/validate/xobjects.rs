//! Streams (filters PDF/A allows, no external data, embedded files by level) and the
//! XObjects among them: images (ISO 19005-2 6.2.8) and forms (6.2.9).

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::super::Level;
use super::super::annots::number;
use super::super::transparency::INTENTS;
use super::Findings;
use super::objects::label;

const FILTERS: [&[u8]; 8] = [
    b"ASCIIHexDecode",
    b"ASCII85Decode",
    b"FlateDecode",
    b"RunLengthDecode",
    b"CCITTFaxDecode",
    b"JBIG2Decode",
    b"DCTDecode",
    b"JPXDecode",
];

fn filter_names(value: Option<&Object>) -> Vec<Vec<u8>> {
    match value {
        Some(Object::Name(n)) => vec![n.clone()],
        Some(Object::Array(items)) => items
            .iter()
            .map(|i| i.as_name().map(<[u8]>::to_vec).unwrap_or_default())
            .collect(),
        _ => Vec::new(),
    }
}

pub fn stream_rules(doc: &Document, id: ObjectId, stream: &lopdf::Stream, f: &mut Findings) {
    let level = f.level;
    let dict = &stream.dict;
    for key in [b"F".as_slice(), b"FFilter", b"FDecodeParms"] {
        if dict.has(key) {
            f.add(
                "6.1.7-3",
                "6.1.7.1-3",
                format!("the stream {} refers to external data", label(id)),
            );
        }
    }
    for filter in filter_names(dict.get(b"Filter").ok()) {
        if !FILTERS.contains(&filter.as_slice()) {
            f.add(
                "6.1.10-1",
                "6.1.7.2-1",
                format!(
                    "the stream {} is encoded with {}",
                    label(id),
                    String::from_utf8_lossy(&filter)
                ),
            );
        }
        if level.part1() && filter == b"JPXDecode" {
            f.add(
                "6.1.10-1",
                "6.1.10-1",
                format!("the image {} is JPEG 2000", label(id)),
            );
        }
    }
    if dict.has_type(b"EmbeddedFile") {
        match level {
            Level::A1b => f.add("6.1.11-2", "6.1.11-2", "the document embeds files"),
            Level::A2b => {
                let pdfa = stream.decompressed_content().is_ok_and(|d| {
                    d.starts_with(b"%PDF-")
                        && d.windows(11)
                            .any(|w| w == b"pdfaid:part" || w == b"pdfaid/part")
                });
                if !pdfa {
                    f.add(
                        "",
                        "6.8-1",
                        format!("the embedded file {} is not a PDF/A file", label(id)),
                    );
                }
            }
            Level::A3b => {
                if !dict
                    .get(b"Subtype")
                    .and_then(Object::as_name)
                    .is_ok_and(|m| m.contains(&b'/'))
                {
                    f.add(
                        "",
                        "6.8-1",
                        format!("the embedded file {} has no MIME type", label(id)),
                    );
                }
            }
        }
    }
    let subtype = dict.get(b"Subtype").and_then(Object::as_name).ok();
    match subtype {
        Some(b"Image") => image(doc, id, dict, f),
        Some(b"Form") => form(id, dict, f),
        Some(b"PS") => f.add(
            "6.2.7-1",
            "6.2.9-3",
            format!("the PostScript XObject {}", label(id)),
        ),
        _ => {}
    }
}

fn image(_doc: &Document, id: ObjectId, dict: &Dictionary, f: &mut Findings) {
    let part1 = f.level.part1();
    if dict.get(b"Interpolate").and_then(Object::as_bool).ok() == Some(true) {
        f.add(
            "6.2.4-3",
            "6.2.8-3",
            format!("the image {} asks for interpolation", label(id)),
        );
    }
    if dict.has(b"Alternates") {
        f.add(
            "6.2.4-1",
            "6.2.8-1",
            format!("the image {} has alternates", label(id)),
        );
    }
    if dict.has(b"OPI") {
        f.add(
            "6.2.4-2",
            "6.2.8-2",
            format!("the image {} has OPI comments", label(id)),
        );
    }
    if let Ok(intent) = dict.get(b"Intent")
        && !intent.as_name().is_ok_and(|i| INTENTS.contains(&i))
    {
        f.add(
            "6.2.9-1",
            "6.2.6-1",
            format!("the image {} has an unknown rendering intent", label(id)),
        );
    }
    let bits = dict.get(b"BitsPerComponent").and_then(Object::as_i64).ok();
    let allowed: &[i64] = if part1 {
        &[1, 2, 4, 8]
    } else {
        &[1, 2, 4, 8, 16]
    };
    if bits.is_some_and(|b| !allowed.contains(&b)) {
        f.add(
            "6.2.4-4",
            "6.2.8-4",
            format!(
                "the image {} has {} bits per component",
                label(id),
                bits.unwrap_or(0)
            ),
        );
    }
    if dict.get(b"ImageMask").and_then(Object::as_bool).ok() == Some(true)
        && bits.is_some_and(|b| b != 1)
    {
        f.add(
            "6.2.4-5",
            "6.2.8-5",
            format!("the image mask {} has more than 1 bit", label(id)),
        );
    }
    if part1 && dict.has(b"SMask") {
        f.add(
            "6.4-2",
            "6.4-2",
            format!("the image {} has a soft mask", label(id)),
        );
    }
    for key in [b"Width".as_slice(), b"Height"] {
        if !dict.get(key).and_then(Object::as_i64).is_ok_and(|v| v >= 1) {
            f.add(
                "6.2.4-1",
                "6.2.8-1",
                format!(
                    "the image {} has no valid /{}",
                    label(id),
                    String::from_utf8_lossy(key)
                ),
            );
        }
    }
}

fn form(id: ObjectId, dict: &Dictionary, f: &mut Findings) {
    for (key, clause1, clause2) in [
        (b"Ref".as_slice(), "6.2.6-1", "6.2.9-2"),
        (b"PS", "6.2.5-1", "6.2.9-1"),
        (b"Subtype2", "6.2.5-1", "6.2.9-1"),
        (b"OPI", "6.2.5-1", "6.2.9-1"),
    ] {
        if dict.has(key) {
            f.add(
                clause1,
                clause2,
                format!(
                    "the form {} has /{}",
                    label(id),
                    String::from_utf8_lossy(key)
                ),
            );
        }
    }
    if f.level.part1() && dict.has(b"Group") {
        f.add(
            "6.4-3",
            "6.4-3",
            format!("the form {} is a transparency group", label(id)),
        );
    }
    let bbox = dict
        .get(b"BBox")
        .and_then(Object::as_array)
        .is_ok_and(|b| b.len() == 4 && b.iter().all(|v| number(v).is_some()));
    if !bbox {
        f.add(
            "6.2.5-1",
            "6.2.9-1",
            format!("the form {} has no bounding box", label(id)),
        );
    }
    if dict
        .get(b"FormType")
        .is_ok_and(|t| t.as_i64().ok() != Some(1))
    {
        f.add(
            "6.2.5-1",
            "6.2.9-1",
            format!("the form {} is not FormType 1", label(id)),
        );
    }
}
