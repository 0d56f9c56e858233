//! Which fields get new appearances, and the one fallback font they share.
//!
//! Two passes: the first finds the fields whose /DA font cannot show their text and gathers
//! that text, so that a single fallback font (Helvetica, or one DejaVu Sans subset holding
//! every character) serves them all; the second draws.

use std::collections::BTreeSet;
use std::path::Path;

use lopdf::Document;

use super::FieldKind;
use super::draw::{self, Drawer};
use super::face::Fallback;
use super::tree::Terminal;
use super::values::Change;
use crate::ToolError;
use crate::stamp::font::Font;

/// What regeneration did.
pub struct Drawn {
    /// Every field that was to be drawn was: /NeedAppearances can go.
    pub complete: bool,
}

/// Draws the filled fields' widgets, those of fields with a widget that has no normal
/// appearance (viewers differ on showing them; flattening would drop their value), and with
/// `all` (the form asked for /NeedAppearances) every field's. A filled field whose text no font can show is BadOptions; another field
/// that cannot be drawn is left as it was (and `complete` is false).
pub fn appearances(
    doc: &mut Document,
    terminals: &[Terminal],
    changes: &[Change],
    all: bool,
    font: Option<&Path>,
    notes: &mut Vec<String>,
) -> Result<Drawn, ToolError> {
    let changed: BTreeSet<usize> = changes.iter().map(|change| change.field).collect();
    let targets: Vec<usize> = (0..terminals.len())
        .filter(|&i| all || changed.contains(&i) || missing(doc, &terminals[i]))
        .collect();
    let mut drawer = Drawer::new();
    let mut needing = Vec::new();
    let mut fallback_text = String::new();
    let mut skipped = BTreeSet::new();
    for &index in &targets {
        let field = &terminals[index];
        let Some(shown) = draw::shown(doc, field) else {
            continue;
        };
        let text = printable(&shown.strings());
        if !drawer.needs_fallback(doc, field, &text) {
            continue;
        }
        if !changed.contains(&index) && Font::for_text(&text, font).is_err() {
            skipped.insert(index);
            continue;
        }
        needing.push(index);
        fallback_text.push_str(&text);
    }
    let fallback = if needing.is_empty() {
        None
    } else {
        let font = Font::for_text(&fallback_text, font)?;
        let id = font.add_to(doc);
        let named = match font {
            Font::Helvetica => "Helvetica",
            Font::Embedded(_) => "DejaVu Sans (embedded)",
        };
        let names: Vec<&str> = needing
            .iter()
            .take(3)
            .map(|&i| terminals[i].name.as_str())
            .collect();
        let more = if needing.len() > 3 { ", ..." } else { "" };
        notes.push(format!(
            "{} field(s) drawn in {named}, as the form's font cannot show their text: {}{more}",
            needing.len(),
            names.join(", ")
        ));
        Some(Fallback { font, id })
    };
    drawer.fallback = fallback.as_ref();
    for &index in &targets {
        if skipped.contains(&index) {
            continue;
        }
        let field = &terminals[index];
        match field.kind {
            FieldKind::Checkbox | FieldKind::Radio => drawer.buttons(doc, field),
            _ => {
                if let Some(shown) = draw::shown(doc, field) {
                    drawer.variable_text(doc, field, &shown);
                }
            }
        }
    }
    if !skipped.is_empty() {
        notes.push(format!(
            "{} other field(s) keep the appearance they had, as no font here can show their \
             text; viewers will redraw them",
            skipped.len()
        ));
    }
    Ok(Drawn {
        complete: skipped.is_empty(),
    })
}

/// Whether a widget of the field has no normal appearance.
fn missing(doc: &Document, field: &Terminal) -> bool {
    field.widgets.iter().any(|&widget| {
        doc.get_dictionary(widget)
            .ok()
            .and_then(|annot| annot.get(b"AP").ok())
            .and_then(|ap| doc.dereference(ap).ok())
            .and_then(|(_, ap)| ap.as_dict().ok())
            .is_none_or(|ap| !ap.has(b"N"))
    })
}

/// Text as fonts see it: line breaks and other control characters are layout, not glyphs.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
