//! The catalog's XMP packet (ISO 19005-1 6.7, ISO 19005-2 6.6): present, UTF-8, no packet
//! header attributes PDF/A forbids, only predefined namespaces, the level's identification,
//! and in PDF/A-1 the same values as the document information.

use lopdf::{Document, Object};

use super::super::xmp::{Date, info_text};
use super::Findings;

/// Namespaces an XMP packet may declare (the predefined schemas of XMP 2004/2005 PDF/A
/// names; photoshop only from PDF/A-2 on).
const NAMESPACES: [&str; 11] = [
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "adobe:ns:meta/",
    "http://purl.org/dc/elements/1.1/",
    "http://ns.adobe.com/xap/1.0/",
    "http://ns.adobe.com/xap/1.0/mm/",
    "http://ns.adobe.com/xap/1.0/rights/",
    "http://ns.adobe.com/pdf/1.3/",
    "http://www.aiim.org/pdfa/ns/id/",
    "http://www.aiim.org/pdfua/ns/id/",
    "http://ns.adobe.com/xap/1.0/sType/ResourceRef#",
    "http://ns.adobe.com/xap/1.0/sType/ResourceEvent#",
];

const PHOTOSHOP: &str = "http://ns.adobe.com/photoshop/1.0/";

/// The catalog's XMP packet: present, unfiltered in PDF/A-1, UTF-8, the PDF/A
/// identification of the level, only predefined namespaces, and in PDF/A-1 the same values
/// as the document information.
pub fn metadata(doc: &Document, f: &mut Findings) {
    let level = f.level;
    let stream = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Metadata").ok())
        .and_then(|m| m.as_reference().ok())
        .and_then(|id| doc.get_object(id).ok())
        .and_then(|o| o.as_stream().ok());
    let Some(stream) = stream else {
        f.add(
            "6.7.2-1",
            "6.6.2.1-1",
            "the catalog has no XMP metadata stream",
        );
        return;
    };
    if !stream.dict.has_type(b"Metadata")
        || stream.dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"XML")
    {
        f.add(
            "6.7.2-1",
            "6.6.2.1-1",
            "the metadata stream is not /Type /Metadata /Subtype /XML",
        );
    }
    if level.part1() && stream.dict.has(b"Filter") {
        f.add(
            "6.7.2-2",
            "6.7.2-2",
            "the metadata stream is compressed, which PDF/A-1 does not allow",
        );
    }
    let Ok(bytes) = stream.decompressed_content() else {
        f.add(
            "6.7.9-1",
            "6.6.2.1-4",
            "the metadata stream cannot be decoded",
        );
        return;
    };
    let Ok(xml) = std::str::from_utf8(&bytes) else {
        f.add("6.7.9-1", "6.6.2.1-5", "the XMP packet is not UTF-8");
        return;
    };
    if let Some(start) = xml.find("<?xpacket")
        && let Some(end) = xml[start..].find("?>")
    {
        let header = &xml[start..start + end];
        if !header.contains("end=") && (header.contains("bytes=") || header.contains("encoding=")) {
            f.add(
                "6.7.5-1",
                "6.6.2.1-2",
                "the XMP packet header has a bytes or encoding attribute",
            );
        }
    }
    for (prefix, uri) in declarations(xml) {
        let allowed = NAMESPACES.contains(&uri.as_str()) || (!level.part1() && uri == PHOTOSHOP);
        if !allowed {
            f.add(
                "6.7.9-2",
                "6.6.2.3.1-1",
                format!("the XMP packet uses the namespace {prefix}={uri}, which needs an extension schema"),
            );
        }
    }
    let part = property(xml, "pdfaid", "part");
    let conformance = property(xml, "pdfaid", "conformance");
    if part.as_deref() != Some(&level.part().to_string()) {
        f.add(
            "6.7.11-1",
            "6.6.4-1",
            format!("the XMP's pdfaid:part is {part:?}, not {}", level.part()),
        );
    }
    if conformance.as_deref() != Some("B") {
        f.add(
            "6.7.11-3",
            "6.6.4-3",
            format!("the XMP's pdfaid:conformance is {conformance:?}, not B"),
        );
    }
    if level.part1() {
        info_agreement(doc, xml, f);
    }
}

/// The (prefix, URI) of each xmlns declaration.
fn declarations(xml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(at) = rest.find("xmlns:") {
        rest = &rest[at + 6..];
        let Some(eq) = rest.find('=') else {
            break;
        };
        let prefix = rest[..eq].trim().to_string();
        let after = rest[eq + 1..].trim_start();
        let Some(quote) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        if let Some(end) = after[1..].find(quote) {
            out.push((prefix, after[1..1 + end].to_string()));
        }
    }
    out
}

