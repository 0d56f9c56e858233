//! PDF/A-2b through the toolbox against Ghostscript's `-dPDFA=2`, run as its manual says
//! (`PDFA_def.ps` with the sRGB profile's path filled in, `-sColorConversionStrategy=RGB`,
//! `-dPDFACompatibilityPolicy=1`), on the same real-world files in the same run. Every output
//! of both is then judged by pikepdf's PDF/A validator. Goal: Quire passes at least as many
//! files, at ≤ 0.5× Ghostscript's time.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use crate::{s, timed, web::WebSession};

/// Debian's libgs-common, which Ghostscript depends on.
const SRGB: &str = "/usr/share/color/icc/ghostscript/srgb.icc";
/// A file that takes longer than this in either tool counts as failed on that side.
const TIMEOUT_S: &str = "120";

pub fn run(web: &WebSession, files: &[PathBuf]) -> anyhow::Result<()> {
    let out = tempfile::tempdir()?;
    let dir = out.path();
    let definition = pdfa_def(dir)?;
    let (mut quire, mut gs) = (Side::default(), Side::default());
    for (index, file) in files.iter().enumerate() {
        let q = dir.join(format!("q{index}.pdf"));
        match timed(|| web.run("pdfa", &["level=2b"], &[file], &q)) {
            Ok(seconds) => quire.done(seconds, &q),
            Err(e) => {
                quire.refused += 1;
                eprintln!("quire refused {}: {e}", file.display());
            }
        }
        let g = dir.join(format!("g{index}.pdf"));
        match timed(|| ghostscript(&definition, file, &g)) {
            Ok(seconds) => gs.done(seconds, &g),
            Err(_) => gs.refused += 1,
        }
    }
    quire.passed = judged(&quire.outputs)?;
    gs.passed = judged(&gs.outputs)?;
    println!(
        "\nPDF/A-2b on {} real-world PDFs (.cache/compress-corpus): Quire (HTTP, session, scan, \
         worker, own validation) and Ghostscript -dPDFA=2; both judged by pikepdf's validator",
        files.len()
    );
    println!(
        "{:<12} {:>8} {:>8} {:>14} {:>10} {:>12}",
        "tool", "written", "refused", "pikepdf passes", "seconds", "total MB"
    );
    for (name, side) in [("quire", &quire), ("ghostscript", &gs)] {
        println!(
            "{name:<12} {:>8} {:>8} {:>14} {:>10.2} {:>12.2}",
            side.outputs.len(),
            side.refused,
            side.passed,
            side.seconds,
            side.bytes as f64 / 1e6
        );
    }
    println!(
        "time: {:.2}× Ghostscript's (goal ≤ 0.5×); passes: {} against {} (goal: at least as many)",
        quire.seconds / gs.seconds,
        quire.passed,
        gs.passed
    );
    Ok(())
}

#[derive(Default)]
struct Side {
    outputs: Vec<PathBuf>,
    refused: usize,
    passed: usize,
    seconds: f64,
    bytes: u64,
}

impl Side {
    fn done(&mut self, seconds: f64, output: &Path) {
        self.seconds += seconds;
        self.bytes += std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
        self.outputs.push(output.to_path_buf());
    }
}

/// Ghostscript's PDFA_def.ps with the profile's full path, as its manual asks; its sample
/// title is left out so the document keeps its own.
fn pdfa_def(dir: &Path) -> anyhow::Result<PathBuf> {
    let found = Command::new("sh")
        .args([
            "-c",
            "ls /usr/share/ghostscript/*/lib/PDFA_def.ps | head -n 1",
        ])
        .output()?;
    let original = String::from_utf8(found.stdout)?.trim().to_owned();
    anyhow::ensure!(
        !original.is_empty(),
        "PDFA_def.ps not found: install ghostscript"
    );
    let text = std::fs::read_to_string(&original)?
        .replace("[ /Title (Title)       % Customise\n  /DOCINFO pdfmark", "")
        .replace("(srgb.icc)", &format!("({SRGB})"));
    let path = dir.join("PDFA_def.ps");
    std::fs::write(&path, text)?;
    Ok(path)
}

fn ghostscript(definition: &Path, input: &Path, output: &Path) -> anyhow::Result<()> {
    let out = Command::new("timeout")
        .args([TIMEOUT_S, "gs", "-q", "-dPDFA=2", "-dBATCH", "-dNOPAUSE"])
        .arg(format!("--permit-file-read={SRGB}"))
        .args([
            "-sColorConversionStrategy=RGB",
            "-sDEVICE=pdfwrite",
            "-dPDFACompatibilityPolicy=1",
        ])
        .arg(format!("-sOutputFile={}", s(output)))
        .arg(definition)
        .arg(input)
        .output()?;
    anyhow::ensure!(out.status.success() && output.exists(), "gs failed");
    Ok(())
}

/// How many of `files` pikepdf's PDF/A-2b validator passes (one Python process for all).
fn judged(files: &[PathBuf]) -> anyhow::Result<usize> {
    if files.is_empty() {
        return Ok(0);
    }
    let python = concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/venv/bin/python");
    let script = "import sys, pikepdf.pdfa as a\n\
                  print(sum(a.validate_written(p, '2b').passed for p in sys.argv[1:]))";
    let out = Command::new(python)
        .args(["-c", script])
        .args(files)
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "pikepdf's validator failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8(out.stdout)?.trim().parse()?)
}
