//! The compressor alone on one file, with no service around it: for looking at what a preset
//! does to a given PDF (`RUST_LOG=quire_compress=debug` logs each image's encodings).
//!
//! `cargo run --release -p quire-compress --example squeeze -- IN.pdf OUT.pdf [screen|ebook|printer|prepress]`

use std::time::Instant;

use quire_compress::{Preset, compress};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = args.as_slice() else {
        eprintln!("usage: squeeze IN.pdf OUT.pdf [screen|ebook|printer|prepress]");
        std::process::exit(2);
    };
    let preset = match rest.first().map_or("ebook", String::as_str) {
        "screen" => Preset::Screen,
        "ebook" => Preset::Ebook,
        "printer" => Preset::Printer,
        "prepress" => Preset::Prepress,
        other => {
            eprintln!("unknown preset {other}");
            std::process::exit(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let started = Instant::now();
    match compress(input.as_ref(), output.as_ref(), preset, 1 << 28) {
        Ok(size) => println!(
            "{input}: {} -> {size} bytes in {:.3} s",
            std::fs::metadata(input).map_or(0, |m| m.len()),
            started.elapsed().as_secs_f64()
        ),
        Err(error) => {
            eprintln!("{input}: {error}");
            std::process::exit(1);
        }
    }
}
