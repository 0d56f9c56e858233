//! The file layout: the level's PDF version in the header, the comment of four high bytes
//! after it (ISO 19005-1 6.1.2), a trailer /ID (6.1.3), and for PDF/A-1 a classic
//! cross-reference table with no object streams (PDF 1.4 has neither).

use std::io::Write;
use std::path::Path;

use lopdf::xref::XrefType;
use lopdf::{Dictionary, Document, Object, SaveOptions, StringFormat};
use sha2::{Digest, Sha256};

use super::Level;
use crate::ToolError;

/// The four bytes of the comment after the header, all above 127.
const BINARY_MARK: [u8; 4] = [0xE2, 0xE3, 0xCF, 0xD3];

/// Writes `doc` to `output` as `level` lays files out.
pub fn save(doc: &mut Document, level: Level, output: &Path) -> Result<(), ToolError> {
    let mut trailer = Dictionary::new();
    for key in [b"Root".as_slice(), b"Info"] {
        if let Ok(value) = doc.trailer.get(key) {
            trailer.set(key, value.clone());
        }
    }
    trailer.set("ID", id(doc));
    doc.trailer = trailer;
    doc.prune_objects();
    crate::streams::compress_plain(doc);
    doc.version = level.version().to_string();
    doc.binary_mark = BINARY_MARK.to_vec();
    doc.reference_table.cross_reference_type = if level.part1() {
        XrefType::CrossReferenceTable
    } else {
        XrefType::CrossReferenceStream
    };
    let options = SaveOptions::builder()
        .use_object_streams(!level.part1())
        .use_xref_streams(!level.part1())
        .compression_level(6)
        .build();
    let file = std::fs::File::create(output)
        .map_err(|e| ToolError::Io(format!("cannot write the output: {e}")))?;
    let mut file = std::io::BufWriter::with_capacity(1 << 16, file);
    doc.save_with_options(&mut file, options)
        .and_then(|()| file.flush())
        .map_err(|e| ToolError::Io(format!("cannot write the PDF: {e}")))
}

/// The file identifier: the first part kept from the input (it names the document across
/// versions), the second new (this version), both 16 bytes.
fn id(doc: &Document) -> Object {
    let mut hash = Sha256::new();
    hash.update(doc.objects.len().to_be_bytes());
    for (id, object) in doc.objects.iter().take(64) {
        hash.update(id.0.to_be_bytes());
        if let Ok(dict) = object.as_dict() {
            hash.update(dict.len().to_be_bytes());
        }
    }
    if let Ok(Object::String(info, _)) = doc
        .trailer
        .get(b"Info")
        .and_then(|i| doc.dereference(i).map(|(_, o)| o))
        .and_then(Object::as_dict)
        .and_then(|d| d.get(b"Title"))
    {
        hash.update(info);
    }
    hash.update(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
            .to_be_bytes(),
    );
    let new: Vec<u8> = hash.finalize()[..16].to_vec();
    let first = match doc.trailer.get(b"ID") {
        Ok(Object::Array(parts)) => match parts.first() {
            Some(Object::String(bytes, _)) if !bytes.is_empty() && bytes.len() <= 32 => {
                bytes.clone()
            }
            _ => new.clone(),
        },
        _ => new.clone(),
    };
    Object::Array(vec![
        Object::String(first, StringFormat::Hexadecimal),
        Object::String(new, StringFormat::Hexadecimal),
    ])
}
