//! "Never worse": `POST /api/v1/process/compress-pdf` through the real HTTP endpoint, at every
//! preset, checked against its input with PDFium (tests/src/pdf_check.rs): the output is never
//! larger; page count and sizes, the text PDFium extracts from each page, links and their
//! targets, annotations, form fields and values, and outline titles are the same; each page
//! renders like the input's (PSNR at 60 dpi over the floor of its preset). On a generated PDF
//! holding all of these, on the pypdf and pikepdf corpora (.cache/pdf-corpus) and on the
//! compression corpus (.cache/compress-corpus); and a decompression bomb behind a filter chain
//! gets an answer, never a 5xx.
//!
//! harness.rs sends one file and compares; corpus.rs runs whole corpora.

mod corpus;
mod harness;

use std::time::{Duration, Instant};

use quire_e2e::{
    compress_fixtures::{BombIn, RICH_TEXT, ZeroBomb, bomb_pdf, rich_pdf},
    pdf_check::{self, compare, normalise},
};

use harness::{Outcome, check_one, compress, server};

const PRESETS: [&str; 4] = ["screen", "ebook", "printer", "prepress"];

/// The PSNR every page must hold against the input's render at 60 dpi (pdf_check.rs), per
/// preset: (screen, ebook, printer, prepress).
///
/// printer and prepress: 35 dB everywhere, as the issue asks (300 dpi images at JPEG quality
/// 80 and 92; at 60 dpi a faithful re-encode is nearly indistinguishable).
///
/// screen and ebook resample images to 72 and 150 dpi at JPEG quality 40 and 75; text and
/// vector art must not move at all. The floors are what Ghostscript's presets of the same
/// names hold on the same pages, or what Quire holds where Ghostscript does far worse, less
/// headroom for a different resampler and encoder:
/// - the generated PDF (a JPEG photo, a Flate picture and a Flate grey scan drawn at about
///   250 dpi): Ghostscript 10 measures 37.1 dB at screen and 47.3 dB at ebook on its worst
///   page (PDFium renders, as here); Quire today 37.7 and 49.6. Floors 35 and 45.
/// - the corpora: the worst pages are scans of text (pdfa/multipage.pdf, pdfa/francais.pdf),
///   where JPEG at quality 40 rings around every letter: Quire today 24.2 dB at screen,
///   33.1 dB at ebook (imagemagick-images.pdf page 4, a 16x16 JPEG); Ghostscript 15.6 dB and
///   3.8 dB on the same files (poppler renders: it converts their colours). Floors 23 and 32:
///   what today's compressor holds, so that tomorrow's may not do worse.
const GENERATED_FLOORS: [f64; 4] = [35.0, 45.0, 35.0, 35.0];
const CORPUS_FLOORS: [f64; 4] = [23.0, 32.0, 35.0, 35.0];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generated_pdf_keeps_every_fact_at_every_preset() {
    let server = server().await;
    let pdf = rich_pdf();
    let input = pdf_check::facts(pdf.clone()).await.unwrap();

    // The fixture holds what it claims, so that "equal" means something.
    assert_eq!(input.pages.len(), 3);
    for (page, lines) in input.pages.iter().zip(RICH_TEXT) {
        for line in lines {
            assert!(
                page.text.contains(&normalise(line)),
                "{line:?} not in {:?}",
                page.text
            );
        }
    }
    assert_eq!(
        input.pages[0].links,
        ["uri https://example.com/quire", "page 3"]
    );
    assert_eq!(input.pages[2].links, ["page 1"]);
    assert_eq!(
        input.pages[0].fields,
        ["name (Text) = Ada Lovelace", "agree (Checkbox) = true"]
    );
    assert_eq!(
        input.pages[0].annotations,
        ["Link", "Link", "Widget", "Widget", "Text", "Square"]
    );
    assert_eq!(input.pages[2].annotations, ["Link", "FreeText"]);
    assert_eq!(
        input.outline,
        ["Introduction", "  Fonts", "Pictures", "Appendix"]
    );

    let mut failures = Vec::new();
    for (index, preset) in PRESETS.iter().enumerate() {
        let outcome = check_one(&server, "rich.pdf", &pdf, &input, index, &GENERATED_FLOORS).await;
        match outcome {
            Outcome::Compared {
                diffs,
                measured,
                saved,
            } => {
                println!(
                    "rich.pdf [{preset}]: {:.1}% saved, PSNR per page {:.2?}",
                    saved * 100.0,
                    measured.psnr
                );
                failures.extend(diffs);
            }
            Outcome::Refused(answer) => failures.push(format!("rich.pdf [{preset}]: {answer}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The checker itself: a copy of the generated PDF with a field value, a link target and an
/// outline title changed (same lengths, so the cross-reference table still holds) is caught,
/// and each difference names the file, the page and the fact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checker_names_the_file_page_and_fact_that_differ() {
    let pdf = rich_pdf();
    let mut tampered = pdf.clone();
    for (from, to) in [
        ("(Ada Lovelace)", "(Ada Lovelacf)"),
        (
            "/URI (https://example.com/quire)",
            "/URI (https://example.com/quirk)",
        ),
        ("/Title (Appendix)", "/Title (Appendox)"),
    ] {
        let (from, to) = (from.as_bytes(), to.as_bytes());
        let mut found = false;
        let mut at = 0;
        while let Some(p) = tampered[at..].windows(from.len()).position(|w| w == from) {
            tampered[at + p..at + p + from.len()].copy_from_slice(to);
            at += p + from.len();
            found = true;
        }
        assert!(found, "{}", String::from_utf8_lossy(from));
    }
    let input = pdf_check::facts(pdf).await.unwrap();
    let output = pdf_check::facts(tampered).await.unwrap();
    let (diffs, _) = compare("tampered.pdf [test]", &input, &output, 35.0);
    let all = diffs.join("\n");
    for expected in [
        "tampered.pdf [test]: outline differs: entry 4: \"Appendix\" became \"Appendox\"",
        "tampered.pdf [test]: page 1: links 2 in the input, 2 in the output: entry 1: \
         \"uri https://example.com/quire\" became \"uri https://example.com/quirk\"",
        "tampered.pdf [test]: page 1: form fields 2 in the input, 2 in the output: entry 1: \
         \"name (Text) = Ada Lovelace\" became \"name (Text) = Ada Lovelacf\"",
    ] {
        assert!(all.contains(expected), "{expected}\nnot in:\n{all}");
    }
    assert_eq!(diffs.len(), 3, "{all}");
    // And a page that lost its text.
    let mut blank = input.clone();
    blank.pages[1].text = String::new();
    let (diffs, _) = compare("blank.pdf [test]", &input, &blank, 35.0);
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert!(
        diffs[0].starts_with("blank.pdf [test]: page 2: extracted text differs: ")
            && diffs[0].contains(" chars vs 0, first difference at char 0"),
        "{diffs:?}"
    );
}

#[test]
fn the_zero_bomb_inflates_to_what_it_claims() {
    use std::io::Read as _;
    let bomb = ZeroBomb::new(1000);
    let mut zlib = Vec::new();
    bomb.write_to(&mut zlib).unwrap();
    let mut plain = Vec::new();
    flate2::read::ZlibDecoder::new(&zlib[..])
        .read_to_end(&mut plain)
        .unwrap();
    assert_eq!(plain.len() as u64, bomb.decoded_len());
    assert!(plain.iter().all(|&b| b == 0));
    // Fixed Huffman codes: 13 bits per 258 bytes.
    assert!(zlib.len() * 150 < plain.len(), "{} bytes", zlib.len());
}

/// A stream of `[/ASCIIHexDecode /FlateDecode /FlateDecode]` decoding to 8 GiB of zeros, twice
/// the worker's default address space, as a content stream and as an image. The README: a
/// file that overruns a worker's memory limit is `unprocessable-file` (422); the compressor
/// may also bound its decoding and keep the stream as it is (200, never larger). Anything
/// else, a 5xx above all, fails; so does an answer slower than the job timeout allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filter_chain_bomb_gets_an_answer_never_a_5xx() {
    let server = server().await;
    let mut failures = Vec::new();
    for place in [BombIn::Content, BombIn::Image] {
        let (pdf, decoded) = bomb_pdf(8, place);
        assert!(decoded >= 8 << 30);
        assert!(pdf.len() < 1 << 20, "{} bytes", pdf.len());
        for preset in PRESETS {
            let started = Instant::now();
            let label = format!("bomb in {place:?} [{preset}]");
            let answer = compress(&server, "bomb.pdf", &pdf, preset).await;
            let took = started.elapsed();
            println!(
                "{label}: {} in {took:.1?}",
                match &answer {
                    Ok(out) => format!("200, {} -> {} bytes", pdf.len(), out.len()),
                    Err((status, code)) => format!("{status} {code}"),
                }
            );
            if took > Duration::from_secs(130) {
                failures.push(format!("{label}: answered in {took:?}"));
            }
            match answer {
                Ok(out) => {
                    if out.len() > pdf.len() {
                        failures.push(format!("{label}: the output is larger"));
                    }
                    match lopdf::Document::load_mem(&out) {
                        Ok(doc) if doc.get_pages().len() == 1 => {}
                        Ok(doc) => failures.push(format!(
                            "{label}: {} pages in the output",
                            doc.get_pages().len()
                        )),
                        Err(e) => failures.push(format!("{label}: the output is unreadable: {e}")),
                    }
                }
                Err((422, code)) if code == "unprocessable-file" => {}
                Err((status, code)) => failures.push(format!("{label}: {status} {code}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
