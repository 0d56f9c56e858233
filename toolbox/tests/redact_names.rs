//! With `clean_document`, named destinations holding the term are renamed everywhere they
//! are named (name tree, old /Dests dictionary, links, outline, open action and its /Next
//! chain) and still lead to the same page; an XFA form holding the term goes while the
//! AcroForm field stays. Judged by qpdf (structure, every stream decompressed searched for
//! the term) and lopdf resolving the destinations again.
#![allow(clippy::unwrap_used)]

mod corpus_files;
mod redacting;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lopdf::{Document, Object, ObjectId, Stream, dictionary};
use redacting::build::{Builder, run, string};
use redacting::tools;

const TERM: &str = "Jane Doe";

fn fit(page: ObjectId) -> Object {
    Object::Array(vec![page.into(), "Fit".into()])
}

/// Three pages. Page 3 is named "Jane Doe section" in a two-level name tree (a leaf's
/// /Limits spell it too) and "Jane Doe old" in the old /Dests dictionary; page 1 links to both,
/// the outline and the open action (through /Next) lead to it by name; the XFA template
/// names the term.
fn fixture(dir: &Path) -> PathBuf {
    let mut b = Builder::new();
    let page1 = b.page("BT /F1 12 Tf 72 700 Td (Contents) Tj ET", dictionary! {});
    let page2 = b.page("BT /F1 12 Tf 72 700 Td (Appendix) Tj ET", dictionary! {});
    let page3 = b.page("BT /F1 12 Tf 72 700 Td (Section) Tj ET", dictionary! {});
    let leaf1 = b.add(dictionary! {
        "Limits" => vec![string("Appendix"), string("Jane Doe section")],
        "Names" => vec![
            string("Appendix"), fit(page2),
            string("Jane Doe section"), dictionary! { "D" => fit(page3) }.into(),
        ],
    });
    let leaf2 = b.add(dictionary! {
        "Limits" => vec![string("redacted-1"), string("redacted-1")],
        "Names" => vec![string("redacted-1"), fit(page1)],
    });
    let tree = b.add(dictionary! { "Kids" => vec![leaf1.into(), leaf2.into()] });
    let go_to = |name: Object| dictionary! { "S" => "GoTo", "D" => name };
    let shared = b.add(go_to(string("JANE DOE SECTION")));
    let links = [
        b.add(dictionary! {
            "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![72.into(), 600.into(), 200.into(), 620.into()],
            "A" => go_to(string("Jane Doe section")),
        }),
        b.add(dictionary! {
            "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![72.into(), 560.into(), 200.into(), 580.into()],
            "Dest" => Object::Name(b"Jane Doe old".to_vec()),
        }),
        b.add(dictionary! {
            "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![72.into(), 520.into(), 200.into(), 540.into()],
            "Dest" => string("Appendix"),
        }),
        // An undefined name, in a shared action object: renamed too, it still leads nowhere.
        b.add(dictionary! {
            "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![72.into(), 480.into(), 200.into(), 500.into()],
            "A" => shared,
        }),
    ];
    let annots: Vec<Object> = links.iter().map(|&l| l.into()).collect();
    b.doc
        .get_dictionary_mut(page1)
        .unwrap()
        .set("Annots", annots);
    let outlines = b.doc.new_object_id();
    let item = b.add(dictionary! {
        "Title" => string("Section"), "Parent" => outlines, "Dest" => string("Jane Doe section"),
    });
    b.doc.objects.insert(
        outlines,
        Object::Dictionary(
            dictionary! { "Type" => "Outlines", "First" => item, "Last" => item, "Count" => 1 },
        ),
    );
    let template = b.add(
        // Compressed when saved: the term is only in the decompressed bytes.
        Stream::new(
            dictionary! {},
            b"<template><field name=\"who\"><caption>Jane Doe</caption></field></template>"
                .to_vec(),
        ),
    );
    let field = b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx", "T" => string("who"),
        "Rect" => vec![300.into(), 600.into(), 400.into(), 620.into()], "P" => page2,
    });
    b.doc
        .get_dictionary_mut(page2)
        .unwrap()
        .set("Annots", vec![field.into()]);
    let form = dictionary! {
        "Fields" => vec![field.into()],
        "XFA" => vec![string("template"), template.into()],
    };
    b.save_with(
        &dir.join("names.pdf"),
        dictionary! {
            "Names" => dictionary! { "Dests" => tree },
            "Dests" => dictionary! { "Jane Doe old" => fit(page3) },
            "Outlines" => outlines,
            "OpenAction" => dictionary! {
                "S" => "GoTo", "D" => fit(page1),
                "Next" => go_to(string("Jane Doe section")),
            },
            "AcroForm" => form,
            "NeedsRendering" => true,
        },
    )
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object).unwrap().1
}

