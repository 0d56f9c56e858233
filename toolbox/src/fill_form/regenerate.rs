//! Which fields get new appearances, and the one fallback font they share.
//!
//! Two passes: the first finds the fields whose /DA font cannot show their text and gathers
//! that text, so that a single fallback font (Helvetica, or one DejaVu Sans subset holding
//! every character) serves them all; the second draws.

use std::collections::BTreeSet;
use std::path::Path;

use lopdf::content::Content;
use lopdf::{Document, Object};

use super::FieldKind;
use super::draw::{self, Drawer, Shown};
use super::face::Fallback;
use super::tree::Terminal;
use super::values::Change;
use crate::ToolError;
use crate::stamp::font::Font;

/// An appearance stream larger than this is not read to see whether it shows text: it does.
const MAX_APPEARANCE: usize = 1 << 20;

/// Which fields are drawn besides the filled ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redraw {
    /// Every field: the form asked viewers to draw them (/NeedAppearances).
    All,
    /// Fields with a widget that has no normal appearance (viewers differ on showing them;
    /// flattening would drop their value).
    Missing,
    /// Those, and text fields and combo boxes with a value that a widget's appearance draws
    /// no text for (a producer set /V and left the blank field's appearance): what flattening
    /// needs, as it burns the appearances in and the value would be lost with the field.
    Unshown,
}

/// What regeneration did.
pub struct Drawn {
    /// Every field that was to be drawn was: /NeedAppearances can go.
    pub complete: bool,
    /// Fields of which a widget got a new appearance.
    pub fields: u32,
    /// Fields left as they were, as no font here can show their text.
    pub skipped: u32,
}

/// Draws the filled fields' widgets and those `redraw` names. A filled field whose text no
/// font can show is BadOptions; another field that cannot be drawn is left as it was (and
/// `complete` is false).
pub fn appearances(
    doc: &mut Document,
    terminals: &[Terminal],
    changes: &[Change],
    redraw: Redraw,
    font: Option<&Path>,
    notes: &mut Vec<String>,
) -> Result<Drawn, ToolError> {
    let changed: BTreeSet<usize> = changes.iter().map(|change| change.field).collect();
    let targets: Vec<usize> = (0..terminals.len())
        .filter(|&i| changed.contains(&i) || wanted(doc, &terminals[i], redraw))
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
    let mut fields = 0;
    for &index in &targets {
        if skipped.contains(&index) {
            continue;
        }
        let field = &terminals[index];
        let widgets = match field.kind {
            FieldKind::Checkbox | FieldKind::Radio => drawer.buttons(doc, field),
            _ => {
                draw::shown(doc, field).map_or(0, |shown| drawer.variable_text(doc, field, &shown))
            }
        };
        if widgets > 0 {
            fields += 1;
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
        fields,
        skipped: crate::count(skipped.len()),
    })
}

fn wanted(doc: &Document, field: &Terminal, redraw: Redraw) -> bool {
    match redraw {
        Redraw::All => true,
        Redraw::Missing => missing(doc, field),
        Redraw::Unshown => missing(doc, field) || unshown(doc, field),
    }
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

/// Whether the field has text to show and a widget whose normal appearance is a stream that
/// draws none (no text shown, no form or image drawn). Buttons show their /AS state whatever
/// the value, list boxes their options: neither is judged here.
fn unshown(doc: &Document, field: &Terminal) -> bool {
    if !matches!(field.kind, FieldKind::Text | FieldKind::ComboBox) {
        return false;
    }
    let Some(Shown::Text { text, .. }) = draw::shown(doc, field) else {
        return false;
    };
    !text.trim().is_empty()
        && field
            .widgets
            .iter()
            .any(|&widget| draws_nothing(doc, widget))
}

/// Whether the widget's /AP /N is a stream without a text-showing or `Do` operator. One that
/// cannot be read counts as drawing something: it is left as it was.
fn draws_nothing(doc: &Document, widget: lopdf::ObjectId) -> bool {
    let stream = doc
        .get_dictionary(widget)
        .ok()
        .and_then(|annot| annot.get(b"AP").ok())
        .and_then(|ap| doc.dereference(ap).ok())
        .and_then(|(_, ap)| ap.as_dict().ok())
        .and_then(|ap| ap.get(b"N").ok())
        .and_then(|normal| doc.dereference(normal).ok())
        .and_then(|(_, normal)| match normal {
            Object::Stream(stream) => Some(stream),
            _ => None,
        });
    let Some(content) = stream
        .and_then(|stream| stream.decompressed_content_with_limit(MAX_APPEARANCE).ok())
        .and_then(|bytes| Content::decode(&bytes).ok())
    else {
        return false;
    };
    !content
        .operations
        .iter()
        .any(|op| matches!(op.operator.as_str(), "Tj" | "TJ" | "'" | "\"" | "Do"))
}