/// The text of a simple property, written as an element or an attribute.
fn property(xml: &str, prefix: &str, name: &str) -> Option<String> {
    let open = format!("<{prefix}:{name}>");
    if let Some(at) = xml.find(&open) {
        let body = &xml[at + open.len()..];
        let end = body.find('<')?;
        return Some(unescape(&body[..end]));
    }
    let attr = format!("{prefix}:{name}=");
    let at = xml.find(&attr)?;
    let after = &xml[at + attr.len()..];
    let quote = after.chars().next()?;
    let end = after[1..].find(quote)?;
    Some(unescape(&after[1..1 + end]))
}

/// The first item of an array property (dc:title's x-default, dc:creator's author).
fn first_item(xml: &str, prefix: &str, name: &str) -> Option<String> {
    let open = format!("<{prefix}:{name}>");
    let at = xml.find(&open)?;
    let body = &xml[at..];
    let close = body.find(&format!("</{prefix}:{name}>"))?;
    let body = &body[..close];
    let li = body.find("<rdf:li")?;
    let text = &body[li..];
    let start = text.find('>')? + 1;
    let end = text.find("</rdf:li>")?;
    Some(unescape(&text[start..end]))
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// PDF/A-1 6.7.3: each /Info entry has the same value in its XMP property.
fn info_agreement(doc: &Document, xml: &str, f: &mut Findings) {
    let Some(info) = doc
        .trailer
        .get(b"Info")
        .ok()
        .and_then(|i| doc.dereference(i).ok())
        .and_then(|(_, i)| i.as_dict().ok())
    else {
        return;
    };
    let pairs: [(&[u8], Option<String>, &str); 6] = [
        (b"Title", first_item(xml, "dc", "title"), "6.7.3-2"),
        (b"Author", first_item(xml, "dc", "creator"), "6.7.3-3"),
        (b"Subject", first_item(xml, "dc", "description"), "6.7.3-4"),
        (b"Keywords", property(xml, "pdf", "Keywords"), "6.7.3-5"),
        (b"Creator", property(xml, "xmp", "CreatorTool"), "6.7.3-6"),
        (b"Producer", property(xml, "pdf", "Producer"), "6.7.3-7"),
    ];
    for (key, xmp, clause) in pairs {
        let Some(value) = info_text(info, key) else {
            continue;
        };
        if xmp.as_deref() != Some(value.as_str()) {
            f.add(
                clause,
                clause,
                format!(
                    "/Info /{} does not match the XMP",
                    String::from_utf8_lossy(key)
                ),
            );
        }
    }
    for (key, name, clause) in [
        (b"CreationDate".as_slice(), "CreateDate", "6.7.3-1"),
        (b"ModDate", "ModifyDate", "6.7.3-8"),
    ] {
        let Some(value) = info_text(info, key) else {
            continue;
        };
        let info_date = Date::parse_pdf(&value);
        let xmp_date = property(xml, "xmp", name);
        let same = match (info_date, xmp_date) {
            (Some(d), Some(x)) => d.iso() == x || same_instant(&d, &x),
            _ => false,
        };
        if !same {
            f.add(
                clause,
                clause,
                format!(
                    "/Info /{} does not match the XMP",
                    String::from_utf8_lossy(key)
                ),
            );
        }
    }
}

/// Whether an XMP date names the instant of `date` (written with another zone notation).
fn same_instant(date: &Date, xmp: &str) -> bool {
    let (clock, zone) = match xmp
        .find(['Z', '+'])
        .or_else(|| xmp.rfind('-').filter(|&at| at > 10))
    {
        Some(at) => (&xmp[..at], &xmp[at..]),
        None => (xmp, ""),
    };
    let digits: String = clock.chars().filter(char::is_ascii_digit).collect();
    let zone_pdf = match zone.as_bytes().first() {
        Some(b'+' | b'-') => {
            let d: String = zone.chars().filter(char::is_ascii_digit).collect();
            format!(
                "{}{}'{}'",
                &zone[..1],
                d.get(0..2).unwrap_or("00"),
                d.get(2..4).unwrap_or("00")
            )
        }
        _ => "Z".into(),
    };
    Date::parse_pdf(&format!("D:{digits}{zone_pdf}")).is_some_and(|x| {
        let minutes = |d: &Date| {
            ((((d.year * 12 + i64::from(d.month)) * 31 + i64::from(d.day)) * 24
                + i64::from(d.hour))
                * 60
                + i64::from(d.minute))
                - i64::from(d.offset)
        };
        minutes(&x) == minutes(date) && x.second == date.second
    })
}
