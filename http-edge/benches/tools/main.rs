//! `scripts/bench.sh tools`: the web toolbox through a real `quire serve` (HTTP, session and
//! anti-CSRF token, gRPC, clamd scan of every input, the worker) against the reference tools
//! on the same files, in the same run: the page tools against the qpdf CLI (pages.rs),
//! redaction of a 30-page text PDF (redact.rs), PDF/A against Ghostscript's -dPDFA=2
//! (pdfa.rs). QUIRE_BENCH_ONLY=pages|redact|pdfa runs one part.

#[path = "../common/mod.rs"]
mod common;
mod pages;
#[path = "../../../tests/src/pdf_fixtures.rs"]
#[allow(dead_code)]
mod pdf_fixtures;
mod pdfa;
mod redact;
mod web;

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

use common::Server;
use web::{WEB_EMAIL, WebSession};

fn main() -> anyhow::Result<()> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/compress-corpus");
    anyhow::ensure!(
        corpus.join(".done").exists(),
        "no corpus in {}: run scripts/setup.sh --corpus",
        corpus.display()
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "pdf"));
    files.sort();
    // Files qpdf itself cannot read are left out of both sides.
    files.retain(|f| qpdf(&[f.as_os_str().to_str().unwrap_or_default(), "--check"]).is_ok());

    let data = tempfile::tempdir()?;
    let clamd = std::env::var("QUIRE_CLAMD").unwrap_or_else(|_| "tcp://127.0.0.1:3312".into());
    let server = Server::start(data.path(), &[("QUIRE_CLAMD", clamd)], "upload")?;
    let web = WebSession::sign_up(&server)?;
    // Pro: the run makes more calls than a Free day allows.
    let plan = Command::new(env!("CARGO_BIN_EXE_quire"))
        .env("QUIRE_DATA_DIR", data.path())
        .args([
            "admin", "account", "set-plan", "--email", WEB_EMAIL, "--plan", "pro",
        ])
        .output()?;
    anyhow::ensure!(
        plan.status.success(),
        "set-plan failed: {}",
        String::from_utf8_lossy(&plan.stderr)
    );
    let only = std::env::var("QUIRE_BENCH_ONLY").unwrap_or_default();
    let part = |name: &str| only.is_empty() || only == name;
    if part("pages") {
        pages::run(&web, &files)?;
    }
    if part("redact") {
        redact::run(&web)?;
    }
    if part("pdfa") {
        pdfa::run(&web, &files)?;
    }
    Ok(())
}

pub fn s(path: &Path) -> &str {
    path.to_str().unwrap_or_default()
}

pub fn report(tool: &str, files: usize, (quire, qpdf): (f64, f64)) {
    println!(
        "{tool:<8} {files:>6} {quire:>12.2} {qpdf:>12.2} {:>7.2}×",
        quire / qpdf
    );
}

pub fn timed(f: impl FnOnce() -> anyhow::Result<()>) -> anyhow::Result<f64> {
    let start = Instant::now();
    f()?;
    Ok(start.elapsed().as_secs_f64())
}

/// qpdf as its manual runs it; exit code 3 is "succeeded with warnings" (a repaired file).
pub fn qpdf(args: &[&str]) -> anyhow::Result<()> {
    let out = Command::new("qpdf").args(args).output()?;
    anyhow::ensure!(
        matches!(out.status.code(), Some(0 | 3)),
        "qpdf {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}
