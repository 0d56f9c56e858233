//! The redaction from file to file: the plan checked against the document, each page with
//! areas redacted, the form and the structure tree told what went, the document cleaned,
//! and everything written whole.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use lopdf::{Document, Object};

use super::clean::{self, Cleaned};
use super::page::{self, LabelFont};
use super::structure::{self, Touched};
use super::{Rect, Redacted, Redaction, annots, options};
use crate::{ToolError, io, pages};

/// What replaces a term in a bookmark title when there is no label.
const REPLACEMENT: &str = "[REDACTED]";

pub fn redact(input: &Path, redaction: &Redaction, output: &Path) -> Result<Redacted, ToolError> {
    options::check(redaction)?;
    let mut doc = io::open(input)?;
    // New objects are numbered after every object the file holds, whatever its
    // cross-reference table claimed.
    doc.max_id = doc.max_id.max(io::max_number(&doc));
    let tree = pages::walk(&doc)?;
    let plan = options::plan(redaction, tree.pages.len())?;
    let mut result = Redacted {
        pages: crate::count(tree.pages.len()),
        ..Redacted::default()
    };
    let mut label = plan.label.as_ref().map(|(text, font)| LabelFont {
        text,
        font,
        id: None,
    });
    let mut removed = HashSet::new();
    let mut touched = Touched::new();
    let mut unsafe_pages = BTreeSet::new();
    for (&index, rects) in &plan.pages {
        let Some(page) = tree.pages.get(index) else {
            continue;
        };
        let outcome = page::redact(&mut doc, page, rects, &plan, &mut label);
        result.glyphs_removed += outcome.tally.glyphs;
        result.images_redacted += outcome.tally.images;
        result.paths_removed += outcome.tally.paths_removed;
        result.paths_covered += outcome.tally.paths_covered;
        let number = crate::count(index + 1);
        result.glyph_boxes.extend(
            outcome
                .tally
                .glyph_boxes
                .iter()
                .map(|&[x0, y0, x1, y1]| (number, Rect { x0, y0, x1, y1 })),
        );
        result.annotations_removed +=
            outcome.annotations.removed.len() as u32 + outcome.annotations.inline;
        removed.extend(outcome.annotations.removed);
        if !outcome.touched_mcids.is_empty() {
            touched.insert(page.id, Some(outcome.touched_mcids));
        }
        if !outcome.unsafe_reasons.is_empty() {
            let number = crate::count(index + 1);
            let why: Vec<String> = outcome.unsafe_reasons.into_iter().collect();
            tracing::debug!(page = number, reasons = ?why, "unsafe page");
            unsafe_pages.insert(number);
            result.unsafe_reasons.push((number, why.join("; ")));
        }
    }
    result.unsafe_pages = unsafe_pages.into_iter().collect();
    structure::strip(&mut doc, &touched, &removed);
    result.fields_cleared = annots::clear_fields(&mut doc, &removed);
    annots::cut_references(&mut doc, &removed);
    if plan.clean {
        let replacement = plan
            .label
            .as_ref()
            .map_or(REPLACEMENT, |(text, _)| text.as_str());
        let Cleaned {
            bookmarks,
            metadata,
            attachments,
            destinations,
            actions,
            names,
        } = clean::clean(&mut doc, &plan.terms, replacement);
        result.bookmarks_cleaned = bookmarks;
        result.metadata_cleaned = metadata;
        result.attachments_removed = attachments;
        result.destinations_renamed = destinations;
        result.actions_removed = actions;
        result.names_cleaned = names;
    }
    drop_piece_info(&mut doc);
    io::save(&mut doc, output)?;
    Ok(result)
}

/// Private application data (/PieceInfo, with its /LastModified) may keep a copy of what the
/// page showed: it goes everywhere.
pub fn drop_piece_info(doc: &mut Document) {
    fn dict(dict: &mut lopdf::Dictionary) {
        if dict.remove(b"PieceInfo").is_some() {
            dict.remove(b"LastModified");
        }
        for (_, value) in dict.iter_mut() {
            object(value);
        }
    }
    fn object(value: &mut Object) {
        match value {
            Object::Dictionary(d) => dict(d),
            Object::Array(items) => items.iter_mut().for_each(object),
            Object::Stream(stream) => dict(&mut stream.dict),
            _ => {}
        }
    }
    for value in doc.objects.values_mut() {
        object(value);
    }
}
