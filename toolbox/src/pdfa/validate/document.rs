//! The file's layout (header, binary comment, cross-reference form), the trailer, the
//! catalog, the output intent and the XMP metadata.

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::super::Level;
use super::super::icc::Header;
use super::Findings;

/// The bytes of the file: header, comment, cross-reference form, end marker.
pub fn layout(bytes: &[u8], f: &mut Findings) {
    let level = f.level;
    let header_ok = bytes.starts_with(b"%PDF-1.")
        && bytes.get(7).is_some_and(|d| match level {
            Level::A1b => (b'0'..=b'4').contains(d),
            _ => (b'0'..=b'7').contains(d),
        })
        && matches!(bytes.get(8), Some(b'\n' | b'\r'));
    if !header_ok {
        f.add(
            "6.1.2-1",
            "6.1.2-1",
            format!(
                "the file header is not %PDF-1.{} or earlier on a line of its own",
                if level.part1() { 4 } else { 7 }
            ),
        );
    }
    let second = bytes
        .get(9..)
        .map(|rest| rest.strip_prefix(b"\n").unwrap_or(rest))
        .unwrap_or_default();
    let comment_ok = second.first() == Some(&b'%')
        && second.get(1..5).is_some_and(|b| b.iter().all(|&c| c > 127));
    if !comment_ok {
        f.add(
            "6.1.2-2",
            "6.1.2-2",
            "the header is not followed by a comment of four bytes above 127",
        );
    }
    let tail_start = bytes.len().saturating_sub(1024);
    let tail = &bytes[tail_start..];
    let eof = tail.windows(5).rposition(|w| w == b"%%EOF");
    if eof.is_none_or(|at| tail[at + 5..].iter().any(|b| !matches!(b, b'\r' | b'\n'))) {
        f.add("6.1.3-3", "6.1.3-3", "the file does not end with %%EOF");
    }
    if level.part1() {
        let start = tail
            .windows(9)
            .rposition(|w| w == b"startxref")
            .and_then(|at| {
                let digits: String = tail[at + 9..]
                    .iter()
                    .skip_while(|b| b.is_ascii_whitespace())
                    .take_while(|b| b.is_ascii_digit())
                    .map(|&b| char::from(b))
                    .collect();
                digits.parse::<usize>().ok()
            });
        if start.is_none_or(|s| !bytes.get(s..).is_some_and(|b| b.starts_with(b"xref"))) {
            f.add(
                "6.1.4-3",
                "6.1.4-3",
                "the cross-reference is not a classic table (PDF 1.4 has no cross-reference streams)",
            );
        }
        if bytes.windows(7).any(|w| w == b"/ObjStm") {
            f.add(
                "6.1.4-3",
                "6.1.4-3",
                "the file has object streams, which PDF 1.4 does not",
            );
        }
    }
}

/// The trailer: an /ID and no encryption.
pub fn trailer(doc: &Document, f: &mut Findings) {
    if doc.trailer.has(b"Encrypt") || doc.was_encrypted() {
        f.add("6.1.3-2", "6.1.3-2", "the file is encrypted");
    }
    let id_ok = matches!(doc.trailer.get(b"ID"), Ok(Object::Array(parts))
        if parts.len() == 2 && parts.iter().all(|p| matches!(p, Object::String(..))));
    if !id_ok {
        f.add(
            "6.1.3-1",
            "6.1.3-1",
            "the trailer has no /ID of two strings",
        );
    }
}

