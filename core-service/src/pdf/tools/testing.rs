//! What the tools' tests share: one PDFium at a time, small PDFs made with lopdf, and a few
//! real-world PDFs from the compression corpus.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use lopdf::{Document, Object, Stream, dictionary};
use pdfium_render::prelude::{Pdfium, PdfiumError};

/// PDFium is not thread-safe and the tests run on several threads: one test at a time uses
/// it. pdfium-render binds the library once per process; later instances reuse that binding
/// (its `Default` does so when the library is already bound, whoever bound it).
static PDFIUM: Mutex<()> = Mutex::new(());

pub fn with_pdfium<R>(run: impl FnOnce(&Pdfium) -> R) -> R {
    let _guard = PDFIUM
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let library = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/pdfium/libpdfium.so");
    let pdfium = match Pdfium::bind_to_library(&library) {
        Ok(bindings) => Pdfium::new(bindings),
        Err(PdfiumError::PdfiumLibraryBindingsAlreadyInitialized) => Pdfium::default(),
        Err(err) => panic!("cannot load PDFium from {}: {err}", library.display()),
    };
    run(&pdfium)
}

/// Page contents, written as content streams over A4 pages with Helvetica as /F1 and an
/// 8x8 RGB image as /Im1.
pub const TEXT: &str = "BT /F1 24 Tf 72 700 Td (The quick brown fox jumps over the lazy dog) Tj ET";
pub const BLANK: &str = "";
/// A hairline of 97 % white: visible on screen, but not ink.
pub const FAINT_LINE: &str = "0.97 G 6 w 72 400 m 520 400 l S";
pub const IMAGE: &str = "q 300 0 0 300 150 300 cm /Im1 Do Q";

/// Writes a PDF of `pages` (content streams, in order) to `path`.
pub fn make_pdf(path: &Path, pages: &[&str]) {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
    });
    let pixels: Vec<u8> = (0..64u32)
        .flat_map(|i| [(i * 4) as u8, 255 - (i * 4) as u8, 128])
        .collect();
    let image = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject",
            "Subtype" => "Image",
            "Width" => 8,
            "Height" => 8,
            "ColorSpace" => "DeviceRGB",
            "BitsPerComponent" => 8,
        },
        pixels,
    ));
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font },
        "XObject" => dictionary! { "Im1" => image },
    });
    let kids: Vec<Object> = pages
        .iter()
        .map(|content| {
            let content = doc.add_object(Stream::new(dictionary! {}, content.as_bytes().to_vec()));
            doc.add_object(dictionary! {
                "Type" => "Page",
                "Parent" => pages_id,
                "Contents" => content,
            })
            .into()
        })
        .collect();
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => count,
            "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc.save(path).expect("test PDF written");
}

/// Ten PDFs of the compression corpus (.cache/compress-corpus), a fixed pick of forms, scans,
/// CMYK, masks, rotation, OCR layers, TeX and a large-format drawing; those absent are left
/// out, so the list is empty without the corpus.
pub fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/compress-corpus");
    const PICK: [&str; 10] = [
        "cups-filters__form_english.pdf",
        "ocrmypdf__tests__resources__cmyk.pdf",
        "ocrmypdf__tests__resources__masks.pdf",
        "pikepdf__tests__resources__form_210966.pdf",
        "pypdf__resources__indirect-rotation.pdf",
        "pypdf__resources__Seige_of_Vicksburg_Sample_OCR.pdf",
        "fonts-sil-padauk__Padauk-features.pdf",
        "asymptote-doc__CAD.pdf",
        "pypdf__resources__GeoBase_NHNC1_Data_Model_UML_EN.pdf",
        "ocrmypdf__tests__resources__2400dpi.pdf",
    ];
    PICK.iter()
        .map(|name| dir.join(name))
        .filter(|path| path.is_file())
        .collect()
}