/// Every named destination (tree and old dictionary) and the page number (1-based) it
/// leads to; the tree's keys must be sorted and unique, its /Limits right.
fn named(doc: &Document, strict: bool) -> HashMap<Vec<u8>, u32> {
    let numbers: HashMap<ObjectId, u32> =
        doc.get_pages().into_iter().map(|(n, id)| (id, n)).collect();
    let page_of = |value: &Object| -> Option<u32> {
        let value = match resolve(doc, value) {
            Object::Dictionary(d) => resolve(doc, d.get(b"D").ok()?),
            other => other,
        };
        let page = value.as_array().ok()?.first()?.as_reference().ok()?;
        numbers.get(&page).copied()
    };
    let mut out = HashMap::new();
    let catalog = doc.catalog().unwrap();
    let root = catalog
        .get(b"Names")
        .ok()
        .and_then(|n| resolve(doc, n).as_dict().ok())
        .and_then(|n| n.get(b"Dests").ok());
    assert!(root.is_some() || !strict, "no name tree");
    let mut todo: Vec<Object> = root.into_iter().cloned().collect();
    let mut seen = HashSet::new();
    while let Some(node) = todo.pop() {
        let node = resolve(doc, &node).as_dict().unwrap();
        if let Ok(kids) = node.get(b"Kids") {
            todo.extend(resolve(doc, kids).as_array().unwrap().iter().cloned());
        }
        let Ok(pairs) = node.get(b"Names") else {
            continue;
        };
        let pairs = resolve(doc, pairs).as_array().unwrap();
        let keys: Vec<&[u8]> = pairs.chunks(2).map(|p| p[0].as_str().unwrap()).collect();
        assert!(
            !strict || keys.windows(2).all(|w| w[0] < w[1]),
            "unsorted: {keys:?}"
        );
        if strict && let Ok(limits) = node.get(b"Limits") {
            let limits = resolve(doc, limits).as_array().unwrap();
            assert_eq!(limits[0].as_str().unwrap(), keys[0]);
            assert_eq!(limits[1].as_str().unwrap(), keys[keys.len() - 1]);
        }
        for pair in pairs.chunks(2) {
            let key = pair[0].as_str().unwrap().to_vec();
            assert!(seen.insert(key.clone()) || !strict, "repeated key");
            if let Some(page) = page_of(&pair[1]) {
                out.entry(key).or_insert(page);
            }
        }
    }
    if let Ok(old) = catalog.get(b"Dests") {
        for (key, value) in resolve(doc, old).as_dict().unwrap() {
            if let Some(page) = page_of(value) {
                out.entry(key.clone()).or_insert(page);
            }
        }
    }
    out
}

/// The name a /Dest or GoTo action's /D holds.
fn name_in(doc: &Document, holder: &lopdf::Dictionary) -> Vec<u8> {
    let dest = match holder.get(b"Dest") {
        Ok(dest) => dest,
        Err(_) => {
            let action = resolve(doc, holder.get(b"A").unwrap()).as_dict().unwrap();
            action.get(b"D").unwrap()
        }
    };
    match resolve(doc, dest) {
        Object::Name(name) | Object::String(name, _) => name.clone(),
        other => panic!("not a name: {other:?}"),
    }
}

