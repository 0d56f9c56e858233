//! Every real-world PDF of the corpora redacted with a box in the middle of page 1: no panic,
//! no hang (a minute each), errors only InvalidFile or Encrypted, an output that qpdf checks
//! and that keeps the page count; unsafe pages replaced by a picture must work too. Prints
//! how many went through, how many had unsafe pages (and why), how many failed (and why).
//! Also times a 30-page text document. Skips the corpus (saying so) when it is not there.
#![allow(clippy::unwrap_used)]

mod corpus_files;
mod redacting;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use image::ImageEncoder;
use lopdf::dictionary;
use quire_toolbox::ToolError;
use quire_toolbox::redact::{RasterPage, Redacted, redact, replace_with_rasters};
use redacting::build::{Builder, redaction};
use redacting::pages::{displayed, frame, removed_annotations, words_check};
use redacting::tools;

const PATIENCE: Duration = Duration::from_secs(60);

fn png() -> Vec<u8> {
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&[200u8; 12], 2, 2, image::ExtendedColorType::Rgb8)
        .unwrap();
    out
}

enum Outcome {
    /// The report, and how many words pdftotext found in place around the area.
    Clean(Redacted, usize),
    Unsafe(Vec<(u32, String)>),
    Refused(String),
}

/// One file: redacted, checked, its unsafe pages pictured.
fn one(input: &Path, work: &Path) -> Result<Outcome, String> {
    let pages = match quire_toolbox::page_count(input) {
        Ok(n) => n,
        Err(ToolError::InvalidFile(why)) => return Ok(Outcome::Refused(format!("invalid: {why}"))),
        Err(ToolError::Encrypted) => return Ok(Outcome::Refused("encrypted".into())),
        Err(other) => return Err(format!("page_count: {other:?}")),
    };
    let frame = frame(input);
    let [x0, y0, x1, y1] = frame.0;
    let (w, h) = (x1 - x0, y1 - y0);
    let area = [x0 + 0.3 * w, y0 + 0.4 * h, x0 + 0.7 * w, y0 + 0.6 * h];
    let mut options = redaction(&[(1, area)]);
    options.label = Some("REDACTED".into());
    let output = work.join("redacted.pdf");
    let report: Redacted = match redact(input, &options, &output) {
        Ok(report) => report,
        Err(ToolError::InvalidFile(why)) => return Ok(Outcome::Refused(format!("invalid: {why}"))),
        Err(ToolError::Encrypted) => return Ok(Outcome::Refused("encrypted".into())),
        Err(other) => return Err(format!("redact: {other:?}")),
    };
    let written = quire_toolbox::page_count(&output)
        .map_err(|e| format!("the output does not read back: {e}"))?;
    if written != pages {
        return Err(format!("{written} pages written for {pages}"));
    }
    if tools::available("redact_corpus") {
        let out = std::process::Command::new("qpdf")
            .args(["--check", output.to_str().unwrap()])
            .output()
            .unwrap();
        if !matches!(out.status.code(), Some(0 | 3)) {
            return Err(format!(
                "qpdf --check: {}",
                String::from_utf8_lossy(&out.stdout)
            ));
        }
    }
    if report.unsafe_pages.is_empty() {
        let mut checked = 0;
        if tools::available("redact_corpus") && tools::readable(input) && tools::readable(&output) {
            let exempt: Vec<[f64; 4]> = removed_annotations(input, area)
                .into_iter()
                .map(|r| displayed(frame, r))
                .collect();
            checked = words_check(input, &output, displayed(frame, area), &exempt)?;
        }
        return Ok(Outcome::Clean(report, checked));
    }
    let rasters: Vec<RasterPage> = report
        .unsafe_pages
        .iter()
        .map(|&page| RasterPage {
            page,
            image: png(),
            words: Vec::new(),
        })
        .collect();
    let pictured = work.join("pictured.pdf");
    let written = replace_with_rasters(&output, &rasters, &pictured)
        .map_err(|e| format!("rasters: {e:?}"))?;
    if written.pages != pages {
        return Err(format!("rasters: {} pages for {pages}", written.pages));
    }
    Ok(Outcome::Unsafe(report.unsafe_reasons))
}

/// `one` on its own thread: a panic is caught, a hang reported.
fn guarded(input: PathBuf, work: PathBuf) -> Result<Outcome, String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(|| one(&input, &work));
        let _ = send.send(result);
    });
    match receive.recv_timeout(PATIENCE) {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err("panicked".into()),
        Err(_) => Err(format!("no answer in {PATIENCE:?}")),
    }
}

