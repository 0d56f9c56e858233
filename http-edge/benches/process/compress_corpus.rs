//! Compression of real-world PDFs (.cache/compress-corpus, and .cache/compress-corpus-more when
//! present: issue 36's further PDFs, which the tests do not read; both fetched by
//! `scripts/setup.sh --corpus`: see scripts/fetch_corpus.py and each corpus's manifest.tsv) plus
//! a few generated photo PDFs, through `POST /api/v1/process/compress-pdf` and through
//! Ghostscript's pdfwrite with the same preset, in the same run; figures overall and per
//! directory. Goals for screen, ebook and printer: total size <= gs, median per-file size ratio
//! <= 1.0, no file over 1.25x gs's size where gs's pages still look like the input, time <= 0.2x
//! gs.
//!
//! Measured the simple way: one file after another for both (no concurrency, so Quire's one
//! worker per core only helps inside a file), one run each. Pages are compared as rendered by
//! pdftoppm at 50 dpi, the first `PAGES` of each file, when the page counts and sizes match.

use std::{
    collections::HashMap,
    fmt::Write as _,
    ops::Range,
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

use crate::{
    common::Server,
    corpus_summary::{fmt_db, median, min, opt, part_totals, ratio, summary},
    pdf_fixtures::{A4, photo_jpeg, photo_pdf},
    post_form, run,
};

/// The real-world corpora under .cache, and whether each must be there: the second is fetched
/// only by `scripts/setup.sh --corpus` (the tests' setup leaves it out).
const CORPORA: [(&str, bool); 2] = [("compress-corpus", true), ("compress-corpus-more", false)];

/// Pages rendered per file for the PSNR: enough to see each kind of page of a manual, few enough
/// that rendering stays a small part of the run.
pub const PAGES: usize = 8;

/// One rendered page: width, height, grey (luma) bytes: a third of RGB's memory for the whole
/// corpus's pages held at once, and the PSNR of luma is what the eye mostly judges.
type Page = (u32, u32, Vec<u8>);

/// One file with one preset: its name, its size, what Quire and Ghostscript made of it.
pub type Row = (String, u64, Outcome, Outcome);

/// What one tool made of one file with one preset.
#[derive(Default)]
pub struct Outcome {
    pub bytes: Option<u64>,
    pub seconds: f64,
    /// Per-page PSNR against the input; empty when the pages could not be compared.
    pub psnr: Vec<f64>,
    /// Form fields in the output and in the input (qpdf's count of terminal fields): gs's
    /// pdfwrite drops a form whole, which its pages do not show.
    pub fields: Option<(usize, usize)>,
    pub error: Option<String>,
}

impl Outcome {
    /// Whether the output lost form fields the input had.
    pub fn dropped_fields(&self) -> bool {
        self.fields.is_some_and(|(output, input)| output < input)
    }
}

pub fn corpus(server: &Server, dir: &Path) -> anyhow::Result<()> {
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache");
    // QUIRE_BENCH_CORPUS_SAMPLE=n keeps every n-th file of each corpus, for a quicker look.
    let sample: usize = std::env::var("QUIRE_BENCH_CORPUS_SAMPLE").map_or(Ok(1), |s| s.parse())?;
    let mut producers: HashMap<String, String> = HashMap::new();
    let mut files: Vec<PathBuf> = Vec::new();
    // Each part (a corpus directory, the generated photos) by its files' range in `files`, for
    // the per-directory figures.
    let mut parts: Vec<(String, Range<usize>)> = Vec::new();
    for (name, required) in CORPORA {
        let corpus = cache.join(name);
        if !corpus.join(".done").exists() {
            anyhow::ensure!(
                !required,
                "no corpus in {}: run scripts/setup.sh --corpus",
                corpus.display()
            );
            println!(
                "\nno corpus in {} (scripts/setup.sh --corpus fetches it): left out",
                corpus.display()
            );
            continue;
        }
        producers.extend(manifest(&corpus)?);
        let start = files.len();
        files.extend(pdfs(&corpus)?.into_iter().step_by(sample.max(1)));
        parts.push((format!(".cache/{name}"), start..files.len()));
    }
    let real = files.len();
    // Kept in target/ after the run, for a closer look with the compressor's `squeeze` example.
    let photos = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-photos");
    std::fs::create_dir_all(&photos)?;
    files.extend(synthetic_photos(&photos)?);
    parts.push(("generated photos".to_owned(), real..files.len()));
    let part_of = |i: usize| {
        parts
            .iter()
            .find(|(_, range)| range.contains(&i))
            .map_or("", |(name, _)| name.as_str())
    };
    let presets =
        std::env::var("QUIRE_BENCH_PRESETS").unwrap_or_else(|_| "screen,ebook,printer".to_owned());
    println!(
        "\nCompression of {real} real-world PDFs ({}{}) and {} generated photo PDFs, one file \
         after another, Quire (HTTP) and Ghostscript pdfwrite in the same run",
        parts[..parts.len() - 1]
            .iter()
            .map(|(name, range)| format!("{} of {name}", range.len()))
            .collect::<Vec<_>>()
            .join(", "),
        if sample > 1 {
            format!(", every {sample}th file of each")
        } else {
            String::new()
        },
        files.len() - real
    );
    let start = Instant::now();
    let inputs: Vec<Input> = files
        .iter()
        .map(|f| Input {
            pages: render(f, dir, "input").unwrap_or_default(),
            fields: form_fields(f),
        })
        .collect();
    let mut csv = String::from(
        "preset,file,corpus,producer,input_bytes,quire_bytes,gs_bytes,quire_gs_ratio,quire_s,\
         gs_s,quire_psnr_min,quire_psnr_median,gs_psnr_min,gs_psnr_median,quire_fields,\
         gs_fields,error\n",
    );
    for preset in presets.split(',') {
        let mut rows = Vec::new();
        for (i, (file, input)) in files.iter().zip(&inputs).enumerate() {
            let quire_pdf = dir.join("corpus-quire.pdf");
            let quire = measure(file, &quire_pdf, input, dir, |out| {
                post_form(
                    server,
                    "/api/v1/process/compress-pdf",
                    file,
                    &[&format!("quality={preset}")],
                    Some(out),
                )
                .map(drop)
            });
            let gs_pdf = dir.join("corpus-gs.pdf");
            let gs = measure(file, &gs_pdf, input, dir, |out| {
                // A timeout: Ghostscript can loop on a damaged file, and that is one more failure.
                run(Command::new("timeout")
                    .args([
                        "600",
                        "gs",
                        "-q",
                        "-dNOPAUSE",
                        "-dBATCH",
                        "-dSAFER",
                        "-sDEVICE=pdfwrite",
                    ])
                    .arg(format!("-dPDFSETTINGS=/{preset}"))
                    .arg("-o")
                    .arg(out)
                    .arg(file))
            });
            let name = file_name(file);
            let producer = producers.get(&name).cloned().unwrap_or_default();
            writeln!(
                csv,
                "{preset},{name},{},\"{}\",{},{},{},{},{:.3},{:.3},{},{},{},{},{},{},\"{}\"",
                part_of(i),
                producer.replace('"', "'"),
                std::fs::metadata(file)?.len(),
                opt(quire.bytes),
                opt(gs.bytes),
                ratio(&quire, &gs).map_or(String::new(), |r| format!("{r:.3}")),
                quire.seconds,
                gs.seconds,
                fmt_db(min(&quire.psnr)),
                fmt_db(median(&quire.psnr)),
                fmt_db(min(&gs.psnr)),
                fmt_db(median(&gs.psnr)),
                fields(&quire),
                fields(&gs),
                [&quire.error, &gs.error]
                    .iter()
                    .filter_map(|e| e.as_deref())
                    .collect::<Vec<_>>()
                    .join("; ")
                    .replace('"', "'"),
            )?;
            rows.push((name, std::fs::metadata(file)?.len(), quire, gs));
        }
        summary(preset, &rows);
        part_totals(&parts, &rows);
    }
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-compress-corpus.csv");
    std::fs::write(&table, csv)?;
    println!(
        "per-file table: {}; corpus part took {:.0} s",
        table.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What an output is compared with, read once per file for every preset and both tools.
struct Input {
    pages: Vec<Page>,
    fields: Option<usize>,
}

/// Runs `make` to write `out` from `input`, timing it, and compares the pages and form fields
/// with the input's.
fn measure(
    input: &Path,
    out: &Path,
    Input {
        pages: input_pages,
        fields: input_fields,
    }: &Input,
    dir: &Path,
    make: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> Outcome {
    let _ = std::fs::remove_file(out);
    let start = Instant::now();
    let made = make(out);
    let seconds = start.elapsed().as_secs_f64();
    if let Err(e) = made {
        let first_line = e.to_string().lines().next().unwrap_or_default().to_owned();
        return Outcome {
            seconds,
            error: Some(format!("{}: {first_line}", file_name(input))),
            ..Outcome::default()
        };
    }
    let bytes = std::fs::metadata(out).map(|m| m.len()).ok();
    let pages = render(out, dir, "output").unwrap_or_default();
    let comparable = !input_pages.is_empty()
        && pages.len() == input_pages.len()
        && pages
            .iter()
            .zip(input_pages)
            .all(|(a, b)| (a.0, a.1) == (b.0, b.1));
    let psnr = if comparable {
        pages
            .iter()
            .zip(input_pages)
            .map(|(a, b)| psnr(&a.2, &b.2))
            .collect()
    } else {
        Vec::new()
    };
    let fields = form_fields(out).zip(*input_fields);
    Outcome {
        bytes,
        seconds,
        psnr,
        fields,
        error: None,
    }
}

/// "kept/had" form fields, for the table.
fn fields(outcome: &Outcome) -> String {
    outcome
        .fields
        .map_or(String::new(), |(kept, had)| format!("{kept}/{had}"))
}

/// The terminal form fields of a PDF, as qpdf lists them.
fn form_fields(pdf: &Path) -> Option<usize> {
    let out = Command::new("qpdf")
        .args(["--json=2", "--json-key=acroform"])
        .arg(pdf)
        .output()
        .ok()?;
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    Some(json["acroform"]["fields"].as_array().map_or(0, Vec::len))
}

/// Three generated photo PDFs (what a phone or a scanner app makes): many, one big, small ones.
fn synthetic_photos(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let sets: [(&str, u32, u32, u64); 3] = [
        ("synthetic-photos-4x2400.pdf", 2400, 1700, 4),
        ("synthetic-photo-1x4000.pdf", 4000, 3000, 1),
        ("synthetic-photos-8x1200.pdf", 1200, 900, 8),
    ];
    sets.iter()
        .map(|&(name, width, height, count)| {
            let jpegs: Vec<_> = (0..count)
                .map(|i| photo_jpeg(width, height, 100 + i))
                .collect();
            let path = dir.join(name);
            std::fs::write(&path, photo_pdf(&jpegs, A4))?;
            Ok(path)
        })
        .collect()
}

/// The PDFs of a corpus directory, sorted by name.
fn pdfs(corpus: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "pdf"));
    files.sort();
    Ok(files)
}

/// File name to "producer / creator", from the corpus's manifest.tsv.
fn manifest(corpus: &Path) -> anyhow::Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(corpus.join("manifest.tsv"))?;
    Ok(text
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            Some((
                cols.first()?.to_string(),
                format!("{} / {}", cols.get(4)?, cols.get(5)?),
            ))
        })
        .collect())
}

