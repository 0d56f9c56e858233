//! Visible signatures: a typed name drawn into the page (extractable text), and an image
//! placed on a turned page, in the content (visible signature only) and in a signature
//! widget, found where asked by rendering the page with pdftoppm.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod signing;

use std::path::{Path, PathBuf};
use std::process::Command;

use image::{Rgb, RgbImage};
use quire_toolbox::sign::{Appearance, Placement, Sign, sign};
use signing::{certs, digital, sample, tools};

/// A 200 x 100 PNG, its left half red and its right half blue.
fn two_colours(dir: &Path) -> PathBuf {
    let image = RgbImage::from_fn(200, 100, |x, _| {
        if x < 100 {
            Rgb([255, 0, 0])
        } else {
            Rgb([0, 0, 255])
        }
    });
    let path = dir.join("signature.png");
    image.save(&path).unwrap();
    path
}

/// Page `page` of `file` rendered at 72 dpi: one pixel per point of the displayed page.
fn render(file: &Path, page: u32) -> RgbImage {
    let prefix = file.with_extension("");
    let page_arg = page.to_string();
    let status = Command::new("pdftoppm")
        .args([
            "-r",
            "72",
            "-png",
            "-singlefile",
            "-f",
            &page_arg,
            "-l",
            &page_arg,
        ])
        .arg(file)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs");
    assert!(status.success());
    image::open(prefix.with_extension("png")).unwrap().to_rgb8()
}

fn is(pixel: &Rgb<u8>, colour: [u8; 3]) -> bool {
    pixel.0.iter().zip(colour).all(|(&a, b)| a.abs_diff(b) < 40)
}

/// On page 2 (/Rotate 90: 792 x 612 displayed), x 0.5, y 0.1, width 0.25: a 198 x 99 box
/// whose top-left corner is at (396, 61.2) on the displayed page.
fn on_turned_page(image: PathBuf) -> Sign {
    Sign {
        appearance: Some(Appearance::Image(image)),
        placement: Placement {
            page: 2,
            x: 0.5,
            y: 0.1,
            width: 0.25,
        },
        certificate: None,
        reason: None,
        location: None,
        contact: None,
    }
}

fn assert_drawn_upright(file: &Path) {
    let page = render(file, 2);
    assert_eq!(page.dimensions(), (792, 612));
    // The box's left quarter red, right quarter blue, outside it white.
    assert!(
        is(page.get_pixel(396 + 40, 110), [255, 0, 0]),
        "{:?}",
        page.get_pixel(436, 110)
    );
    assert!(
        is(page.get_pixel(396 + 158, 110), [0, 0, 255]),
        "{:?}",
        page.get_pixel(554, 110)
    );
    assert!(is(page.get_pixel(396 + 40, 61 + 90), [255, 0, 0]));
    assert!(is(page.get_pixel(380, 110), [255, 255, 255]));
    assert!(is(page.get_pixel(600, 110), [255, 255, 255]));
    assert!(is(page.get_pixel(436, 170), [255, 255, 255]));
}

#[test]
fn a_typed_name_is_drawn_as_text() {
    if !tools::available("a_typed_name_is_drawn_as_text", &["pdftotext", "qpdf"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let typed = Sign {
        appearance: Some(Appearance::Text {
            text: "Zoë Müller".into(),
            font: None,
        }),
        placement: Placement {
            page: 1,
            x: 0.55,
            y: 0.8,
            width: 0.4,
        },
        ..on_turned_page(PathBuf::new())
    };
    let signed = sign(&input, &typed, &out).unwrap();
    assert_eq!(signed.pages, 3);
    assert!(signed.signer.is_none());
    let text = tools::page_text(&out, 1);
    assert!(text.contains("Zoë Müller"), "{text}");
    assert!(text.contains("First page"), "{text}");
    let (code, check) = tools::qpdf_check(&out);
    assert_eq!(code, 0, "{check}");
}

#[test]
fn an_image_on_a_turned_page_shows_upright_where_placed() {
    if !tools::available(
        "an_image_on_a_turned_page_shows_upright_where_placed",
        &["pdftoppm"],
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("drawn.pdf");
    sign(&input, &on_turned_page(two_colours(dir.path())), &out).unwrap();
    assert_drawn_upright(&out);
}

#[test]
fn a_signature_widget_on_a_turned_page_sits_where_placed() {
    let needs = ["pdftoppm", "openssl", "pdfsig"];
    if !tools::available(
        "a_signature_widget_on_a_turned_page_sits_where_placed",
        &needs,
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certs(dir.path());
    let input = sample(dir.path());
    let out = dir.path().join("signed.pdf");
    let request = Sign {
        certificate: digital(&certs.rsa).certificate,
        ..on_turned_page(two_colours(dir.path()))
    };
    let signed = sign(&input, &request, &out).unwrap();
    assert!(signed.signer.is_some());
    let report = tools::pdfsig(&out);
    assert!(report.contains("Signature is Valid"), "{report}");
    // The widget's /Rect in user space: displayed [396 451.8 594 550.8] turned back.
    let doc = lopdf::Document::load(&out).unwrap();
    let page = doc.get_dictionary(doc.get_pages()[&2]).unwrap();
    let annots = page.get(b"Annots").unwrap().as_array().unwrap();
    let widget = doc
        .get_dictionary(annots[0].as_reference().unwrap())
        .unwrap();
    let rect: Vec<f32> = widget
        .get(b"Rect")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap())
        .collect();
    let expected = [61.2, 396.0, 160.2, 594.0];
    for (got, want) in rect.iter().zip(expected) {
        assert!((got - want).abs() < 0.01, "{rect:?}");
    }
    assert_drawn_upright(&out);
}

#[test]
fn a_name_outside_latin_is_drawn_in_the_embedded_font() {
    const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    let name = "a_name_outside_latin_is_drawn_in_the_embedded_font";
    if !tools::available(name, &["pdftotext"]) {
        return;
    }
    if !Path::new(DEJAVU).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{name}: fonts-dejavu-core missing"
        );
        eprintln!("skipping {name}: {DEJAVU} missing");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let typed = Sign {
        appearance: Some(Appearance::Text {
            text: "Анна Петрова".into(),
            font: Some(DEJAVU.into()),
        }),
        placement: Placement {
            page: 3,
            x: 0.1,
            y: 0.5,
            width: 0.8,
        },
        ..on_turned_page(PathBuf::new())
    };
    sign(&input, &typed, &out).unwrap();
    let text = tools::page_text(&out, 3);
    assert!(text.contains("Анна Петрова"), "{text}");
    // Without a font, the standard font cannot show it.
    let Sign { appearance, .. } = &typed;
    let bare = Sign {
        appearance: appearance.clone().map(|a| match a {
            Appearance::Text { text, .. } => Appearance::Text { text, font: None },
            other => other,
        }),
        ..typed.clone()
    };
    assert!(matches!(
        sign(&input, &bare, &out),
        Err(quire_toolbox::ToolError::BadOptions(_))
    ));
}
