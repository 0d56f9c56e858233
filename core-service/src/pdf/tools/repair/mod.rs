//! repair: a damaged PDF rewritten whole. PDFium opens it the way viewers do (it rebuilds a
//! broken or missing cross-reference table by scanning for objects and reads a truncated file
//! up to where it breaks), pages it cannot load are left out, and the document is saved as a
//! complete new file (no incremental update). What was wrong is told from a cheap look at the
//! input's bytes and from lopdf, before anything is written.

use std::path::Path;

use flate2::{Decompress, FlushDecompress, Status};
use lopdf::content::Content;
use lopdf::xref::XrefRecovery;
use lopdf::{
    DEFAULT_MAX_DECOMPRESSED_SIZE, DecompressError, Document, LoadOptions, Object, ObjectId,
};
use pdfium_render::prelude::*;

use crate::pdf::pdfium;
use crate::workers::protocol::{Failure, FailureKind};

mod findings;
mod look;
mod rescue;
mod stand_in;
mod structure;

use findings::*;
use look::*;
use rescue::*;
use stand_in::*;
use structure::*;

/// What repair found and did, in sentences a person reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repaired {
    pub pages: u32,
    pub findings: Vec<String>,
}

pub const NOTHING_WRONG: &str = "nothing was wrong: the file was rewritten as is";
pub const XREF_DAMAGED: &str = "the cross-reference table was damaged and has been rebuilt";
pub const XREF_MISSING: &str = "the cross-reference table was missing and has been rebuilt";

/// How far from the end of the file `%%EOF`, `startxref` and their offset are looked for.
const TAIL: usize = 4096;

/// Rebuilds a damaged PDF into `output`. A file PDFium cannot open at all fails as
/// [`pdfium::open`] does (InvalidFile, Encrypted); a file none of whose pages can be read
/// fails as InvalidFile; a failure to write is Engine.
pub fn repair(pdfium: &Pdfium, input: &str, output: &Path) -> Result<Repaired, Failure> {
    let opened = pdfium::open(pdfium, input);
    if let Err(failure) = &opened
        && failure.kind != FailureKind::InvalidFile as i32
    {
        return Err(failure.clone());
    }
    let bytes = std::fs::read(input).map_err(|e| {
        Failure::new(
            FailureKind::InvalidFile,
            format!("the PDF cannot be read: {e}"),
        )
    })?;
    let look = Look::at(&bytes);
    // Only a file that may have been cut short has each image's data read to its end.
    let structure = Structure::of(&bytes, look.cut_short() || look.startxref.is_none());
    let no_pages = || {
        Failure::new(
            FailureKind::InvalidFile,
            "no page of the PDF could be recovered: the file is too damaged to repair",
        )
    };
    let key_lost = Failure::new(
        FailureKind::InvalidFile,
        "the PDF is encrypted and the part of the file that says how was lost: it cannot be \
         repaired",
    );
    let (document, rescue) = match opened {
        Ok(document) if !document.pages().is_empty() || structure.orphans.is_none() => {
            let unprotected = matches!(
                document.permissions().security_handler_revision(),
                Ok(PdfSecurityHandlerRevision::Unprotected)
            );
            if unprotected && lost_key_in(&look, &bytes) {
                return Err(key_lost);
            }
            drop(bytes);
            (document, Rescue::None)
        }
        opened => {
            let failure = opened.err().unwrap_or_else(no_pages);
            if lost_key_in(&look, &bytes) {
                return Err(key_lost);
            }
            rescue(pdfium, bytes, &structure).ok_or(failure)?
        }
    };

    let listed = u32::try_from(document.pages().len()).unwrap_or(0);
    let unreadable = unreadable_pages(&document);
    let readable: Vec<u32> = (1..=listed).filter(|p| !unreadable.contains(p)).collect();
    // lopdf's pages, as PDFium numbers them: the same when lopdf counts as many, the pages
    // PDFium can read when lopdf left out those whose objects are lost; in a new tree, the
    // pages found, in order.
    let (lopdf_pages, broken, lost, images) = match (rescue, &structure.orphans) {
        (Rescue::Tree, Some(orphans)) => (
            listed,
            &orphans.broken_content,
            &orphans.lost_content,
            &orphans.cut_images,
        ),
        _ => (
            structure.lopdf_pages,
            &structure.broken_content,
            &structure.lost_content,
            &structure.cut_images,
        ),
    };
    let to_pdfium = |pages: &[u32]| -> Vec<u32> {
        if lopdf_pages == listed {
            pages
                .iter()
                .copied()
                .filter(|p| !unreadable.contains(p))
                .collect()
        } else if lopdf_pages as usize == readable.len() {
            pages
                .iter()
                .filter_map(|p| readable.get(*p as usize - 1).copied())
                .collect()
        } else {
            Vec::new()
        }
    };
    let mut damaged = to_pdfium(broken);
    damaged.extend(to_pdfium(lost));
    damaged.sort_unstable();
    damaged.dedup();
    if readable.is_empty() {
        return Err(no_pages());
    }
    let write_failure = |e: PdfiumError| {
        let _ = std::fs::remove_file(output);
        Failure::new(
            FailureKind::Engine,
            format!("PDFium could not write the repaired PDF: {e}"),
        )
    };
    // PDFium cannot take a page it cannot load out of its page tree (nor walk a tree that
    // holds one), and pages put in a new tree still name their lost parent: the pages that
    // load go into a new document instead.
    let copied = !unreadable.is_empty() || rescue == Rescue::Tree;
    let mut document = if !copied {
        document
    } else {
        readable_copy(pdfium, &document, &readable).map_err(write_failure)?
    };
    // Pages keep their numbers in the input in what is said; in `document` they are now
    // numbered among the readable ones.
    let in_document = |page: &u32| {
        readable
            .iter()
            .position(|r| r == page)
            .map(|i| i as u32 + 1)
    };
    let in_input = |pages: Vec<u32>| -> Vec<u32> {
        pages
            .iter()
            .filter_map(|page| readable.get(*page as usize - 1).copied())
            .collect()
    };
    let damaged: Vec<u32> = damaged.iter().filter_map(in_document).collect();
    let (rewritten, blank) = fix_content(&mut document, &damaged);
    let (rewritten, blank) = (in_input(rewritten), in_input(blank));
    let cut_images: Vec<u32> = to_pdfium(images)
        .into_iter()
        .filter(|page| !blank.contains(page))
        .collect();
    let findings = findings(
        &look,
        &structure,
        Pages {
            listed,
            unreadable: &unreadable,
            rewritten: &rewritten,
            blank: &blank,
            cut_images: &cut_images,
            copied,
        },
        rescue,
    );
    document.save_to_file(output).map_err(write_failure)?;
    let pages = readable.len() as u32;
    Ok(Repaired { pages, findings })
}

#[cfg(test)]
mod tests;
