//! What the PDF guard costs: for each PDF given (or each `*.pdf` in a directory), the time
//! `pdf_limits::check` takes beside the time lopdf takes to load the same file (what every
//! lopdf tool does first), and what the guard saw.
//!
//! `cargo run --release -p quire-compress --example limits -- FILE.pdf|DIR...`

use std::path::PathBuf;
use std::time::Instant;

use quire_compress::pdf_limits;

fn main() {
    let mut files: Vec<PathBuf> = Vec::new();
    for arg in std::env::args().skip(1) {
        let path = PathBuf::from(arg);
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
                .expect("readable directory")
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdf")))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path);
        }
    }
    let (mut guard_total, mut load_total, mut bytes_total) = (0.0, 0.0, 0u64);
    println!("file\tbytes\tguard_ms\tlopdf_load_ms\tobjects\tstreams\tdecoded\tverdict");
    for file in &files {
        let data = std::fs::read(file).expect("readable file");
        let started = Instant::now();
        let verdict = pdf_limits::check(&data);
        let guard = started.elapsed().as_secs_f64() * 1000.0;
        let started = Instant::now();
        let loaded = lopdf::Document::load_mem(&data).is_ok();
        let load = started.elapsed().as_secs_f64() * 1000.0;
        let survey = verdict.clone().unwrap_or_default();
        println!(
            "{}\t{}\t{guard:.1}\t{load:.1}{}\t{}\t{}\t{}\t{}",
            file.file_name().unwrap_or_default().to_string_lossy(),
            data.len(),
            if loaded { "" } else { " (failed)" },
            survey.objects,
            survey.streams,
            survey.decoded,
            match verdict {
                Ok(_) => "ok".to_owned(),
                Err(refusal) => refusal.to_string(),
            }
        );
        guard_total += guard;
        load_total += load;
        bytes_total += data.len() as u64;
    }
    println!(
        "total: {} files, {bytes_total} bytes, guard {guard_total:.0} ms, lopdf load {load_total:.0} ms",
        files.len()
    );
}
