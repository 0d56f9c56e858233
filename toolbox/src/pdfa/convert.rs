//! The conversion, step by step, and the check of what it wrote.

use std::path::{Path, PathBuf};

use lopdf::Document;

use super::changes::Changes;
use super::{
    Converted, Level, actions, annots, catalog, colour, dests, files, fonts, layers, opacity,
    page_dicts, prune, streams, transparency, validate, write, xmp,
};
use crate::fill_form::{Fill, fill_form};
use crate::sanitize::{Sanitize, sanitize};
use crate::{ToolError, io};

/// Converts `input` to `level` in `output`; see [`super::convert`].
pub fn convert(input: &Path, level: Level, output: &Path) -> Result<Converted, ToolError> {
    let result = run(input, level, output);
    // QUIRE_PDFA_KEEP_REFUSED keeps a refused output in place, to see what failed its check.
    if result.is_err() && std::env::var_os("QUIRE_PDFA_KEEP_REFUSED").is_none() {
        let _ = std::fs::remove_file(output);
    }
    result
}

fn run(input: &Path, level: Level, output: &Path) -> Result<Converted, ToolError> {
    let mut changes = Changes::default();
    let mut doc = io::open(input)?;
    if doc.was_encrypted() {
        changes.note("removed the password encryption (the file opened without a password)");
    }
    // Steps that other tools do on files: appearances made for form fields that have none
    // or that the form asks viewers to make (the fill-form tool's code, so that flattening
    // draws what a viewer shows), and what hidden layers draw removed (the sanitize tool's).
    let mut source = input.to_path_buf();
    let mut scratch = Vec::new();
    if stale_appearances(&doc) {
        let next = scratch_path(output, "form");
        let fill = Fill {
            values: Vec::new(),
            flatten: false,
            font: Some(PathBuf::from(DEJAVU)).filter(|p| p.exists()),
        };
        if fill_form(&source, &fill, &next).is_ok() {
            source = next.clone();
        }
        scratch.push(next);
    }
    if layers::present(&doc) {
        let next = scratch_path(output, "layers");
        let what = Sanitize {
            javascript: false,
            embedded_files: false,
            links: false,
            metadata: false,
            hidden_layers: true,
        };
        let done = sanitize(&source, what, &next);
        scratch.push(next.clone());
        if let Err(e) = done {
            scratch.iter().for_each(|f| drop(std::fs::remove_file(f)));
            return Err(e);
        }
        source = next;
    }
    if source != input {
        let reopened = io::open(&source);
        scratch.iter().for_each(|f| drop(std::fs::remove_file(f)));
        doc = reopened?;
    }
    let converted = prepare(&mut doc, level, &mut changes)?;
    write::save(&mut doc, level, output)?;
    let verdict = validate::validate(output, level)?;
    if !verdict.passed {
        let mut findings = verdict.findings;
        let more = findings.len().saturating_sub(10);
        findings.truncate(10);
        let mut message = format!(
            "this PDF could not be made {}: {}",
            level.label(),
            findings.join("; ")
        );
        if more > 0 {
            message.push_str(&format!(" (and {more} more)"));
        }
        return Err(ToolError::InvalidFile(message));
    }
    Ok(Converted {
        pages: converted.0,
        fonts_embedded: converted.1,
        changes: changes.into_sentences(),
        pictured: converted.2,
    })
}

/// What `prepare` made: pages, fonts embedded, pages whose transparency is drawn opaque.
type Prepared = (u32, Vec<(String, String)>, Vec<(u32, String)>);

/// Every change made to the document in memory.
fn prepare(doc: &mut Document, level: Level, changes: &mut Changes) -> Result<Prepared, ToolError> {
    // New objects are numbered after the highest one present, whatever the file claimed.
    doc.max_id = io::max_number(doc);
    actions::remove(doc, changes);
    files::apply(doc, level, changes)?;
    let annotations = annots::apply(doc, level, changes)?;
    // PDF/A-1 has no optional content; later parts allow it, but validators cannot check
    // it, and an archived copy keeps what the document shows by default.
    layers::remove(doc, changes);
    catalog::clean(doc, level, changes);
    dests::apply(doc, changes)?;
    let tree = page_dicts::clean(doc, level, changes)?;
    page_dicts::explicit_resources(doc);
    let mut pictured = Vec::new();
    if level.part1() {
        pictured = opacity::apply(doc, changes);
        for (page, why) in annotations {
            if let Some(index) = tree.pages.iter().position(|p| p.id == page) {
                pictured.push((crate::count(index + 1), why));
            }
        }
        pictured.sort_by_key(|(page, _)| *page);
        pictured.dedup_by_key(|(page, _)| *page);
        if !pictured.is_empty() {
            let told: Vec<String> = pictured
                .iter()
                .map(|(page, why)| format!("page {page}: {why}"))
                .collect();
            changes.note(format!(
                "drew opaque what PDF/A-1 cannot keep translucent in vectors ({}): what was \
                 under it may be hidden",
                told.join("; ")
            ));
        }
    }
    transparency::apply(doc, level, changes);
    streams::apply(doc, level, changes)?;
    streams::inline_images(doc, changes);
    let fonts = fonts::embed_missing(doc, level, changes)?;
    fonts::repair(doc, level, changes);
    prune::apply(doc);
    colour::apply(doc, level, changes)?;
    xmp::apply(doc, level, changes)?;
    Ok((crate::count(tree.pages.len()), fonts, pictured))
}

/// A file beside the output for the steps that work on files.
fn scratch_path(output: &Path, step: &str) -> PathBuf {
    let mut name = output
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(format!(".{step}.tmp"));
    output.with_file_name(name)
}

/// The font the fill-form code draws field text with when the form's font cannot show it.
const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/// Whether the form asks viewers to make its appearances, or a widget has none.
fn stale_appearances(doc: &Document) -> bool {
    let Some(form) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"AcroForm").ok())
        .and_then(|f| doc.dereference(f).ok())
        .and_then(|(_, f)| f.as_dict().ok())
    else {
        return false;
    };
    let asks = form
        .get(b"NeedAppearances")
        .ok()
        .and_then(|v| doc.dereference(v).ok())
        .is_some_and(|(_, v)| matches!(v, lopdf::Object::Boolean(true)));
    asks || doc.objects.values().any(|o| {
        o.as_dict().is_ok_and(|d| {
            d.get(b"Subtype").and_then(lopdf::Object::as_name).ok() == Some(b"Widget")
                && !d.has(b"AP")
        })
    })
}
