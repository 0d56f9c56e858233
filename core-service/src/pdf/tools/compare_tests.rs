//! compare, end to end: PDFs made here and real-world ones, the report read back as JSON.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use super::compare::{DEFAULT_DPI, compare};
use super::testing::{BLANK, FAINT_LINE, IMAGE, TEXT, corpus, make_pdf, with_pdfium};
use crate::workers::protocol::{Failure, FailureKind, ToolFile};

const MAX_PIXELS: u64 = 100_000_000;
const QUICK: &str = "BT /F1 24 Tf 72 600 Td (Pack my box with five dozen quick liquor jugs) Tj ET";
const SLOW: &str = "BT /F1 24 Tf 72 600 Td (Pack my box with five dozen slow liquor jugs) Tj ET";

fn run(a: &Path, b: &Path, out: &Path) -> Result<Vec<ToolFile>, Failure> {
    with_pdfium(|p| {
        compare(
            p,
            a.to_str().expect("utf-8"),
            b.to_str().expect("utf-8"),
            DEFAULT_DPI,
            out,
            MAX_PIXELS,
        )
    })
}

fn read_report(files: &[ToolFile]) -> Value {
    assert_eq!(files[0].name, "report.json");
    let text = std::fs::read(&files[0].path).expect("report written");
    serde_json::from_slice(&text).expect("the report is JSON")
}

#[test]
fn finds_the_changed_word_and_the_added_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a.pdf"), dir.path().join("b.pdf"));
    make_pdf(&a, &[TEXT, QUICK]);
    make_pdf(&b, &[TEXT, SLOW, IMAGE]);
    let out = tempfile::tempdir().expect("temp dir");
    let files = run(&a, &b, out.path()).expect("compared");
    let names: Vec<_> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["report.json", "page-002.png"]);
    let report = read_report(&files);
    assert_eq!(report["pagesA"], 2);
    assert_eq!(report["pagesB"], 3);
    assert_eq!(report["changedPages"], json!([2, 3]));
    let pages = report["pages"].as_array().expect("pages");
    assert_eq!(pages.len(), 3);

    assert_eq!(pages[0]["page"], 1);
    assert_eq!(pages[0]["status"], "same");
    assert_eq!(pages[0]["pixelsChanged"], 0.0);
    assert_eq!(pages[0]["diff"], json!([]));
    assert_eq!(pages[0]["image"], Value::Null);

    assert_eq!(pages[1]["status"], "changed");
    assert_eq!(pages[1]["image"], "page-002.png");
    assert_eq!(
        pages[1]["diff"],
        json!([
            {"op": "same", "text": "Pack my box with five dozen "},
            {"op": "removed", "text": "quick"},
            {"op": "added", "text": "slow"},
            {"op": "same", "text": " liquor jugs"},
        ])
    );
    let share = pages[1]["pixelsChanged"].as_f64().expect("a number");
    assert!(share > 0.0005 && share < 0.05, "{share}");

    assert_eq!(pages[2]["status"], "added");
    assert_eq!(pages[2]["pixelsChanged"], 1.0);
    assert_eq!(pages[2]["image"], Value::Null);

    let picture = image::open(&files[1].path).expect("a PNG").to_rgb8();
    // Two A4 pages at 72 dpi and the gap: 595 + 16 + 595.
    assert_eq!(picture.dimensions(), (1206, 842));
    // Red on A's side, green on B's, nowhere else.
    let red = |[r, g, b]: [u8; 3]| r > 200 && g < 120 && b < 120;
    let green = |[r, g, b]: [u8; 3]| g > 150 && r < 120 && b < 120;
    let reds = picture
        .enumerate_pixels()
        .filter(|(x, _, p)| *x < 595 && red(p.0));
    let greens = picture
        .enumerate_pixels()
        .filter(|(x, _, p)| *x > 611 && green(p.0));
    assert!(
        !picture
            .enumerate_pixels()
            .any(|(x, _, p)| (x < 595 && green(p.0)) || (x > 611 && red(p.0)))
    );
    assert!(reds.count() > 20);
    assert!(greens.count() > 20);
}

#[test]
fn pixels_alone_can_change_a_page_and_faint_noise_cannot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (a, b) = (dir.path().join("a.pdf"), dir.path().join("b.pdf"));
    make_pdf(&a, &[BLANK, BLANK]);
    make_pdf(&b, &[FAINT_LINE, IMAGE]);
    let out = tempfile::tempdir().expect("temp dir");
    let report = read_report(&run(&a, &b, out.path()).expect("compared"));
    assert_eq!(report["changedPages"], json!([2]));
    assert_eq!(report["pages"][0]["status"], "same");
    assert_eq!(report["pages"][1]["diff"], json!([]));
    let share = report["pages"][1]["pixelsChanged"]
        .as_f64()
        .expect("a number");
    assert!(share > 0.15 && share < 0.2, "{share}");
    // Pages only A has are removed.
    let out = tempfile::tempdir().expect("temp dir");
    make_pdf(&b, &[TEXT]);
    let report = read_report(&run(&a, &b, out.path()).expect("compared"));
    assert_eq!(report["pages"][1]["status"], "removed");
    assert_eq!(report["changedPages"], json!([1, 2]));
}

#[test]
fn refuses_bad_input_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("good.pdf");
    make_pdf(&good, &[TEXT]);
    let bad = dir.path().join("bad.pdf");
    std::fs::write(&bad, b"%PDF-1.7 and nothing else").expect("written");
    let out = tempfile::tempdir().expect("temp dir");
    let failure = run(&good, &bad, out.path()).unwrap_err();
    assert_eq!(failure.kind, FailureKind::InvalidFile as i32);
    assert!(
        failure.message.starts_with("second file: "),
        "{}",
        failure.message
    );
    let failure = with_pdfium(|p| {
        let good = good.to_str().expect("utf-8");
        compare(p, good, good, 301, out.path(), MAX_PIXELS)
    })
    .unwrap_err();
    assert_eq!(failure.kind, FailureKind::BadOptions as i32);
    assert!(
        failure.message.contains("from 36 to 300"),
        "{}",
        failure.message
    );
}

#[test]
fn real_world_pdfs_are_the_same_as_themselves() {
    with_pdfium(|p| {
        for path in corpus() {
            let out = tempfile::tempdir().expect("temp dir");
            let pdf = path.to_str().expect("utf-8");
            let files = compare(p, pdf, pdf, DEFAULT_DPI, out.path(), MAX_PIXELS)
                .unwrap_or_else(|f| panic!("{}: {f:?}", path.display()));
            assert_eq!(files.len(), 1, "{}", path.display());
            let report = read_report(&files);
            assert_eq!(report["changedPages"], json!([]), "{}", path.display());
            let pages = report["pages"].as_array().expect("pages");
            assert_eq!(
                pages.len() as u64,
                report["pagesA"].as_u64().expect("count")
            );
            assert!(pages.iter().all(|page| page["status"] == "same"));
        }
    });
}

/// `cargo test -p quire-core --lib pdf::tools -- --ignored --nocapture`
#[test]
#[ignore = "timing, by hand"]
fn timing_of_ten_pages_against_themselves() {
    let pdf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../.cache/compress-corpus/fonts-sil-gentiumplus__features.pdf");
    if !pdf.is_file() {
        return;
    }
    let out = tempfile::tempdir().expect("temp dir");
    let start = Instant::now();
    let files = run(&pdf, &pdf, out.path()).expect("compared");
    eprintln!(
        "compare: {} pages in {:?}",
        read_report(&files)["pagesA"],
        start.elapsed()
    );
}
