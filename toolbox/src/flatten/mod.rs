//! Flattening: annotations' normal appearances burnt into the page content, and the
//! annotations (and, for widgets, their form fields) removed.
//!
//! Each appearance stream is drawn with `Do` under a fresh XObject name, placed as ISO 32000-1
//! §12.5.5 places it (its /BBox transformed by its /Matrix, fitted onto the annotation's
//! /Rect), after the page's own content, which is wrapped in `q ... Q` first so that a
//! graphics state it leaves behind cannot move the appearances. Page content streams are
//! never decoded.
//!
//! Before that, form fields get the appearances a viewer would draw for them (the fill-form
//! tool's drawing): a form with /NeedAppearances shows its values in every viewer, and
//! burning in its stale or missing appearances would lose them.

mod annots;
pub(crate) mod appearance;
mod fields;
pub(crate) mod page;

/// The redaction removes widgets too, and their fields with them.
pub(crate) use fields::remove as remove_fields;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use lopdf::{Document, Object, ObjectId};

use crate::pages::{self, PageRef};
use crate::{ToolError, Written, fill_form, forms, io};

use annots::{Fate, Kind};

/// What to flatten.
#[derive(Debug, Clone, Copy)]
pub struct Flatten {
    /// Form field widgets.
    pub fields: bool,
    /// Every other annotation with an appearance (stamps, ink, highlights, free text, ...);
    /// links and popups are never drawn, they are only removed when this is on.
    pub annotations: bool,
}

/// What was burnt in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flattened {
    /// Widgets whose appearance was drawn.
    pub widgets: u32,
    /// Other annotations whose appearance was drawn.
    pub annotations: u32,
    /// Widgets and annotations removed with nothing drawn: no normal appearance (none, an
    /// /AS naming no state, not a form with a /BBox, an empty /Rect) or hidden (the Hidden or
    /// NoView flag). Links and popups are not counted.
    pub removed_without_appearance: u32,
    /// Form fields whose appearances were drawn from their values first, as viewers draw
    /// them: every field of a form with /NeedAppearances, else the fields with a widget that
    /// has no appearance or whose appearance does not show the field's text.
    pub regenerated: u32,
    /// Fields that needed that but whose text no font here can show: burnt in with the
    /// appearance they had (or removed, when they had none).
    pub stale_kept: u32,
}

/// Burns the chosen annotations' normal appearances into the page content and removes them.
///
/// For each annotation on each page (an annotation listed twice is handled once) that is not
/// Hidden or NoView and has an /AP /N appearance (for an appearance dictionary of states, the
/// one named by /AS), the appearance is drawn where a viewer draws it (ISO 32000-1 §12.5.5)
/// and the annotation removed from /Annots; one that is hidden or has no appearance is removed
/// and counted in [`Flattened::removed_without_appearance`]. The page's /Rotate is not applied:
/// appearances live in default user space. An annotation with an /OC is drawn as marked
/// content of the same optional content group.
///
/// Widgets: a widget without resources of its own gets the form's /DR (as viewers do for
/// variable text); the widgets' fields are removed from the AcroForm (/Fields, parents' /Kids,
/// /CO), a parent whose kids are all gone with them, and /AcroForm is dropped when no field is
/// left (with it /NeedAppearances and /XFA; /XFA also goes when fields are left). Before
/// anything is drawn, the fields' appearances are regenerated as viewers regenerate them (see
/// [`Flattened::regenerated`]): so the values a reader saw stay on the page.
pub fn flatten(
    input: &Path,
    what: Flatten,
    output: &Path,
) -> Result<(Written, Flattened), ToolError> {
    let mut doc = io::open(input)?;
    let (pages, counts) = flatten_document(&mut doc, what)?;
    io::save(&mut doc, output)?;
    Ok((Written { pages }, counts))
}

