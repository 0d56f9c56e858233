//! repair's tests: a good PDF made with lopdf, damaged in each of the ways files break, and
//! every PDF of the corpus.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use lopdf::xref::XrefType;
use lopdf::{Document, LoadOptions, Object, Stream, dictionary};

use super::super::testing::with_pdfium;
use super::*;

const PAGES: u32 = 10;

/// A PDF of `pages` pages whose catalog and page tree come first, so that a file cut short
/// keeps them and loses only its last pages. Each page says its number. A classic table
/// (`xref`), not a cross-reference stream.
fn good_pdf(pages: u32) -> Vec<u8> {
    build(pages, XrefType::CrossReferenceTable, false)
}

fn with_xref(pages: u32, xref: XrefType) -> Vec<u8> {
    build(pages, xref, false)
}

/// With `tree_last`, the page tree and the catalog are the last objects (as TeX writes
/// them) and every page has its own resources and media box.
fn build(pages: u32, xref: XrefType, tree_last: bool) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    doc.reference_table.cross_reference_type = xref;
    let (catalog, tree, font, first) = if tree_last {
        (2 * pages + 3, 2 * pages + 2, 1, 2)
    } else {
        (1, 2, 3, 4)
    };
    let resources = dictionary! { "Font" => dictionary! { "F1" => (font, 0) } };
    let media_box: Vec<Object> = vec![0.into(), 0.into(), 595.into(), 842.into()];
    let face = dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" };
    doc.objects.insert((font, 0), face.into());
    let mut kids = Vec::new();
    for page in 0..pages {
        let content = (first + 2 * page, 0);
        let id = (first + 1 + 2 * page, 0);
        let mut text = format!("BT /F1 36 Tf 72 700 Td (Page {}) Tj ET\n", page + 1);
        for line in 0..20 {
            text.push_str(&format!(
                "BT /F1 10 Tf 72 {} Td (filler line {line} of page {}) Tj ET\n",
                650 - line * 14,
                page + 1
            ));
        }
        doc.objects.insert(
            content,
            Stream::new(dictionary! {}, text.into_bytes()).into(),
        );
        let mut dict =
            dictionary! { "Type" => "Page", "Parent" => (tree, 0), "Contents" => content };
        if tree_last {
            dict.set("Resources", resources.clone());
            dict.set("MediaBox", media_box.clone());
        }
        doc.objects.insert(id, dict.into());
        kids.push(Object::Reference(id));
    }
    let mut root = dictionary! {
        "Type" => "Pages",
        "Kids" => kids,
        "Count" => i64::from(pages),
    };
    if !tree_last {
        root.set("Resources", resources);
        root.set("MediaBox", media_box);
    }
    doc.objects.insert((tree, 0), root.into());
    doc.objects.insert(
        (catalog, 0),
        dictionary! { "Type" => "Catalog", "Pages" => (tree, 0) }.into(),
    );
    doc.max_id = 2 * pages + 3;
    doc.trailer.set("Root", (catalog, 0));
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("test PDF written");
    bytes
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle in the PDF")
}

fn rfind_in(hay: &[u8], needle: &[u8]) -> usize {
    rfind(hay, needle).expect("needle in the PDF")
}

/// The offset `startxref` gives, and where its digits are.
fn startxref(bytes: &[u8]) -> (usize, std::ops::Range<usize>) {
    let at = rfind_in(bytes, b"startxref") + b"startxref".len();
    let start = at
        + bytes[at..]
            .iter()
            .position(u8::is_ascii_digit)
            .expect("digits");
    let end = start
        + bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
    let offset = std::str::from_utf8(&bytes[start..end])
        .expect("ascii")
        .parse()
        .expect("a number");
    (offset, start..end)
}

fn wrong_startxref(good: &[u8]) -> Vec<u8> {
    let (offset, digits) = startxref(good);
    let mut bytes = good[..digits.start].to_vec();
    bytes.extend_from_slice((offset - 150).to_string().as_bytes());
    bytes.extend_from_slice(&good[digits.end..]);
    bytes
}

