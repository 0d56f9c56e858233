//! The document information and the XMP packet, written to tell the same story (ISO 19005-1
//! 6.7.3 compares them field by field) with the PDF/A identification in the packet
//! (pdfaid:part and pdfaid:conformance).
//!
//! The packet is written anew from the information dictionary: an existing one may use
//! schemas PDF/A requires extension schema declarations for, or a form the validators
//! refuse, and what readers show (title, author, subject, keywords, tools, dates) is all in
//! the dictionary. Dates get a time zone (UTC when they had none) so that both say the same
//! instant; the modification date is now.

use std::time::{SystemTime, UNIX_EPOCH};

use lopdf::{Dictionary, Document, Object, Stream, dictionary};

use super::Level;
use super::changes::Changes;
use crate::{ToolError, text};

const TEXT_KEYS: [&[u8]; 6] = [
    b"Title",
    b"Author",
    b"Subject",
    b"Keywords",
    b"Creator",
    b"Producer",
];

/// A date with a UTC offset in minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub offset: i32,
}

impl Date {
    pub fn now() -> Date {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let days = (secs / 86_400) as i64;
        let rem = secs % 86_400;
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem % 3600 / 60) as u32,
            second: (rem % 60) as u32,
            offset: 0,
        }
    }

    /// A PDF date string (`D:YYYYMMDDHHmmSSOHH'mm'`, everything after the year optional).
    pub fn parse_pdf(raw: &str) -> Option<Date> {
        let s = raw.trim().strip_prefix("D:").unwrap_or(raw.trim());
        let digits = |from: usize, len: usize, default: u32| -> Option<u32> {
            match s.get(from..from + len) {
                Some(part) if part.bytes().all(|b| b.is_ascii_digit()) => part.parse().ok(),
                Some(part) if !part.bytes().next().is_some_and(|b| b.is_ascii_digit()) => {
                    Some(default)
                }
                None => Some(default),
                _ => None,
            }
        };
        let year = i64::from(digits(0, 4, 0)?);
        if s.len() < 4 || year == 0 {
            return None;
        }
        let numeric_end = s.bytes().take_while(u8::is_ascii_digit).count();
        let month = if numeric_end >= 6 {
            digits(4, 2, 1)?
        } else {
            1
        };
        let day = if numeric_end >= 8 {
            digits(6, 2, 1)?
        } else {
            1
        };
        let hour = if numeric_end >= 10 {
            digits(8, 2, 0)?
        } else {
            0
        };
        let minute = if numeric_end >= 12 {
            digits(10, 2, 0)?
        } else {
            0
        };
        let second = if numeric_end >= 14 {
            digits(12, 2, 0)?
        } else {
            0
        };
        if !(1..=12).contains(&month)
            || !(1..=31).contains(&day)
            || hour > 23
            || minute > 59
            || second > 59
        {
            return None;
        }
        let zone = &s[numeric_end.min(14)..];
        let offset = match zone.as_bytes().first() {
            Some(b'+' | b'-') => {
                let sign = if zone.starts_with('-') { -1 } else { 1 };
                let rest: String = zone[1..].chars().filter(char::is_ascii_digit).collect();
                let h: i32 = rest.get(0..2).and_then(|h| h.parse().ok()).unwrap_or(0);
                let m: i32 = rest.get(2..4).and_then(|m| m.parse().ok()).unwrap_or(0);
                if h > 23 || m > 59 {
                    return None;
                }
                sign * (h * 60 + m)
            }
            _ => 0,
        };
        Some(Date {
            year,
            month,
            day,
            hour,
            minute,
            second,
            offset,
        })
    }

    pub fn pdf(&self) -> String {
        let base = format!(
            "D:{:04}{:02}{:02}{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        );
        if self.offset == 0 {
            format!("{base}Z")
        } else {
            let sign = if self.offset < 0 { '-' } else { '+' };
            let o = self.offset.abs();
            format!("{base}{sign}{:02}'{:02}'", o / 60, o % 60)
        }
    }

    pub fn iso(&self) -> String {
        let base = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        );
        if self.offset == 0 {
            format!("{base}Z")
        } else {
            let sign = if self.offset < 0 { '-' } else { '+' };
            let o = self.offset.abs();
            format!("{base}{sign}{:02}:{:02}", o / 60, o % 60)
        }
    }
}

/// Normalizes /Info and writes the XMP packet from it.
pub fn apply(doc: &mut Document, level: Level, changes: &mut Changes) -> Result<(), ToolError> {
    let mut info = doc
        .trailer
        .get(b"Info")
        .ok()
        .and_then(|i| doc.dereference(i).ok())
        .and_then(|(_, i)| i.as_dict().ok())
        .cloned()
        .unwrap_or_default();
    let keys: Vec<Vec<u8>> = info.iter().map(|(k, _)| k.clone()).collect();
    for key in keys {
        let value = info
            .get(&key)
            .ok()
            .and_then(|v| doc.dereference(v).ok())
            .map(|(_, v)| v.clone());
        match (key.as_slice(), value) {
            (b"CreationDate" | b"ModDate", Some(Object::String(bytes, _))) => {
                match Date::parse_pdf(&text::decode(&bytes)) {
                    Some(date) => info.set(key, Object::string_literal(date.pdf())),
                    None => {
                        info.remove(&key);
                    }
                }
            }
            (b"Trapped", Some(Object::Name(n)))
                if matches!(n.as_slice(), b"True" | b"False" | b"Unknown") =>
            {
                info.set(key, Object::Name(n));
            }
            (_, Some(Object::String(bytes, _))) => {
                let decoded = clean(&text::decode(&bytes));
                if decoded.is_empty() && TEXT_KEYS.contains(&key.as_slice()) {
                    info.remove(&key);
                } else {
                    info.set(key, text::encode(&decoded));
                }
            }
            _ => {
                info.remove(&key);
            }
        }
    }
    let now = Date::now();
    info.set("ModDate", Object::string_literal(now.pdf()));
    let had_packet = doc.catalog().is_ok_and(|c| c.has(b"Metadata"));
    let packet = packet(&info, level, &now);
    let metadata = doc.add_object(Stream::new(
        dictionary! { "Type" => "Metadata", "Subtype" => "XML" },
        packet.into_bytes(),
    ));
    if let Ok(Object::Stream(stream)) = doc.get_object_mut(metadata) {
        stream.allows_compression = false;
    }
    let info_id = doc.add_object(Object::Dictionary(info));
    doc.trailer.set("Info", info_id);
    doc.catalog_mut()
        .map_err(|_| ToolError::InvalidFile("the PDF has no catalog".into()))?
        .set("Metadata", metadata);
    changes.note(if had_packet {
        format!("wrote the XMP metadata again from the document information, with the {} identification", level.label())
    } else {
        format!("added XMP metadata with the {} identification", level.label())
    });
    Ok(())
}

