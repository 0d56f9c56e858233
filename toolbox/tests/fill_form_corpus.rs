//! Every real-world PDF of the corpora listed, and every one with fields filled (a value in
//! each writable text field, the first option of each choice field, each checkbox checked),
//! then again flattened: no panic, only InvalidFile or Encrypted refused, qpdf --check passes
//! on every output, pikepdf reads the text values back, and the flattened file has no field.
#![allow(clippy::unwrap_used)]

mod corpus_files;
mod filling;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use quire_toolbox::ToolError;
use quire_toolbox::fill_form::{Field, FieldKind, Fill, fill_form, list_fields};

/// A value for each field the test fills, and the text values expected back.
/// Field names with values.
type Pairs = Vec<(String, String)>;

fn values(fields: &[Field]) -> (Pairs, Pairs) {
    let mut values = Vec::new();
    let mut texts = Vec::new();
    for (i, field) in fields.iter().enumerate() {
        if field.read_only {
            continue;
        }
        let value = match field.kind {
            FieldKind::Text => {
                let mut value = format!("Quire {i}");
                if let Some(max) = field.max_len {
                    value = value.chars().take(max as usize).collect();
                }
                texts.push((field.name.clone(), value.clone()));
                value
            }
            FieldKind::Checkbox => "true".into(),
            FieldKind::ComboBox | FieldKind::ListBox => match field.options.first() {
                Some(option) => option.export.clone(),
                None => continue,
            },
            _ => continue,
        };
        values.push((field.name.clone(), value));
    }
    (values, texts)
}

#[test]
fn the_corpus_lists_and_fills() {
    let files: Vec<PathBuf> = corpus_files::corpus().into_values().collect();
    if files.is_empty() {
        eprintln!("note: no corpus: run scripts/setup.sh");
        return;
    }
    let qpdf = filling::qpdf();
    let python = filling::python();
    let dir = tempfile::tempdir().unwrap();
    let (mut forms, mut filled) = (0, 0);
    let mut failures = Vec::new();
    for pdf in &files {
        let name = pdf.file_name().unwrap().to_string_lossy().into_owned();
        let listed = catch_unwind(AssertUnwindSafe(|| list_fields(pdf)));
        let fields = match listed {
            Err(_) => {
                failures.push(format!("{name}: list_fields panicked"));
                continue;
            }
            Ok(Err(ToolError::InvalidFile(_) | ToolError::Encrypted)) => continue,
            Ok(Err(ToolError::BadOptions(m))) if m.contains("XFA") => continue,
            Ok(Err(other)) => {
                failures.push(format!("{name}: list_fields: {other}"));
                continue;
            }
            Ok(Ok(fields)) => fields,
        };
        if fields.is_empty() {
            continue;
        }
        forms += 1;
        let (values, texts) = values(&fields);
        for flatten in [false, true] {
            let out = dir.path().join(format!("{name}-{flatten}.pdf"));
            let request = Fill {
                values: values.clone(),
                flatten,
                font: filling::dejavu().map(Into::into),
            };
            let result = catch_unwind(AssertUnwindSafe(|| fill_form(pdf, &request, &out)));
            match result {
                Err(_) => {
                    failures.push(format!("{name}: fill_form panicked (flatten {flatten})"));
                    continue;
                }
                Ok(Err(error)) => {
                    failures.push(format!("{name}: fill_form (flatten {flatten}): {error}"));
                    continue;
                }
                Ok(Ok(_)) => {}
            }
            filled += 1;
            if qpdf && let Err(report) = filling::qpdf_check(&out) {
                failures.push(format!(
                    "{name}: qpdf --check (flatten {flatten}): {report}"
                ));
            }
            let Some(python) = &python else { continue };
            let read = filling::pikepdf_fields(python, &out);
            if flatten {
                if !read.fields.is_empty() {
                    failures.push(format!("{name}: fields left after flattening"));
                }
                continue;
            }
            for (field, value) in &texts {
                let back = read.fields.get(field).map(|(v, _)| v.as_str());
                if back != Some(value.as_str()) {
                    failures.push(format!(
                        "{name}: {field} reads back {back:?}, not {value:?}"
                    ));
                }
            }
        }
    }
    eprintln!("{} files, {forms} forms, {filled} outputs", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(forms >= 5, "only {forms} forms in the corpus");
}
