//! Every real-world PDF of the corpora through every tool: merged with itself, split into
//! single pages, rotated, organized in reverse. Errors are allowed only as InvalidFile or
//! Encrypted; anything else, a panic, or an output with the wrong page count fails. Skips
//! (saying so) when the corpora are not there.
#![allow(clippy::unwrap_used)]

mod corpus_files;

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use corpus_files::corpus;
use quire_toolbox::{Slot, SplitMode, ToolError, merge, organize, page_count, rotate, split};

#[derive(Debug, PartialEq)]
enum Outcome {
    Done,
    Invalid,
    Encrypted,
}

/// The allowed errors, or a failure message for any other.
fn allowed(tool: &str, err: ToolError) -> Result<Outcome, String> {
    match err {
        ToolError::InvalidFile(_) => Ok(Outcome::Invalid),
        ToolError::Encrypted => Ok(Outcome::Encrypted),
        other => Err(format!("{tool}: {other:?}")),
    }
}

fn pages_of(path: &Path, tool: &str) -> Result<u32, String> {
    page_count(path).map_err(|e| format!("{tool} wrote a file that does not read back: {e}"))
}

fn expect_pages(path: &Path, tool: &str, expected: u32) -> Result<(), String> {
    match pages_of(path, tool)? {
        n if n == expected => Ok(()),
        n => Err(format!("{tool}: {n} pages written, {expected} expected")),
    }
}

/// Every tool on one file.
fn run(input: &Path, work: &Path) -> Result<Outcome, String> {
    let n = match page_count(input) {
        Ok(n) => n,
        Err(err) => {
            let outcome = allowed("page_count", err)?;
            // The tools must fail the same way, not panic or write something.
            let out = work.join("merged.pdf");
            if let Err(err) = merge(&[input, input], &["a", "b"], &out) {
                allowed("merge", err)?;
            } else {
                return Err("merge took a file page_count refused".into());
            }
            if let Err(err) = rotate(input, 90, None, &work.join("rotated.pdf")) {
                allowed("rotate", err)?;
            }
            return Ok(outcome);
        }
    };
    let merged = work.join("merged.pdf");
    match merge(&[input, input], &["a", "b"], &merged) {
        Ok(written) if written.pages == 2 * n => expect_pages(&merged, "merge", 2 * n)?,
        Ok(written) => return Err(format!("merge: {} pages for 2 x {n}", written.pages)),
        Err(err) => return allowed("merge", err),
    }
    let parts = work.join("parts");
    std::fs::create_dir(&parts).map_err(|e| e.to_string())?;
    match split(input, &SplitMode::Every(1), "part", &parts) {
        Ok(written) if written.len() == n as usize => {
            for part in &written {
                expect_pages(&part.path, "split", 1)?;
            }
        }
        Ok(written) => return Err(format!("split: {} parts for {n} pages", written.len())),
        Err(err) => return allowed("split", err),
    }
    let rotated = work.join("rotated.pdf");
    match rotate(input, 90, None, &rotated) {
        Ok(_) => expect_pages(&rotated, "rotate", n)?,
        Err(err) => return allowed("rotate", err),
    }
    let reversed: Vec<Slot> = (1..=n).rev().map(Slot::Page).collect();
    let organized = work.join("organized.pdf");
    match organize(input, &reversed, &organized) {
        Ok(written) if written.pages == n => expect_pages(&organized, "organize", n)?,
        Ok(written) => return Err(format!("organize: {} pages for {n}", written.pages)),
        Err(err) => return allowed("organize", err),
    }
    Ok(Outcome::Done)
}

#[test]
fn every_corpus_file_through_every_tool() {
    let files = corpus();
    println!("corpus: {} files seen", files.len());
    if files.is_empty() {
        println!("corpus absent (.cache/pdf-corpus, .cache/compress-corpus): skipped");
        return;
    }
    let mut outcomes = BTreeMap::new();
    let mut failures = Vec::new();
    for (name, path) in &files {
        let work = tempfile::tempdir().unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| run(path, work.path())));
        match result {
            Ok(Ok(outcome)) => {
                outcomes.insert(name.as_str(), outcome);
            }
            Ok(Err(failure)) => failures.push(format!("{name}: {failure}")),
            Err(_) => failures.push(format!("{name}: panicked")),
        }
    }
    let count = |wanted: Outcome| outcomes.values().filter(|o| **o == wanted).count();
    println!(
        "corpus: {} done, {} invalid, {} encrypted, {} failed",
        count(Outcome::Done),
        count(Outcome::Invalid),
        count(Outcome::Encrypted),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    // Known files, when present: a cyclic outline is no reason to refuse a file, an empty user
    // password opens by itself, a real one does not.
    let expected = [
        ("pikepdf__tests__resources__cyclic-toc.pdf", Outcome::Done),
        ("pikepdf__tests__resources__outlines.pdf", Outcome::Done),
        (
            "pypdf__resources__encryption__r2-empty-password.pdf",
            Outcome::Done,
        ),
        (
            "pypdf__resources__encryption__r6-empty-password.pdf",
            Outcome::Done,
        ),
        (
            "pypdf__resources__encryption__r2-user-password.pdf",
            Outcome::Encrypted,
        ),
        (
            "pypdf__resources__encryption__r6-both-passwords.pdf",
            Outcome::Encrypted,
        ),
        (
            "pikepdf__tests__resources__graph-encrypted.pdf",
            Outcome::Encrypted,
        ),
    ];
    for (name, outcome) in expected {
        if let Some(seen) = outcomes.get(name) {
            assert_eq!(*seen, outcome, "{name}");
        }
    }
}