/// The first `PAGES` pages of `pdf` rendered by pdftoppm at 50 dpi, in grey.
fn render(pdf: &Path, dir: &Path, name: &str) -> anyhow::Result<Vec<Page>> {
    let out = dir.join(format!("corpus-render-{name}"));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out)?;
    run(Command::new("pdftoppm")
        .args(["-r", "50", "-l", &PAGES.to_string(), "-png"])
        .arg(pdf)
        .arg(out.join("p")))?;
    // pdftoppm pads the page numbers to the width of the last one: sort by the number.
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(&out)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?.to_owned();
            Some((stem.strip_prefix("p-")?.parse().ok()?, p))
        })
        .collect();
    files.sort();
    files
        .iter()
        .map(|(_, path)| {
            let image = image::open(path)?.into_luma8();
            Ok((image.width(), image.height(), image.into_raw()))
        })
        .collect()
}

/// PSNR of one page, capped at 99 dB for identical pages so that medians stay finite.
fn psnr(a: &[u8], b: &[u8]) -> f64 {
    let squared: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| (f64::from(*x) - f64::from(*y)).powi(2))
        .sum();
    if squared == 0.0 {
        return 99.0;
    }
    (10.0 * (255.0 * 255.0 / (squared / a.len() as f64)).log10()).min(99.0)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
