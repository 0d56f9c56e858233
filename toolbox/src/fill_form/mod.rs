//! Form filling: the AcroForm fields listed, filled with appearances regenerated, optionally
//! flattened.
//!
//! Filling sets each field's /V (and a button's widgets' /AS), then writes a new normal
//! appearance for every widget of each filled field the way viewers draw variable text (ISO
//! 32000-1 §12.7.3.3), so that the file shows its values in any reader without
//! /NeedAppearances, which is removed. When the input asked for /NeedAppearances its other
//! fields' appearances may be stale or missing: they are regenerated too. A hybrid form's /XFA
//! goes (viewers that read it would show its stale data). The flatten tool draws the same way
//! before it burns a form in (`draw_for_flattening`).

mod apply;
mod buttons;
mod choices;
mod da;
mod draw;
mod face;
mod layout;
mod listing;
mod regenerate;
mod tree;
mod values;
mod widget;

use std::path::{Path, PathBuf};

use lopdf::{Document, Object};

use crate::flatten::Flatten;
use crate::{ToolError, forms, io, pages};

pub(crate) use regenerate::Drawn;
use regenerate::Redraw;

/// What kind of field, as the web page builds its input for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    Checkbox,
    Radio,
    ComboBox,
    ListBox,
    PushButton,
    Signature,
}

/// A terminal field of the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Fully qualified ("parent.kid"), as PDF viewers show it; what [`Fill::values`] names.
    pub name: String,
    pub kind: FieldKind,
    /// The current value(s): a text field's text; a checkbox's or radio group's on-state name
    /// or "Off"; a choice field's selected export value(s).
    pub value: Vec<String>,
    /// Choice fields: every option (export value and the text shown). Checkboxes and radio
    /// groups: every on-state name (`export`) with its /Opt text when the field has one
    /// (`label`, else the state name again).
    pub options: Vec<FieldOption>,
    pub read_only: bool,
    pub required: bool,
    pub multiline: bool,
    pub multi_select: bool,
    pub max_len: Option<u32>,
    /// The field's /TU, the text viewers show as its tooltip.
    pub tooltip: Option<String>,
    /// 1-based page of its first widget that is on a page.
    pub page: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldOption {
    pub export: String,
    pub label: String,
}

/// Every terminal field (one per fully qualified name: two field objects with the same name
/// are one field to viewers), in the /Fields tree order. A PDF without a form gives an empty
/// list; an XFA-only form (no AcroForm field, /XFA present) is BadOptions.
pub fn list_fields(input: &Path) -> Result<Vec<Field>, ToolError> {
    let doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let terminals = tree::terminals(&doc);
    refuse_xfa_only(&doc, terminals.is_empty())?;
    Ok(listing::fields(&doc, &tree, &terminals))
}

/// What to fill in.
#[derive(Debug, Clone, Default)]
pub struct Fill {
    /// Fully qualified field name -> value, applied in order (a name given twice: the last
    /// wins). Text: the text, lines separated by "\n" (multiline fields only). Checkbox:
    /// "true"/"yes"/"on" or an on-state name to check, "false"/"no"/"off"/"" to clear. Radio:
    /// an on-state name or its /Opt text, "Off" or "" for none. Combo box and list box: an
    /// export value or its text; a multi-select list box takes several joined by "\n"; "" for
    /// no selection; a combo box with the Edit flag also takes any text.
    pub values: Vec<(String, String)>,
    /// Burn the filled form into the pages: no field is left.
    pub flatten: bool,
    /// A TrueType font (DejaVu Sans) for text the form's font and WinAnsi cannot show.
    pub font: Option<PathBuf>,
}

/// What filling did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filled {
    pub pages: u32,
    /// Fields whose value was set.
    pub filled: u32,
    pub flattened: bool,
    /// What the user should know: a fallback font used, XFA data removed, signatures broken.
    pub notes: Vec<String>,
}

