//! Merging: page order, outline, links and named destinations across inputs, forms.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Variant, load, outline_of, sample};
use lopdf::Object;
use quire_toolbox::{ToolError, merge};

#[test]
fn pages_outline_links_and_names_follow_their_pages() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let b = sample(dir.path(), "B", Variant::default());
    let out = dir.path().join("out.pdf");
    let written = merge(&[&a, &b], &["first", "second"], &out).unwrap();
    assert_eq!(written.pages, 8);
    let doc = load(&out);
    assert_eq!(
        common::labels(&doc),
        ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    );

    assert_eq!(
        common::outline_entries(&doc),
        outline_of(&[
            (0, "first", Some(0)),
            (1, "Chapter 1", Some(0)),
            (2, "Section 1.1", Some(1)),
            (1, "Chapter 2", Some(2)),
            (2, "Section 2.1", Some(3)),
            (0, "second", Some(4)),
            (1, "Chapter 1", Some(4)),
            (2, "Section 1.1", Some(5)),
            (1, "Chapter 2", Some(6)),
            (2, "Section 2.1", Some(7)),
        ])
    );

    // Explicit, named-in-tree, named-in-dictionary and web links, per input.
    for (offset, _) in [(0, "A"), (4, "B")] {
        assert_eq!(common::links(&doc, offset), [Some(offset + 2)]);
        assert_eq!(common::links(&doc, offset + 1), [Some(offset + 3)]);
        assert_eq!(common::links(&doc, offset + 2), [Some(offset + 2)]);
        assert_eq!(common::links(&doc, offset + 3), [None]);
    }

    // The first input keeps its names; the second's clashing ones are renamed, and its
    // links use the new names.
    let names = common::named_dests(&doc);
    assert_eq!(names.len(), 6, "{:?}", names.keys().collect::<Vec<_>>());
    let page_of = |name: &[u8]| common::dest_page(&doc, &names[name]);
    assert_eq!(page_of(b"sec21"), Some(3));
    assert_eq!(page_of(b"intro"), Some(0));
    assert_eq!(page_of(b"chap2"), Some(2));
    assert_eq!(page_of(b"sec21-2"), Some(7));
    assert_eq!(page_of(b"intro-2"), Some(4));
    assert_eq!(page_of(b"chap2-2"), Some(6));
    let second_link = &common::annots(&doc, common::page_ids(&doc)[5])[0].1;
    assert_eq!(
        second_link.get(b"Dest").unwrap().as_str().unwrap(),
        b"sec21-2"
    );

    // Inherited attributes are on every page of the flat tree.
    let ids = common::page_ids(&doc);
    assert_eq!(common::rotations(&doc), [90; 8]);
    for (i, &id) in ids.iter().enumerate() {
        let resources = common::effective(&doc, id, b"Resources").unwrap();
        assert!(
            resources.as_dict().unwrap().has(b"Font"),
            "page {i} lost its font"
        );
        let media_box = common::effective(&doc, id, b"MediaBox").unwrap();
        let width = if i % 4 < 2 { 612 } else { 500 };
        assert_eq!(
            media_box.as_array().unwrap()[2].as_i64().unwrap(),
            width,
            "page {i}"
        );
    }

    assert_eq!(
        common::field_names(&doc),
        ["name", "choice", "name-2", "choice-2"]
    );
    let catalog = doc.catalog().unwrap();
    assert!(!catalog.has(b"PageLabels"));
    let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
    let title = doc.get_dictionary(info).unwrap().get(b"Title").unwrap();
    assert_eq!(title.as_str().unwrap(), b"Sample A");
    assert!(common::carries(&doc, b"IMAGE-A2") && common::carries(&doc, b"IMAGE-B2"));
}

#[test]
fn a_file_merged_with_itself_has_two_sets_of_pages() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(
        dir.path(),
        "A",
        Variant {
            indirect_rotate: true,
            ..Variant::default()
        },
    );
    let out = dir.path().join("out.pdf");
    merge(&[&a, &a, &a], &["x", "y", "z"], &out).unwrap();
    let doc = load(&out);
    assert_eq!(common::labels(&doc).len(), 12);
    assert_eq!(common::page_objects(&doc), 12);
    let ids = common::page_ids(&doc);
    assert_eq!(
        ids.iter().collect::<std::collections::HashSet<_>>().len(),
        12
    );
    assert_eq!(common::rotations(&doc), [90; 12]);
    // Each copy's link leads into its own copy.
    assert_eq!(common::links(&doc, 8), [Some(10)]);
    assert_eq!(common::links(&doc, 9), [Some(11)]);
    assert_eq!(
        common::field_names(&doc),
        ["name", "choice", "name-2", "choice-2", "name-3", "choice-3"]
    );
}

#[test]
fn cyclic_outline_and_page_tree_merge_without_looping() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(
        dir.path(),
        "A",
        Variant {
            cycles: true,
            ..Variant::default()
        },
    );
    let out = dir.path().join("out.pdf");
    assert_eq!(merge(&[&a, &a], &["a", "b"], &out).unwrap().pages, 8);
    let entries = common::outline_entries(&load(&out));
    assert_eq!(entries.len(), 10);
}

#[test]
fn fewer_than_two_inputs_or_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    assert!(matches!(
        merge(&[&a], &["a"], &out),
        Err(ToolError::BadOptions(_))
    ));
    assert!(matches!(
        merge(&[&a, &a], &["a"], &out),
        Err(ToolError::BadOptions(_))
    ));
    let junk = dir.path().join("junk.pdf");
    std::fs::write(&junk, b"%PDF-1.4\nthis is not a pdf at all").unwrap();
    match merge(&[&a, &junk], &["a", "junk"], &out) {
        Err(ToolError::InvalidFile(message)) => {
            assert!(message.starts_with("file 2: "), "{message}")
        }
        other => panic!("expected InvalidFile, got {other:?}"),
    }
}

#[test]
fn an_empty_title_gets_a_numbered_one() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(
        dir.path(),
        "A",
        Variant {
            no_outline: true,
            ..Variant::default()
        },
    );
    let out = dir.path().join("out.pdf");
    merge(&[&a, &a], &["", "été"], &out).unwrap();
    let doc = load(&out);
    let catalog = doc.catalog().unwrap();
    let first = catalog.get(b"Outlines").unwrap().as_reference().unwrap();
    let first = doc
        .get_dictionary(first)
        .unwrap()
        .get(b"First")
        .unwrap()
        .as_reference()
        .unwrap();
    let item = doc.get_dictionary(first).unwrap();
    assert_eq!(item.get(b"Title").unwrap().as_str().unwrap(), b"Document 1");
    let second = item.get(b"Next").unwrap().as_reference().unwrap();
    let title = doc.get_dictionary(second).unwrap().get(b"Title").unwrap();
    let Object::String(bytes, _) = title else {
        panic!("a title")
    };
    assert_eq!(bytes[..2], [0xFE, 0xFF]);
}