/// Every in-use entry of the table points 7 bytes past its object.
fn shifted_entries(good: &[u8]) -> Vec<u8> {
    let (offset, _) = startxref(good);
    let table_end = offset + find(&good[offset..], b"trailer");
    let table = std::str::from_utf8(&good[offset..table_end]).expect("ascii table");
    let shifted: String = table
        .split_inclusive('\n')
        .map(
            |line| match line.strip_suffix('\n').unwrap_or(line).trim_end() {
                entry if entry.len() == 18 && entry.ends_with(" n") => {
                    let at: u64 = entry[..10].parse().expect("an offset");
                    format!("{:010}{}", at + 7, &line[10..])
                }
                _ => line.to_owned(),
            },
        )
        .collect();
    assert_eq!(shifted.len(), table.len());
    [&good[..offset], shifted.as_bytes(), &good[table_end..]].concat()
}

/// The table is gone; the trailer and `startxref` (now pointing at the trailer) are left.
fn deleted_table(good: &[u8]) -> Vec<u8> {
    let (offset, _) = startxref(good);
    let table_end = offset + find(&good[offset..], b"trailer");
    [&good[..offset], &good[table_end..]].concat()
}

fn with_garbage(good: &[u8]) -> Vec<u8> {
    let mut bytes = good.to_vec();
    bytes.extend((0..3000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    bytes
}

/// A classic incremental update: page 1 says "Updated" and the document gets a title.
fn with_update(good: &[u8]) -> Vec<u8> {
    let (prev, _) = startxref(good);
    let mut bytes = good.to_vec();
    let size = 4 + 2 * PAGES;
    let content = size;
    let info = size + 1;
    let text = b"BT /F1 36 Tf 72 700 Td (Updated) Tj ET";
    let content_at = bytes.len() + 1;
    bytes.extend_from_slice(
        format!(
            "\n{content} 0 obj\n<< /Length {} >>\nstream\n{}\nendstream\nendobj\n",
            text.len(),
            String::from_utf8_lossy(text)
        )
        .as_bytes(),
    );
    let page_at = bytes.len();
    bytes.extend_from_slice(
        format!("5 0 obj\n<< /Type /Page /Parent 2 0 R /Contents {content} 0 R >>\nendobj\n")
            .as_bytes(),
    );
    let info_at = bytes.len();
    bytes.extend_from_slice(format!("{info} 0 obj\n<< /Title (Updated) >>\nendobj\n").as_bytes());
    let xref_at = bytes.len();
    bytes.extend_from_slice(
        format!(
            "xref\n0 1\n0000000000 65535 f \n5 1\n{page_at:010} 00000 n \n{content} 2\n\
             {content_at:010} 00000 n \n{info_at:010} 00000 n \ntrailer\n<< /Size {} /Root 1 0 R \
             /Info {info} 0 R /Prev {prev} >>\nstartxref\n{xref_at}\n%%EOF\n",
            info + 1
        )
        .as_bytes(),
    );
    bytes
}

/// `qpdf --check`'s exit code and what it said; None without qpdf.
fn qpdf_check(path: &Path) -> Option<(i32, String)> {
    let out = Command::new("qpdf")
        .arg("--check")
        .arg(path)
        .output()
        .ok()?;
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Some((out.status.code().unwrap_or(-1), said))
}

fn strict(path: &Path) -> lopdf::Result<Document> {
    Document::load_with_options(
        path,
        LoadOptions {
            strict: true,
            ..LoadOptions::default()
        },
    )
}

/// The output loads with lopdf's strict reader, has `pages` pages and passes `qpdf --check`.
fn assert_sound(output: &Path, pages: u32) {
    let document = strict(output).unwrap_or_else(|e| panic!("strict lopdf: {e}"));
    assert_eq!(document.get_pages().len(), pages as usize);
    if let Some((code, said)) = qpdf_check(output) {
        assert_eq!(code, 0, "qpdf --check: {said}");
    }
}

struct Case {
    _dir: tempfile::TempDir,
    output: PathBuf,
}

fn repair_bytes(pdfium: &Pdfium, bytes: &[u8]) -> (Result<Repaired, Failure>, Case) {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, bytes).expect("written");
    let output = dir.path().join("out.pdf");
    let answer = repair(pdfium, input.to_str().expect("utf-8"), &output);
    (answer, Case { _dir: dir, output })
}

fn has(findings: &[String], words: &str) -> bool {
    findings.iter().any(|f| f.contains(words))
}

/// The text of a page of `path`, as PDFium reads it.
fn page_text(pdfium: &Pdfium, path: &Path, index: i32) -> String {
    let document = pdfium
        .load_pdf_from_file(path.to_str().expect("utf-8"), None)
        .expect("output opens");
    let page = document.pages().get(index).expect("page loads");
    page.text().expect("text").all()
}

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

fn strict_mem(bytes: &[u8]) -> lopdf::Result<Document> {
    Document::load_mem_with_options(
        bytes,
        LoadOptions {
            strict: true,
            ..LoadOptions::default()
        },
    )
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

/// One page showing a deflated image, the image the last object of the file.
fn image_pdf() -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    doc.reference_table.cross_reference_type = XrefType::CrossReferenceTable;
    let pixels: Vec<u8> = (0..128u32 * 128 * 3)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut zlib, &pixels).expect("deflated");
    let image = Stream::new(
        dictionary! {
            "Type" => "XObject",
            "Subtype" => "Image",
            "Width" => 128,
            "Height" => 128,
            "ColorSpace" => "DeviceRGB",
            "BitsPerComponent" => 8,
            "Filter" => "FlateDecode",
        },
        zlib.finish().expect("deflated"),
    );
    let content = b"q 300 0 0 300 100 300 cm /Im1 Do Q".to_vec();
    doc.objects.insert(
        (1, 0),
        dictionary! { "Type" => "Catalog", "Pages" => (2, 0) }.into(),
    );
    doc.objects.insert(
        (2, 0),
        dictionary! {
            "Type" => "Pages",
            "Kids" => vec![Object::Reference((3, 0))],
            "Count" => 1,
        }
        .into(),
    );
    doc.objects.insert(
        (3, 0),
        dictionary! {
            "Type" => "Page",
            "Parent" => (2, 0),
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
            "Contents" => (4, 0),
            "Resources" => dictionary! { "XObject" => dictionary! { "Im1" => (5, 0) } },
        }
        .into(),
    );
    doc.objects
        .insert((4, 0), Stream::new(dictionary! {}, content).into());
    doc.objects.insert((5, 0), image.into());
    doc.max_id = 5;
    doc.trailer.set("Root", (1, 0));
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("test PDF written");
    bytes
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

/// Page 2 ends in an unclosed array, page 3 in an inline image cut short, page 4 draws
/// nothing before an unclosed dictionary: the parts PDFium reads are written again, the rest
/// left out.
fn with_broken_content(good: &[u8]) -> Vec<u8> {
    let mut document = Document::load_mem(good).expect("loads");
    let pages = document.get_pages();
    for (page, tail) in [(2, &b"[ /oops"[..]), (3, b"BI /W 1 /H 1"), (4, b"<< /oops")] {
        let content = document.get_page_contents(pages[&page])[0];
        let stream = document
            .get_object_mut(content)
            .and_then(Object::as_stream_mut)
            .expect("a content stream");
        let mut data = if page == 4 {
            b"q 1 0 0 1 0 0 cm ".to_vec()
        } else {
            stream.content.clone()
        };
        data.extend_from_slice(tail);
        stream.set_content(data);
    }
    let mut bytes = Vec::new();
    document.save_to(&mut bytes).expect("saved");
    bytes
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
