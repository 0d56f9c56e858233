//! Warm LibreOffice against a cold `soffice --convert-to pdf` per file, side by side:
//! `cargo bench -p quire-convert --bench office`. Files: the generated ones (as in the tests)
//! plus, with QUIRE_OFFICE_CORPUS=<dir> (scripts/corpus/office.sh), up to
//! QUIRE_OFFICE_BENCH_MAX (default 12) of that corpus. The cold run gets a fresh profile per
//! file, as a user running the command would; the warm engine is started once, untimed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use quire_convert::Limits;
use quire_convert::office::{Office, OfficeConfig, is_available};

const KINDS: &[&str] = &["docx", "odt", "rtf", "xlsx", "ods", "pptx", "odp"];

fn main() {
    let config = OfficeConfig::default();
    if !is_available(&config) {
        eprintln!("LibreOffice is missing: nothing to bench");
        std::process::exit(1);
    }
    let work = tempfile::tempdir().expect("temp dir");
    let files = files(work.path());
    let soffice = config.program_dir.join("soffice");
    let mut office = Office::new(OfficeConfig {
        profile_root: work.path().join("profiles"),
        ..config
    });
    office.start().expect("the warm engine starts");
    let limits = Limits {
        time: Duration::from_secs(300),
        memory: 4 << 30,
    };

    println!(
        "{:<60} {:>10} {:>10} {:>7}",
        "file", "cold", "warm", "ratio"
    );
    let (mut cold_total, mut warm_total) = (Duration::ZERO, Duration::ZERO);
    for (n, file) in files.iter().enumerate() {
        let cold_dir = work.path().join(format!("cold-{n}"));
        let started = Instant::now();
        let status = Command::new(&soffice)
            .arg(format!(
                "-env:UserInstallation=file://{}/profile",
                cold_dir.display()
            ))
            .args(["--headless", "--convert-to", "pdf", "--outdir"])
            .arg(&cold_dir)
            .arg(file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("soffice runs");
        let cold = started.elapsed();
        let started = Instant::now();
        let warm_result = office.convert(file, &work.path().join(format!("warm-{n}.pdf")), limits);
        let warm = started.elapsed();
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let note = match (&warm_result, status.success()) {
            (Ok(_), true) => String::new(),
            (warm, cold) => format!(
                "  (cold ok: {cold}, warm: {:?})",
                warm.as_ref().map(|c| c.kind)
            ),
        };
        println!(
            "{:<60} {:>9.2}s {:>9.3}s {:>7.3}{note}",
            shorten(&name),
            cold.as_secs_f64(),
            warm.as_secs_f64(),
            warm.as_secs_f64() / cold.as_secs_f64()
        );
        cold_total += cold;
        warm_total += warm;
    }
    println!(
        "total: {} files, cold {:.2} s, warm {:.2} s, warm/cold = {:.3}",
        files.len(),
        cold_total.as_secs_f64(),
        warm_total.as_secs_f64(),
        warm_total.as_secs_f64() / cold_total.as_secs_f64()
    );
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/office_fixtures.py");
    let mut files: Vec<PathBuf> = KINDS
        .iter()
        .map(|kind| {
            let path = dir.join(format!("generated.{kind}"));
            let status = Command::new("/usr/bin/python3")
                .arg(&script)
                .args([kind, path.to_str().expect("utf-8"), "BenchWord"])
                .status()
                .expect("python3 runs");
            assert!(status.success(), "fixture {kind}");
            path
        })
        .collect();
    if let Some(corpus) = std::env::var_os("QUIRE_OFFICE_CORPUS") {
        let max = std::env::var("QUIRE_OFFICE_BENCH_MAX")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(12);
        let mut found: Vec<PathBuf> = std::fs::read_dir(corpus)
            .expect("QUIRE_OFFICE_CORPUS is a directory")
            .flatten()
            .map(|e| e.path())
            .collect();
        found.sort();
        // Every n-th file, so that the formats and sizes mix.
        let step = (found.len() / max.max(1)).max(1);
        files.extend(found.into_iter().step_by(step).take(max));
    }
    files
}

fn shorten(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= 60 {
        name.to_owned()
    } else {
        chars[chars.len() - 60..].iter().collect()
    }
}
