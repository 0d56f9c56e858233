//! Sanitize on a document holding everything it removes, option by option. Outputs are read
//! back with lopdf alone, and with qpdf's decoded (QDF) form where qpdf is installed.
#![allow(clippy::unwrap_used)]

mod hostile;

use std::path::Path;

use lopdf::{Document, Object, ObjectId};
use quire_toolbox::ToolError;
use quire_toolbox::sanitize::{Removed, Sanitize, sanitize};

use hostile::{
    EVERYTHING, FORBIDDEN, NOTHING, all_streams, contains, forbidden_in, forbidden_tokens, load,
    removed,
};

fn dict<'a>(doc: &'a Document, object: &'a Object) -> &'a lopdf::Dictionary {
    doc.dereference(object)
        .and_then(|(_, o)| o.as_dict())
        .unwrap_or_else(|e| panic!("not a dictionary: {e}"))
}

fn annots(doc: &Document, page: ObjectId) -> Vec<ObjectId> {
    let page = doc.get_dictionary(page).unwrap();
    page.get(b"Annots")
        .map(|a| doc.dereference(a).unwrap().1.as_array().unwrap().clone())
        .unwrap_or_default()
        .iter()
        .map(|a| a.as_reference().unwrap())
        .collect()
}

/// No forbidden name in the saved objects, nor as a token in qpdf's decoded form of the file.
fn assert_clean(path: &Path, names: &[&[u8]], work: &Path) {
    let doc = load(path);
    let left = forbidden_in(&doc, names);
    assert!(left.is_empty(), "{}: {left:?}", path.display());
    if names.len() == FORBIDDEN.len()
        && let Some(qpdf) = hostile::qpdf()
    {
        let qdf = hostile::qdf(qpdf, path, work).unwrap();
        let tokens = forbidden_tokens(&qdf);
        assert!(
            tokens.is_empty(),
            "{}: qpdf shows {tokens:?}",
            path.display()
        );
    }
}

#[test]
fn everything_removed_and_the_rest_kept() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = hostile::fixture(dir.path());
    let before = load(&fixture.path);
    assert!(!forbidden_in(&before, &FORBIDDEN).is_empty());
    let out = dir.path().join("clean.pdf");
    let (written, list) = sanitize(&fixture.path, EVERYTHING, &out).unwrap();
    assert_eq!(written.pages, 3);
    assert_eq!(
        list,
        removed(&[
            ("JavaScript actions", 8),
            ("embedded files", 2),
            ("external links and actions", 5),
            ("metadata", 3),
            ("hidden layers", 1),
        ])
    );
    assert_clean(&out, &FORBIDDEN, dir.path());

    let doc = load(&out);
    assert_eq!(doc.get_pages().len(), 3);
    let streams = all_streams(&doc);
    for gone in [
        "HIDDEN-SECRET",
        "FORM-SECRET",
        "HIDDEN-IMAGE-DATA",
        "LAYER-IMAGE-DATA",
        "ATTACHED-SECRET",
        "ANNOTATED-SECRET",
        hostile::XMP_TITLE,
        "xfa.host",
    ] {
        assert!(!contains(&streams, gone), "{gone} left");
    }
    for kept in [
        "VISIBLE-ONE",
        "LAYER-ON",
        "FORM-VISIBLE",
        "SHOWN-IMAGE-DATA",
        "PAGE-TWO",
        "PAGE-THREE",
    ] {
        assert!(contains(&streams, kept), "{kept} lost");
    }
    // The hidden section's graphics state stays balanced: q ... Q around it are kept.
    let page1 = lopdf::content::Content::decode(&doc.get_page_content(fixture.pages[0])).unwrap();
    let operators: Vec<&str> = page1
        .operations
        .iter()
        .map(|op| op.operator.as_str())
        .collect();
    let count = |operator: &str| operators.iter().filter(|o| **o == operator).count();
    assert_eq!((count("q"), count("Q")), (3, 3), "{operators:?}");
    assert_eq!((count("BT"), count("ET")), (3, 3), "{operators:?}");
    assert_eq!((count("BDC"), count("EMC")), (1, 1), "{operators:?}");
    assert_eq!(count("Do"), 2, "{operators:?}");

    // Internal links, the text field and the button stay, without their scripts and actions.
    let page1_annots = annots(&doc, fixture.pages[0]);
    assert_eq!(
        page1_annots,
        [fixture.internal_links.clone(), vec![fixture.widget]].concat()
    );
    assert_eq!(annots(&doc, fixture.pages[1]), [fixture.button]);
    let widget = doc.get_dictionary(fixture.widget).unwrap();
    assert!(!widget.has(b"AA"));
    let button = doc.get_dictionary(fixture.button).unwrap();
    assert!(!button.has(b"A") && button.has(b"T"));
    let page1 = doc.get_dictionary(fixture.pages[0]).unwrap();
    assert!(!page1.has(b"AA") && !page1.has(b"PieceInfo") && !page1.has(b"LastModified"));

    let catalog = doc.catalog().unwrap();
    for key in [
        "OpenAction",
        "AA",
        "NeedsRendering",
        "URI",
        "AF",
        "Metadata",
    ] {
        assert!(!catalog.has(key.as_bytes()), "catalog /{key} left");
    }
    assert!(doc.trailer.get(b"Info").is_err());
    let form = dict(&doc, catalog.get(b"AcroForm").unwrap());
    assert!(!form.has(b"XFA"));
    assert_eq!(form.get(b"Fields").unwrap().as_array().unwrap().len(), 2);
    let layers = dict(&doc, catalog.get(b"OCProperties").unwrap());
    assert_eq!(
        layers.get(b"OCGs").unwrap(),
        &Object::Array(vec![fixture.shown_group.into()])
    );
    let config = dict(&doc, layers.get(b"D").unwrap());
    assert_eq!(config.get(b"OFF").unwrap(), &Object::Array(vec![]));
    // The outline keeps both items; the web one without its action.
    let outlines = dict(&doc, catalog.get(b"Outlines").unwrap());
    let first = dict(&doc, outlines.get(b"First").unwrap());
    assert!(!first.has(b"A") && first.has(b"Next"));
    let second = dict(&doc, first.get(b"Next").unwrap());
    assert!(second.has(b"Dest"));
    // The structure tree lost its reference to the removed link, not its element.
    let tree = dict(&doc, catalog.get(b"StructTreeRoot").unwrap());
    let kids = tree.get(b"K").unwrap().as_array().unwrap();
    let link = dict(&doc, &kids[0]);
    assert_eq!(link.get(b"K").unwrap(), &Object::Array(vec![]));

    // A second pass finds nothing left.
    let again = dir.path().join("again.pdf");
    let (_, list) = sanitize(&out, EVERYTHING, &again).unwrap();
    assert_eq!(list, []);
}

