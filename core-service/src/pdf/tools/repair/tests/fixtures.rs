//! The damaged files repair is tested on: a good PDF made with lopdf and each of the ways
//! files break, and the checks every repaired output must pass.

use super::super::*;
use lopdf::xref::XrefType;
use lopdf::{Document, LoadOptions, Object, Stream, dictionary};
use std::path::{Path, PathBuf};
use std::process::Command;

pub(super) const PAGES: u32 = 10;

/// A PDF of `pages` pages whose catalog and page tree come first, so that a file cut short
/// keeps them and loses only its last pages. Each page says its number. A classic table
/// (`xref`), not a cross-reference stream.
pub(super) fn good_pdf(pages: u32) -> Vec<u8> {
    build(pages, XrefType::CrossReferenceTable, false)
}

pub(super) fn with_xref(pages: u32, xref: XrefType) -> Vec<u8> {
    build(pages, xref, false)
}

/// With `tree_last`, the page tree and the catalog are the last objects (as TeX writes
/// them) and every page has its own resources and media box.
pub(super) fn build(pages: u32, xref: XrefType, tree_last: bool) -> Vec<u8> {
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

pub(super) fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle in the PDF")
}

pub(super) fn rfind_in(hay: &[u8], needle: &[u8]) -> usize {
    rfind(hay, needle).expect("needle in the PDF")
}

/// The offset `startxref` gives, and where its digits are.
pub(super) fn startxref(bytes: &[u8]) -> (usize, std::ops::Range<usize>) {
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

pub(super) fn wrong_startxref(good: &[u8]) -> Vec<u8> {
    let (offset, digits) = startxref(good);
    let mut bytes = good[..digits.start].to_vec();
    bytes.extend_from_slice((offset - 150).to_string().as_bytes());
    bytes.extend_from_slice(&good[digits.end..]);
    bytes
}

/// Every in-use entry of the table points 7 bytes past its object.
pub(super) fn shifted_entries(good: &[u8]) -> Vec<u8> {
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
pub(super) fn deleted_table(good: &[u8]) -> Vec<u8> {
    let (offset, _) = startxref(good);
    let table_end = offset + find(&good[offset..], b"trailer");
    [&good[..offset], &good[table_end..]].concat()
}

pub(super) fn with_garbage(good: &[u8]) -> Vec<u8> {
    let mut bytes = good.to_vec();
    bytes.extend((0..3000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    bytes
}

/// A classic incremental update: page 1 says "Updated" and the document gets a title.
pub(super) fn with_update(good: &[u8]) -> Vec<u8> {
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
pub(super) fn qpdf_check(path: &Path) -> Option<(i32, String)> {
    let out = Command::new("qpdf")
        .arg("--check")
        .arg(path)
        .output()
        .ok()?;
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    Some((out.status.code().unwrap_or(-1), said))
}

pub(super) fn strict(path: &Path) -> lopdf::Result<Document> {
    Document::load_with_options(
        path,
        LoadOptions {
            strict: true,
            ..LoadOptions::default()
        },
    )
}

/// The output loads with lopdf's strict reader, has `pages` pages and passes `qpdf --check`.
pub(super) fn assert_sound(output: &Path, pages: u32) {
    let document = strict(output).unwrap_or_else(|e| panic!("strict lopdf: {e}"));
    assert_eq!(document.get_pages().len(), pages as usize);
    if let Some((code, said)) = qpdf_check(output) {
        assert_eq!(code, 0, "qpdf --check: {said}");
    }
}

pub(super) struct Case {
    pub(super) _dir: tempfile::TempDir,
    pub(super) output: PathBuf,
}

pub(super) fn repair_bytes(pdfium: &Pdfium, bytes: &[u8]) -> (Result<Repaired, Failure>, Case) {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, bytes).expect("written");
    let output = dir.path().join("out.pdf");
    let answer = repair(pdfium, input.to_str().expect("utf-8"), &output);
    (answer, Case { _dir: dir, output })
}

pub(super) fn has(findings: &[String], words: &str) -> bool {
    findings.iter().any(|f| f.contains(words))
}

/// The text of a page of `path`, as PDFium reads it.
pub(super) fn page_text(pdfium: &Pdfium, path: &Path, index: i32) -> String {
    let document = pdfium
        .load_pdf_from_file(path.to_str().expect("utf-8"), None)
        .expect("output opens");
    let page = document.pages().get(index).expect("page loads");
    page.text().expect("text").all()
}

pub(super) fn strict_mem(bytes: &[u8]) -> lopdf::Result<Document> {
    Document::load_mem_with_options(
        bytes,
        LoadOptions {
            strict: true,
            ..LoadOptions::default()
        },
    )
}

/// One page showing a deflated image, the image the last object of the file.
pub(super) fn image_pdf() -> Vec<u8> {
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

/// Page 2 ends in an unclosed array, page 3 in an inline image cut short, page 4 draws
/// nothing before an unclosed dictionary: the parts PDFium reads are written again, the rest
/// left out.
pub(super) fn with_broken_content(good: &[u8]) -> Vec<u8> {
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
