//! Reading outputs back with poppler: text, word positions, and renderings.

use std::path::Path;
use std::process::Command;

/// One page's text (1-based), as `pdftotext` reads it.
pub fn text(pdf: &Path, page: usize) -> String {
    let page = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-f", &page, "-l", &page])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each word of one page (1-based) with its centre, in points from the top-left corner.
pub fn words(pdf: &Path, page: usize) -> Vec<(String, f64, f64)> {
    let page = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-bbox", "-f", &page, "-l", &page])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(output.status.success());
    let html = String::from_utf8_lossy(&output.stdout).into_owned();
    let attribute = |tag: &str, name: &str| -> f64 {
        let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        let end = start + tag[start..].find('"').unwrap();
        tag[start..end].parse().unwrap()
    };
    html.lines()
        .map(str::trim)
        .filter(|line| line.starts_with("<word "))
        .map(|line| {
            let text = line
                .split_once('>')
                .unwrap()
                .1
                .split_once("</word>")
                .unwrap()
                .0;
            let x = (attribute(line, "xMin") + attribute(line, "xMax")) / 2.0;
            let y = (attribute(line, "yMin") + attribute(line, "yMax")) / 2.0;
            (text.to_string(), x, y)
        })
        .collect()
}

/// A page rendered in gray: width, height, one byte a pixel.
pub struct Gray {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
    pub dpi: f64,
}

pub fn render(pdf: &Path, page: usize, dpi: u32) -> Gray {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("page");
    let page = page.to_string();
    let status = Command::new("pdftoppm")
        .args([
            "-gray",
            "-singlefile",
            "-r",
            &dpi.to_string(),
            "-f",
            &page,
            "-l",
            &page,
        ])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(status.success(), "pdftoppm failed on {}", pdf.display());
    let data = std::fs::read(prefix.with_extension("pgm")).unwrap();
    // "P5\n<width> <height>\n255\n" then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while data[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !data[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&data[start..at]).into_owned());
    }
    let (width, height) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    Gray {
        width,
        height,
        pixels: data[at + 1..].to_vec(),
        dpi: f64::from(dpi),
    }
}

impl Gray {
    /// The box, in points from the top-left corner, of the pixels whose gray is in `grays`.
    pub fn ink(&self, grays: std::ops::Range<u8>) -> Option<[f64; 4]> {
        let mut found: Option<[usize; 4]> = None;
        for y in 0..self.height {
            for x in 0..self.width {
                if grays.contains(&self.pixels[y * self.width + x]) {
                    let b = found.get_or_insert([x, y, x, y]);
                    *b = [b[0].min(x), b[1].min(y), b[2].max(x + 1), b[3].max(y + 1)];
                }
            }
        }
        let scale = 72.0 / self.dpi;
        found.map(|b| b.map(|v| v as f64 * scale))
    }
}
