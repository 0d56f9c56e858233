//! The compressor alone, with no service around it: for looking at what a preset does to a
//! given PDF (`RUST_LOG=quire_compress=debug` logs each image's encodings), or for timing it
//! on a whole corpus.
//!
//! `cargo run --release -p quire-compress --example squeeze -- IN.pdf OUT.pdf [screen|ebook|printer|prepress]`
//!
//! With a directory as IN, every `*.pdf` in it is compressed into the directory OUT, for each
//! preset given (all three benchmarked ones when none is): one line per file (name, preset,
//! seconds, input and output bytes) and a total per preset.

use std::path::{Path, PathBuf};
use std::time::Instant;

use quire_compress::{Preset, compress};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = args.as_slice() else {
        eprintln!(
            "usage: squeeze IN.pdf|IN_DIR OUT.pdf|OUT_DIR [screen|ebook|printer|prepress]..."
        );
        std::process::exit(2);
    };
    let presets: Vec<(&str, Preset)> = rest
        .iter()
        .map(|name| (name.as_str(), preset(name)))
        .collect();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let input = Path::new(input);
    if input.is_dir() {
        let presets = if presets.is_empty() {
            vec![
                ("screen", Preset::Screen),
                ("ebook", Preset::Ebook),
                ("printer", Preset::Printer),
            ]
        } else {
            presets
        };
        corpus(input, Path::new(output), &presets);
        return;
    }
    let preset = presets.first().map_or(Preset::Ebook, |p| p.1);
    let started = Instant::now();
    match compress(input, output.as_ref(), preset, 1 << 28) {
        Ok(size) => println!(
            "{}: {} -> {size} bytes in {:.3} s",
            input.display(),
            std::fs::metadata(input).map_or(0, |m| m.len()),
            started.elapsed().as_secs_f64()
        ),
        Err(error) => {
            eprintln!("{}: {error}", input.display());
            std::process::exit(1);
        }
    }
}

fn preset(name: &str) -> Preset {
    match name {
        "screen" => Preset::Screen,
        "ebook" => Preset::Ebook,
        "printer" => Preset::Printer,
        "prepress" => Preset::Prepress,
        other => {
            eprintln!("unknown preset {other}");
            std::process::exit(2);
        }
    }
}

/// Every PDF of `dir`, sorted by name so that two runs list files in the same order.
fn corpus(dir: &Path, out: &Path, presets: &[(&str, Preset)]) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "pdf"));
    files.sort();
    if let Err(error) = std::fs::create_dir_all(out) {
        eprintln!("cannot create {}: {error}", out.display());
        std::process::exit(1);
    }
    for (name, preset) in presets {
        let mut total = 0.0;
        for file in &files {
            let Some(stem) = file.file_name() else {
                continue;
            };
            let target = out.join(format!("{name}__{}", stem.to_string_lossy()));
            let started = Instant::now();
            let result = compress(file, &target, *preset, 1 << 28);
            let seconds = started.elapsed().as_secs_f64();
            total += seconds;
            let before = std::fs::metadata(file).map_or(0, |m| m.len());
            match result {
                Ok(size) => println!(
                    "{}\t{name}\t{seconds:.3}\t{before}\t{size}",
                    stem.to_string_lossy()
                ),
                Err(error) => println!(
                    "{}\t{name}\t{seconds:.3}\t{before}\terror: {error}",
                    stem.to_string_lossy()
                ),
            }
        }
        println!("TOTAL\t{name}\t{total:.3}");
    }
}