#[test]
fn destination_names_and_xfa_lose_the_term() {
    if !tools::available("destination_names_and_xfa_lose_the_term") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = fixture(dir.path());
    assert!(tools::holds(&tools::qdf(&input), TERM));
    let before = named(&Document::load(&input).unwrap(), true);
    assert_eq!(before[b"Jane Doe section".as_slice()], 3);
    let mut options = redacting::build::redaction(&[]);
    options.terms = vec![TERM.into()];
    options.clean_document = true;
    let (output, report) = run(&input, &options);
    assert_eq!(
        report.destinations_renamed, 3,
        "the section, the old name and the undefined one: {report:?}"
    );
    assert_eq!(report.metadata_cleaned, 1, "the XFA form");
    tools::check(&output);
    let bytes = tools::qdf(&output);
    for gone in [TERM, "Jane#20Doe", "/XFA", "NeedsRendering"] {
        assert!(!tools::holds(&bytes, gone), "{gone} is still in the file");
    }

    let doc = Document::load(&output).unwrap();
    let after = named(&doc, true);
    assert_eq!(after.len(), 4, "{after:?}");
    assert_eq!(after[b"Appendix".as_slice()], 2);
    assert_eq!(after[b"redacted-1".as_slice()], 1, "an existing name stays");
    let page1 = doc.get_pages()[&1];
    let annots = resolve(
        &doc,
        doc.get_dictionary(page1).unwrap().get(b"Annots").unwrap(),
    );
    let links: Vec<&lopdf::Dictionary> = annots
        .as_array()
        .unwrap()
        .iter()
        .map(|a| resolve(&doc, a).as_dict().unwrap())
        .collect();
    let section = name_in(&doc, links[0]);
    assert_ne!(section, b"redacted-1");
    assert_eq!(after[&section], 3, "the link leads to page 3");
    assert_eq!(after[&name_in(&doc, links[1])], 3, "the old name too");
    assert_eq!(name_in(&doc, links[2]), b"Appendix");
    assert!(
        !after.contains_key(&name_in(&doc, links[3])),
        "still undefined"
    );

    let catalog = doc.catalog().unwrap();
    let outlines = resolve(&doc, catalog.get(b"Outlines").unwrap())
        .as_dict()
        .unwrap();
    let item = resolve(&doc, outlines.get(b"First").unwrap())
        .as_dict()
        .unwrap();
    assert_eq!(name_in(&doc, item), section, "the bookmark leads to page 3");
    let open = resolve(&doc, catalog.get(b"OpenAction").unwrap())
        .as_dict()
        .unwrap();
    let next = resolve(&doc, open.get(b"Next").unwrap()).as_dict().unwrap();
    assert_eq!(
        resolve(&doc, next.get(b"D").unwrap()).as_str().unwrap(),
        section
    );

    let form = resolve(&doc, catalog.get(b"AcroForm").unwrap())
        .as_dict()
        .unwrap();
    assert!(!form.has(b"XFA"));
    let fields = resolve(&doc, form.get(b"Fields").unwrap())
        .as_array()
        .unwrap();
    assert_eq!(fields.len(), 1, "the field stays");
}

#[test]
fn nothing_changes_without_the_term() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture(dir.path());
    let mut options = redacting::build::redaction(&[]);
    options.terms = vec!["Nobody".into()];
    options.clean_document = true;
    let (output, report) = run(&input, &options);
    assert_eq!(report.destinations_renamed, 0);
    assert_eq!(report.metadata_cleaned, 0);
    let doc = Document::load(&output).unwrap();
    assert_eq!(named(&doc, true)[b"Jane Doe section".as_slice()], 3);
    let catalog = doc.catalog().unwrap();
    let form = resolve(&doc, catalog.get(b"AcroForm").unwrap())
        .as_dict()
        .unwrap();
    assert!(form.has(b"XFA"));
}