/// Text without the characters XML 1.0 cannot hold.
/// Line ends are written as line feeds: XML readers turn every CR and CR LF into one, and
/// the information dictionary must say what they read.
fn clean(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .chars()
        .filter(|&c| matches!(c, '\t' | '\n') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}'))
        .collect()
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in clean(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// The text of an /Info entry.
pub fn info_text(info: &Dictionary, key: &[u8]) -> Option<String> {
    match info.get(key).ok()? {
        Object::String(bytes, _) => Some(text::decode(bytes)),
        _ => None,
    }
}

/// The packet: the /Info fields in their XMP properties, the dates, the identification.
fn packet(info: &Dictionary, level: Level, now: &Date) -> String {
    let mut props = String::new();
    let mut add = |line: String| {
        props.push_str("      ");
        props.push_str(&line);
        props.push('\n');
    };
    add("<dc:format>application/pdf</dc:format>".into());
    if let Some(title) = info_text(info, b"Title") {
        add(format!(
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt></dc:title>",
            escape(&title)
        ));
    }
    if let Some(author) = info_text(info, b"Author") {
        add(format!(
            "<dc:creator><rdf:Seq><rdf:li>{}</rdf:li></rdf:Seq></dc:creator>",
            escape(&author)
        ));
    }
    if let Some(subject) = info_text(info, b"Subject") {
        add(format!(
            "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">{}</rdf:li></rdf:Alt></dc:description>",
            escape(&subject)
        ));
    }
    if let Some(keywords) = info_text(info, b"Keywords") {
        add(format!(
            "<pdf:Keywords>{}</pdf:Keywords>",
            escape(&keywords)
        ));
    }
    if let Some(creator) = info_text(info, b"Creator") {
        add(format!(
            "<xmp:CreatorTool>{}</xmp:CreatorTool>",
            escape(&creator)
        ));
    }
    if let Some(producer) = info_text(info, b"Producer") {
        add(format!(
            "<pdf:Producer>{}</pdf:Producer>",
            escape(&producer)
        ));
    }
    if let Some(created) = info_text(info, b"CreationDate").and_then(|d| Date::parse_pdf(&d)) {
        add(format!(
            "<xmp:CreateDate>{}</xmp:CreateDate>",
            created.iso()
        ));
    }
    let modified = info_text(info, b"ModDate")
        .and_then(|d| Date::parse_pdf(&d))
        .unwrap_or(*now);
    add(format!(
        "<xmp:ModifyDate>{}</xmp:ModifyDate>",
        modified.iso()
    ));
    add(format!(
        "<xmp:MetadataDate>{}</xmp:MetadataDate>",
        now.iso()
    ));
    add(format!("<pdfaid:part>{}</pdfaid:part>", level.part()));
    add("<pdfaid:conformance>B</pdfaid:conformance>".into());
    let padding = format!("{}\n", " ".repeat(99)).repeat(20);
    format!(
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n\
<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n\
  <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n\
    <rdf:Description rdf:about=\"\" \
xmlns:dc=\"http://purl.org/dc/elements/1.1/\" \
xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" \
xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\" \
xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\">\n\
{props}    </rdf:Description>\n\
  </rdf:RDF>\n\
</x:xmpmeta>\n\
{padding}<?xpacket end=\"w\"?>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdf_dates_read_and_write_with_their_zone() {
        let d = Date::parse_pdf("D:20240102030405+01'30'").expect("date");
        assert_eq!(d.offset, 90);
        assert_eq!(d.pdf(), "D:20240102030405+01'30'");
        assert_eq!(d.iso(), "2024-01-02T03:04:05+01:30");
        let z = Date::parse_pdf("D:2024").expect("year only");
        assert_eq!(z.pdf(), "D:20240101000000Z");
        assert!(Date::parse_pdf("yesterday").is_none());
        assert!(Date::parse_pdf("D:20241332").is_none());
        let now = Date::now();
        assert!(now.year >= 2024 && (1..=12).contains(&now.month));
    }

    #[test]
    fn the_packet_escapes_and_identifies() {
        let info = dictionary! { "Title" => Object::string_literal("A & B <c>"), "Author" => Object::string_literal("Ada") };
        let xml = packet(&info, Level::A2b, &Date::now());
        assert!(xml.contains("A &amp; B &lt;c&gt;"));
        assert!(xml.contains("<pdfaid:part>2</pdfaid:part>"));
        assert!(xml.contains("<rdf:li>Ada</rdf:li>"));
    }
}
