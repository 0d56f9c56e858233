//! The per-preset summary of the corpus compression (compress_corpus.rs): Quire and
//! Ghostscript side by side, and the goals; then the sizes and times per directory.

use std::ops::Range;

use crate::compress_corpus::{Outcome, PAGES, Row};

/// Ghostscript's output "still looks like the input" from this PSNR on, over its worst page.
const LOOKS_LIKE_DB: f64 = 30.0;
/// A file over this many times gs's size fails the goal (unless gs's pages lost the look).
const TOO_BIG: f64 = 1.25;

/// The per-preset figures, Quire and gs side by side.
pub fn summary(preset: &str, rows: &[Row]) {
    let gs_failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.3.bytes.is_none())
        .map(|r| r.0.as_str())
        .collect();
    let quire_failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.2.bytes.is_none())
        .map(|r| r.0.as_str())
        .collect();
    // Ratios and totals over the files both tools compressed.
    let both: Vec<_> = rows
        .iter()
        .filter(|r| r.2.bytes.is_some() && r.3.bytes.is_some())
        .collect();
    let total = |f: &dyn Fn(&Row) -> u64| both.iter().map(|r| f(r)).sum::<u64>() as f64 / 1e6;
    let (input, quire, gs) = (
        total(&|r| r.1),
        total(&|r| r.2.bytes.unwrap_or(0)),
        total(&|r| r.3.bytes.unwrap_or(0)),
    );
    let mut ratios: Vec<(f64, &str, &Outcome)> = both
        .iter()
        .filter_map(|r| ratio(&r.2, &r.3).map(|x| (x, r.0.as_str(), &r.3)))
        .collect();
    ratios.sort_by(|a, b| b.0.total_cmp(&a.0));
    let median_ratio = median(&ratios.iter().map(|r| r.0).collect::<Vec<_>>());
    let worst = ratios
        .iter()
        .take(3)
        .map(|(r, name, _)| format!("{name} {r:.2}x"))
        .collect::<Vec<_>>()
        .join(", ");
    let over: Vec<_> = ratios.iter().filter(|r| r.0 > TOO_BIG).collect();
    let gs_looks = |o: &Outcome| min(&o.psnr).is_some_and(|db| db >= LOOKS_LIKE_DB);
    let failing: Vec<_> = over.iter().filter(|r| gs_looks(r.2)).collect();
    // Of those, the files whose form gs dropped: its pages look right, the document does not
    // (Quire keeps every field and the fonts named to type in them).
    let form_dropped: Vec<_> = failing.iter().filter(|r| r.2.dropped_fields()).collect();
    let unknown = over.iter().filter(|r| r.2.psnr.is_empty()).count();
    let pages = |pick: &dyn Fn(&Row) -> &Outcome| {
        let all: Vec<f64> = both.iter().flat_map(|r| pick(r).psnr.clone()).collect();
        let files = both.iter().filter(|r| !pick(r).psnr.is_empty()).count();
        (median(&all), min(&all), all.len(), files)
    };
    let (quire_med, quire_min, quire_pages, quire_files) = pages(&|r| &r.2);
    let (gs_med, gs_min, gs_pages, gs_files) = pages(&|r| &r.3);
    let quire_s: f64 = both.iter().map(|r| r.2.seconds).sum();
    let gs_s: f64 = both.iter().map(|r| r.3.seconds).sum();
    println!("\n{preset}: {} files compressed by both", both.len());
    println!(
        "  total size: input {input:.1} MB, quire {quire:.1} MB, gs {gs:.1} MB ({:.2}x gs)",
        quire / gs
    );
    println!(
        "  per-file quire/gs ratio: median {:.2}, worst {worst}",
        median_ratio.unwrap_or(f64::NAN)
    );
    println!(
        "  over {TOO_BIG}x gs: {} files; {} of them where gs's pages still look like the input \
         (worst page >= {LOOKS_LIKE_DB} dB){}: {}",
        over.len(),
        failing.len(),
        if unknown > 0 {
            format!(", {unknown} not comparable")
        } else {
            String::new()
        },
        failing
            .iter()
            .map(|r| match r.2.fields {
                Some((kept, had)) if kept < had => {
                    format!("{} (gs kept {kept} of its {had} form fields)", r.1)
                }
                _ => r.1.to_owned(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  PSNR of luma vs input, per page (first {PAGES} pages at 50 dpi): quire median {} min {} \
         ({quire_pages} pages of {quire_files} files), gs median {} min {} ({gs_pages} pages of \
         {gs_files} files)",
        fmt_db(quire_med),
        fmt_db(quire_min),
        fmt_db(gs_med),
        fmt_db(gs_min)
    );
    println!(
        "  time, one file after another: quire {quire_s:.1} s, gs {gs_s:.1} s ({:.2}x gs)",
        quire_s / gs_s
    );
    if !gs_failed.is_empty() {
        println!("  gs failed (left out): {}", gs_failed.join(", "));
    }
    if !quire_failed.is_empty() {
        println!("  quire failed (left out): {}", quire_failed.join(", "));
    }
    println!(
        "  goal: size <= 1.00x gs {}, median <= 1.0 {}, none over {TOO_BIG}x where gs looks \
         right {}{}, time <= 0.20x gs {}",
        verdict(quire <= gs),
        verdict(median_ratio.is_some_and(|m| m <= 1.0)),
        verdict(failing.is_empty()),
        if form_dropped.is_empty() {
            String::new()
        } else {
            format!(
                " ({} of them a form gs dropped; without those {})",
                form_dropped.len(),
                verdict(failing.len() == form_dropped.len())
            )
        },
        verdict(quire_s <= 0.2 * gs_s)
    );
}

/// Sizes and times of each part of the run (a corpus directory, the generated photos: `parts`
/// gives each one's range in `rows`), over the files both tools compressed, to tell whether the
/// overall figures hold in each.
pub fn part_totals(parts: &[(String, Range<usize>)], rows: &[Row]) {
    println!("  per directory (files compressed by both):");
    for (name, range) in parts {
        let both: Vec<&Row> = rows[range.clone()]
            .iter()
            .filter(|r| r.2.bytes.is_some() && r.3.bytes.is_some())
            .collect();
        let total = |f: &dyn Fn(&Row) -> u64| both.iter().map(|r| f(r)).sum::<u64>() as f64 / 1e6;
        let (input, quire, gs) = (
            total(&|r| r.1),
            total(&|r| r.2.bytes.unwrap_or(0)),
            total(&|r| r.3.bytes.unwrap_or(0)),
        );
        let ratios: Vec<f64> = both.iter().filter_map(|r| ratio(&r.2, &r.3)).collect();
        let quire_s: f64 = both.iter().map(|r| r.2.seconds).sum();
        let gs_s: f64 = both.iter().map(|r| r.3.seconds).sum();
        println!(
            "    {name}: {} of {} files, input {input:.1} MB, quire {quire:.1} MB, gs {gs:.1} MB \
             ({:.2}x gs), median ratio {:.2}; time quire {quire_s:.1} s, gs {gs_s:.1} s \
             ({:.2}x gs)",
            both.len(),
            range.len(),
            quire / gs,
            median(&ratios).unwrap_or(f64::NAN),
            quire_s / gs_s
        );
    }
}

pub fn ratio(quire: &Outcome, gs: &Outcome) -> Option<f64> {
    Some(quire.bytes? as f64 / gs.bytes?.max(1) as f64)
}

pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        n if n % 2 == 0 => Some((sorted[mid - 1] + sorted[mid]) / 2.0),
        _ => Some(sorted[mid]),
    }
}

pub fn min(values: &[f64]) -> Option<f64> {
    values.iter().copied().reduce(f64::min)
}

pub fn opt(value: Option<u64>) -> String {
    value.map_or(String::new(), |v| v.to_string())
}

pub fn fmt_db(value: Option<f64>) -> String {
    value.map_or("-".to_owned(), |v| format!("{v:.1}"))
}

pub fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}
