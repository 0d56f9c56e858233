//! repair's tests: a good PDF made with lopdf, damaged in each of the ways files break, and
//! every PDF of the corpus.

mod fixtures;

use super::*;
use crate::pdf::tools::testing::with_pdfium;
use fixtures::*;
use lopdf::xref::XrefType;
use lopdf::{Document, Object};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[test]
fn a_sound_file_is_rewritten_as_is() {
    let good = good_pdf(PAGES);
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, &good);
        let repaired = answer.expect("repaired");
        assert_eq!(repaired.pages, PAGES);
        assert_eq!(repaired.findings, [NOTHING_WRONG]);
        assert_sound(&case.output, PAGES);
        assert!(page_text(p, &case.output, 9).contains("Page 10"));
    });
}

#[test]
fn a_damaged_cross_reference_table_is_rebuilt() {
    let good = good_pdf(PAGES);
    with_pdfium(|p| {
        for (name, bytes) in [
            ("wrong startxref", wrong_startxref(&good)),
            ("shifted entries", shifted_entries(&good)),
            ("deleted table", deleted_table(&good)),
            (
                "wrong startxref to a stream",
                wrong_startxref(&with_xref(PAGES, XrefType::CrossReferenceStream)),
            ),
        ] {
            assert!(strict_mem(&bytes).is_err(), "{name}: strict lopdf read it");
            let (answer, case) = repair_bytes(p, &bytes);
            let repaired = answer.unwrap_or_else(|f| panic!("{name}: {f:?}"));
            assert_eq!(repaired.pages, PAGES, "{name}");
            assert_eq!(repaired.findings, [XREF_DAMAGED], "{name}");
            assert_sound(&case.output, PAGES);
            assert!(page_text(p, &case.output, 4).contains("Page 5"), "{name}");
        }
    });
}

#[test]
fn a_file_cut_short_keeps_the_pages_that_survive() {
    let good = good_pdf(PAGES);
    let cut = &good[..good.len() * 7 / 10];
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, cut);
        let repaired = answer.expect("repaired");
        // Objects are in page order: about 70 % of the pages survive.
        assert!((5..PAGES).contains(&repaired.pages), "{repaired:?}");
        assert_eq!(repaired.findings[0], XREF_MISSING, "{repaired:?}");
        assert!(
            repaired.findings[1].starts_with(&format!(
                "the file was cut short: {} of the {PAGES} pages",
                repaired.pages
            )),
            "{repaired:?}"
        );
        assert_sound(&case.output, repaired.pages);
        let last = repaired.pages as i32 - 1;
        assert!(page_text(p, &case.output, last).contains(&format!("Page {}", last + 1)));

        // Cut after the page tree, before any page: nothing to recover.
        let early = &good[..find(&good, b"4 0 obj")];
        let (answer, case) = repair_bytes(p, early);
        let failure = answer.unwrap_err();
        assert_eq!(failure.kind, FailureKind::InvalidFile as i32, "{failure:?}");
        assert!(!case.output.exists());
    });
}

#[test]
fn pages_outlive_a_lost_page_tree() {
    let good = build(PAGES, XrefType::CrossReferenceTable, true);
    let cut = &good[..good.len() * 9 / 10];
    assert!(
        find_all(cut, b"/Type/Pages").next().is_none(),
        "the tree is gone"
    );
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, cut);
        let repaired = answer.expect("repaired");
        assert!((7..PAGES).contains(&repaired.pages), "{repaired:?}");
        assert_eq!(repaired.findings[0], XREF_MISSING, "{repaired:?}");
        assert!(
            has(&repaired.findings, "the page tree was lost"),
            "{repaired:?}"
        );
        assert!(has(&repaired.findings, "cut short"), "{repaired:?}");
        assert_sound(&case.output, repaired.pages);
        for page in 0..repaired.pages as i32 {
            let text = page_text(p, &case.output, page);
            assert!(text.contains(&format!("Page {}", page + 1)), "{text}");
        }
    });
}

#[test]
fn a_page_whose_content_is_lost_is_left_blank() {
    let mut document = Document::load_mem(&good_pdf(PAGES)).expect("loads");
    let page = document.get_pages()[&4];
    let content = document.get_page_contents(page)[0];
    document.objects.remove(&content);
    let mut bytes = Vec::new();
    document.save_to(&mut bytes).expect("saved");
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, &bytes);
        let repaired = answer.expect("repaired");
        assert_eq!(repaired.pages, PAGES);
        assert_eq!(
            repaired.findings,
            ["the content of page 4 could not be read: it is left blank"],
            "{repaired:?}"
        );
        assert_sound(&case.output, PAGES);
        assert_eq!(page_text(p, &case.output, 3), "");
        assert!(page_text(p, &case.output, 4).contains("Page 5"));
    });
}

