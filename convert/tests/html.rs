//! html-to-pdf with a real Chromium: the page's text, image and stylesheet in the PDF, Markdown,
//! the paper options, and the browser kept warm between jobs.

mod html_support;

use html_support::{Bench, LIMITS, images, page_size, pdftotext, pixel, png, tagged, zip};
use quire_convert::ConvertError;
use quire_convert::chromium::{Paper, PrintOptions, Source};

const PAGE: &str = r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="css/style.css"></head>
<body><h1 class="title">Quarterly report</h1>
<p>Revenue grew in every region, café included.</p>
<img src="img/chart.png" width="320" height="240">
<img src="img/absent.png">
</body></html>"#;

const STYLE: &str =
    r#".title::before { content: "Styled-by-CSS "; } body { font-family: sans-serif; }"#;

#[test]
fn a_zipped_site_prints_with_its_text_image_and_stylesheet() {
    let mut bench = Bench::new();
    let chart = png(64, 48, [200, 30, 30]);
    let upload = zip(&[
        ("index.html", PAGE.as_bytes()),
        ("css/style.css", STYLE.as_bytes()),
        ("img/chart.png", &chart),
    ]);
    let (printed, pdf) = bench.print(
        "site.zip",
        &upload,
        Source::Zip,
        &PrintOptions::default(),
        LIMITS,
    );
    let printed = printed.expect("printed");

    let text = pdftotext(&pdf);
    assert!(text.contains("Quarterly report"), "{text}");
    assert!(
        text.contains("café included"),
        "the page's UTF-8 text: {text}"
    );
    assert!(
        text.contains("Styled-by-CSS"),
        "the stylesheet applied: {text}"
    );
    assert!(
        images(&pdf).contains(&(64, 48)),
        "the PNG in the PDF: {:?}",
        images(&pdf)
    );
    assert_eq!(printed.missing, vec!["img/absent.png".to_string()]);
    assert!(printed.blocked.is_empty(), "{:?}", printed.blocked);
}

#[test]
fn a_site_in_a_single_top_folder_and_a_lone_markdown_file_are_found() {
    let mut bench = Bench::new();
    let upload = zip(&[
        ("report/index.html", b"<p>Inside the folder</p>"),
        ("report/notes.txt", b"x"),
    ]);
    let (printed, pdf) = bench.print(
        "folder.zip",
        &upload,
        Source::Zip,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.expect("printed");
    assert!(pdftotext(&pdf).contains("Inside the folder"));

    let upload = zip(&[
        ("docs/README.md", b"# Zipped notes\n\n![dot](dot.png)\n"),
        ("docs/dot.png", &png(8, 8, [0, 0, 0])),
    ]);
    let (printed, pdf) = bench.print(
        "notes.zip",
        &upload,
        Source::Zip,
        &PrintOptions::default(),
        LIMITS,
    );
    let printed = printed.expect("printed");
    assert!(pdftotext(&pdf).contains("Zipped notes"));
    assert!(
        printed.missing.is_empty(),
        "the image next to the Markdown: {:?}",
        printed.missing
    );
}

#[test]
fn markdown_with_a_table_and_a_heading() {
    let mut bench = Bench::new();
    let markdown = "# Inventory\n\n| Item | Count |\n|------|------:|\n| Widgets | 42 |\n| Gadgets | 7 |\n\n- [x] counted\n";
    let (printed, pdf) = bench.print(
        "inventory.md",
        markdown.as_bytes(),
        Source::Markdown,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.expect("printed");
    let text = pdftotext(&pdf);
    for word in ["Inventory", "Widgets", "42", "Gadgets", "counted"] {
        assert!(text.contains(word), "{word} in {text}");
    }
}

#[test]
fn paper_size_orientation_and_background() {
    let mut bench = Bench::new();
    let page = b"<html><body style=\"background: rgb(0, 0, 255)\"><p>Blue</p></body></html>";
    let letter = PrintOptions {
        paper: Paper::Letter,
        margin_mm: 0.0,
        tagged: true,
        ..PrintOptions::default()
    };
    let (printed, pdf) = bench.print("a.html", page, Source::Html, &letter, LIMITS);
    printed.expect("letter");
    let (w, h) = page_size(&pdf);
    assert!(
        (w - 612.0).abs() < 1.0 && (h - 792.0).abs() < 1.0,
        "letter: {w} x {h}"
    );
    let [r, g, b] = pixel(&pdf, 0.5, 0.5);
    assert!(
        b > 200 && r < 60 && g < 60,
        "background printed: {r} {g} {b}"
    );
    assert!(tagged(&pdf), "a tagged PDF when asked");

    let a4_landscape = PrintOptions {
        paper: Paper::A4,
        landscape: true,
        margin_mm: 0.0,
        background: false,
        ..PrintOptions::default()
    };
    let (printed, pdf) = bench.print("a.html", page, Source::Html, &a4_landscape, LIMITS);
    printed.expect("a4");
    let (w, h) = page_size(&pdf);
    assert!(
        (w - 841.9).abs() < 1.5 && (h - 595.3).abs() < 1.5,
        "a4 landscape: {w} x {h}"
    );
    let [r, g, b] = pixel(&pdf, 0.5, 0.5);
    assert!(r > 240 && g > 240 && b > 240, "no background: {r} {g} {b}");
    assert!(!tagged(&pdf), "untagged by default");
}

#[test]
fn the_browser_stays_warm_between_jobs() {
    let mut bench = Bench::new();
    bench.chromium.start().expect("start");
    let pid = bench.chromium.pid().expect("running");
    for n in 0..3 {
        let page = format!("<p>Job number {n}</p>");
        let (printed, pdf) = bench.print(
            "job.html",
            page.as_bytes(),
            Source::Html,
            &PrintOptions::default(),
            LIMITS,
        );
        printed.expect("printed");
        assert!(pdftotext(&pdf).contains(&format!("Job number {n}")));
        assert_eq!(
            bench.chromium.pid(),
            Some(pid),
            "the same browser printed job {n}"
        );
        if n == 1 {
            // As a worker does when idle: the next job gets a page made ready.
            bench.chromium.start().expect("ready a page");
        }
    }
}

#[test]
fn jobs_share_no_cookies_or_storage() {
    let mut bench = Bench::new();
    let writer = b"<script>document.cookie='seen=yes; path=/'; localStorage.setItem('seen','yes');</script><p>wrote</p>";
    let (printed, _) = bench.print(
        "w.html",
        writer,
        Source::Html,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.expect("writer");
    let reader = b"<p id=o></p><script>document.getElementById('o').textContent = 'cookie=[' + document.cookie + '] storage=[' + localStorage.getItem('seen') + ']';</script>";
    let (printed, pdf) = bench.print(
        "r.html",
        reader,
        Source::Html,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.expect("reader");
    let text = pdftotext(&pdf);
    assert!(text.contains("cookie=[] storage=[null]"), "{text}");
}

#[test]
fn options_out_of_range_are_refused_before_printing() {
    let mut bench = Bench::new();
    let options = PrintOptions {
        margin_mm: 80.0,
        ..PrintOptions::default()
    };
    let (printed, _) = bench.print("a.html", b"<p>x</p>", Source::Html, &options, LIMITS);
    assert!(
        matches!(printed, Err(ConvertError::BadOptions(_))),
        "{printed:?}"
    );
    assert_eq!(
        bench.chromium.pid(),
        None,
        "nothing started for refused options"
    );
}
