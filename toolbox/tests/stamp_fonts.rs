//! Text outside Latin-1: embedded as a subset of the font given, so that it still copies;
//! refused, naming the character, without a font that has its glyphs.
#![allow(clippy::unwrap_used)]

mod stamping;

use quire_toolbox::stamp::{Numbering, number_pages, watermark};
use stamping::marks::{bad_options, dejavu, numbering, text_mark};
use stamping::read_back::{category, load, pages, resolve};
use stamping::{page_text, poppler, sample};

#[test]
fn unicode_text_is_embedded_and_copies() {
    let Some(font) = dejavu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let text = "Brouillon — Черновик";
    watermark(&input, &text_mark(text, Some(font)), &out).unwrap();
    let doc = load(&out);
    let form = category(&doc, pages(&doc)[0], b"XObject")
        .get(b"QuireMark")
        .unwrap()
        .as_reference()
        .unwrap();
    let form = doc.get_object(form).unwrap().as_stream().unwrap();
    let resources = resolve(&doc, form.dict.get(b"Resources").unwrap())
        .as_dict()
        .unwrap();
    let fonts = resolve(&doc, resources.get(b"Font").unwrap())
        .as_dict()
        .unwrap();
    let type0 = resolve(&doc, fonts.get(b"F").unwrap()).as_dict().unwrap();
    assert_eq!(type0.get(b"Subtype").unwrap().as_name().unwrap(), b"Type0");
    assert_eq!(
        type0.get(b"Encoding").unwrap().as_name().unwrap(),
        b"Identity-H"
    );
    assert!(type0.has(b"ToUnicode"));
    let descendants = resolve(&doc, type0.get(b"DescendantFonts").unwrap())
        .as_array()
        .unwrap();
    let cid = resolve(&doc, &descendants[0]).as_dict().unwrap();
    assert_eq!(
        cid.get(b"Subtype").unwrap().as_name().unwrap(),
        b"CIDFontType2"
    );
    // A width for each glyph used: 17 distinct characters ("Brouiln", space, dash, "Черновик").
    let widths = resolve(&doc, cid.get(b"W").unwrap()).as_array().unwrap();
    assert_eq!(widths.len(), 2 * 17);
    let descriptor = resolve(&doc, cid.get(b"FontDescriptor").unwrap())
        .as_dict()
        .unwrap();
    let file = resolve(&doc, descriptor.get(b"FontFile2").unwrap())
        .as_stream()
        .unwrap();
    // A subset: far smaller than the font, with its length declared, and still a TrueType
    // program (the text below still copies through it).
    let ttf = std::fs::read(font).unwrap();
    let program = file.decompressed_content().unwrap();
    assert_eq!(
        file.dict.get(b"Length1").unwrap().as_i64().unwrap(),
        program.len() as i64
    );
    assert!(
        program.len() * 5 < ttf.len(),
        "{} of {} bytes",
        program.len(),
        ttf.len()
    );
    assert_eq!(&program[..4], &[0, 1, 0, 0]);
    if poppler() {
        for page in 1..=5 {
            let copied = page_text(&out, page);
            assert!(copied.contains(text), "page {page}: {copied}");
        }
    }
    // Page numbers in Cyrillic too.
    let cyrillic = Numbering {
        font: Some(font.into()),
        ..numbering("Стр. {n}")
    };
    number_pages(&input, &cyrillic, &out).unwrap();
    if poppler() {
        assert!(page_text(&out, 3).contains("Стр. 3"));
    }
}

#[test]
fn text_outside_winansi_needs_a_font_with_its_glyphs() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let message = bad_options(watermark(
        &input,
        &text_mark("Brouillon Черновик", None),
        &out,
    ));
    assert!(message.contains("\"Ч\" (U+0427)"), "{message}");
    let message = bad_options(number_pages(&input, &numbering("第{n}页"), &out));
    assert!(message.contains("\"第\""), "{message}");
    if let Some(font) = dejavu() {
        let message = bad_options(watermark(&input, &text_mark("草稿", Some(font)), &out));
        assert!(message.contains("\"草\" (U+8349)"), "{message}");
    }
    assert!(!out.exists());
    // The WinAnsi extras stay in Helvetica, with nothing embedded.
    let text = "Entwurf – 5 € ’";
    watermark(&input, &text_mark(text, None), &out).unwrap();
    let doc = load(&out);
    assert!(
        doc.objects
            .values()
            .all(|o| o.as_stream().map_or(true, |s| !s.dict.has(b"Length1")))
    );
    if poppler() {
        assert!(page_text(&out, 1).contains(text));
    }
}