/// Fills `input`'s fields with `fill.values` and writes the result to `output`.
///
/// Errors (BadOptions, nothing written): a name that is no field, a read-only field, a push
/// button or signature field, a choice field value that is not one of its options (unless an
/// editable combo box), a text longer than the field's /MaxLen, line breaks in a one-line
/// field, characters neither the form's font, WinAnsi nor `fill.font` can draw.
pub fn fill_form(input: &Path, fill: &Fill, output: &Path) -> Result<Filled, ToolError> {
    let mut doc = io::open(input)?;
    let tree = pages::walk(&doc)?;
    let terminals = tree::terminals(&doc);
    refuse_xfa_only(&doc, terminals.is_empty())?;
    let changes = values::parse(&doc, &terminals, &fill.values)?;
    let mut notes = Vec::new();
    for change in &changes {
        apply::apply(&mut doc, &terminals, change);
    }
    // The walk again, so that the fields' inherited entries hold the new values (the tree is
    // the same: the changes' indexes still point at the same fields).
    let terminals = tree::terminals(&doc);
    let redraw = if forms::acroform(&doc).is_some_and(|form| needs_appearances(&doc, form)) {
        Redraw::All
    } else if fill.flatten {
        // As the flatten tool draws them: a value no appearance shows would be lost.
        Redraw::Unshown
    } else {
        Redraw::Missing
    };
    let drawn = regenerate::appearances(
        &mut doc,
        &terminals,
        &changes,
        redraw,
        fill.font.as_deref(),
        &mut notes,
    )?;
    tidy_form(&mut doc, drawn.complete, &mut notes);
    if terminals
        .iter()
        .any(|field| field.kind == FieldKind::Signature && field.inherited.has(b"V"))
    {
        notes
            .push("the form was signed: the signatures no longer cover the filled document".into());
    }
    let pages = if fill.flatten {
        let what = Flatten {
            fields: true,
            annotations: false,
        };
        // The appearances were just drawn: burnt in as they are.
        crate::flatten::burn_in(&mut doc, what)?.0
    } else {
        crate::count(tree.pages.len())
    };
    io::save(&mut doc, output)?;
    Ok(Filled {
        pages,
        filled: count_named(&changes),
        flattened: fill.flatten,
        notes,
    })
}

/// Draws, before a form is flattened, the appearances viewers would draw themselves: every
/// field's when the form asks for /NeedAppearances, else those of fields with a widget that
/// has no normal appearance or whose appearance does not show the field's text. With the
/// standard fonts only: a field whose text neither its own font nor WinAnsi can show keeps the
/// appearance it had (counted in [`Drawn::skipped`]).
pub(crate) fn draw_for_flattening(doc: &mut Document) -> Result<Drawn, ToolError> {
    let terminals = tree::terminals(doc);
    let redraw = if forms::acroform(doc).is_some_and(|form| needs_appearances(doc, form)) {
        Redraw::All
    } else {
        Redraw::Unshown
    };
    let mut notes = Vec::new();
    let drawn = regenerate::appearances(doc, &terminals, &[], redraw, None, &mut notes)?;
    if !notes.is_empty() {
        tracing::debug!(?notes, ?redraw, "appearances drawn before flattening");
    }
    Ok(drawn)
}

/// Fields filled, by name (field objects sharing a name are one field).
fn count_named(changes: &[values::Change]) -> u32 {
    let fields: std::collections::BTreeSet<usize> = changes.iter().map(|c| c.field).collect();
    crate::count(fields.len())
}

fn refuse_xfa_only(doc: &Document, no_fields: bool) -> Result<(), ToolError> {
    if no_fields && forms::acroform(doc).is_some_and(|form| form.has(b"XFA")) {
        return Err(ToolError::BadOptions(
            "this is an XFA form (made with Adobe LiveCycle Designer): its fields are not \
             AcroForm fields and cannot be filled here; fill it in Adobe Acrobat or Reader"
                .into(),
        ));
    }
    Ok(())
}

fn needs_appearances(doc: &Document, form: &lopdf::Dictionary) -> bool {
    form.get(b"NeedAppearances")
        .ok()
        .and_then(|flag| doc.dereference(flag).ok())
        .is_some_and(|(_, flag)| matches!(flag, Object::Boolean(true)))
}

/// The form once filled: /NeedAppearances removed when every appearance it asked for was
/// written (else kept, so that viewers still redraw what could not be drawn here), /XFA
/// removed, and the catalog's /NeedsRendering with it.
fn tidy_form(doc: &mut Document, complete: bool, notes: &mut Vec<String>) {
    let place = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"AcroForm").ok())
        .and_then(|form| form.as_reference().ok());
    let form = match place {
        Some(id) => doc.get_dictionary_mut(id).ok(),
        None => doc
            .catalog_mut()
            .ok()
            .and_then(|catalog| catalog.get_mut(b"AcroForm").ok())
            .and_then(|form| form.as_dict_mut().ok()),
    };
    let Some(form) = form else { return };
    if complete {
        form.remove(b"NeedAppearances");
    }
    if form.remove(b"XFA").is_some() {
        notes.push(
            "the form also carried XFA data, which would show the old values in some viewers: \
             it was removed"
                .into(),
        );
    }
    if let Ok(catalog) = doc.catalog_mut() {
        catalog.remove(b"NeedsRendering");
    }
}
