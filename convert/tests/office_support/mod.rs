//! Shared by the office tests: fixtures (written by office_fixtures.py with Python's standard
//! library), an engine per test, and poppler's readers for the PDFs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use quire_convert::Limits;
use quire_convert::office::{Office, OfficeConfig, is_available};

pub const GENEROUS: Limits = Limits {
    time: Duration::from_secs(180),
    memory: 3 << 30,
};

/// A fresh Office whose profiles live in `dir`; fails the test when LibreOffice is missing
/// (the setup script installs it).
pub fn office(dir: &Path) -> Office {
    let config = OfficeConfig {
        profile_root: dir.join("profiles"),
        ..OfficeConfig::default()
    };
    assert!(
        is_available(&config),
        "LibreOffice is missing: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui \
         libreoffice-impress-nogui python3-uno"
    );
    Office::new(config)
}

/// Writes a fixture of `kind` holding `word`, returns its path.
pub fn fixture(dir: &Path, kind: &str, word: &str, link: Option<&str>) -> PathBuf {
    let extension = kind.split('-').next().expect("kind");
    let path = dir.join(format!("{word}.{extension}"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/office_fixtures.py");
    let mut command = Command::new("/usr/bin/python3");
    command.arg(script).arg(kind).arg(&path).arg(word);
    if let Some(link) = link {
        command.arg(link);
    }
    let status = command.status().expect("python3 runs");
    assert!(status.success(), "fixture {kind} not written");
    path
}

/// The PDF's text (poppler's pdftotext).
pub fn pdf_text(pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(out.status.success(), "pdftotext rejects {}", pdf.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The PDF's page count (poppler's pdfinfo).
pub fn pdf_pages(pdf: &Path) -> u32 {
    let out = Command::new("pdfinfo")
        .arg(pdf)
        .output()
        .expect("pdfinfo (poppler-utils) runs");
    assert!(out.status.success(), "pdfinfo rejects {}", pdf.display());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("a page count")
}

/// Whether `pid` runs (exists and is no zombie).
pub fn is_live(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|rest| rest.split_whitespace().next());
    state.is_some_and(|s| s != "Z" && s != "X")
}

/// Live (not zombie) processes whose command line mentions `needle`.
pub fn live_processes_mentioning(needle: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains(needle) {
            continue;
        }
        if is_live(pid) {
            found.push(pid);
        }
    }
    found
}
