//! Every real-world PDF of the corpora flattened (fields and annotations): no panic, only
//! InvalidFile or Encrypted refused, the page count kept; where something was flattened the
//! first pages render as poppler rendered the input with its annotations; for a form the field
//! values poppler showed are still shown (unless poppler showed them from appearances it
//! regenerated, /NeedAppearances: then they are listed).
#![allow(clippy::unwrap_used)]

mod corpus_files;
mod flattening;

use std::collections::{BTreeMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use lopdf::{Document, Object, ObjectId};
use quire_toolbox::flatten::{Flatten, flatten};
use quire_toolbox::{ToolError, page_count};

use flattening::{difference, poppler, squeezed, text, try_render};

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object)
        .map(|(_, o)| o)
        .unwrap_or(&Object::Null)
}

/// The form's fields.
struct Form {
    /// The text values (/V strings, Latin-1 or UTF-16) of the fields that have a widget with a
    /// normal appearance: what a viewer shows without regenerating anything.
    values: Vec<String>,
    /// /NeedAppearances true: poppler shows regenerated appearances, not the file's.
    regenerated: bool,
}

/// The form of `pdf`, or `None` when it has none.
fn form(pdf: &Path) -> Option<Form> {
    let doc = Document::load(pdf).ok()?;
    let form = resolve(&doc, doc.catalog().ok()?.get(b"AcroForm").ok()?)
        .as_dict()
        .ok()?;
    let regenerated = form
        .get(b"NeedAppearances")
        .is_ok_and(|flag| resolve(&doc, flag).as_bool().unwrap_or(false));
    let mut values = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<(ObjectId, usize)> = Vec::new();
    if let Ok(fields) = resolve(&doc, form.get(b"Fields").ok()?).as_array() {
        stack.extend(
            fields
                .iter()
                .filter_map(|f| f.as_reference().ok())
                .map(|id| (id, 0)),
        );
    }
    while let Some((id, depth)) = stack.pop() {
        let Ok(field) = doc.get_dictionary(id) else {
            continue;
        };
        if !seen.insert(id) || depth > 32 {
            continue;
        }
        let kids: Vec<ObjectId> = field
            .get(b"Kids")
            .map(|kids| resolve(&doc, kids))
            .and_then(Object::as_array)
            .map(|kids| kids.iter().filter_map(|k| k.as_reference().ok()).collect())
            .unwrap_or_default();
        let appears = |id: &ObjectId| {
            doc.get_dictionary(*id)
                .ok()
                .and_then(|widget| widget.get(b"AP").ok())
                .and_then(|ap| resolve(&doc, ap).as_dict().ok())
                .is_some_and(|ap| ap.has(b"N"))
        };
        if let Ok(Object::String(value, _)) = field.get(b"V").map(|v| resolve(&doc, v))
            && (appears(&id) || kids.iter().any(appears))
        {
            values.push(decode(value));
        }
        stack.extend(kids.into_iter().map(|kid| (kid, depth + 1)));
    }
    Some(Form {
        values,
        regenerated,
    })
}

fn decode(bytes: &[u8]) -> String {
    match bytes.strip_prefix(&[0xFE, 0xFF]) {
        Some(utf16) => {
            let units = utf16
                .chunks_exact(2)
                .map(|p| u16::from_be_bytes([p[0], p[1]]));
            char::decode_utf16(units).filter_map(Result::ok).collect()
        }
        None => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// What happened to a file, or what went wrong.
fn run(input: &Path, work: &Path, poppler: bool) -> Result<String, String> {
    let refused = |err: ToolError| match err {
        ToolError::InvalidFile(_) => Ok("invalid".to_string()),
        ToolError::Encrypted => Ok("encrypted".to_string()),
        other => Err(format!("{other:?}")),
    };
    let n = match page_count(input) {
        Ok(n) => n,
        Err(err) => return refused(err),
    };
    let output = work.join("flat.pdf");
    let what = Flatten {
        fields: true,
        annotations: true,
    };
    let counts = match flatten(input, what, &output) {
        Ok((written, _)) if written.pages != n => {
            return Err(format!("{} pages written for {n}", written.pages));
        }
        Ok((_, counts)) => counts,
        Err(err) => return refused(err),
    };
    if page_count(&output).ok() != Some(n) {
        return Err("the page count changed".into());
    }
    let changed = counts.widgets + counts.annotations + counts.removed_without_appearance > 0;
    let form = form(input);
    if !poppler || !(changed || form.is_some()) {
        return Ok(if changed {
            "flattened"
        } else {
            "nothing to flatten"
        }
        .into());
    }
    for page in 1..=n.min(3) {
        let before = try_render(input, page, work);
        let after = try_render(&output, page, work);
        if let (Some(before), Some(after)) = (before, after) {
            let diff = difference(&before, &after);
            if diff >= 2.0 {
                return Err(format!("page {page} renders {diff:.2}/255 apart"));
            }
        }
    }
    let (Some(before), Some(after)) = (text(input), text(&output)) else {
        return Err("pdftotext cannot read the input or the output".into());
    };
    let after = squeezed(&after);
    // Every word poppler read in the input, appearances included, is read in the output;
    // with /NeedAppearances poppler reads its regenerated appearances, which are not drawn.
    let regenerated = form.as_ref().is_some_and(|form| form.regenerated);
    let lost: Vec<&str> = before
        .split_whitespace()
        .filter(|word| !after.contains(word))
        .collect();
    if !lost.is_empty() && !regenerated {
        return Err(format!("no longer shown: {lost:?}"));
    }
    let Some(form) = form else {
        return Ok("flattened, same text and look".into());
    };
    let before = squeezed(&before);
    let (kept, stale): (Vec<String>, Vec<String>) = form
        .values
        .iter()
        .map(|value| squeezed(value))
        .filter(|value| !value.is_empty() && before.contains(value))
        .partition(|value| after.contains(value));
    let mut outcome = format!(
        "form, {counts:?}, {} field values shown before and after",
        kept.len()
    );
    if !lost.is_empty() || !stale.is_empty() {
        outcome.push_str(&format!(
            "; gone, poppler showed them from appearances it regenerated: words {lost:?}, \
             field values {stale:?}"
        ));
    }
    Ok(outcome)
}

#[test]
fn every_corpus_file_flattened() {
    let files = corpus_files::corpus();
    if files.is_empty() {
        println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
        return;
    }
    let poppler = poppler("every_corpus_file_flattened");
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (name, path) in &files {
        let work = tempfile::tempdir().unwrap();
        match catch_unwind(AssertUnwindSafe(|| run(path, work.path(), poppler))) {
            Ok(Ok(outcome)) => {
                if outcome.starts_with("form") {
                    println!("{name}: {outcome}");
                    *outcomes.entry("form flattened".into()).or_default() += 1;
                } else {
                    *outcomes.entry(outcome).or_default() += 1;
                }
            }
            Ok(Err(failure)) => failures.push(format!("{name}: {failure}")),
            Err(_) => failures.push(format!("{name}: panicked")),
        }
    }
    println!(
        "corpus: {} files, {outcomes:?}, {} failed",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
