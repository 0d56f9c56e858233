//! Splitting: pages per part, names, what each part keeps and what it must not carry.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Variant, load, outline_of, sample};
use quire_toolbox::{Part, SplitMode, ToolError, split};

fn names_and_pages(parts: &[Part]) -> Vec<(String, Vec<u32>)> {
    parts
        .iter()
        .map(|p| (p.name.clone(), p.pages.clone()))
        .collect()
}

#[test]
fn ranges_give_one_part_each_with_only_their_own_objects() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = tempfile::tempdir().unwrap();
    let parts = split(&a, &SplitMode::Ranges("1-2, 4".into()), "doc", out.path()).unwrap();
    assert_eq!(
        names_and_pages(&parts),
        [
            ("doc-pages-1-2.pdf".to_string(), vec![1, 2]),
            ("doc-page-4.pdf".to_string(), vec![4])
        ]
    );
    assert_eq!(parts[0].path, out.path().join("doc-pages-1-2.pdf"));

    let first = load(&parts[0].path);
    assert_eq!(common::labels(&first), ["A1", "A2"]);
    assert_eq!(common::page_objects(&first), 2);
    assert!(common::carries(&first, b"IMAGE-A2"));
    assert_eq!(
        common::outline_entries(&first),
        outline_of(&[(0, "Chapter 1", Some(0)), (1, "Section 1.1", Some(1))])
    );
    // The links to pages 3 and 4 go; the widgets stay, and so do their fields.
    assert_eq!(common::links(&first, 0), Vec::<Option<usize>>::new());
    assert_eq!(common::links(&first, 1), Vec::<Option<usize>>::new());
    assert_eq!(common::annots(&first, common::page_ids(&first)[0]).len(), 1);
    assert_eq!(common::field_names(&first), ["name", "choice"]);
    let names = common::named_dests(&first);
    assert_eq!(
        names.keys().map(|k| k.as_slice()).collect::<Vec<_>>(),
        [b"intro".as_slice()]
    );
    assert_eq!(common::rotations(&first), [90, 90]);

    let last = load(&parts[1].path);
    assert_eq!(common::labels(&last), ["A4"]);
    assert_eq!(common::page_objects(&last), 1);
    assert!(
        !common::carries(&last, b"IMAGE-A2"),
        "page 2's image went along"
    );
    // Chapter 2's page is gone, its section's is here: the chapter stays, leading there.
    assert_eq!(
        common::outline_entries(&last),
        outline_of(&[(0, "Chapter 2", Some(0)), (1, "Section 2.1", Some(0))])
    );
    assert_eq!(common::links(&last, 0), [None]);
    assert!(common::field_names(&last).is_empty());
    assert!(!last.catalog().unwrap().has(b"AcroForm"));
    let page = common::page_ids(&last)[0];
    let media_box = common::effective(&last, page, b"MediaBox").unwrap();
    assert_eq!(media_box.as_array().unwrap()[2].as_i64().unwrap(), 500);
    assert!(
        common::effective(&last, page, b"Resources")
            .unwrap()
            .as_dict()
            .unwrap()
            .has(b"Font")
    );
    assert!(!last.catalog().unwrap().has(b"PageLabels"));
    let info = last.trailer.get(b"Info").unwrap().as_reference().unwrap();
    assert!(last.get_dictionary(info).unwrap().has(b"Title"));
    // Smaller for not carrying the image and the other pages.
    let sizes: Vec<u64> = parts
        .iter()
        .map(|p| std::fs::metadata(&p.path).unwrap().len())
        .collect();
    assert!(sizes[1] < sizes[0], "{sizes:?}");
}