/// Real files whose named destinations, outline or XFA spell a term: once cleaned, no
/// decompressed byte outside the pages' content streams (which only areas redact) holds it.
#[test]
fn real_files_lose_the_term_outside_the_pages() {
    if !tools::available("real_files_lose_the_term_outside_the_pages") {
        return;
    }
    let corpus = corpus_files::corpus();
    let cases = [
        ("r-doc-pdf__R-intro.pdf", "Introduction and preliminaries"),
        ("xfig-doc__xfig_ref_en.pdf", "justification"),
        ("r-doc-pdf__R-lang.pdf", "definition"),
        (
            "pikepdf__tests__resources__form_210966.pdf",
            "Evidence Intake Center",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (name, term) in cases {
        let Some(path) = corpus.get(name) else {
            eprintln!("note: {name} is not in the corpus: skipped");
            continue;
        };
        let input = dir.path().join(name);
        std::fs::copy(path, &input).unwrap();
        let mut options = redacting::build::redaction(&[]);
        options.terms = vec![term.into()];
        options.clean_document = true;
        let (output, report) = run(&input, &options);
        eprintln!("{name}: {report:?}");
        let before = link_pages(&Document::load(&input).unwrap());
        let after = link_pages(&Document::load(&output).unwrap());
        assert_eq!(before, after, "{name}: a link leads elsewhere");
        let resolved = before.iter().filter(|p| p.is_some()).count();
        eprintln!("{name}: {resolved} links and bookmarks by name lead where they did");
        tools::check(&output);
        let bytes = tools::qdf(&output);
        // xfig's links are Launch actions naming another file ("attributes.html#text-
        // justification"): external references, which the cleaning leaves, as it leaves
        // remote GoTo actions.
        let left: Vec<String> = outside_contents(&bytes, term)
            .into_iter()
            .filter(|line| !line.trim_start().starts_with("/F (attributes.html#"))
            .collect();
        assert!(left.is_empty(), "{name}: \"{term}\" is still in {left:?}");
    }
}

/// The objects of a QDF file (qpdf's comments mark each page's content streams) outside the
/// pages' content streams that hold `term`, with the line that does.
fn outside_contents(qdf: &[u8], term: &str) -> Vec<String> {
    let text = String::from_utf8_lossy(qdf);
    let mut left = Vec::new();
    let mut in_contents = false;
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("%% ")
            && !comment.starts_with("Original object ID")
        {
            in_contents = comment.starts_with("Contents for page");
        }
        if !in_contents && tools::holds(line.as_bytes(), term) {
            left.push(line.chars().take(120).collect());
        }
        if line == "endobj" {
            in_contents = false;
        }
    }
    left
}

/// For each link (page by page) and bookmark naming a destination, the page (1-based) it
/// leads to.
fn link_pages(doc: &Document) -> Vec<Option<u32>> {
    let named = named(doc, false);
    let mut holders: Vec<&lopdf::Dictionary> = Vec::new();
    for (_, page) in doc.get_pages() {
        let Ok(annots) = doc.get_dictionary(page).and_then(|p| p.get(b"Annots")) else {
            continue;
        };
        let Ok(annots) = resolve(doc, annots).as_array() else {
            continue;
        };
        holders.extend(annots.iter().filter_map(|a| resolve(doc, a).as_dict().ok()));
    }
    let outlines = doc.catalog().ok().and_then(|c| c.get(b"Outlines").ok());
    let mut todo: Vec<&Object> = outlines
        .and_then(|o| resolve(doc, o).as_dict().ok())
        .and_then(|o| o.get(b"First").ok())
        .into_iter()
        .collect();
    let mut seen = HashSet::new();
    while let Some(item) = todo.pop() {
        if !seen.insert(item.as_reference().ok()) {
            continue;
        }
        let Ok(item) = resolve(doc, item).as_dict() else {
            continue;
        };
        holders.push(item);
        todo.extend(item.get(b"Next").ok());
        todo.extend(item.get(b"First").ok());
    }
    let mut out = Vec::new();
    for holder in holders {
        let dest = match holder.get(b"Dest") {
            Ok(dest) => Some(dest),
            Err(_) => holder
                .get(b"A")
                .ok()
                .and_then(|a| resolve(doc, a).as_dict().ok())
                .filter(|a| a.get(b"S").and_then(Object::as_name).ok() == Some(b"GoTo"))
                .and_then(|a| a.get(b"D").ok()),
        };
        if let Some(Object::Name(name) | Object::String(name, _)) = dest.map(|d| resolve(doc, d)) {
            out.push(named.get(name).copied());
        }
    }
    out
}
