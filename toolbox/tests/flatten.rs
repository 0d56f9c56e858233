//! Flattening the fixture of tests/flattening: what is drawn, what is removed, what poppler
//! reads and renders afterwards.
#![allow(clippy::unwrap_used)]

mod flattening;

use std::path::{Path, PathBuf};

use lopdf::Document;
use quire_toolbox::ToolError;
use quire_toolbox::flatten::{Flatten, Flattened, flatten};

use flattening::{difference, fixture, page_text, poppler, render};

const BOTH: Flatten = Flatten {
    fields: true,
    annotations: true,
};

fn run(input: &Path, what: Flatten) -> (PathBuf, Flattened) {
    let output = input.with_file_name(format!("out-{}-{}.pdf", what.fields, what.annotations));
    let (written, counts) = flatten(input, what, &output).unwrap();
    assert_eq!(written.pages, 2);
    (output, counts)
}

/// Each page's annotations: their /Subtype, in order.
fn subtypes(doc: &Document) -> Vec<Vec<String>> {
    doc.get_pages()
        .into_values()
        .map(|page| {
            let page = doc.get_dictionary(page).unwrap();
            let Ok(annots) = page.get(b"Annots") else {
                return Vec::new();
            };
            let annots = doc.dereference(annots).unwrap().1.as_array().unwrap();
            annots
                .iter()
                .map(|annot| {
                    let annot = doc.dereference(annot).unwrap().1.as_dict().unwrap();
                    let subtype = annot.get(b"Subtype").unwrap().as_name().unwrap();
                    String::from_utf8_lossy(subtype).into_owned()
                })
                .collect()
        })
        .collect()
}

fn acroform(doc: &Document) -> Option<lopdf::Dictionary> {
    let form = doc.catalog().unwrap().get(b"AcroForm").ok()?;
    Some(doc.dereference(form).unwrap().1.as_dict().unwrap().clone())
}

fn field_count(doc: &Document) -> usize {
    let form = acroform(doc).unwrap();
    let fields = form.get(b"Fields").unwrap();
    doc.dereference(fields).unwrap().1.as_array().unwrap().len()
}

#[test]
fn everything_flattened_is_drawn_where_viewers_draw_it() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture::sample(dir.path(), false);
    let (output, counts) = run(&input, BOTH);
    assert_eq!(
        counts,
        Flattened {
            widgets: 3,
            annotations: 3,
            removed_without_appearance: 3,
            ..Flattened::default()
        }
    );
    let doc = Document::load(&output).unwrap();
    assert_eq!(subtypes(&doc), [Vec::<String>::new(), Vec::new()]);
    assert!(acroform(&doc).is_none(), "the form is still there");
    if !poppler("everything_flattened_is_drawn_where_viewers_draw_it") {
        return;
    }
    for (page, wanted) in [
        (1, ["Flatten test", "Jane Doe"]),
        (2, ["Second page", "Free text note"]),
    ] {
        let before = page_text(&input, page).unwrap();
        let after = page_text(&output, page).unwrap();
        for wanted in wanted {
            assert!(
                before.contains(wanted),
                "the input's page {page} lacks {wanted}: {before}"
            );
            assert!(
                after.contains(wanted),
                "page {page} lacks {wanted}: {after}"
            );
        }
        let (before, after) = (
            render(&input, page, dir.path()),
            render(&output, page, dir.path()),
        );
        let diff = difference(&before, &after);
        assert!(
            diff < 2.0,
            "page {page} renders {diff:.2}/255 apart from the input"
        );
    }
    // The turned widget's text needs the form's /DR, which its appearance now carries.
    let text = page_text(&output, 1).unwrap();
    assert!(text.contains("Rotated"), "page 1 lacks Rotated: {text}");
}

