//! Metadata read, stripped and edited on every real-world PDF of the corpora; the edits are
//! checked with pikepdf (an independent reader, strict about XMP) where a Python with pikepdf
//! is found.
#![allow(clippy::unwrap_used)]

mod hostile;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use lopdf::Document;
use quire_toolbox::ToolError;
use quire_toolbox::metadata::{Edit, Metadata, edit, read, strip};

use hostile::forbidden_in;

fn some(text: &str) -> Option<String> {
    Some(text.to_string())
}

const CORPUS_TITLE: &str = "Corpus title — Ω <&>";
const CORPUS_AUTHOR: &str = "Corpus Author";

fn allowed(tool: &str, err: ToolError) -> Result<(), String> {
    match err {
        ToolError::InvalidFile(_) | ToolError::Encrypted => Ok(()),
        other => Err(format!("{tool}: {other:?}")),
    }
}

/// Read, strip and edit one file; the edited output, for pikepdf to check.
fn corpus_file(input: &Path, work: &Path) -> Result<Option<PathBuf>, String> {
    let before = match read(input) {
        Ok(metadata) => metadata,
        Err(err) => return allowed("read", err).map(|()| None),
    };
    let pages = match quire_toolbox::page_count(input) {
        Ok(pages) => pages,
        Err(err) => return allowed("page_count", err).map(|()| None),
    };
    let stripped = work.join("stripped.pdf");
    match strip(input, &stripped) {
        Ok(written) if written.pages == pages => {}
        Ok(written) => return Err(format!("strip: {} pages of {pages}", written.pages)),
        Err(err) => return allowed("strip", err).map(|()| None),
    }
    let after = quire_toolbox::page_count(&stripped).map_err(|e| format!("stripped: {e}"))?;
    if after != pages {
        return Err(format!("stripped: {after} pages of {pages}"));
    }
    if read(&stripped).map_err(|e| format!("stripped: {e}"))? != Metadata::default() {
        return Err("metadata left after strip".into());
    }
    let doc = Document::load(&stripped).map_err(|e| e.to_string())?;
    let left = forbidden_in(&doc, &[b"Metadata", b"PieceInfo"]);
    if !left.is_empty() || doc.trailer.has(b"Info") {
        return Err(format!("strip left {left:?}"));
    }
    let edited = work.join("edited.pdf");
    let change = Edit {
        title: some(CORPUS_TITLE),
        author: some(CORPUS_AUTHOR),
        ..Edit::default()
    };
    match edit(input, &change, &edited) {
        Ok(written) if written.pages == pages => {}
        Ok(written) => return Err(format!("edit: {} pages of {pages}", written.pages)),
        Err(err) => return Err(format!("edit refused what strip took: {err:?}")),
    }
    let metadata = read(&edited).map_err(|e| format!("edited: {e}"))?;
    if metadata.xmp_bytes.is_some() != before.xmp_bytes.is_some() {
        return Err(format!(
            "XMP packet before: {:?}, after: {:?}",
            before.xmp_bytes, metadata.xmp_bytes
        ));
    }
    // The date of the edit, and the packet's new size; nothing else changes.
    let expected = Metadata {
        title: some(CORPUS_TITLE),
        author: some(CORPUS_AUTHOR),
        modified: metadata.modified.clone(),
        xmp_bytes: metadata.xmp_bytes,
        ..before.clone()
    };
    if metadata != expected {
        return Err(format!("edited: {metadata:?}, expected {expected:?}"));
    }
    Ok(Some(edited))
}

#[test]
fn every_corpus_file_read_stripped_and_edited() {
    let files = hostile::corpus();
    if files.is_empty() {
        println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut edited = Vec::new();
    let mut refused = 0;
    for (i, (name, path)) in files.iter().enumerate() {
        let dir = work.path().join(i.to_string());
        std::fs::create_dir(&dir).unwrap();
        match catch_unwind(AssertUnwindSafe(|| corpus_file(path, &dir))) {
            Ok(Ok(Some(output))) => edited.push((path.clone(), output)),
            Ok(Ok(None)) => refused += 1,
            Ok(Err(failure)) => failures.push(format!("{name}: {failure}")),
            Err(_) => failures.push(format!("{name}: panicked")),
        }
    }
    println!(
        "metadata corpus: {} files, {} read, stripped and edited, {refused} refused (invalid or encrypted), {} failed",
        files.len(),
        edited.len(),
        failures.len()
    );
    match hostile::pikepdf_python() {
        Some(python) => {
            let bad = hostile::pikepdf_check(&python, CORPUS_TITLE, CORPUS_AUTHOR, &edited);
            println!(
                "pikepdf: {} edited files checked, {} failed",
                edited.len(),
                bad.len()
            );
            failures.extend(bad);
        }
        None => println!("no Python with pikepdf: the independent check is skipped"),
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
