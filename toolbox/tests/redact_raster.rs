//! Pages replaced by pictures: the old content, resources and annotations leave the file, the
//! page keeps its size and turn, and the OCR words are invisible text where the picture shows
//! them (pdftotext finds them in their boxes).
#![allow(clippy::unwrap_used)]

mod redacting;

use image::ImageEncoder;
use lopdf::{Document, Object, dictionary};
use quire_toolbox::ToolError;
use quire_toolbox::redact::{RasterPage, Rect, replace_with_rasters};
use redacting::build::{Builder, string};
use redacting::tools::{self, word, words};

fn png(width: u32, height: u32) -> Vec<u8> {
    let pixels = vec![255u8; (width * height * 3) as usize];
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&pixels, width, height, image::ExtendedColorType::Rgb8)
        .unwrap();
    out
}

#[test]
fn a_turned_page_becomes_its_picture_with_searchable_words() {
    if !tools::available("a_turned_page_becomes_its_picture_with_searchable_words") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    let link = b.add(dictionary! {
        "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![0.into(), 0.into(), 50.into(), 50.into()],
        "A" => dictionary! { "S" => "URI", "URI" => string("https://secret.example") },
    });
    b.page_with(
        b"BT /F1 12 Tf 72 700 Td (Unsafe Secret content) Tj ET",
        dictionary! {},
        dictionary! { "Rotate" => 90, "Annots" => vec![link.into()] },
    );
    b.page("BT /F1 12 Tf 72 700 Td (Second page) Tj ET", dictionary! {});
    let input = b.save(&dir.path().join("unsafe.pdf"));
    // Words in user space: on a page turned a quarter, "Hello" runs up the page.
    let hello = Rect {
        x0: 300.0,
        y0: 100.0,
        x1: 320.0,
        y1: 160.0,
    };
    let world = Rect {
        x0: 300.0,
        y0: 170.0,
        x1: 320.0,
        y1: 240.0,
    };
    let rasters = [RasterPage {
        page: 1,
        image: png(792 / 4, 612 / 4),
        words: vec![("Hello".into(), hello), ("World".into(), world)],
    }];
    let output = dir.path().join("rastered.pdf");
    let written = replace_with_rasters(&input, &rasters, &output).unwrap();
    assert_eq!(written.pages, 2);
    tools::check(&output);
    let bytes = tools::qdf(&output);
    assert!(!tools::holds(&bytes, "Secret"));
    let text = tools::text(&output, Some(1));
    assert!(text.contains("Hello") && text.contains("World"), "{text}");
    assert!(tools::text(&output, Some(2)).contains("Second page"));
    // pdftotext places words on the displayed page (turned: 792 wide, 612 high): user (x, y)
    // shows at (y, x).
    let after = words(&output);
    let shown = word(&after, 1, "Hello");
    for (got, want) in [
        (shown.x0, 100.0),
        (shown.x1, 160.0),
        (shown.y0, 300.0),
        (shown.y1, 320.0),
    ] {
        assert!((got - want).abs() < 3.0, "{shown:?}");
    }
    let doc = Document::load(&output).unwrap();
    let page = doc.get_dictionary(doc.get_pages()[&1]).unwrap();
    assert_eq!(page.get(b"Rotate").unwrap(), &Object::Integer(90));
    assert!(!page.has(b"Annots"));
}

#[test]
fn bad_pictures_are_told_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Builder::new();
    b.page("BT /F1 12 Tf 72 700 Td (One) Tj ET", dictionary! {});
    let input = b.save(&dir.path().join("one.pdf"));
    let output = dir.path().join("out.pdf");
    let raster = |page, image| RasterPage {
        page,
        image,
        words: Vec::new(),
    };
    let message = |rasters: &[RasterPage]| match replace_with_rasters(&input, rasters, &output) {
        Err(ToolError::BadOptions(why)) => why,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        message(&[raster(3, png(2, 2))]),
        "the picture is for page 3, but the PDF has 1 page"
    );
    assert_eq!(
        message(&[raster(1, b"GIF89a".to_vec())]),
        "the picture of page 1 is not a PNG or JPEG"
    );
    assert!(message(&[raster(1, png(2, 2)), raster(1, png(2, 2))]).contains("two pictures"));
}
