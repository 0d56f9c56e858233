//! Loading a PDF for compression, and what makes a document safer kept as it is. lopdf trusts
//! what it reads: a cross-reference entry that points at another object's header loads that
//! object in its place (the one named is lost), and a `/Filter` given by reference reads as no
//! filter at all. Both are repaired here before anything is rewritten; a filter outside the
//! standard set (`/BrotliDecode`) keeps the whole document, since a viewer that lacks it shows
//! blank pages whatever else is rewritten.

mod filters;
mod xref;

use lopdf::{Document, LoadOptions};

use crate::CompressError;

/// What loading gives.
pub enum Intake {
    Loaded(Box<Document>),
    /// The document is handed back as it is, for this reason.
    Keep(String),
}

pub fn load(bytes: &[u8]) -> Result<Intake, CompressError> {
    let mut doc = Document::load_mem(bytes).map_err(crate::load_failure)?;
    if still_encrypted(&doc) {
        return Err(CompressError::Encrypted);
    }
    let misplaced = xref::misplaced(&doc, xref::body(bytes));
    let missing = xref::missing(&doc);
    if misplaced + missing > 0 {
        let options = LoadOptions {
            force_reconstruct: true,
            ..LoadOptions::default()
        };
        match Document::load_mem_with_options(bytes, options) {
            Ok(rebuilt)
                if !rebuilt.get_pages().is_empty()
                    && !still_encrypted(&rebuilt)
                    && xref::missing(&rebuilt) == 0 =>
            {
                tracing::info!(
                    misplaced,
                    missing,
                    "cross-reference table rebuilt from the objects found"
                );
                doc = rebuilt;
            }
            _ => {
                return Ok(Intake::Keep(format!(
                    "{misplaced} cross-reference entries point at other objects and {missing} \
                     objects referred to do not load, and a table rebuilt from the objects \
                     found does not repair it"
                )));
            }
        }
    }
    filters::resolve(&mut doc);
    if let Some(name) = filters::unknown(&doc) {
        return Ok(Intake::Keep(format!(
            "a stream uses the filter /{name}, which not every viewer decodes"
        )));
    }
    Ok(Intake::Loaded(Box::new(doc)))
}

/// Whether lopdf could not decrypt `doc` (it needs a password): lopdf takes /Encrypt out of the
/// trailer once it has decrypted a file, and keeps it otherwise. `Document::is_encrypted` is no
/// test of that: it looks only for an /Encrypt given by reference, and a file whose trailer holds
/// the dictionary itself (pdfminer's encryption samples, from Acrobat) passed as decrypted.
pub fn still_encrypted(doc: &Document) -> bool {
    doc.trailer.has(b"Encrypt")
}

#[cfg(test)]
mod tests;
