//! The toolbox's tools from the command line, timed, for comparing against qpdf:
//!
//! ```text
//! tools merge OUT IN1 IN2...
//! tools split IN OUTDIR SPEC        (SPEC: ranges "1-3,5", "every:N" or "bookmarks")
//! tools rotate IN OUT DEGREES [PAGES]
//! tools organize IN OUT SLOTS       (SLOTS: "3,1,1,blank,2")
//! tools profile IN                  (lopdf's load, page walk, prune and save, timed apart)
//! ```

use std::path::Path;
use std::time::Instant;

use quire_toolbox::{Slot, SplitMode};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or_else(|| usage());
    let started = Instant::now();
    let summary = match arg(0) {
        "merge" => {
            let inputs: Vec<&Path> = args[2..].iter().map(Path::new).collect();
            let titles: Vec<&str> = inputs
                .iter()
                .map(|p| p.file_stem().and_then(|s| s.to_str()).unwrap_or("input"))
                .collect();
            quire_toolbox::merge(&inputs, &titles, Path::new(arg(1)))
                .map(|w| format!("{} pages", w.pages))
        }
        "split" => {
            let spec = arg(3);
            let mode = if spec == "bookmarks" {
                SplitMode::Bookmarks
            } else if let Some(n) = spec.strip_prefix("every:") {
                SplitMode::Every(n.parse().unwrap_or_else(|_| usage()))
            } else {
                SplitMode::Ranges(spec.to_string())
            };
            let input = Path::new(arg(1));
            let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or("part");
            quire_toolbox::split(input, &mode, stem, Path::new(arg(2)))
                .map(|parts| format!("{} parts", parts.len()))
        }
        "rotate" => {
            let degrees = arg(3).parse().unwrap_or_else(|_| usage());
            quire_toolbox::rotate(
                Path::new(arg(1)),
                degrees,
                args.get(4).map(String::as_str),
                Path::new(arg(2)),
            )
            .map(|w| format!("{} pages", w.pages))
        }
        "organize" => {
            let slots: Vec<Slot> = arg(3)
                .split(',')
                .map(|s| match s.trim() {
                    "blank" => Slot::Blank,
                    n => Slot::Page(n.parse().unwrap_or_else(|_| usage())),
                })
                .collect();
            quire_toolbox::organize(Path::new(arg(1)), &slots, Path::new(arg(2)))
                .map(|w| format!("{} pages", w.pages))
        }
        "profile" => {
            profile(Path::new(arg(1)));
            return;
        }
        _ => usage(),
    };
    let elapsed = started.elapsed();
    match summary {
        Ok(summary) => println!("{summary} in {:.1} ms", elapsed.as_secs_f64() * 1000.0),
        Err(err) => {
            eprintln!("error: {err}");
            std::process::exit(1);
        }
    }
}

/// Where the time goes in lopdf: reading and parsing every object, finding the pages, pruning,
/// and writing with object streams.
fn profile(input: &Path) {
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1000.0;
    let t = Instant::now();
    let Ok(mut doc) = lopdf::Document::load(input) else {
        eprintln!("error: not a readable PDF");
        std::process::exit(1);
    };
    let load = ms(t);
    let t = Instant::now();
    let pages = doc.get_pages().len();
    let walk = ms(t);
    let t = Instant::now();
    doc.prune_objects();
    let prune = ms(t);
    let t = Instant::now();
    let mut sink = Vec::new();
    let options = lopdf::SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .compression_level(6)
        .build();
    if doc.save_with_options(&mut sink, options).is_err() {
        eprintln!("error: cannot write");
        std::process::exit(1);
    }
    let save = ms(t);
    println!(
        "{pages} pages, {} objects: load {load:.1} ms, pages {walk:.2} ms, prune {prune:.2} ms, save {save:.1} ms",
        doc.objects.len()
    );
}

fn usage() -> ! {
    eprintln!(
        "usage: tools merge OUT IN1 IN2... | split IN OUTDIR SPEC | rotate IN OUT DEGREES [PAGES] | organize IN OUT SLOTS | profile IN"
    );
    std::process::exit(2);
}
