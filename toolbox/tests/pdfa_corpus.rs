//! Real-world PDFs (`.cache/pdf-corpus`, `.cache/compress-corpus`) converted to PDF/A-2b,
//! and a sample to 1b and 3b, each output judged by pikepdf's allowlist validator. Prints
//! how many pikepdf passes, how many it could not check, how many our converter refused
//! (with its explanation) and how many failed; and fails if pikepdf finds a violation in a
//! file our own validation passed: the converter never hands back a file that claims PDF/A
//! and is not. Page counts are kept, and the text of every page is still there.
#![allow(clippy::unwrap_used)]

mod corpus_files;
mod pdfa_support;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use quire_toolbox::ToolError;
use quire_toolbox::pdfa::{self, Level};

/// Files converted to 2b at most, and of them to 1b and 3b.
const SAMPLE: usize = 40;
const SAMPLE_OTHER_LEVELS: usize = 12;
/// Larger files are left out, to keep the test's time reasonable.
const MAX_BYTES: u64 = 4 << 20;

/// `QUIRE_PDFA_SAMPLE` raises or lowers the 2b sample (every file of the corpora with a
/// large number).
fn sample_size() -> usize {
    std::env::var("QUIRE_PDFA_SAMPLE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SAMPLE)
}

/// `QUIRE_PDFA_SAMPLE_OTHER` sets how many of them go to 1b and 3b too.
fn other_levels() -> usize {
    std::env::var("QUIRE_PDFA_SAMPLE_OTHER")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SAMPLE_OTHER_LEVELS)
}

fn sample() -> Vec<(String, PathBuf)> {
    let wanted = sample_size();
    let files: Vec<(String, PathBuf)> = corpus_files::corpus()
        .into_iter()
        .filter(|(_, path)| std::fs::metadata(path).is_ok_and(|m| m.len() <= MAX_BYTES))
        .collect();
    if files.len() <= wanted {
        return files;
    }
    // Spread over the sorted names, so that both corpora and every source are in.
    let step = files.len() as f64 / wanted as f64;
    (0..wanted)
        .map(|i| files[(i as f64 * step) as usize].clone())
        .collect()
}

#[derive(Default)]
struct Tally {
    passed: usize,
    not_checked: usize,
    failed: Vec<String>,
    refused: Vec<String>,
    encrypted: usize,
    errors: Vec<String>,
    text_changed: Vec<String>,
}