#[test]
fn fields_alone_leave_the_other_annotations() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture::sample(dir.path(), false);
    let what = Flatten {
        fields: true,
        annotations: false,
    };
    let (output, counts) = run(&input, what);
    assert_eq!(
        counts,
        Flattened {
            widgets: 3,
            annotations: 0,
            removed_without_appearance: 1,
            ..Flattened::default()
        }
    );
    let doc = Document::load(&output).unwrap();
    assert_eq!(
        subtypes(&doc),
        [
            vec!["Stamp", "Popup", "Link", "Square", "Caret"],
            vec!["FreeText", "FreeText", "Square"],
        ]
    );
    assert!(acroform(&doc).is_none(), "the form is still there");
    if poppler("fields_alone_leave_the_other_annotations") {
        let diff = difference(
            &render(&input, 1, dir.path()),
            &render(&output, 1, dir.path()),
        );
        assert!(
            diff < 2.0,
            "page 1 renders {diff:.2}/255 apart from the input"
        );
    }
}

#[test]
fn annotations_alone_leave_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture::sample(dir.path(), false);
    let what = Flatten {
        fields: false,
        annotations: true,
    };
    let (output, counts) = run(&input, what);
    assert_eq!(
        counts,
        Flattened {
            widgets: 0,
            annotations: 3,
            removed_without_appearance: 2,
            ..Flattened::default()
        }
    );
    let doc = Document::load(&output).unwrap();
    assert_eq!(
        subtypes(&doc),
        [vec!["Widget", "Widget", "Widget"], vec!["Widget"]]
    );
    assert_eq!(field_count(&doc), 4);
    if poppler("annotations_alone_leave_the_form") {
        let diff = difference(
            &render(&input, 2, dir.path()),
            &render(&output, 2, dir.path()),
        );
        assert!(
            diff < 2.0,
            "page 2 renders {diff:.2}/255 apart from the input"
        );
    }
}

#[test]
fn nothing_chosen_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture::sample(dir.path(), false);
    let what = Flatten {
        fields: false,
        annotations: false,
    };
    let (output, counts) = run(&input, what);
    assert_eq!(counts, Flattened::default());
    let doc = Document::load(&output).unwrap();
    assert_eq!(subtypes(&doc), subtypes(&Document::load(&input).unwrap()));
    assert_eq!(field_count(&doc), 4);
}

/// /NeedAppearances says the appearances may be stale: the text fields' are drawn again from
/// their values (name, note and the hidden secret), the check box keeps its /AS state's.
#[test]
fn stale_appearances_are_drawn_again() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture::sample(dir.path(), true);
    let (output, counts) = run(&input, BOTH);
    assert_eq!((counts.widgets, counts.regenerated), (3, 3));
    let doc = Document::load(&output).unwrap();
    assert!(acroform(&doc).is_none(), "the form is still there");
    if poppler("stale_appearances_are_drawn_again") {
        let text = page_text(&output, 1).unwrap();
        assert!(text.contains("Jane Doe"), "page 1 lacks the name: {text}");
    }
}

/// Page 1 inherited its resources and page 2 shares its own: each page gets a copy of its
/// own, with its appearances only added under fresh names.
#[test]
fn resources_are_copied_down_not_changed_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture::sample(dir.path(), false);
    let (output, _) = run(&input, BOTH);
    let doc = Document::load(&output).unwrap();
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    for (page, forms) in pages.iter().zip([4, 2]) {
        let page = doc.get_dictionary(*page).unwrap();
        let resources = page.get(b"Resources").unwrap().as_dict().unwrap();
        assert!(
            resources
                .get(b"Font")
                .unwrap()
                .as_dict()
                .unwrap()
                .has(b"F1")
        );
        let xobjects = resources.get(b"XObject").unwrap().as_dict().unwrap();
        assert_eq!(xobjects.len(), forms);
        let contents = page.get(b"Contents").unwrap().as_array().unwrap();
        assert_eq!(
            contents.len(),
            4,
            "q, the page's content, Q, the appearances"
        );
    }
}

#[test]
fn not_a_pdf_is_an_invalid_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("not.pdf");
    std::fs::write(&input, b"hello").unwrap();
    let result = flatten(&input, BOTH, &dir.path().join("out.pdf"));
    assert!(
        matches!(result, Err(ToolError::InvalidFile(_))),
        "{result:?}"
    );
}
