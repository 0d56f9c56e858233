//! Whole corpora, each file at one preset in turn.

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use futures::StreamExt;
use quire_e2e::pdf_check;

use super::{
    CORPUS_FLOORS, PRESETS,
    harness::{Outcome, check_one, server},
};

/// The PDFs of a corpus directory, sorted; `None` when it is missing or holds none.
fn corpus(dir: &str) -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdf")))
        .collect();
    files.sort();
    (!files.is_empty()).then_some(files)
}

/// Every PDFium-readable file of `files`, each at one preset in turn (file i, in name order,
/// at preset i mod 4), so that a corpus costs one compression per file (both corpora: about
/// 4 minutes of CPU in a debug build); with `QUIRE_TEST_COMPRESS_ALL_PRESETS=1`, every file at
/// every preset, four times that. Renders cover each file's first pages
/// (`pdf_check::MAX_RENDERED_PAGES`); every other fact covers every page. Panics listing every
/// difference.
async fn check_corpus(files: Vec<PathBuf>) {
    let started = Instant::now();
    let server = server().await;
    let all = std::env::var_os("QUIRE_TEST_COMPRESS_ALL_PRESETS").is_some_and(|v| v == "1");
    let jobs = futures::stream::iter(files.into_iter().enumerate())
        .map(|(index, file)| {
            let presets: Vec<usize> = if all {
                (0..PRESETS.len()).collect()
            } else {
                vec![index % PRESETS.len()]
            };
            let server = &server;
            async move {
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                let pdf = std::fs::read(&file).unwrap();
                // What PDFium cannot open is not compared (pdf_corpus.rs covers its answers).
                let Ok(input) = pdf_check::facts(pdf.clone()).await else {
                    return (name, Vec::new());
                };
                let mut outcomes = Vec::new();
                for preset in presets {
                    let outcome =
                        check_one(server, &name, &pdf, &input, preset, &CORPUS_FLOORS).await;
                    outcomes.push((PRESETS[preset], outcome));
                }
                (name, outcomes)
            }
        })
        .buffer_unordered(2)
        .collect::<Vec<_>>()
        .await;

    let mut failures = Vec::new();
    let mut skipped = 0;
    let mut refused = std::collections::BTreeMap::<String, Vec<String>>::new();
    let mut lowest = std::collections::BTreeMap::<&str, (f64, String)>::new();
    for (name, outcomes) in &jobs {
        if outcomes.is_empty() {
            skipped += 1;
        }
        for (preset, outcome) in outcomes {
            match outcome {
                Outcome::Compared {
                    diffs,
                    measured,
                    saved,
                } => {
                    failures.extend(diffs.iter().cloned());
                    if let Some((page, db)) = measured.worst() {
                        println!(
                            "{name} [{preset}]: {:.1}% saved, lowest PSNR {db:.2} dB (page {page})",
                            saved * 100.0
                        );
                        let entry = lowest
                            .entry(preset)
                            .or_insert((f64::INFINITY, String::new()));
                        if db < entry.0 || entry.1.is_empty() {
                            *entry = (db, format!("{name} page {page}"));
                        }
                    }
                }
                Outcome::Refused(answer) => refused
                    .entry(format!("{preset} {answer}"))
                    .or_default()
                    .push(name.clone()),
            }
        }
    }
    println!(
        "{} files, {skipped} not readable by PDFium and skipped, in {:.0?}",
        jobs.len(),
        started.elapsed()
    );
    for (preset, (db, at)) in &lowest {
        println!("lowest PSNR at {preset}: {db:.2} dB ({at})");
    }
    for (answer, names) in &refused {
        println!("refused, {answer}: {}", names.join(", "));
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pypdf_and_pikepdf_corpora_keep_every_fact() {
    let files = corpus(".cache/pdf-corpus")
        .expect(".cache/pdf-corpus is missing or empty: run scripts/setup.sh --tests");
    check_corpus(files).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_compression_corpus_keeps_every_fact() {
    let files = corpus(".cache/compress-corpus")
        .expect(".cache/compress-corpus is missing or empty: run scripts/setup.sh --tests");
    check_corpus(files).await;
}