#[test]
fn corpus_converts_and_pikepdf_agrees() {
    let files = sample();
    if files.is_empty() {
        eprintln!("skipped: no corpus (scripts/setup.sh fetches it)");
        return;
    }
    let python = pdfa_support::python();
    let temp = tempfile::tempdir().unwrap();
    // QUIRE_PDFA_KEEP=dir keeps the outputs there, to look at.
    let kept = std::env::var_os("QUIRE_PDFA_KEEP").map(PathBuf::from);
    if let Some(kept) = &kept {
        std::fs::create_dir_all(kept).unwrap();
    }
    let dir = kept.as_deref().unwrap_or(temp.path());
    let mut report = Vec::new();
    for (level, count) in [
        (Level::A2b, files.len()),
        (Level::A1b, other_levels()),
        (Level::A3b, other_levels()),
    ] {
        let started = Instant::now();
        let mut tally = Tally::default();
        let mut outputs: Vec<(String, PathBuf)> = Vec::new();
        let chosen: Vec<&(String, PathBuf)> = if count >= files.len() {
            files.iter().collect()
        } else {
            let step = files.len() / count;
            files.iter().step_by(step.max(1)).take(count).collect()
        };
        for (name, path) in &chosen {
            let output = dir.join(format!("{}-{name}", pdfa_support::flavour(level)));
            match pdfa::convert(path, level, &output) {
                Ok(converted) => {
                    assert_eq!(
                        converted.pages as usize,
                        pdfa_support::pages(path),
                        "{name}: page count"
                    );
                    assert_eq!(
                        pdfa_support::pages(&output),
                        pdfa_support::pages(path),
                        "{name}"
                    );
                    let ours = pdfa::validate(&output, level).unwrap();
                    assert!(
                        ours.passed,
                        "{name}: convert returned a file its check fails"
                    );
                    if let (Some(before), Some(after)) =
                        (pdfa_support::text(path), pdfa_support::text(&output))
                    {
                        let before = pdfa_support::words(&before);
                        let after = pdfa_support::words(&after);
                        // Drawing form fields into the page adds their text; nothing goes.
                        let kept = before == after || before.split(' ').all(|w| after.contains(w));
                        if !kept {
                            tally.text_changed.push(name.clone());
                        }
                    }
                    outputs.push((name.clone(), output));
                }
                Err(ToolError::InvalidFile(why)) => tally.refused.push(format!("{name}: {why}")),
                Err(ToolError::Encrypted) => tally.encrypted += 1,
                Err(other) => tally.errors.push(format!("{name}: {other}")),
            }
        }
        if let Some(python) = &python
            && !outputs.is_empty()
        {
            let paths: Vec<&std::path::Path> = outputs.iter().map(|(_, p)| p.as_path()).collect();
            let judged = pdfa_support::judge(python, pdfa_support::flavour(level), &paths);
            for ((name, _), verdict) in outputs.iter().zip(judged) {
                match verdict.verdict.as_str() {
                    "pass" => tally.passed += 1,
                    "not_checked" => tally.not_checked += 1,
                    _ => tally.failed.push(format!("{name}: {:?}", verdict.findings)),
                }
            }
        }
        let total = chosen.len();
        eprintln!(
            "{}: {total} files in {:.1}s: pikepdf passes {}, cannot check {} (only constructs it does not verify), fails {}; refused with an explanation {}, encrypted {}, errors {}; text changed {}",
            level.label(),
            started.elapsed().as_secs_f64(),
            tally.passed,
            tally.not_checked,
            tally.failed.len(),
            tally.refused.len(),
            tally.encrypted,
            tally.errors.len(),
            tally.text_changed.len(),
        );
        for line in tally.refused.iter().chain(&tally.errors) {
            eprintln!("  {line}");
        }
        report.push((level, tally));
    }
    let mut problems: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (level, tally) in &report {
        if !tally.failed.is_empty() {
            problems.insert(
                format!("{level:?} pikepdf violations"),
                tally.failed.clone(),
            );
        }
        if !tally.errors.is_empty() {
            problems.insert(format!("{level:?} errors"), tally.errors.clone());
        }
        if !tally.text_changed.is_empty() {
            problems.insert(
                format!("{level:?} text changed"),
                tally.text_changed.clone(),
            );
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// Converts the file `QUIRE_PDFA_ONE` names to `QUIRE_PDFA_LEVEL` (2b by default) in
/// /tmp/pdfa-one.pdf and prints our findings and pikepdf's: a tool to look at one file.
#[test]
#[ignore = "a debugging aid: QUIRE_PDFA_ONE=path cargo test --test pdfa_corpus one -- --ignored"]
fn one() {
    let Some(path) = std::env::var_os("QUIRE_PDFA_ONE") else {
        return;
    };
    let level = match std::env::var("QUIRE_PDFA_LEVEL").as_deref() {
        Ok("1b") => Level::A1b,
        Ok("3b") => Level::A3b,
        _ => Level::A2b,
    };
    let output = PathBuf::from("/tmp/pdfa-one.pdf");
    let result = pdfa::convert(std::path::Path::new(&path), level, &output);
    eprintln!("convert: {result:#?}");
    if output.exists() {
        eprintln!("ours: {:#?}", pdfa::validate(&output, level));
        if let Some(python) = pdfa_support::python() {
            eprintln!(
                "pikepdf: {:#?}",
                pdfa_support::judge(&python, pdfa_support::flavour(level), &[&output])
            );
        }
    }
}