/// [`flatten`] on a document in memory (PDF/A conversion flattens forms): the page count and
/// what was burnt in.
pub(crate) fn flatten_document(
    doc: &mut Document,
    what: Flatten,
) -> Result<(u32, Flattened), ToolError> {
    let drawn = if what.fields {
        match fill_form::draw_for_flattening(doc) {
            Ok(drawn) => Some(drawn),
            Err(error) => {
                // Flattening does without: the appearances are burnt in as they were.
                tracing::warn!(%error, "cannot draw the form's appearances before flattening");
                None
            }
        }
    } else {
        None
    };
    let (pages, mut counts) = burn_in(doc, what)?;
    if let Some(drawn) = drawn {
        counts.regenerated = drawn.fields;
        counts.stale_kept = drawn.skipped;
    }
    Ok((pages, counts))
}

/// The appearances burnt in as they are (the fill-form tool flattens what it just drew): the
/// page count and what was burnt in.
pub(crate) fn burn_in(doc: &mut Document, what: Flatten) -> Result<(u32, Flattened), ToolError> {
    let tree = pages::walk(doc)?;
    let form_resources = forms::acroform(doc)
        .and_then(|form| form.get(b"DR").ok())
        .cloned();
    let mut run = Run {
        what,
        form_resources,
        counts: Flattened::default(),
        handled: HashMap::new(),
        removed_widgets: HashSet::new(),
        painter: page::Painter::new(),
    };
    for page in &tree.pages {
        run.page(doc, page)?;
    }
    if !run.removed_widgets.is_empty() {
        fields::remove(doc, &run.removed_widgets);
    }
    tracing::debug!(counts = ?run.counts, "flattened");
    Ok((crate::count(tree.pages.len()), run.counts))
}

struct Run {
    what: Flatten,
    form_resources: Option<Object>,
    counts: Flattened,
    /// Annotation objects already seen, and whether they were removed.
    handled: HashMap<ObjectId, bool>,
    removed_widgets: HashSet<ObjectId>,
    painter: page::Painter,
}

impl Run {
    fn page(&mut self, doc: &mut Document, page: &PageRef) -> Result<(), ToolError> {
        let Some(entries) = annots::list(doc, page.id) else {
            return Ok(());
        };
        let mut kept = Vec::with_capacity(entries.len());
        let mut drawings = Vec::new();
        let mut changed = false;
        for entry in entries {
            let id = entry.as_reference().ok();
            if let Some(removed) = id.and_then(|id| self.handled.get(&id)) {
                // Listed twice: as the first time, and drawn once.
                if *removed {
                    changed = true;
                } else {
                    kept.push(entry);
                }
                continue;
            }
            let (kind, fate) = annots::judge(doc, &entry, self.what);
            let removed = !matches!(fate, Fate::Keep);
            if let Some(id) = id {
                self.handled.insert(id, removed);
                if removed && kind == Kind::Widget {
                    self.removed_widgets.insert(id);
                }
            }
            let counter = match kind {
                Kind::Widget => Some(&mut self.counts.widgets),
                Kind::Other => Some(&mut self.counts.annotations),
                Kind::Ephemeral => None,
            };
            match fate {
                Fate::Keep => kept.push(entry),
                Fate::Remove => {
                    changed = true;
                    if counter.is_some() {
                        self.counts.removed_without_appearance += 1;
                    }
                }
                Fate::Draw(drawing) => {
                    changed = true;
                    if let Some(counter) = counter {
                        *counter += 1;
                    }
                    let lent = self
                        .form_resources
                        .as_ref()
                        .filter(|_| kind == Kind::Widget);
                    appearance::prepare(doc, drawing.stream, lent);
                    drawings.push(drawing);
                }
            }
        }
        if changed {
            let dict = doc
                .get_dictionary_mut(page.id)
                .map_err(|_| ToolError::InvalidFile("a page is not a dictionary".into()))?;
            if kept.is_empty() {
                dict.remove(b"Annots");
            } else {
                dict.set("Annots", Object::Array(kept));
            }
        }
        if !drawings.is_empty() {
            self.painter.draw(doc, page, &drawings);
        }
        Ok(())
    }
}

#[cfg(test)]
mod regenerate_tests;
