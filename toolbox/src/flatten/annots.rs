//! A page's annotations, and what flattening does with each.

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::Flatten;
use super::appearance::{self, Drawing};

/// Annotation flags that keep an annotation off the screen (ISO 32000-1, table 165): Hidden
/// (bit 2) and NoView (bit 6).
const INVISIBLE: i64 = (1 << 1) | (1 << 5);

/// Which switch of [`Flatten`] an annotation answers to, and which counter it goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A form field's widget.
    Widget,
    /// Any other annotation (a stamp, ink, a highlight, free text, a note, ...).
    Other,
    /// A link or a popup: never drawn, removed with the other annotations.
    Ephemeral,
}

/// What becomes of an annotation.
pub enum Fate {
    Keep,
    /// Removed with nothing drawn.
    Remove,
    /// Removed, its appearance drawn on the page.
    Draw(Drawing),
}

/// The entries of the page's /Annots (an array, maybe an indirect object), or `None` when the
/// page has none.
pub fn list(doc: &Document, page: ObjectId) -> Option<Vec<Object>> {
    let annots = doc.get_dictionary(page).ok()?.get(b"Annots").ok()?;
    let (_, annots) = doc.dereference(annots).ok()?;
    annots.as_array().ok().cloned()
}

/// The kind of the annotation `entry` (an /Annots entry: a reference or a dictionary) and
/// its fate. Anything that is not a dictionary stays as it is.
pub fn judge(doc: &Document, entry: &Object, what: Flatten) -> (Kind, Fate) {
    let Some(annot) = doc
        .dereference(entry)
        .ok()
        .and_then(|(_, annot)| annot.as_dict().ok())
    else {
        return (Kind::Ephemeral, Fate::Keep);
    };
    let kind = match name(doc, annot, b"Subtype") {
        Some(b"Widget") => Kind::Widget,
        Some(b"Link" | b"Popup") => Kind::Ephemeral,
        _ => Kind::Other,
    };
    let chosen = match kind {
        Kind::Widget => what.fields,
        Kind::Other | Kind::Ephemeral => what.annotations,
    };
    let fate = if !chosen {
        Fate::Keep
    } else if kind == Kind::Ephemeral || invisible(doc, annot) {
        Fate::Remove
    } else {
        appearance::drawing(doc, annot).map_or(Fate::Remove, Fate::Draw)
    };
    (kind, fate)
}

/// A name entry of `dict`, resolved.
pub fn name<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    let value = dict.get(key).ok()?;
    doc.dereference(value).ok()?.1.as_name().ok()
}

fn invisible(doc: &Document, annot: &Dictionary) -> bool {
    annot
        .get(b"F")
        .ok()
        .and_then(|flags| doc.dereference(flags).ok())
        .and_then(|(_, flags)| flags.as_i64().ok())
        .is_some_and(|flags| flags & INVISIBLE != 0)
}
