//! An incremental update (ISO 32000-1, 7.5.6): the file's bytes kept as they are, then the
//! objects that changed or are new, a cross-reference section of the same kind as the
//! file's last one (a table or a stream) and a trailer pointing back at it with /Prev.
//!
//! The signature dictionary is written by hand, as a plain object with room reserved for its
//! /ByteRange and /Contents, so that they can be filled in once the file's bytes are final.

use std::io::Write;

use lopdf::{Dictionary, Document, Object, ObjectId, Writer};

use crate::ToolError;

/// Room for each number of the /ByteRange: up to 10 digits, files below 10 GB.
const RANGE_DIGITS: usize = 10;

/// The signature dictionary to write, without /ByteRange and /Contents.
pub struct Slot<'a> {
    pub id: ObjectId,
    pub dict: &'a Dictionary,
    /// Bytes reserved for the CMS (written as twice as many hex digits).
    pub room: usize,
}

/// Where the placeholders of the signature dictionary are in the written file.
#[derive(Debug, Clone, Copy)]
pub struct Holes {
    /// The `[...]` of /ByteRange: its offset and length.
    pub range: (usize, usize),
    /// The `<...>` of /Contents: the offset of `<` and the offset after `>`.
    pub contents: (usize, usize),
}

/// `base` followed by an update writing every object of `doc` that `original` lacks or holds
/// otherwise, and `slot` when given.
pub fn append(
    base: &[u8],
    original: &Document,
    doc: &Document,
    slot: Option<Slot>,
) -> Result<(Vec<u8>, Option<Holes>), ToolError> {
    let prev = last_startxref(base).ok_or_else(|| {
        ToolError::InvalidFile(
            "the PDF has no cross-reference offset at its end (startxref): repair it first".into(),
        )
    })?;
    let stream_xref = !base
        .get(prev..)
        .is_some_and(|rest| rest.starts_with(b"xref"));
    let mut out = base.to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let mut offsets: Vec<(ObjectId, usize)> = Vec::new();
    for (&id, object) in &doc.objects {
        if slot.as_ref().is_some_and(|slot| slot.id == id)
            || original.objects.get(&id) == Some(object)
        {
            continue;
        }
        offsets.push((id, out.len()));
        write_object(&mut out, id, object)?;
    }
    let holes = match slot {
        Some(slot) => {
            offsets.push((slot.id, out.len()));
            Some(write_signature(&mut out, &slot)?)
        }
        None => None,
    };
    let size = doc
        .objects
        .keys()
        .map(|id| id.0)
        .max()
        .unwrap_or(0)
        .max(doc.max_id)
        + 1;
    let mut trailer = Dictionary::new();
    for key in [b"Root".as_slice(), b"Info", b"ID"] {
        if let Ok(value) = doc.trailer.get(key) {
            trailer.set(key, value.clone());
        }
    }
    trailer.set("Prev", prev as i64);
    if stream_xref {
        write_xref_stream(&mut out, offsets, size, trailer)?;
    } else {
        write_xref_table(&mut out, offsets, size, trailer)?;
    }
    Ok((out, holes))
}

/// Fills in the /ByteRange: everything but the /Contents string.
pub fn fill_range(file: &mut [u8], holes: Holes) -> [usize; 4] {
    let (start, end) = holes.contents;
    let ranges = [0, start, end, file.len() - end];
    let text = format!("[{} {} {} {}", ranges[0], ranges[1], ranges[2], ranges[3]);
    let (at, len) = holes.range;
    let mut padded = text.into_bytes();
    padded.resize(len - 1, b' ');
    padded.push(b']');
    file[at..at + len].copy_from_slice(&padded);
    ranges
}

/// Writes `cms` as hex into the /Contents string, the rest left as zeros.
pub fn fill_contents(file: &mut [u8], holes: Holes, cms: &[u8]) -> Result<(), ToolError> {
    let (start, end) = holes.contents;
    let room = end - start - 2;
    if cms.len() * 2 > room {
        return Err(ToolError::Io(format!(
            "the signature ({} bytes) is larger than the room reserved for it ({} bytes)",
            cms.len(),
            room / 2
        )));
    }
    let hex: String = cms.iter().map(|b| format!("{b:02X}")).collect();
    file[start + 1..start + 1 + hex.len()].copy_from_slice(hex.as_bytes());
    Ok(())
}

fn io_error(e: impl std::fmt::Display) -> ToolError {
    ToolError::Io(format!("cannot write the signed PDF: {e}"))
}

fn write_object(
    out: &mut Vec<u8>,
    (number, generation): ObjectId,
    object: &Object,
) -> Result<(), ToolError> {
    writeln!(out, "{number} {generation} obj").map_err(io_error)?;
    match object {
        Object::Stream(stream) => {
            let mut stream = stream.clone();
            stream.dict.set("Length", stream.content.len() as i64);
            Writer::write_object(out, &Object::Stream(stream)).map_err(io_error)?;
        }
        other => Writer::write_object(out, other).map_err(io_error)?,
    }
    out.extend_from_slice(b"\nendobj\n");
    Ok(())
}

