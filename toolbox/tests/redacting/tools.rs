//! The independent judges of the redaction tests: poppler's pdftotext for the text and where
//! each word is, qpdf for the file's structure and for its bytes with every stream
//! decompressed.

use std::path::Path;
use std::process::Command;

/// Whether the tools run here; when they do not, the caller skips with a note.
pub fn available(test: &str) -> bool {
    let found = ["pdftotext", "qpdf"].iter().all(|tool| {
        Command::new(tool)
            .arg("-v")
            .output()
            .is_ok_and(|out| out.status.success() || !out.stderr.is_empty())
    });
    if !found {
        eprintln!("note: pdftotext or qpdf is not installed: {test} is skipped");
    }
    found
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The text of one page (1-based), or of all pages.
pub fn text(file: &Path, page: Option<u32>) -> String {
    let mut args: Vec<String> = Vec::new();
    if let Some(page) = page {
        args.extend(["-f".into(), page.to_string(), "-l".into(), page.to_string()]);
    }
    args.extend([path(file).to_string(), "-".to_string()]);
    let out = Command::new("pdftotext").args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "pdftotext fails on {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A word as pdftotext -bbox places it: on the displayed page, from its top-left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub page: u32,
    pub text: String,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

/// Every word of the file, page by page.
pub fn words(file: &Path) -> Vec<Word> {
    let out = Command::new("pdftotext")
        .args(["-bbox", path(file), "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "pdftotext -bbox fails on {}",
        file.display()
    );
    let html = String::from_utf8_lossy(&out.stdout);
    let mut words = Vec::new();
    let mut page = 0;
    for line in html.lines() {
        let line = line.trim();
        if line.starts_with("<page ") {
            page += 1;
        }
        let Some(rest) = line.strip_prefix("<word ") else {
            continue;
        };
        let attribute = |name: &str| -> f64 {
            let start = rest.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            let end = start + rest[start..].find('"').unwrap();
            rest[start..end].parse().unwrap()
        };
        let text_start = rest.find('>').unwrap() + 1;
        let text_end = rest.rfind("</word>").unwrap();
        words.push(Word {
            page,
            text: rest[text_start..text_end]
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\""),
            x0: attribute("xMin"),
            y0: attribute("yMin"),
            x1: attribute("xMax"),
            y1: attribute("yMax"),
        });
    }
    words
}

/// The word `text` on `page`, which must be there once.
pub fn word(words: &[Word], page: u32, text: &str) -> Word {
    let found: Vec<&Word> = words
        .iter()
        .filter(|w| w.page == page && w.text == text)
        .collect();
    assert_eq!(found.len(), 1, "\"{text}\" on page {page}: {words:?}");
    found[0].clone()
}

/// Asserts that `word` stands where `before` stood (within a hundredth of a point).
pub fn same_place(before: &Word, after: &Word) {
    let close = |a: f64, b: f64| (a - b).abs() < 0.01;
    assert!(
        close(before.x0, after.x0)
            && close(before.x1, after.x1)
            && close(before.y0, after.y0)
            && close(before.y1, after.y1),
        "\"{}\" moved: {before:?} -> {after:?}",
        before.text
    );
}

/// `qpdf --check`: the file is sound (warnings allowed, errors not).
pub fn check(file: &Path) {
    let out = Command::new("qpdf")
        .args(["--check", path(file)])
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 3,
        "qpdf --check fails on {}: {}{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The file's bytes with every stream decompressed and no object streams (qpdf's QDF form).
pub fn qdf(file: &Path) -> Vec<u8> {
    let target = file.with_extension("qdf.pdf");
    let out = Command::new("qpdf")
        .args([
            "--qdf",
            "--object-streams=disable",
            "--decode-level=all",
            path(file),
            path(&target),
        ])
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 3,
        "qpdf --qdf fails on {}",
        file.display()
    );
    std::fs::read(&target).unwrap()
}

/// Whether `haystack` holds `needle`, ASCII letters compared without regard to case.
pub fn holds(haystack: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Whether pdftotext reads the file at all (some corpus files it refuses).
pub fn readable(file: &Path) -> bool {
    Command::new("pdftotext")
        .args(["-l", "1", path(file), "/dev/null"])
        .output()
        .is_ok_and(|out| out.status.success())
}
