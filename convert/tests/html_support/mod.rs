//! Shared by the html-to-pdf tests: a real Chromium, uploads made on the fly, and poppler's
//! tools as the independent readers of the PDFs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use async_zip::base::write::ZipFileWriter;
use async_zip::{Compression, ZipEntryBuilder};
use quire_convert::Limits;
use quire_convert::chromium::{Chromium, ChromiumConfig, PrintOptions, Printed, Source};
use tempfile::TempDir;

pub const LIMITS: Limits = Limits {
    time: Duration::from_secs(60),
    memory: 4 << 30,
};

pub struct Bench {
    pub chromium: Chromium,
    pub dir: TempDir,
    jobs: u32,
}

impl Bench {
    pub fn new() -> Bench {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = ChromiumConfig::debian(dir.path().join("profiles"));
        assert!(
            quire_convert::chromium::is_available(&config),
            "chromium is not installed"
        );
        Bench {
            chromium: Chromium::new(config),
            dir,
            jobs: 0,
        }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Writes `input` as `name`, prints it; the PDF's path with the result.
    pub fn print(
        &mut self,
        name: &str,
        input: &[u8],
        source: Source,
        options: &PrintOptions,
        limits: Limits,
    ) -> (Result<Printed, quire_convert::ConvertError>, PathBuf) {
        self.jobs += 1;
        let input_path = self.path(name);
        std::fs::write(&input_path, input).expect("write input");
        let work = self.path(&format!("work-{}", self.jobs));
        std::fs::create_dir_all(&work).expect("work dir");
        let output = self.path(&format!("out-{}.pdf", self.jobs));
        let result = self
            .chromium
            .print(&input_path, source, &work, options, &output, limits);
        (result, output)
    }
}

/// A ZIP of (name, bytes, unix mode) entries, deflated.
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    zip_with_modes(
        &entries
            .iter()
            .map(|&(n, b)| (n, b, None))
            .collect::<Vec<_>>(),
    )
}

pub fn zip_with_modes(entries: &[(&str, &[u8], Option<u16>)]) -> Vec<u8> {
    futures::executor::block_on(async {
        let mut writer = ZipFileWriter::new(Vec::<u8>::new());
        for &(name, bytes, mode) in entries {
            let mut entry = ZipEntryBuilder::new(name.to_string().into(), Compression::Deflate);
            if let Some(mode) = mode {
                entry = entry.unix_permissions(mode);
            }
            writer
                .write_entry_whole(entry, bytes)
                .await
                .expect("zip entry");
        }
        writer.close().await.expect("zip close")
    })
}

/// A `width`×`height` PNG of one colour.
pub fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("png header");
    let data: Vec<u8> = (0..width * height).flat_map(|_| rgb).collect();
    writer.write_image_data(&data).expect("png data");
    writer.finish().expect("png finish");
    bytes
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e} (install poppler-utils)"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn pdftotext(pdf: &Path) -> String {
    run("pdftotext", &[pdf.to_str().expect("utf-8 path"), "-"])
}

/// Page size in points, from pdfinfo's "Page size: 612 x 792 pts (letter)".
pub fn page_size(pdf: &Path) -> (f64, f64) {
    let info = run("pdfinfo", &[pdf.to_str().expect("utf-8 path")]);
    let line = info
        .lines()
        .find(|l| l.starts_with("Page size:"))
        .expect("page size line");
    let numbers: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

/// pdfinfo's "Tagged: yes".
pub fn tagged(pdf: &Path) -> bool {
    let info = run("pdfinfo", &[pdf.to_str().expect("utf-8 path")]);
    info.lines()
        .any(|l| l.starts_with("Tagged:") && l.ends_with("yes"))
}

pub fn pages(pdf: &Path) -> u32 {
    let info = run("pdfinfo", &[pdf.to_str().expect("utf-8 path")]);
    let line = info
        .lines()
        .find(|l| l.starts_with("Pages:"))
        .expect("pages line");
    line.split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("page count")
}

/// (width, height) of each image `pdfimages -list` shows.
pub fn images(pdf: &Path) -> Vec<(u32, u32)> {
    let list = run("pdfimages", &["-list", pdf.to_str().expect("utf-8 path")]);
    list.lines()
        .skip(2)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            Some((fields.get(3)?.parse().ok()?, fields.get(4)?.parse().ok()?))
        })
        .collect()
}

/// The colour of the first page at (x, y) given as fractions of its width and height,
/// rendered by pdftoppm at 20 dpi.
pub fn pixel(pdf: &Path, x: f64, y: f64) -> [u8; 3] {
    let dir = tempfile::tempdir().expect("tempdir");
    let prefix = dir.path().join("page");
    run(
        "pdftoppm",
        &[
            "-r",
            "20",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            pdf.to_str().expect("path"),
            prefix.to_str().expect("path"),
        ],
    );
    let ppm = std::fs::read(dir.path().join("page.ppm")).expect("ppm");
    // P6 <w> <h> <max>\n then RGB bytes.
    let mut fields = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while fields.len() < 4 {
        if ppm[i].is_ascii_whitespace() {
            if i > start {
                fields.push(String::from_utf8_lossy(&ppm[start..i]).into_owned());
            }
            start = i + 1;
        }
        i += 1;
    }
    let width: usize = fields[1].parse().expect("width");
    let height: usize = fields[2].parse().expect("height");
    let px = ((x * width as f64) as usize).min(width - 1);
    let py = ((y * height as f64) as usize).min(height - 1);
    let at = i + (py * width + px) * 3;
    [ppm[at], ppm[at + 1], ppm[at + 2]]
}
