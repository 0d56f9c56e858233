//! Whether the cross-reference entries point at their own objects.

use lopdf::{Document, Object, xref::XrefEntry};

/// The file from its `%PDF-` header on: where lopdf counts offsets from.
pub fn body(bytes: &[u8]) -> &[u8] {
    let start = memchr::memmem::find(bytes, b"%PDF-").unwrap_or(0);
    &bytes[start..]
}

/// How many in-use entries point somewhere other than the header of the object they name
/// (`n g obj`, after any white space).
pub fn misplaced(doc: &Document, body: &[u8]) -> usize {
    doc.reference_table
        .entries
        .iter()
        .filter(|&(&number, entry)| match *entry {
            XrefEntry::Normal { offset, generation } => {
                header(body.get(offset as usize..).unwrap_or_default())
                    != Some((number, generation))
            }
            _ => false,
        })
        .count()
}

/// How many objects that loaded objects refer to, and that the cross-reference table lists
/// as in use, did not load (an object stream that failed to decode, an object that failed to
/// parse): written out, the references would point at nothing.
pub fn missing(doc: &Document) -> usize {
    let mut referred = std::collections::BTreeSet::new();
    let mut stack: Vec<&Object> = doc.objects.values().collect();
    stack.extend(doc.trailer.iter().map(|(_, v)| v));
    while let Some(object) = stack.pop() {
        match object {
            Object::Reference(id) => {
                referred.insert(*id);
            }
            Object::Array(items) => stack.extend(items),
            Object::Dictionary(dict) => stack.extend(dict.iter().map(|(_, v)| v)),
            Object::Stream(stream) => stack.extend(stream.dict.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    referred
        .into_iter()
        .filter(|id| !doc.objects.contains_key(id))
        .filter(|id| {
            matches!(
                doc.reference_table.entries.get(&id.0),
                Some(XrefEntry::Normal { .. } | XrefEntry::Compressed { .. })
            )
        })
        .count()
}

/// The object number and generation of an `n g obj` header at the start of `at`.
fn header(at: &[u8]) -> Option<(u32, u16)> {
    let mut rest = at.trim_ascii_start();
    let mut number = || -> Option<u64> {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 10 {
            return None;
        }
        let value = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
        let after = &rest[digits..];
        let spaces = after.iter().take_while(|b| b.is_ascii_whitespace()).count();
        rest = &after[spaces..];
        Some(value)
    };
    let id = u32::try_from(number()?).ok()?;
    let generation = u16::try_from(number()?).ok()?;
    rest.starts_with(b"obj").then_some((id, generation))
}

#[cfg(test)]
mod tests {
    use super::header;

    #[test]
    fn headers_are_read_after_white_space() {
        assert_eq!(header(b"\r\n12 0 obj\n<<>>"), Some((12, 0)));
        assert_eq!(header(b"12 3 obj<<>>"), Some((12, 3)));
        assert_eq!(header(b"endobj\n12 0 obj"), None);
        assert_eq!(header(b"2 0 R"), None);
        assert_eq!(header(b""), None);
    }
}
