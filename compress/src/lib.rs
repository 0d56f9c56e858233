//! PDF compression on lopdf, no Ghostscript. Presets follow Ghostscript's `-dPDFSETTINGS`
//! names: what no viewer draws is dropped (structure), embedded fonts are cut to the glyphs
//! shown (fonts), images are downsampled by their largest displayed size and re-encoded
//! (images), other streams recompressed as Flate, identical streams merged,
//! unused objects dropped, and the file written with object streams and a cross-reference
//! stream. Runs in a worker process: lopdf
//! holds the whole file in memory, and a hostile file must only cost that worker.
//!
//! A crate of its own, with no async runtime or service code, so that it builds and tests in
//! seconds and its bench can run it straight on a corpus.

mod content;
mod displayed;
mod fonts;
mod images;
mod intake;
mod pages;
mod parallel;
pub mod pdf_limits;
mod plain;
mod resources;
mod streams;
mod structure;
#[cfg(test)]
mod test_pdf;
mod xref_stream;
mod zlib;

/// Whether lopdf left a document encrypted (it needs a password): the toolbox tests it too.
pub use intake::still_encrypted;

/// Font program code other engines reuse (the toolbox's PDF/A conversion embeds substitute
/// Type 1 fonts with it): Type 1 programs rewritten as subset CFF, and the standard
/// encodings with their glyph names' Unicode values.
pub mod font_programs {
    pub use crate::fonts::encodings::{MAC_ROMAN, STANDARD, WIN_ANSI, named, unicode_of};
    pub use crate::fonts::type1::{Type1Error, Type1Font};
}

/// Image and CMap code the toolbox's redaction reuses: every image filter this crate decodes,
/// fax included (areas are burnt into the pixels), its JPEG encoder, image colour spaces, and embedded
/// CMaps' codespaces (shown strings are split into character codes).
pub mod redaction {
    pub use crate::fonts::cmap::Cmap;
    pub use crate::images::ccitt::{encode as encode_ccitt, parms as ccitt_parms};
    pub use crate::images::decode::{Declared, Decoded, decode, filters};
    pub use crate::images::jpeg::{Pixels, encode as encode_jpeg};
    pub use crate::images::space::{Space, parse as parse_space};
}

use std::path::Path;

use lopdf::{Document, SaveOptions};

/// Why a PDF could not be compressed; the worker maps each to its failure kind.
#[derive(Debug, thiserror::Error)]
pub enum CompressError {
    #[error("the PDF is protected by a password: remove the password and send it again")]
    Encrypted,
    #[error("{0}")]
    InvalidFile(String),
    /// A stream decodes to more than a worker may hold: a decompression bomb.
    #[error("{0}")]
    OverLimit(String),
    #[error("{0}")]
    Io(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Screen,
    Ebook,
    Printer,
    Prepress,
}

impl Preset {
    /// From `quire.v1.CompressionQuality` (UNSPECIFIED is the default, ebook).
    pub fn from_quality(quality: i32) -> Option<Preset> {
        match quality {
            0 | 2 => Some(Preset::Ebook),
            1 => Some(Preset::Screen),
            3 => Some(Preset::Printer),
            4 => Some(Preset::Prepress),
            _ => None,
        }
    }
}

/// Compresses `input` into `output`; returns the size of `output`, which is never larger
/// than the input (the input is copied when nothing smaller comes out).
pub fn compress(
    input: &Path,
    output: &Path,
    preset: Preset,
    max_pixels: u64,
) -> Result<u64, CompressError> {
    let original = std::fs::metadata(input)
        .map_err(|e| CompressError::Io(format!("staged input unreadable: {e}")))?
        .len();
    let bytes = std::fs::read(input)
        .map_err(|e| CompressError::Io(format!("staged input unreadable: {e}")))?;
    let mut doc = match intake::load(&bytes)? {
        intake::Intake::Loaded(doc) => *doc,
        intake::Intake::Keep(reason) => {
            tracing::info!(reason, "pdf kept as it is");
            return keep_input(input, output, original);
        }
    };
    drop(bytes);
    if doc.get_pages().is_empty() {
        return Err(CompressError::InvalidFile("the PDF has no pages".into()));
    }
    let cleaned = structure::clean(&mut doc, preset);
    let unused = resources::drop_unused(&mut doc);
    if unused > 0 {
        // What they held goes now, not packed for nothing in the background below.
        doc.prune_objects();
    }
    // Merged first so that an image stored more than once is re-encoded once, at the largest
    // size any of its copies is drawn; merged again for streams recompression made identical.
    let mut merged = streams::merge_duplicate_streams(&mut doc);
    // Streams are recompressed on copies in the background from here: the survey and the
    // fonts leave a core idle.
    let contents = streams::Contents::of(&doc, preset);
    let ahead = streams::Ahead::new(&doc, &contents);
    let (fonts, report, recompressed) = std::thread::scope(|scope| {
        let background = scope.spawn(|| ahead.work());
        let (usage, sizes) = survey(&doc);
        let fonts = fonts::subset_fonts(&mut doc, &usage);
        let report = images::recompress_images(&mut doc, &sizes, preset, max_pixels);
        ahead.finish();
        // A panic there loses only the results it had not stored: they are worked out again.
        let _ = background.join();
        let recompressed = streams::recompress_streams(&mut doc, &ahead, &contents);
        (fonts, report, recompressed)
    });
    let recompressed = recompressed?;
    merged += streams::merge_duplicate_streams(&mut doc);
    let pruned = doc.prune_objects().len();
    tracing::debug!(
        cleaned,
        unused,
        fonts,
        images = report.replaced,
        images_kept = report.skipped,
        recompressed,
        merged,
        pruned,
        "pdf compressed"
    );
    let options = SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .compression_level(streams::LEVEL)
        .build();
    // Written in memory first: the cross-reference stream at its end is packed afterwards.
    let mut bytes = Vec::new();
    doc.save_with_options(&mut bytes, options)
        .map_err(|e| CompressError::Io(format!("cannot write the PDF: {e}")))?;
    drop(doc);
    xref_stream::pack(&mut bytes);
    let written = bytes.len() as u64;
    if written >= original {
        return keep_input(input, output, original);
    }
    std::fs::write(output, &bytes)
        .map_err(|e| CompressError::Io(format!("cannot write the output: {e}")))?;
    Ok(written)
}

/// What the pages show, read in one pass over their content: the strings each font shows and
/// the largest size each image is drawn at.
fn survey(doc: &Document) -> (fonts::Usage, displayed::DisplayedSizes) {
    let forms = pages::Forms::default();
    let mut usage = fonts::UsageWalker::new(doc, &forms);
    let mut sizes = displayed::Walker::new(doc, &forms);
    for page in pages::page_contents(doc) {
        usage.page(&page);
        sizes.page(&page);
        forms.clear();
    }
    (usage.finish(), sizes.finish())
}

/// The input handed back as the output: nothing smaller came out, or nothing may be rewritten.
fn keep_input(input: &Path, output: &Path, original: u64) -> Result<u64, CompressError> {
    std::fs::copy(input, output)
        .map_err(|e| CompressError::Io(format!("cannot copy the input: {e}")))?;
    Ok(original)
}

fn load_failure(err: lopdf::Error) -> CompressError {
    let message = err.to_string();
    if message.to_ascii_lowercase().contains("decrypt") || message.contains("password") {
        CompressError::Encrypted
    } else {
        CompressError::InvalidFile(format!(
            "the file is not a readable PDF (corrupt or truncated): {message}"
        ))
    }
}