#[test]
fn every_n_pages() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = tempfile::tempdir().unwrap();
    let parts = split(&a, &SplitMode::Every(3), "doc", out.path()).unwrap();
    assert_eq!(
        names_and_pages(&parts),
        [
            ("doc-pages-1-3.pdf".to_string(), vec![1, 2, 3]),
            ("doc-page-4.pdf".to_string(), vec![4])
        ]
    );
    assert_eq!(common::labels(&load(&parts[0].path)), ["A1", "A2", "A3"]);
    // Within the first part, page 1's link to page 3 still leads there.
    assert_eq!(common::links(&load(&parts[0].path), 0), [Some(2)]);
    let singles = tempfile::tempdir().unwrap();
    let parts = split(&a, &SplitMode::Every(1), "doc", singles.path()).unwrap();
    assert_eq!(parts.len(), 4);
    for (i, part) in parts.iter().enumerate() {
        let doc = load(&part.path);
        assert_eq!(common::labels(&doc), [format!("A{}", i + 1)]);
        assert_eq!(common::page_objects(&doc), 1);
        assert_eq!(common::carries(&doc, b"IMAGE-A2"), i == 1);
        let fields: &[&str] = match i {
            0 => &["name"],
            1 => &["choice"],
            _ => &[],
        };
        assert_eq!(common::field_names(&doc), fields, "part {}", i + 1);
    }
    let err = split(&a, &SplitMode::Every(0), "doc", out.path());
    assert!(matches!(err, Err(ToolError::BadOptions(_))));
}

#[test]
fn by_bookmarks() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = tempfile::tempdir().unwrap();
    let parts = split(&a, &SplitMode::Bookmarks, "doc", out.path()).unwrap();
    assert_eq!(
        names_and_pages(&parts),
        [
            ("doc-01-Chapter-1.pdf".to_string(), vec![1, 2]),
            ("doc-02-Chapter-2.pdf".to_string(), vec![3, 4]),
        ]
    );
    let second = load(&parts[1].path);
    assert_eq!(common::labels(&second), ["A3", "A4"]);
    assert_eq!(
        common::outline_entries(&second),
        outline_of(&[(0, "Chapter 2", Some(0)), (1, "Section 2.1", Some(1))])
    );
    // Named links: /chap2 (dictionary) and sec21 (tree) both still resolve.
    assert_eq!(common::links(&second, 0), [Some(0)]);

    let plain = sample(
        dir.path(),
        "P",
        Variant {
            no_outline: true,
            ..Variant::default()
        },
    );
    match split(&plain, &SplitMode::Bookmarks, "doc", out.path()) {
        Err(ToolError::BadOptions(message)) => {
            assert_eq!(
                message,
                "this PDF has no bookmarks: split by ranges instead"
            );
        }
        other => panic!("expected BadOptions, got {other:?}"),
    }
}

#[test]
fn cyclic_outline_splits_by_bookmarks() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(
        dir.path(),
        "A",
        Variant {
            cycles: true,
            ..Variant::default()
        },
    );
    let out = tempfile::tempdir().unwrap();
    let parts = split(&a, &SplitMode::Bookmarks, "doc", out.path()).unwrap();
    assert_eq!(
        parts.iter().map(|p| p.pages.clone()).collect::<Vec<_>>(),
        [vec![1, 2], vec![3, 4]]
    );
}

#[test]
fn bad_ranges_name_the_item_and_the_page_count() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    let out = tempfile::tempdir().unwrap();
    for (spec, item) in [("1,5", "\"5\""), ("3-2", "\"3-2\""), ("2-x", "\"2-x\"")] {
        match split(&a, &SplitMode::Ranges(spec.into()), "doc", out.path()) {
            Err(ToolError::BadOptions(message)) => {
                assert!(message.contains(item), "{spec}: {message}");
                if spec != "2-x" {
                    assert!(message.contains("4 pages"), "{spec}: {message}");
                }
            }
            other => panic!("{spec}: expected BadOptions, got {other:?}"),
        }
    }
    // Nothing is written before the options are checked.
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

#[test]
fn page_count_and_unreadable_files() {
    let dir = tempfile::tempdir().unwrap();
    let a = sample(dir.path(), "A", Variant::default());
    assert_eq!(quire_toolbox::page_count(&a).unwrap(), 4);
    let junk = dir.path().join("junk.pdf");
    std::fs::write(&junk, b"GIF89a not a pdf").unwrap();
    assert!(matches!(
        quire_toolbox::page_count(&junk),
        Err(ToolError::InvalidFile(_))
    ));
    let missing = dir.path().join("missing.pdf");
    assert!(matches!(
        quire_toolbox::page_count(&missing),
        Err(ToolError::Io(_))
    ));
}