#[test]
fn an_image_cut_short_is_named() {
    let good = image_pdf();
    let start = find(&good, b"5 0 obj");
    let end = rfind_in(&good, b"endstream");
    let cut = &good[..(start + end) / 2];
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, &good);
        assert_eq!(answer.expect("repaired").findings, [NOTHING_WRONG]);
        assert_sound(&case.output, 1);
        let (answer, case) = repair_bytes(p, cut);
        let repaired = answer.expect("repaired");
        assert_eq!(repaired.pages, 1);
        assert!(
            has(
                &repaired.findings,
                "the data of images on page 1 was cut short"
            ),
            "{repaired:?}"
        );
        assert!(strict(&case.output).is_ok());
    });
}

#[test]
fn stray_bytes_after_the_end_are_dropped() {
    let bytes = with_garbage(&good_pdf(PAGES));
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, &bytes);
        let repaired = answer.expect("repaired");
        assert_eq!(repaired.pages, PAGES);
        assert!(has(&repaired.findings, "stray data"), "{repaired:?}");
        assert!(!has(&repaired.findings, "cut short"), "{repaired:?}");
        assert_sound(&case.output, PAGES);
    });
}

#[test]
fn an_incremental_update_is_merged_in() {
    let bytes = with_update(&good_pdf(PAGES));
    assert!(strict_mem(&bytes).is_ok(), "the update is well formed");
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, &bytes);
        let repaired = answer.expect("repaired");
        assert_eq!(repaired.pages, PAGES);
        assert_eq!(
            repaired.findings,
            ["an incremental update was merged in"],
            "{repaired:?}"
        );
        assert_sound(&case.output, PAGES);
        let written = std::fs::read(&case.output).expect("output");
        assert_eq!(find_all(&written, b"%%EOF").count(), 1, "one revision");
        assert!(page_text(p, &case.output, 0).contains("Updated"));
        let document = strict(&case.output).expect("strict");
        let info = document
            .trailer
            .get(b"Info")
            .and_then(Object::as_reference)
            .and_then(|id| document.get_dictionary(id))
            .expect("an Info dictionary");
        assert_eq!(
            info.get(b"Title").and_then(Object::as_str).ok(),
            Some(&b"Updated"[..])
        );
    });
}

#[test]
fn damaged_page_content_keeps_what_can_be_read() {
    let bytes = with_broken_content(&good_pdf(PAGES));
    with_pdfium(|p| {
        let (answer, case) = repair_bytes(p, &bytes);
        let repaired = answer.expect("repaired");
        assert_eq!(repaired.pages, PAGES);
        assert_eq!(
            repaired.findings,
            [
                "the content of pages 2 and 3 was damaged: the parts that could be read were kept",
                "the content of page 4 could not be read: it is left blank"
            ],
            "{repaired:?}"
        );
        assert_sound(&case.output, PAGES);
        for page in [0, 1, 2, 4] {
            let text = page_text(p, &case.output, page);
            assert!(text.contains(&format!("Page {}", page + 1)), "{text}");
            assert!(text.contains("filler line 19"), "{text}");
        }
        assert_eq!(page_text(p, &case.output, 3), "");
    });
}

#[test]
fn unreadable_and_locked_files_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("out.pdf");
    let not_pdf = dir.path().join("not.pdf");
    std::fs::write(&not_pdf, b"hello, not a PDF").expect("written");
    with_pdfium(|p| {
        for path in [not_pdf, dir.path().join("missing.pdf")] {
            let failure = repair(p, path.to_str().expect("utf-8"), &output).unwrap_err();
            assert_eq!(failure.kind, FailureKind::InvalidFile as i32, "{failure:?}");
        }
        let locked = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/pdf-corpus/pypdf__resources__encryption__r3-user-password.pdf");
        if locked.is_file() {
            let failure = repair(p, locked.to_str().expect("utf-8"), &output).unwrap_err();
            assert_eq!(failure.kind, FailureKind::Encrypted as i32, "{failure:?}");
        }
        assert!(!output.exists());
    });
}