#[test]
fn every_corpus_file_is_redacted_or_refused() {
    let files = corpus_files::corpus();
    if files.is_empty() {
        eprintln!("note: no corpus under .cache: skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut reasons: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut clean, mut with_unsafe) = (0, 0);
    let mut totals = Redacted::default();
    let (mut with_glyphs, mut words_in_place) = (0, 0);
    let started = Instant::now();
    for (i, (name, path)) in files.iter().enumerate() {
        let work = dir.path().join(i.to_string());
        std::fs::create_dir(&work).unwrap();
        let begun = Instant::now();
        match guarded(path.clone(), work.clone()) {
            Ok(Outcome::Clean(report, checked)) => {
                clean += 1;
                with_glyphs += usize::from(report.glyphs_removed > 0);
                words_in_place += checked;
                totals.glyphs_removed += report.glyphs_removed;
                totals.images_redacted += report.images_redacted;
                totals.paths_removed += report.paths_removed;
                totals.paths_covered += report.paths_covered;
                totals.annotations_removed += report.annotations_removed;
                totals.fields_cleared += report.fields_cleared;
            }
            Ok(Outcome::Unsafe(why)) => {
                with_unsafe += 1;
                for (_, reason) in why {
                    for part in reason.split("; ") {
                        reasons
                            .entry(part.to_string())
                            .or_default()
                            .push(name.clone());
                    }
                }
            }
            Ok(Outcome::Refused(why)) => {
                let kind = why.split(':').next().unwrap_or_default().to_string();
                refused
                    .entry(kind)
                    .or_default()
                    .push(format!("{name} ({why})"));
            }
            Err(why) => failures.push(format!("{name}: {why}")),
        }
        let took = begun.elapsed();
        if took > Duration::from_secs(5) {
            eprintln!("slow: {name} took {took:?}");
        }
        let _ = std::fs::remove_dir_all(&work);
    }
    eprintln!(
        "redact corpus: {} files in {:?}: {clean} redacted cleanly, {with_unsafe} with unsafe pages, {} refused, {} failed",
        files.len(),
        started.elapsed(),
        refused.values().map(Vec::len).sum::<usize>(),
        failures.len()
    );
    eprintln!(
        "  clean files: {with_glyphs} lost glyphs ({} in all), {} images painted, {} paths removed, \
         {} covered, {} annotations removed, {} fields cleared; {words_in_place} words around the \
         areas found in place by pdftotext",
        totals.glyphs_removed,
        totals.images_redacted,
        totals.paths_removed,
        totals.paths_covered,
        totals.annotations_removed,
        totals.fields_cleared
    );
    for (why, names) in &reasons {
        eprintln!("  unsafe ({}): {why}: {}", names.len(), names.join(", "));
    }
    for (kind, names) in &refused {
        eprintln!("  refused ({}): {kind}: {}", names.len(), names.join(", "));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn thirty_pages_of_text_timed() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    for page in 0..30 {
        let mut content = String::from("BT /F1 10 Tf 12 TL 50 760 Td\n");
        for line in 0..60 {
            content.push_str(&format!(
                "(Page {page} line {line}: the quick brown fox jumps over the lazy dog, Jane Doe 555-0100) '\n"
            ));
        }
        content.push_str("ET");
        b.page(&content, dictionary! {});
    }
    let input = b.save(&dir.path().join("thirty.pdf"));
    // Three boxes a page, across lines in the middle of the text.
    let areas: Vec<(u32, [f64; 4])> = (1..=30)
        .flat_map(|page| {
            [
                (page, [300.0, 600.0, 420.0, 640.0]),
                (page, [50.0, 400.0, 200.0, 420.0]),
                (page, [250.0, 100.0, 500.0, 300.0]),
            ]
        })
        .collect();
    let started = Instant::now();
    let report = redact(&input, &redaction(&areas), &dir.path().join("out.pdf")).unwrap();
    let took = started.elapsed();
    eprintln!(
        "30 text pages, 1800 lines, 90 areas: {took:?} ({} glyphs removed, {} unsafe pages)",
        report.glyphs_removed,
        report.unsafe_pages.len()
    );
    assert!(report.unsafe_pages.is_empty());
    assert!(report.glyphs_removed > 30 * 500);
}
