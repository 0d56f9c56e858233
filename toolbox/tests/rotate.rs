//! Rotating: added to the inherited rotation, only on the chosen pages.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Variant, load, sample};
use quire_toolbox::{ToolError, rotate};

#[test]
fn adds_to_the_inherited_rotation_of_the_chosen_pages_only() {
    for indirect_rotate in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let a = sample(
            dir.path(),
            "A",
            Variant {
                indirect_rotate,
                ..Variant::default()
            },
        );
        let out = dir.path().join("out.pdf");
        assert_eq!(rotate(&a, 90, Some("1, 3"), &out).unwrap().pages, 4);
        let doc = load(&out);
        assert_eq!(common::rotations(&doc), [180, 90, 180, 90]);
        assert_eq!(common::labels(&doc), ["A1", "A2", "A3", "A4"]);
        // Pages not chosen are left as they were: still inheriting.
        let ids = common::page_ids(&doc);
        for i in [1, 3] {
            assert!(
                !doc.get_dictionary(ids[i]).unwrap().has(b"Rotate"),
                "page {} touched",
                i + 1
            );
        }
        // The rest of the document is untouched: outline, links, form.
        assert_eq!(common::outline_entries(&doc).len(), 4);
        assert_eq!(common::links(&doc, 1), [Some(3)]);
        assert_eq!(common::field_names(&doc), ["name", "choice"]);
    }
}

#[test]
fn turning_wraps_past_a_full_turn() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    rotate(&a, 270, None, &out).unwrap();
    assert_eq!(common::rotations(&load(&out)), [0; 4]);
    rotate(&a, 180, Some("4-"), &out).unwrap();
    assert_eq!(common::rotations(&load(&out)), [90, 90, 90, 270]);
}

#[test]
fn other_angles_and_bad_pages_are_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = dir.path().join("out.pdf");
    for degrees in [0, 45, -90, 360, 450] {
        assert!(
            matches!(
                rotate(&a, degrees, None, &out),
                Err(ToolError::BadOptions(_))
            ),
            "{degrees} accepted"
        );
    }
    match rotate(&a, 90, Some("2-9"), &out) {
        Err(ToolError::BadOptions(message)) => assert!(message.contains("4 pages"), "{message}"),
        other => panic!("expected BadOptions, got {other:?}"),
    }
    assert!(!out.exists());
}
