//! What the flatten tests share: the test document (`fixture`) and poppler, which reads the
//! outputs back (pdftotext) and renders them (pdftoppm).
#![allow(dead_code, clippy::unwrap_used)]

pub mod fixture;

use std::path::Path;
use std::process::Command;

/// Whether poppler's pdftotext and pdftoppm run here; says so when they do not.
pub fn poppler(test: &str) -> bool {
    let found = ["pdftotext", "pdftoppm"]
        .iter()
        .all(|tool| Command::new(tool).arg("-v").output().is_ok());
    if !found {
        eprintln!("note: poppler-utils not installed: {test} skips its poppler checks");
    }
    found
}

/// The text of one page (1-based), in reading order; `None` when poppler cannot read it.
pub fn page_text(pdf: &Path, page: u32) -> Option<String> {
    let page = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-f", &page, "-l", &page])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The text of the whole file; `None` when poppler cannot read it.
pub fn text(pdf: &Path) -> Option<String> {
    let output = Command::new("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// A gray render: width, height and one byte per pixel.
pub struct Gray {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

/// One page (1-based) rendered by `pdftoppm -r 30 -gray`, annotations drawn.
pub fn render(pdf: &Path, page: u32, work: &Path) -> Gray {
    try_render(pdf, page, work).unwrap_or_else(|| panic!("pdftoppm failed on {}", pdf.display()))
}

/// As [`render`]; `None` when poppler cannot render the page.
pub fn try_render(pdf: &Path, page: u32, work: &Path) -> Option<Gray> {
    let page = page.to_string();
    let name = format!(
        "render-{}-{page}",
        pdf.file_stem().unwrap().to_string_lossy()
    );
    let prefix = work.join(&name);
    let status = Command::new("pdftoppm")
        .args(["-r", "30", "-gray", "-singlefile", "-f", &page, "-l", &page])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    if !status.success() {
        return None;
    }
    let bytes = std::fs::read(work.join(format!("{name}.pgm"))).ok()?;
    // "P5" width height maxval, separated by whitespace, one more whitespace byte, pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    assert_eq!(fields[3], "255");
    let (width, height) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = bytes[at + 1..].to_vec();
    assert_eq!(pixels.len(), width * height);
    Some(Gray {
        width,
        height,
        pixels,
    })
}

/// The mean absolute difference per pixel, in 1/255 units, of two renders of the same size.
pub fn difference(a: &Gray, b: &Gray) -> f64 {
    assert_eq!(
        (a.width, a.height),
        (b.width, b.height),
        "page sizes differ"
    );
    let total: u64 = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.pixels.len() as f64
}

/// Text with its whitespace removed, for comparing what poppler lays out differently.
pub fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}
