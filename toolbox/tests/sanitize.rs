//! Sanitize on a document holding everything it removes, option by option, and on every
//! real-world PDF of the corpora. Outputs are read back with lopdf alone, and with qpdf's
//! decoded (QDF) form where qpdf is installed.
#![allow(clippy::unwrap_used)]

mod hostile;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use lopdf::{Document, Object, ObjectId};
use quire_toolbox::ToolError;
use quire_toolbox::sanitize::{Removed, Sanitize, sanitize};

use hostile::{FORBIDDEN, all_streams, contains, forbidden_in, forbidden_tokens};

const EVERYTHING: Sanitize = Sanitize {
    javascript: true,
    embedded_files: true,
    links: true,
    metadata: true,
    hidden_layers: true,
};

const NOTHING: Sanitize = Sanitize {
    javascript: false,
    embedded_files: false,
    links: false,
    metadata: false,
    hidden_layers: false,
};

fn removed(list: &[(&'static str, u32)]) -> Vec<Removed> {
    list.iter()
        .map(|&(what, count)| Removed { what, count })
        .collect()
}

fn load(path: &Path) -> Document {
    Document::load(path).unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

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

/// Sanitize with everything on: the allowed errors only, the same pages, no forbidden name.
fn corpus_file(input: &Path, work: &Path) -> Result<Option<Vec<Removed>>, String> {
    let out = work.join("out.pdf");
    let (written, list) = match sanitize(input, EVERYTHING, &out) {
        Ok(done) => done,
        Err(ToolError::InvalidFile(_) | ToolError::Encrypted) => {
            return match quire_toolbox::page_count(input) {
                Ok(n) => Err(format!("refused a file page_count reads ({n} pages)")),
                Err(_) => Ok(None),
            };
        }
        Err(other) => return Err(format!("{other:?}")),
    };
    let pages = quire_toolbox::page_count(input).map_err(|e| e.to_string())?;
    if written.pages != pages {
        return Err(format!("{} pages written, {pages} read", written.pages));
    }
    let after = quire_toolbox::page_count(&out).map_err(|e| format!("output: {e}"))?;
    if after != pages {
        return Err(format!("the output has {after} pages, the input {pages}"));
    }
    let doc = Document::load(&out).map_err(|e| format!("output does not load: {e}"))?;
    let left = forbidden_in(&doc, &FORBIDDEN);
    if !left.is_empty() {
        return Err(format!("left: {left:?}"));
    }
    if let Some(qpdf) = hostile::qpdf() {
        let qdf = hostile::qdf(qpdf, &out, work)?;
        let tokens = forbidden_tokens(&qdf);
        if !tokens.is_empty() {
            return Err(format!("qpdf shows {tokens:?}"));
        }
    }
    Ok(Some(list))
}

#[test]
fn every_corpus_file_sanitized() {
    let files = hostile::corpus();
    if files.is_empty() {
        println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
        return;
    }
    if hostile::qpdf().is_none() {
        println!("qpdf not installed: outputs checked by lopdf alone");
    }
    let mut failures = Vec::new();
    let mut refused = 0;
    let mut done = 0;
    let mut by_kind: BTreeMap<&'static str, (u32, u32)> = BTreeMap::new();
    for (name, path) in &files {
        let work = tempfile::tempdir().unwrap();
        match catch_unwind(AssertUnwindSafe(|| corpus_file(path, work.path()))) {
            Ok(Ok(Some(list))) => {
                done += 1;
                for Removed { what, count } in list {
                    let entry = by_kind.entry(what).or_default();
                    entry.0 += 1;
                    entry.1 += count;
                }
            }
            Ok(Ok(None)) => refused += 1,
            Ok(Err(failure)) => failures.push(format!("{name}: {failure}")),
            Err(_) => failures.push(format!("{name}: panicked")),
        }
    }
    println!(
        "sanitize corpus: {} files, {done} sanitized, {refused} refused (invalid or encrypted), {} failed",
        files.len(),
        failures.len()
    );
    for (what, (documents, count)) in &by_kind {
        println!("  {what}: {count} in {documents} files");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// `input` with every optional content group off by default, or `None` when it has none.
fn layers_off(input: &Path, output: &Path) -> Option<usize> {
    let mut doc = Document::load(input).ok()?;
    let properties = doc.catalog().ok()?.get(b"OCProperties").ok()?.clone();
    let properties_id = properties.as_reference().ok();
    let mut properties = doc.dereference(&properties).ok()?.1.as_dict().ok()?.clone();
    let groups = doc
        .dereference(properties.get(b"OCGs").ok()?)
        .ok()?
        .1
        .as_array()
        .ok()?
        .clone();
    if groups.is_empty() {
        return None;
    }
    let mut config = doc
        .dereference(properties.get(b"D").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?
        .clone();
    config.remove(b"ON");
    config.remove(b"BaseState");
    config.set("OFF", groups.clone());
    properties.set("D", config);
    match properties_id {
        Some(id) => {
            doc.objects.insert(id, Object::Dictionary(properties));
        }
        None => doc.catalog_mut().ok()?.set("OCProperties", properties),
    }
    doc.save(output).ok()?;
    Some(groups.len())
}

/// The first pages of `pdf` as poppler draws them (it honours the default configuration).
fn render(pdftoppm: &Path, pdf: &Path, prefix: &Path) -> Vec<Vec<u8>> {
    let status = std::process::Command::new(pdftoppm)
        .args(["-r", "30", "-gray", "-l", "3"])
        .arg(pdf)
        .arg(prefix)
        .status()
        .unwrap();
    assert!(status.success(), "pdftoppm {}", pdf.display());
    let dir = prefix.parent().unwrap();
    let stem = prefix.file_name().unwrap().to_string_lossy().into_owned();
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{stem}-"))
        })
        .map(|e| e.path())
        .collect();
    pages.sort();
    pages.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

#[test]
fn corpus_layers_turned_off_go_and_the_pages_look_the_same() {
    let pdftoppm = Path::new("/usr/bin/pdftoppm");
    let pdftoppm = pdftoppm.exists().then_some(pdftoppm);
    if pdftoppm.is_none() {
        println!("pdftoppm not installed: pages are not compared");
    }
    let what = Sanitize {
        hidden_layers: true,
        ..NOTHING
    };
    let mut tried = 0;
    for (name, path) in hostile::corpus() {
        let work = tempfile::tempdir().unwrap();
        let off = work.path().join("off.pdf");
        let Some(groups) = layers_off(&path, &off) else {
            continue;
        };
        tried += 1;
        let out = work.path().join("clean.pdf");
        let (written, list) = sanitize(&off, what, &out).unwrap();
        assert_eq!(
            written.pages,
            quire_toolbox::page_count(&path).unwrap(),
            "{name}"
        );
        let layers = u32::try_from(groups).unwrap();
        assert_eq!(list, removed(&[("hidden layers", layers)]), "{name}");
        let doc = load(&out);
        assert!(!doc.catalog().unwrap().has(b"OCProperties"), "{name}");
        // No marked content left that names optional content.
        for page in doc.get_pages().into_values() {
            let content = lopdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
            let oc = content.operations.iter().any(|op| {
                op.operator == "BDC" && op.operands.first() == Some(&Object::Name(b"OC".to_vec()))
            });
            assert!(!oc, "{name}: /OC BDC left on a page");
        }
        if let Some(pdftoppm) = pdftoppm {
            let before = render(pdftoppm, &off, &work.path().join("before"));
            let after = render(pdftoppm, &out, &work.path().join("after"));
            assert!(!before.is_empty(), "{name}: nothing rendered");
            assert!(
                before == after,
                "{name}: the sanitized pages do not look the same"
            );
        }
        println!("{name}: {groups} layers off, removed, pages alike");
    }
    println!("{tried} corpus files with layers");
}
