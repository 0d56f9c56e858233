//! The processing engines as users see them (HTTP API of a real `quire serve`, release build,
//! one worker per core), side by side with the reference tools on the same generated inputs in
//! the same run. Goals (issue #3):
//! - OCR of a text image (fra+eng): <= 0.7x the wall time of `tesseract` (OMP_THREAD_LIMIT=1),
//!   character error rate within 0.5 point of it; a 4-page scanned PDF: <= 0.5x
//!   `pdftoppm -r 300 -gray` + `tesseract` per page.
//! - PDF to PNG, 30 mixed pages at 150 dpi: <= 0.5x `mutool draw -r 150` (and below pdftoppm).
//! - Compression of image-heavy PDFs (screen, ebook, printer): size <= Ghostscript's
//!   `-dPDFSETTINGS=/<preset>`, time <= 0.2x its time, PSNR of the rendered pages >= its PSNR
//!   minus 0.5 dB.
//! - Compression of a real-world corpus (compress_corpus.rs), per preset screen, ebook, printer:
//!   total size <= Ghostscript's, median per-file size ratio <= 1.0, no file over 1.25x gs's
//!   size where gs's pages still look like the input, time <= 0.2x gs.
//!
//! `scripts/bench.sh process` installs the reference tools (tesseract-ocr, poppler-utils,
//! mupdf-tools, ghostscript, libjpeg-turbo-progs, qpdf) and the corpus, and runs
//! `cargo bench -p quire-edge --bench process`; QUIRE_BENCH_ONLY=ocr|scan|render|compress|corpus
//! runs one part.

use std::{path::Path, process::Command, time::Instant};

#[path = "../common/mod.rs"]
mod common;
mod compress;
mod compress_corpus;
mod corpus_summary;
mod ocr;
#[path = "../../../tests/src/pdf_fixtures.rs"]
mod pdf_fixtures;
mod render;

use common::{Server, post_form};

/// Runs of each measurement; the best is kept (the machine's noise only ever adds time).
const RUNS: usize = 3;

fn main() -> anyhow::Result<()> {
    let work = tempfile::tempdir()?;
    let dir = work.path();
    let server = Server::start(&dir.join("data"), &[], "upload")?;
    println!(
        "workers: one per core ({} cores)",
        std::thread::available_parallelism()?
    );
    // QUIRE_BENCH_ONLY=ocr|scan|render|compress|corpus runs one part.
    let only = std::env::var("QUIRE_BENCH_ONLY").unwrap_or_default();
    let part = |name: &str| only.is_empty() || only == name;
    if part("ocr") {
        ocr::ocr_images(&server, dir)?;
    }
    if part("scan") {
        ocr::ocr_scanned_pdf(&server, dir)?;
    }
    if part("render") {
        render::pdf_to_images(&server, dir)?;
    }
    if part("compress") {
        compress::compression(&server, dir)?;
    }
    if part("corpus") {
        compress_corpus::corpus(&server, dir)?;
    }
    Ok(())
}

/// Best time of Ghostscript's pdfwrite with `-dPDFSETTINGS=/<preset>` and `extra` options.
fn ghostscript(preset: &str, input: &Path, output: &Path, extra: &[&str]) -> anyhow::Result<f64> {
    let (time, _) = best(|| {
        run(Command::new("gs")
            .args(["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite"])
            .arg(format!("-dPDFSETTINGS=/{preset}"))
            .args(extra)
            .arg(format!("-sOutputFile={}", output.display()))
            .arg(input))
    })?;
    Ok(time)
}

/// Best wall time of `RUNS` runs of `f`, and its last result.
fn best<T>(mut f: impl FnMut() -> anyhow::Result<T>) -> anyhow::Result<(f64, T)> {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let value = f()?;
        best = best.min(start.elapsed().as_secs_f64());
        last = Some(value);
    }
    Ok((best, last.expect("RUNS > 0")))
}

fn run(command: &mut Command) -> anyhow::Result<()> {
    let out = command.output()?;
    anyhow::ensure!(
        out.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(())
}

/// Every page rendered by pdftoppm at 100 dpi, as RGB bytes.
fn render_pages(pdf: &Path, dir: &Path, name: &str) -> anyhow::Result<Vec<Vec<u8>>> {
    let prefix = dir.join(format!("render-{name}"));
    run(Command::new("pdftoppm")
        .args(["-r", "100", "-png"])
        .arg(pdf)
        .arg(&prefix))?;
    let mut pages = Vec::new();
    for page in 1.. {
        let path = dir.join(format!("render-{name}-{page}.png"));
        if !path.exists() {
            break;
        }
        pages.push(image::open(&path)?.into_rgb8().into_raw());
        std::fs::remove_file(path)?;
    }
    anyhow::ensure!(
        !pages.is_empty(),
        "pdftoppm rendered no page of {}",
        pdf.display()
    );
    Ok(pages)
}

fn psnr(reference: &[Vec<u8>], pages: &[Vec<u8>]) -> f64 {
    assert_eq!(reference.len(), pages.len(), "same page count");
    let (mut squared, mut count) = (0f64, 0f64);
    for (a, b) in reference.iter().zip(pages) {
        for (x, y) in a.iter().zip(b) {
            let d = f64::from(*x) - f64::from(*y);
            squared += d * d;
            count += 1.0;
        }
    }
    if squared == 0.0 {
        return f64::INFINITY;
    }
    10.0 * (255.0 * 255.0 / (squared / count)).log10()
}
