//! Every real-world PDF of the corpora watermarked (tiled text) and numbered.
#![allow(clippy::unwrap_used)]

mod corpus_files;
mod stamping;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use quire_toolbox::stamp::{number_pages, watermark};
use quire_toolbox::{ToolError, page_count};

use stamping::marks::{numbering, text_mark};
use stamping::{poppler, raw_text};

/// "stamped", "invalid" or "encrypted", or what went wrong.
fn run(input: &Path, work: &Path, text: bool) -> Result<&'static str, String> {
    let refused = |err: ToolError| match err {
        ToolError::InvalidFile(_) => Ok("invalid"),
        ToolError::Encrypted => Ok("encrypted"),
        other => Err(format!("{other:?}")),
    };
    let n = match page_count(input) {
        Ok(n) => n,
        Err(err) => return refused(err),
    };
    let marked = work.join("watermarked.pdf");
    let mut tiled = text_mark("DRAFT", None);
    tiled.position = None;
    tiled.rotation = 30.0;
    if let Err(err) = watermark(input, &tiled, &marked) {
        return refused(err);
    }
    if page_count(&marked).ok() != Some(n) {
        return Err("watermark changed the page count".into());
    }
    let numbered = work.join("numbered.pdf");
    match number_pages(input, &numbering("Page {n} of {total}"), &numbered) {
        Ok(written) if written.pages == n => {}
        Ok(written) => return Err(format!("{} pages written for {n}", written.pages)),
        Err(err) => return refused(err),
    }
    if page_count(&numbered).ok() != Some(n) {
        return Err("number_pages changed the page count".into());
    }
    if !text {
        return Ok("stamped");
    }
    let wanted = format!("Page {n} of {n}");
    if raw_text(&numbered, n).is_some_and(|(last, _)| last.contains(&wanted)) {
        return Ok("stamped, number read back");
    }
    // Not read back: fine only when the page is too small to hold the number, or when
    // poppler stumbles over the page's own content (an unterminated dictionary that
    // swallows what follows, an operator without its operands).
    if smallest_side(&numbered, n) < 100.0 {
        return Ok("stamped, page too small to read back");
    }
    match raw_text(input, n) {
        Some((_, complaints)) if !complaints.contains("Syntax Error") => Err(format!(
            "pdftotext -raw of the last page lacks \"{wanted}\""
        )),
        _ => Ok("stamped, poppler cannot read the page's own content"),
    }
}

/// The shorter side of a page's visible box.
fn smallest_side(pdf: &Path, page: u32) -> f64 {
    let doc = lopdf::Document::load(pdf).unwrap();
    let id = doc.get_pages()[&page];
    let dict = doc.get_dictionary(id).unwrap();
    [b"MediaBox".as_slice(), b"CropBox"]
        .iter()
        .filter_map(|key| {
            let values = doc
                .dereference(dict.get(key).ok()?)
                .ok()?
                .1
                .as_array()
                .ok()?;
            let numbers: Vec<f64> = values
                .iter()
                .map(|v| doc.dereference(v).ok()?.1.as_float().ok().map(f64::from))
                .collect::<Option<_>>()?;
            let [a, b, c, d] = numbers[..] else {
                return None;
            };
            Some((c - a).abs().min((d - b).abs()))
        })
        .fold(f64::MAX, f64::min)
}

#[test]
fn every_corpus_file_watermarked_and_numbered() {
    let files = corpus_files::corpus();
    if files.is_empty() {
        println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
        return;
    }
    let text = poppler();
    let mut outcomes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (name, path) in &files {
        let work = tempfile::tempdir().unwrap();
        match catch_unwind(AssertUnwindSafe(|| run(path, work.path(), text))) {
            Ok(Ok(outcome)) => {
                if outcome.starts_with("stamped,") && outcome != "stamped, number read back" {
                    println!("{name}: {outcome}");
                }
                *outcomes.entry(outcome).or_default() += 1;
            }
            Ok(Err(failure)) => failures.push(format!("{name}: {failure}")),
            Err(_) => failures.push(format!("{name}: panicked")),
        }
    }
    println!(
        "corpus: {} files, {outcomes:?}, {} failed",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