type Names<'a> = &'a [&'a [u8]];

#[test]
fn each_option_removes_only_its_kind() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = hostile::fixture(dir.path());
    let scripts: Names = &[b"JavaScript", b"JS"];
    let files: Names = &[b"EmbeddedFile", b"EmbeddedFiles"];
    let web: Names = &[b"URI", b"Launch"];
    // Each case: the options, what they remove, names that must be gone, sets of names of
    // which some must be left.
    let cases: [(Sanitize, Vec<Removed>, Names, Vec<Names>); 6] = [
        (
            Sanitize {
                javascript: true,
                ..NOTHING
            },
            // The /Launch link goes as a script when links stay.
            removed(&[("JavaScript actions", 9)]),
            &[b"JavaScript", b"JS", b"Launch"],
            vec![files, &[b"URI"]],
        ),
        (
            Sanitize {
                embedded_files: true,
                ..NOTHING
            },
            removed(&[("embedded files", 2)]),
            files,
            vec![scripts, web],
        ),
        (
            Sanitize {
                links: true,
                ..NOTHING
            },
            removed(&[("external links and actions", 5)]),
            web,
            vec![scripts, files],
        ),
        (
            Sanitize {
                metadata: true,
                ..NOTHING
            },
            removed(&[("metadata", 3)]),
            &[b"Metadata", b"PieceInfo"],
            vec![scripts, files, web],
        ),
        (
            Sanitize {
                hidden_layers: true,
                ..NOTHING
            },
            removed(&[("hidden layers", 1)]),
            &[],
            vec![scripts, files, web],
        ),
        (NOTHING, removed(&[]), &[], vec![scripts, files, web]),
    ];
    for (i, (what, expected, gone, kept)) in cases.into_iter().enumerate() {
        let out = dir.path().join(format!("case{i}.pdf"));
        let (written, list) = sanitize(&fixture.path, what, &out).unwrap();
        assert_eq!(written.pages, 3, "{what:?}");
        assert_eq!(list, expected, "{what:?}");
        assert_clean(&out, gone, dir.path());
        let doc = load(&out);
        for names in kept {
            assert!(
                !forbidden_in(&doc, names).is_empty(),
                "{what:?} removed {names:?}"
            );
        }
        let streams = all_streams(&doc);
        assert_eq!(
            contains(&streams, "HIDDEN-SECRET"),
            !what.hidden_layers,
            "{what:?}"
        );
        assert_eq!(
            contains(&streams, "ATTACHED-SECRET"),
            !what.embedded_files,
            "{what:?}"
        );
        // Internal links are never removed.
        let page1 = annots(&doc, fixture.pages[0]);
        assert!(
            fixture.internal_links.iter().all(|l| page1.contains(l)),
            "{what:?}"
        );
    }
}

#[test]
fn an_unparsed_stream_is_kept_with_its_layer_off() {
    let dir = tempfile::tempdir().unwrap();
    let page3: &[u8] = b"/OC /oc1 BDC BT /F1 9 Tf (P3-SECRET) Tj ET EMC (unterminated";
    let fixture = hostile::fixture_with(dir.path(), "unparsed.pdf", Some(page3));
    let out = dir.path().join("out.pdf");
    let what = Sanitize {
        hidden_layers: true,
        ..NOTHING
    };
    let (_, list) = sanitize(&fixture.path, what, &out).unwrap();
    assert_eq!(
        list,
        removed(&[("hidden layers", 1), ("unparsed page streams kept", 1)])
    );
    let doc = load(&out);
    let streams = all_streams(&doc);
    assert!(!contains(&streams, "HIDDEN-SECRET"));
    assert!(contains(&streams, "P3-SECRET"));
    let catalog = doc.catalog().unwrap();
    let layers = dict(&doc, catalog.get(b"OCProperties").unwrap());
    let config = dict(&doc, layers.get(b"D").unwrap());
    assert_eq!(
        config.get(b"OFF").unwrap(),
        &Object::Array(vec![fixture.hidden_group.into()])
    );
}

#[test]
fn not_a_pdf_is_an_invalid_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("junk.pdf");
    std::fs::write(&input, b"%PDF-1.7\nnothing here").unwrap();
    let result = sanitize(&input, EVERYTHING, &dir.path().join("out.pdf"));
    assert!(
        matches!(result, Err(ToolError::InvalidFile(_))),
        "{result:?}"
    );
}
