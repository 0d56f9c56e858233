//! Sanitize on every real-world PDF of the corpora: with everything on, the same pages and no
//! forbidden name left (checked with lopdf, and with qpdf's decoded form where qpdf is
//! installed); with every layer turned off, the layers gone and the pages looking the same.
#![allow(clippy::unwrap_used)]

mod hostile;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use lopdf::{Document, Object};
use quire_toolbox::ToolError;
use quire_toolbox::sanitize::{Removed, Sanitize, sanitize};

use hostile::{EVERYTHING, FORBIDDEN, NOTHING, forbidden_in, forbidden_tokens, load, removed};

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
