//! Annotations on a page turned by /Rotate: once the turn is folded into the sheet's matrix,
//! their appearances must turn with it (a reader fits an appearance into /Rect by scaling).

use std::path::{Path, PathBuf};

use lopdf::{Document, Object, Stream, dictionary};
use quire_toolbox::layout::{Paper, fit_to_paper, n_up};

use crate::poppler::render;

/// A US Letter page with /Rotate 90 and a 200 x 100 square annotation whose appearance is
/// black on its left half and gray on the right half's lower quarter; a reader shows it
/// turned, black above gray.
fn turned_page(dir: &Path) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let bbox = vec![0.into(), 0.into(), 200.into(), 100.into()];
    let look = b"0 g 0 0 100 100 re f 0.5 g 100 0 100 50 re f".to_vec();
    let appearance = doc.add_object(Stream::new(
        dictionary! { "Type" => "XObject", "Subtype" => "Form", "BBox" => bbox },
        look,
    ));
    let annot = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Square",
        "Rect" => vec![100.into(), 500.into(), 300.into(), 600.into()],
        "AP" => dictionary! { "N" => appearance },
    });
    let root = doc.new_object_id();
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => root, "Annots" => vec![annot.into()], "Rotate" => 90,
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
    });
    doc.objects.insert(
        root,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
    doc.trailer.set("Root", catalog);
    let path = dir.join("turned.pdf");
    doc.save(&path).unwrap();
    path
}

/// The black and the gray part of the appearance as rendered, from the top-left corner.
fn parts(pdf: &Path) -> ([f64; 4], [f64; 4]) {
    let page = render(pdf, 1, 36);
    (page.ink(0..40).unwrap(), page.ink(100..160).unwrap())
}

/// Black above gray, the gray under the black's left half, as the input shows it.
fn shown_turned((black, gray): ([f64; 4], [f64; 4])) -> bool {
    let tolerance = 4.0;
    gray[1] >= black[3] - tolerance
        && (gray[0] - black[0]).abs() <= tolerance
        && gray[2] <= (black[0] + black[2]) / 2.0 + tolerance
}

#[test]
fn appearances_turn_with_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let input = turned_page(dir.path());
    assert!(shown_turned(parts(&input)), "{:?}", parts(&input));
    let fitted = dir.path().join("fitted.pdf");
    fit_to_paper(&input, Paper::A4, &fitted).unwrap();
    assert!(shown_turned(parts(&fitted)), "fit: {:?}", parts(&fitted));
}

#[test]
fn n_up_drops_annotations_other_than_links() {
    let dir = tempfile::tempdir().unwrap();
    let input = turned_page(dir.path());
    let sheets = dir.path().join("2up.pdf");
    n_up(&input, 2, Paper::A4, &sheets).unwrap();
    assert!(render(&sheets, 1, 36).ink(0..160).is_none());
}
