//! Redaction of a 30-page text PDF through the toolbox: one search (a name and the e-mail
//! preset) applied without review, with every check of the output (PDFium's text and rendering,
//! the byte search). No reference tool: the issue asks for the time.

use std::path::Path;

use crate::{
    pdf_fixtures::{A4, text_pdf},
    timed,
    web::WebSession,
};

const PAGES: usize = 30;
const RUNS: usize = 3;

pub fn run(web: &WebSession) -> anyhow::Result<()> {
    let out = tempfile::tempdir()?;
    let dir = out.path();
    let input = dir.join("thirty.pdf");
    std::fs::write(&input, thirty_pages())?;
    let output = dir.join("out.pdf");
    let fields = [
        "action=apply",
        "searchAll=on",
        r#"terms=["Jane Doe"]"#,
        "presetEmail=on",
        "label=REDACTED",
        "cleanDocument=on",
    ];
    let mut times = Vec::new();
    for _ in 0..RUNS {
        times.push(timed(|| web.run("redact", &fields, &[&input], &output))?);
    }
    times.sort_by(f64::total_cmp);
    let median = times[RUNS / 2];
    println!(
        "\nRedaction of a {PAGES}-page text PDF (a name and every e-mail address, 2 hits a page, \
         verified): median of {RUNS} runs {median:.2} s ({:.0} ms a page), output {} KB",
        median * 1000.0 / PAGES as f64,
        std::fs::metadata(Path::new(&output))?.len() / 1000
    );
    Ok(())
}

fn thirty_pages() -> Vec<u8> {
    let pages: Vec<Vec<String>> = (1..=PAGES)
        .map(|page| {
            (1..=36)
                .map(|line| match line {
                    5 => format!("Ticket {page}: Jane Doe reported the outage at 09:{line:02}"),
                    20 => format!("Reply to jane.doe{page}@example.com before noon"),
                    _ => format!(
                        "Line {line} of page {page}: the service answered in {} ms",
                        line * 7
                    ),
                })
                .collect()
        })
        .collect();
    let pages: Vec<Vec<&str>> = pages
        .iter()
        .map(|p| p.iter().map(String::as_str).collect())
        .collect();
    let pages: Vec<&[&str]> = pages.iter().map(Vec::as_slice).collect();
    text_pdf(&pages, A4)
}