/// The catalog's entries. Returns the output intent's colour space (`b"RGB "`, ...).
pub fn catalog(doc: &Document, f: &mut Findings) -> Option<[u8; 4]> {
    let Ok(catalog) = doc.catalog() else {
        f.add("6.1.3-1", "6.1.3-1", "the file has no document catalog");
        return None;
    };
    let level = f.level;
    if catalog.has(b"AA") {
        f.add(
            "6.6.2-3",
            "6.5.2-1",
            "the catalog has additional actions (/AA)",
        );
    }
    if catalog.has(b"Requirements") && !level.part1() {
        f.add("", "6.11-1", "the catalog has /Requirements");
    }
    if catalog.has(b"NeedsRendering") {
        f.add(
            "6.1.13-1",
            "6.4.2-2",
            "the catalog has /NeedsRendering (XFA)",
        );
    }
    if level.part1() && catalog.has(b"OCProperties") {
        f.add(
            "6.1.13-1",
            "6.1.13-1",
            "the catalog has optional content, which PDF/A-1 does not allow",
        );
    }
    if let Ok(version) = catalog.get(b"Version").and_then(Object::as_name) {
        let max = if level.part1() { b'4' } else { b'7' };
        let ok = version.len() == 3
            && version.starts_with(b"1.")
            && version[2] >= b'0'
            && version[2] <= max;
        if !ok {
            f.add(
                "6.1.2-1",
                "6.1.2-1",
                format!(
                    "the catalog's /Version {} is past the level's PDF version",
                    String::from_utf8_lossy(version)
                ),
            );
        }
    }
    if let Some(names) = resolve_dict(doc, catalog.get(b"Names").ok()) {
        if names.has(b"AlternatePresentations") {
            f.add(
                "6.1.13-1",
                "6.10-1",
                "the name dictionary has /AlternatePresentations",
            );
        }
        if names.has(b"AP") {
            f.syntax("the name dictionary has named appearances (/AP), which some validators check before they know the output intent");
        }
        if level.part1() && names.has(b"EmbeddedFiles") {
            f.add(
                "6.1.11-2",
                "6.1.11-2",
                "the document embeds files, which PDF/A-1 does not allow",
            );
        }
    }
    if let Some(form) = resolve_dict(doc, catalog.get(b"AcroForm").ok()) {
        if form.get(b"NeedAppearances").and_then(Object::as_bool).ok() == Some(true) {
            f.add(
                "6.9-2",
                "6.4.1-3",
                "the form asks viewers to make its appearances (/NeedAppearances true)",
            );
        }
        if form.has(b"XFA") {
            f.add("6.9-1", "6.4.2-1", "the form has XFA");
        }
    }
    output_intent(doc, catalog, f)
}

fn resolve_dict<'a>(doc: &'a Document, value: Option<&'a Object>) -> Option<&'a Dictionary> {
    doc.dereference(value?).ok()?.1.as_dict().ok()
}

fn output_intent(doc: &Document, catalog: &Dictionary, f: &mut Findings) -> Option<[u8; 4]> {
    let intents = catalog
        .get(b"OutputIntents")
        .ok()
        .and_then(|v| doc.dereference(v).ok())
        .and_then(|(_, v)| v.as_array().ok());
    let mut family = None;
    let mut profiles: Vec<ObjectId> = Vec::new();
    for intent in intents.into_iter().flatten() {
        let Some(intent) = resolve_dict(doc, Some(intent)) else {
            continue;
        };
        if intent.has(b"DestOutputProfileRef") {
            f.add(
                "6.2.2-1",
                "6.2.3-3",
                "an output intent has /DestOutputProfileRef",
            );
        }
        if intent.get(b"S").and_then(Object::as_name).ok() != Some(b"GTS_PDFA1") {
            continue;
        }
        let Ok(profile) = intent
            .get(b"DestOutputProfile")
            .and_then(Object::as_reference)
        else {
            f.add(
                "6.2.2-1",
                "6.2.3-1",
                "the PDF/A output intent has no destination profile stream",
            );
            continue;
        };
        if !profiles.contains(&profile) {
            profiles.push(profile);
        }
        let stream = doc.get_object(profile).and_then(Object::as_stream).ok();
        let header = stream
            .and_then(|s| s.decompressed_content().ok())
            .and_then(|d| Header::parse(&d));
        match header {
            Some(h) if h.output_ok(f.level.part1()) => {
                let n = stream.and_then(|s| s.dict.get(b"N").and_then(Object::as_i64).ok());
                if n != h.components() {
                    f.add(
                        "6.2.2-1",
                        "6.2.3-1",
                        "the output profile's /N does not match its colour space",
                    );
                }
                family.get_or_insert(h.space);
            }
            _ => f.add(
                "6.2.2-1",
                "6.2.3-1",
                "the output intent's profile is not an output profile PDF/A accepts",
            ),
        }
    }
    if profiles.len() > 1 {
        f.add(
            "6.2.2-2",
            "6.2.3-2",
            "the output intents name different profiles",
        );
    }
    if family.is_none() {
        f.add(
            "6.2.2-1",
            "6.2.3-1",
            "the document has no PDF/A output intent",
        );
    }
    family
}