/// The signature dictionary with its placeholders first: a /ByteRange wide enough for any
/// file below 10 GB and a /Contents of zeros.
fn write_signature(out: &mut Vec<u8>, slot: &Slot) -> Result<Holes, ToolError> {
    write!(out, "{} {} obj\n<</ByteRange ", slot.id.0, slot.id.1).map_err(io_error)?;
    let width = 2 + 4 * (RANGE_DIGITS + 1);
    let range = (out.len(), width);
    out.push(b'[');
    out.resize(out.len() + width - 2, b' ');
    out.push(b']');
    out.extend_from_slice(b"/Contents ");
    let start = out.len();
    out.push(b'<');
    out.resize(out.len() + slot.room * 2, b'0');
    out.push(b'>');
    let contents = (start, out.len());
    for (key, value) in slot.dict.iter() {
        if key == b"ByteRange" || key == b"Contents" {
            continue;
        }
        Writer::write_object(out, &Object::Name(key.clone())).map_err(io_error)?;
        out.push(b' ');
        Writer::write_object(out, value).map_err(io_error)?;
    }
    out.extend_from_slice(b">>\nendobj\n");
    Ok(Holes { range, contents })
}

/// Consecutive object numbers grouped: (first, count) subsections.
fn subsections(numbers: &[u32]) -> Vec<(u32, u32)> {
    let mut sections: Vec<(u32, u32)> = Vec::new();
    for &n in numbers {
        match sections.last_mut() {
            Some((first, count)) if *first + *count == n => *count += 1,
            _ => sections.push((n, 1)),
        }
    }
    sections
}

fn write_xref_table(
    out: &mut Vec<u8>,
    mut offsets: Vec<(ObjectId, usize)>,
    size: u32,
    mut trailer: Dictionary,
) -> Result<(), ToolError> {
    offsets.sort_unstable();
    let start = out.len();
    out.extend_from_slice(b"xref\n");
    let numbers: Vec<u32> = offsets.iter().map(|(id, _)| id.0).collect();
    let mut entries = offsets.iter();
    for (first, count) in subsections(&numbers) {
        writeln!(out, "{first} {count}").map_err(io_error)?;
        for ((_, generation), offset) in entries.by_ref().take(count as usize) {
            write!(out, "{offset:010} {generation:05} n\r\n").map_err(io_error)?;
        }
    }
    trailer.set("Size", i64::from(size));
    out.extend_from_slice(b"trailer\n");
    Writer::write_object(out, &Object::Dictionary(trailer)).map_err(io_error)?;
    writeln!(out, "\nstartxref\n{start}\n%%EOF").map_err(io_error)
}

/// A cross-reference stream, its entries 1 + 4 + 2 bytes wide, unfiltered.
fn write_xref_stream(
    out: &mut Vec<u8>,
    mut offsets: Vec<(ObjectId, usize)>,
    size: u32,
    mut trailer: Dictionary,
) -> Result<(), ToolError> {
    let number = size;
    let start = out.len();
    offsets.push(((number, 0), start));
    offsets.sort_unstable();
    let mut data = Vec::with_capacity(offsets.len() * 7);
    for ((_, generation), offset) in &offsets {
        let offset = u32::try_from(*offset)
            .map_err(|_| ToolError::BadOptions("the PDF is too large to sign (4 GB)".into()))?;
        data.push(1);
        data.extend_from_slice(&offset.to_be_bytes());
        data.extend_from_slice(&generation.to_be_bytes());
    }
    let numbers: Vec<u32> = offsets.iter().map(|(id, _)| id.0).collect();
    let index: Vec<Object> = subsections(&numbers)
        .into_iter()
        .flat_map(|(first, count)| [i64::from(first).into(), i64::from(count).into()])
        .collect();
    trailer.set("Type", Object::Name(b"XRef".to_vec()));
    trailer.set("Size", i64::from(number) + 1);
    trailer.set("W", vec![1.into(), 4.into(), 2.into()]);
    trailer.set("Index", index);
    trailer.set("Length", data.len() as i64);
    writeln!(out, "{number} 0 obj").map_err(io_error)?;
    Writer::write_object(out, &Object::Dictionary(trailer)).map_err(io_error)?;
    out.extend_from_slice(b"stream\n");
    out.extend_from_slice(&data);
    out.extend_from_slice(b"\nendstream\nendobj\n");
    writeln!(out, "startxref\n{start}\n%%EOF").map_err(io_error)
}

/// The offset after the file's last `startxref`.
fn last_startxref(bytes: &[u8]) -> Option<usize> {
    let tail_start = bytes.len().saturating_sub(2048);
    let tail = &bytes[tail_start..];
    let at = tail.windows(9).rposition(|w| w == b"startxref")?;
    let rest = &tail[at + 9..];
    let digits: String = rest
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|&b| char::from(b))
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsections_group_consecutive_numbers() {
        assert_eq!(
            subsections(&[3, 4, 5, 9, 11, 12]),
            [(3, 3), (9, 1), (11, 2)]
        );
        assert!(subsections(&[]).is_empty());
    }

    #[test]
    fn the_last_startxref_is_read() {
        let file = b"%PDF-1.7\n...startxref\n12\n%%EOF\n...startxref\r\n345\n%%EOF\n";
        assert_eq!(last_startxref(file), Some(345));
        assert_eq!(last_startxref(b"%PDF-1.7 nothing"), None);
    }

    #[test]
    fn the_byte_range_is_padded_in_place() {
        let mut file = b"x [                                            ] <0000>y".to_vec();
        let holes = Holes {
            range: (2, 46),
            contents: (49, 55),
        };
        let ranges = fill_range(&mut file, holes);
        assert_eq!(ranges, [0, 49, 55, 1]);
        let text = String::from_utf8(file).unwrap_or_default();
        assert!(text.starts_with("x [0 49 55 1 "), "{text}");
        assert!(text.ends_with("] <0000>y"), "{text}");
    }
}