#[test]
fn the_byte_look_reads_markers() {
    let good = good_pdf(2);
    assert_eq!(
        Look::at(&with_xref(2, XrefType::CrossReferenceStream)).startxref,
        Some(true)
    );
    let look = Look::at(&good);
    assert_eq!((look.eof_markers, look.updates()), (1, 0));
    assert_eq!((look.trailing, look.startxref), (0, Some(true)));
    assert_eq!(look.table, Some(true));
    assert_eq!(Look::at(&shifted_entries(&good)).table, Some(false));
    assert_eq!(Look::at(&deleted_table(&good)).table, None);
    assert!(!look.cut_short());
    let look = Look::at(&wrong_startxref(&good));
    assert_eq!(look.startxref, Some(false));
    let look = Look::at(&good[..good.len() - 6]);
    assert!(look.cut_short());
    assert_eq!(look.startxref, Some(true), "startxref survives a short cut");
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut zlib, &good).expect("deflated");
    let zlib = zlib.finish().expect("deflated");
    assert!(deflate_ends(&zlib));
    assert!(!deflate_ends(&zlib[..zlib.len() / 2]));
    assert!(!deflate_ends(b"not zlib at all"));
    assert_eq!(page_list(&[3]), "page 3");
    assert_eq!(page_list(&[3, 5, 9]), "pages 3, 5 and 9");
    assert_eq!(
        page_list(&[3, 5, 6, 7, 8, 10, 11]),
        "pages 3, 5 to 8, 10 and 11"
    );
    assert_eq!(page_list(&[4, 5, 6]), "pages 4 to 6");
}

/// Every PDF of the damaged corpus, as it is and cut short at 70 %: repaired (into a file
/// lopdf's strict reader and `qpdf --check` accept) or refused, never a panic.
/// `cargo test -p quire-core --lib pdf::tools::repair -- --ignored --nocapture`
#[test]
#[ignore = "slow, by hand"]
fn every_corpus_pdf_is_repaired_or_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/pdf-corpus");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "pdf"))
        .collect();
    paths.sort();
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("out.pdf");
    let cut = dir.path().join("cut.pdf");
    with_pdfium(|p| {
        for short in [false, true] {
            let mut tally = Tally::default();
            for path in &paths {
                let input = if short {
                    let bytes = std::fs::read(path).expect("read");
                    std::fs::write(&cut, &bytes[..bytes.len() * 7 / 10]).expect("written");
                    cut.as_path()
                } else {
                    path.as_path()
                };
                let name = path.file_name().expect("name").to_string_lossy();
                tally.run(p, input, &output, &name);
            }
            let what = if short { "cut at 70 %" } else { "as they are" };
            eprintln!(
                "{} files {what}: {} already fine, {} repaired, {} refused, {} outputs unsound",
                paths.len(),
                tally.fine,
                tally.repaired,
                tally.refused,
                tally.unsound.len()
            );
            for line in &tally.unsound {
                eprintln!("unsound: {line}");
            }
        }
    });
}

#[derive(Default)]
struct Tally {
    fine: usize,
    repaired: usize,
    refused: usize,
    unsound: Vec<String>,
}

impl Tally {
    fn run(&mut self, pdfium: &Pdfium, input: &Path, output: &Path, name: &str) {
        let start = Instant::now();
        match repair(pdfium, input.to_str().expect("utf-8"), output) {
            Ok(done) => {
                if done.findings == [NOTHING_WRONG] {
                    self.fine += 1;
                } else {
                    self.repaired += 1;
                }
                let lopdf = strict(output).err().map(|e| e.to_string());
                let qpdf = qpdf_check(output).filter(|(code, _)| *code != 0);
                if lopdf.is_some() || qpdf.is_some() {
                    self.unsound
                        .push(format!("{name}: lopdf {lopdf:?} qpdf {qpdf:?}"));
                }
                eprintln!(
                    "{:?} {name}: {} pages, {:?}",
                    start.elapsed(),
                    done.pages,
                    done.findings
                );
            }
            Err(failure) => {
                self.refused += 1;
                eprintln!("{:?} {name}: refused {failure:?}", start.elapsed());
            }
        }
        let _ = std::fs::remove_file(output);
    }
}

/// `cargo test -p quire-core --lib pdf::tools::repair -- --ignored --nocapture`
#[test]
#[ignore = "timing, by hand"]
fn timing_of_a_long_document() {
    let dir = tempfile::tempdir().expect("temp dir");
    let synthetic = dir.path().join("hundred.pdf");
    std::fs::write(&synthetic, deleted_table(&good_pdf(100))).expect("written");
    let real = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../.cache/compress-corpus/r-doc-pdf__R-intro.pdf");
    let real_cut = dir.path().join("R-intro-cut.pdf");
    if let Ok(bytes) = std::fs::read(&real) {
        std::fs::write(&real_cut, &bytes[..bytes.len() * 7 / 10]).expect("written");
    }
    with_pdfium(|p| {
        for path in [synthetic.as_path(), real.as_path(), real_cut.as_path()] {
            if !path.is_file() {
                continue;
            }
            let output = dir.path().join("out.pdf");
            let start = Instant::now();
            let Ok(done) = repair(p, path.to_str().expect("utf-8"), &output) else {
                eprintln!("repair {}: refused", path.display());
                continue;
            };
            eprintln!(
                "repair {}: {} pages in {:?}, {:?}",
                path.display(),
                done.pages,
                start.elapsed(),
                done.findings
            );
        }
    });
}
