//! Organizing: order, duplicates, deletions and blanks, and what follows the pages.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Variant, load, outline_of, sample};
use lopdf::Object;
use quire_toolbox::{Slot, ToolError, organize};

#[test]
fn reorder_duplicate_delete_and_blank() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    let slots = [
        Slot::Page(3),
        Slot::Page(1),
        Slot::Page(1),
        Slot::Blank,
        Slot::Page(2),
    ];
    assert_eq!(organize(&a, &slots, &out).unwrap().pages, 5);
    let doc = load(&out);
    assert_eq!(common::labels(&doc), ["A3", "A1", "A1", "", "A2"]);
    let ids = common::page_ids(&doc);
    assert_eq!(common::page_objects(&doc), 5);

    // The copy is a page of its own that shares the content and resources.
    let (one, copy) = (
        doc.get_dictionary(ids[1]).unwrap(),
        doc.get_dictionary(ids[2]).unwrap(),
    );
    assert_ne!(ids[1], ids[2]);
    assert_eq!(
        one.get(b"Contents").unwrap(),
        copy.get(b"Contents").unwrap()
    );
    assert_eq!(
        one.get(b"Resources").unwrap(),
        copy.get(b"Resources").unwrap()
    );
    // Its link and widget are annotation objects of its own, on it; the link leads where
    // the original's does, the widget becomes a second widget of the field.
    let (original, copied) = (common::annots(&doc, ids[1]), common::annots(&doc, ids[2]));
    assert_eq!((original.len(), copied.len()), (2, 2));
    for ((original, _), (copy, dict)) in original.iter().zip(&copied) {
        assert_ne!(original, copy);
        assert_eq!(dict.get(b"P").unwrap(), &Object::Reference(ids[2]));
    }
    assert_eq!(common::links(&doc, 1), [Some(0)]);
    assert_eq!(common::links(&doc, 2), [Some(0)]);
    assert_eq!(common::field_names(&doc), ["name", "choice"]);
    let widgets = common::field_widgets(&doc, "name");
    assert_eq!(widgets, [ids[1], ids[2]]);

    // The blank page is the size of the page before it, turned the same way.
    let blank = doc.get_dictionary(ids[3]).unwrap();
    let media_box: Vec<i64> = blank
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(media_box, [0, 0, 612, 792]);
    assert_eq!(common::rotations(&doc), [90; 5]);

    // Page 4 is gone: Section 2.1 and the link to it go, the others follow their pages.
    assert_eq!(
        common::outline_entries(&doc),
        outline_of(&[
            (0, "Chapter 1", Some(1)),
            (1, "Section 1.1", Some(4)),
            (0, "Chapter 2", Some(0)),
        ])
    );
    assert_eq!(common::links(&doc, 4), Vec::<Option<usize>>::new());
    assert_eq!(common::links(&doc, 0), [Some(0)]);
    let names = common::named_dests(&doc);
    let mut keys: Vec<&[u8]> = names.keys().map(|k| k.as_slice()).collect();
    keys.sort();
    assert_eq!(keys, [b"chap2".as_slice(), b"intro"]);
}

#[test]
fn a_repeated_widget_joins_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    organize(&a, &[Slot::Page(2), Slot::Page(2), Slot::Page(2)], &out).unwrap();
    let doc = load(&out);
    assert_eq!(common::field_names(&doc), ["choice"]);
    assert_eq!(
        common::field_widgets(&doc, "choice"),
        common::page_ids(&doc)
    );
}

#[test]
fn a_deleted_page_takes_its_image_along() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    organize(&a, &[Slot::Page(4), Slot::Page(3), Slot::Page(1)], &out).unwrap();
    let doc = load(&out);
    assert_eq!(common::labels(&doc), ["A4", "A3", "A1"]);
    assert!(!common::carries(&doc, b"IMAGE-A2"));
    assert_eq!(common::page_objects(&doc), 3);
    // Section 1.1's page is gone: Chapter 1 stays (its own page is here).
    assert_eq!(
        common::outline_entries(&doc),
        outline_of(&[
            (0, "Chapter 1", Some(2)),
            (0, "Chapter 2", Some(1)),
            (1, "Section 2.1", Some(0))
        ])
    );
}

#[test]
fn a_leading_blank_takes_the_first_page_size() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    organize(&a, &[Slot::Blank, Slot::Page(3), Slot::Blank], &out).unwrap();
    let doc = load(&out);
    let widths: Vec<i64> = common::page_ids(&doc)
        .into_iter()
        .map(|id| {
            common::effective(&doc, id, b"MediaBox")
                .unwrap()
                .as_array()
                .unwrap()[2]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(widths, [612, 500, 500]);
}

#[test]
fn bad_slots_are_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    for slots in [
        vec![],
        vec![Slot::Page(0)],
        vec![Slot::Page(1), Slot::Page(5)],
    ] {
        assert!(
            matches!(organize(&a, &slots, &out), Err(ToolError::BadOptions(_))),
            "{slots:?} accepted"
        );
    }
}
