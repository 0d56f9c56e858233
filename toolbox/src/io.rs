//! Reading and writing documents: load errors mapped to the tool's errors, and every output
//! written the same way (unused objects pruned, a fresh trailer, object streams and a
//! cross-reference stream).

use std::io::Write;
use std::path::Path;

use lopdf::{Dictionary, Document, ObjectId, SaveOptions};

use crate::ToolError;

/// The zlib level of the object streams written: zlib's default, as the compressor uses. They
/// hold only dictionaries and arrays, a small share of any real file, so a lower level saved
/// little time on the corpus.
const OBJECT_STREAM_LEVEL: u32 = 6;

/// Loads `path`. A file that opens with the empty user password is decrypted by lopdf and
/// handled like any other (and written unencrypted); one that needs a real password is
/// [`ToolError::Encrypted`].
pub fn open(path: &Path) -> Result<Document, ToolError> {
    let doc = Document::load(path).map_err(load_failure)?;
    // Without the password lopdf keeps /Encrypt in the trailer and loads no objects.
    if quire_compress::still_encrypted(&doc) {
        return Err(ToolError::Encrypted);
    }
    Ok(doc)
}

fn load_failure(err: lopdf::Error) -> ToolError {
    match err {
        lopdf::Error::IO(e) if e.kind() != std::io::ErrorKind::InvalidData => {
            ToolError::Io(format!("cannot read the staged file: {e}"))
        }
        lopdf::Error::InvalidPassword | lopdf::Error::Decryption(_) => ToolError::Encrypted,
        other => {
            let message = other.to_string();
            if message.to_ascii_lowercase().contains("decrypt") || message.contains("password") {
                ToolError::Encrypted
            } else {
                ToolError::InvalidFile(format!(
                    "the file is not a readable PDF (corrupt or truncated): {message}"
                ))
            }
        }
    }
}

/// Writes `doc` to `output`: objects nothing reaches are dropped first, so pages that were
/// removed take their images and fonts with them.
pub fn save(doc: &mut Document, output: &Path) -> Result<(), ToolError> {
    fresh_trailer(doc);
    let pruned = doc.prune_objects().len();
    let compressed = crate::streams::compress_plain(doc);
    tracing::debug!(
        pruned,
        compressed,
        objects = doc.objects.len(),
        "writing pdf"
    );
    let file = std::fs::File::create(output)
        .map_err(|e| ToolError::Io(format!("cannot write the output: {e}")))?;
    let mut file = std::io::BufWriter::with_capacity(1 << 16, file);
    let options = SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .compression_level(OBJECT_STREAM_LEVEL)
        .build();
    doc.save_with_options(&mut file, options)
        .and_then(|()| file.flush())
        .map_err(|e| ToolError::Io(format!("cannot write the PDF: {e}")))
}

/// Keeps only what a new file's trailer carries over: a loaded trailer may still hold the
/// input's /Prev, /XRefStm or, when it was a cross-reference stream, its /Filter and
/// /DecodeParms, which would describe the new cross-reference stream wrongly.
fn fresh_trailer(doc: &mut Document) {
    let mut trailer = Dictionary::new();
    for key in [b"Root".as_slice(), b"Info", b"ID"] {
        if let Ok(value) = doc.trailer.get(key) {
            trailer.set(key, value.clone());
        }
    }
    doc.trailer = trailer;
}

/// The highest object number in `doc`; lopdf's `max_id` comes from the cross-reference size,
/// which a damaged file may get wrong either way.
pub fn max_number(doc: &Document) -> u32 {
    doc.objects.keys().next_back().map_or(0, |id| id.0)
}

/// A new object id after every object of `doc`.
pub fn new_id(doc: &mut Document) -> Result<ObjectId, ToolError> {
    doc.try_new_object_id()
        .map_err(|_| ToolError::InvalidFile("the PDF numbers its objects past the limit".into()))
}
