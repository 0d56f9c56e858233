//! Every real-world PDF of the corpora fitted to A4 and laid out 4-up.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::Command;

use quire_toolbox::layout::{Paper, fit_to_paper, n_up};
use quire_toolbox::{ToolError, page_count};

/// Whether poppler renders every page at 5 dpi without an error.
fn renders(pdf: &Path, work: &Path) -> bool {
    let output = Command::new("pdftoppm")
        .args(["-r", "5", "-gray"])
        .arg(pdf)
        .arg(work.join("render"))
        .output()
        .unwrap();
    output.status.success() && !String::from_utf8_lossy(&output.stderr).contains("Error")
}

/// The letters `pdftotext -raw` reads in the whole file (content stream order: its layout
/// analysis drops or keeps bidi marks by where lines fall), sorted; `None` when it cannot
/// read it.
fn letters(pdf: &Path) -> Option<Vec<char>> {
    let output = Command::new("pdftotext")
        .arg("-raw")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    if !output.status.success() {
        return None;
    }
    let mut letters: Vec<char> = String::from_utf8_lossy(&output.stdout)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    letters.sort_unstable();
    Some(letters)
}

/// Whether every letter of `part` is in `whole` (both sorted), as often.
fn within(part: &[char], whole: &[char]) -> bool {
    let mut rest = whole.iter();
    part.iter().all(|c| rest.any(|w| w == c))
}

/// Whether the file holds an annotation other than a link (an object with a /Rect and a
/// /Subtype other than /Link).
fn annotated(pdf: &Path) -> bool {
    let Ok(doc) = lopdf::Document::load(pdf) else {
        return true;
    };
    doc.objects.values().any(|object| {
        object.as_dict().is_ok_and(|dict| {
            dict.has(b"Rect")
                && dict
                    .get(b"Subtype")
                    .and_then(lopdf::Object::as_name)
                    .is_ok_and(|subtype| subtype != b"Link")
        })
    })
}

/// What happened to one file, or what went wrong.
fn run(input: &Path, work: &Path) -> Result<&'static str, String> {
    let refused = |err: ToolError| match err {
        ToolError::InvalidFile(_) => Ok("invalid"),
        ToolError::Encrypted => Ok("encrypted"),
        other => Err(format!("{other:?}")),
    };
    let n = match page_count(input) {
        Ok(n) => n,
        Err(err) => return refused(err),
    };
    let fitted = work.join("fitted.pdf");
    match fit_to_paper(input, Paper::A4, &fitted) {
        Ok(written) if written.pages == n => {}
        Ok(written) => return Err(format!("fit: {} pages written for {n}", written.pages)),
        Err(err) => return refused(err),
    }
    let grid = work.join("4up.pdf");
    let sheets = n.div_ceil(4);
    match n_up(input, 4, Paper::A4, &grid) {
        Ok(written) if written.pages == sheets => {}
        Ok(written) => return Err(format!("4-up: {} sheets for {n} pages", written.pages)),
        Err(err) => return refused(err),
    }
    for (what, pdf, want) in [("fit", &fitted, n), ("4-up", &grid, sheets)] {
        if page_count(pdf).ok() != Some(want) {
            return Err(format!("{what}: the output does not have {want} pages"));
        }
    }
    // The text is all there. A sheet can show more: poppler reads text a page hides outside
    // its crop box when the sheet has room for it (the form's /BBox clips it from view). 4-up
    // drops annotations other than links, and with them the text of their appearances.
    if let Some(want) = letters(input) {
        let fit = letters(&fitted).unwrap_or_default();
        if fit != want {
            return Err(format!(
                "fit: pdftotext reads {} letters of {}",
                fit.len(),
                want.len()
            ));
        }
        let grid = letters(&grid).unwrap_or_default();
        if !annotated(input) && !within(&want, &grid) {
            return Err(format!(
                "4-up: pdftotext reads {} letters of {}",
                grid.len(),
                want.len()
            ));
        }
    }
    if !renders(input, work) {
        return Ok("done, input does not render cleanly");
    }
    for (what, pdf) in [("fit", &fitted), ("4-up", &grid)] {
        if !renders(pdf, work) {
            return Err(format!("{what}: the output does not render cleanly"));
        }
    }
    Ok("done, rendered")
}

#[test]
fn every_corpus_file_fitted_and_four_up() {
    let files = super::corpus_files::corpus();
    if files.is_empty() {
        println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
        return;
    }
    let mut outcomes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (name, path) in &files {
        let work = tempfile::tempdir().unwrap();
        match catch_unwind(AssertUnwindSafe(|| run(path, work.path()))) {
            Ok(Ok(outcome)) => {
                if outcome != "done, rendered" {
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
