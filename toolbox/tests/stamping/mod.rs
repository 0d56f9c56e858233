//! What the stamp tests share: a five-page document built with lopdf whose pages each try
//! the stamper a different way, poppler's pdftotext to read the outputs back, the stamps the
//! tests ask for (`marks`) and the outputs read back with lopdf (`read_back`).
#![allow(dead_code, clippy::unwrap_used)]

pub mod marks;
pub mod read_back;

use std::path::{Path, PathBuf};
use std::process::Command;

use lopdf::{Document, Object, ObjectId, Stream, dictionary};

/// A five-page document; page i shows "Body<i>" in Helvetica (/F1) at (72, 700):
///
/// 1. US Letter, resources inherited from the root (which also has a font named
///    /QuireNumber, so the stamper must pick another name);
/// 2. under an inner /Pages node with /Rotate 90 (inherited), MediaBox [0 0 612 792];
/// 3. a CropBox [100 150 400 550] that does not start at 0,0; its text is at (150, 400);
/// 4. content that leaves `q 3 0 0 3 0 0 cm` unbalanced; resources of its own, an indirect
///    object shared with page 5;
/// 5. content in two streams (an array), the shared resources.
pub fn sample(dir: &Path) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let helvetica = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let courier = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Courier",
    });
    let root = doc.new_object_id();
    let inner = doc.new_object_id();
    let shared = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => helvetica } });
    let stream = |doc: &mut Document, text: &str| {
        doc.add_object(Stream::new(dictionary! {}, text.as_bytes().to_vec()))
    };
    let body = |i: usize, x: u32, y: u32| format!("BT /F1 24 Tf {x} {y} Td (Body{i}) Tj ET");
    let contents: Vec<Object> = vec![
        stream(&mut doc, &body(1, 72, 700)).into(),
        stream(&mut doc, &body(2, 72, 700)).into(),
        stream(&mut doc, &body(3, 150, 400)).into(),
        stream(&mut doc, &format!("{} q 3 0 0 3 0 0 cm", body(4, 72, 700))).into(),
        Object::Array(vec![
            stream(&mut doc, "BT /F1 24 Tf 72 700 Td").into(),
            stream(&mut doc, "(Body5) Tj ET").into(),
        ]),
    ];
    let mut ids: Vec<ObjectId> = Vec::new();
    for (i, content) in contents.into_iter().enumerate() {
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => if i == 1 { inner } else { root }, "Contents" => content,
        };
        match i {
            2 => page.set(
                "CropBox",
                vec![100.into(), 150.into(), 400.into(), 550.into()],
            ),
            3 | 4 => page.set("Resources", shared),
            _ => {}
        }
        ids.push(doc.add_object(page));
    }
    doc.objects.insert(
        inner,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Parent" => root, "Kids" => vec![ids[1].into()], "Count" => 1,
            "Rotate" => 90,
        }),
    );
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![ids[0].into(), inner.into(), ids[2].into(), ids[3].into(), ids[4].into()],
            "Count" => 5,
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => helvetica, "QuireNumber" => courier },
            },
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => root });
    doc.trailer.set("Root", catalog);
    let path = dir.join("sample.pdf");
    doc.save(&path).unwrap();
    path
}

/// Whether poppler's pdftotext is installed; says so when it is not.
pub fn poppler() -> bool {
    let found = Command::new("pdftotext").arg("-v").output().is_ok();
    if !found {
        eprintln!("pdftotext (poppler-utils) not installed: text checks skipped");
    }
    found
}

/// The text of one page (1-based), as `pdftotext -layout` lays it out.
pub fn page_text(pdf: &Path, page: u32) -> String {
    let page = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-layout", "-f", &page, "-l", &page])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The text of one page (1-based) in content stream order (`pdftotext -raw`), and what
/// poppler complained about on the way; `None` when it could not read the file.
pub fn raw_text(pdf: &Path, page: u32) -> Option<(String, String)> {
    let page = page.to_string();
    let output = Command::new("pdftotext")
        .args(["-raw", "-f", &page, "-l", &page])
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    output.status.success().then(|| {
        (
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    })
}

/// A word as `pdftotext -bbox` reports it: its text and box, in points from the displayed
/// page's top-left corner.
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    pub x_min: f64,
    pub y_min: f64,
    pub x_max: f64,
    pub y_max: f64,
}

/// Each page's displayed size and words.
pub fn words(pdf: &Path) -> Vec<((f64, f64), Vec<Word>)> {
    let output = Command::new("pdftotext")
        .arg("-bbox")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(output.status.success());
    let html = String::from_utf8_lossy(&output.stdout).into_owned();
    let attribute = |tag: &str, name: &str| -> f64 {
        let start = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        let end = start + tag[start..].find('"').unwrap();
        tag[start..end].parse().unwrap()
    };
    let mut pages = Vec::new();
    for line in html.lines().map(str::trim) {
        if line.starts_with("<page ") {
            pages.push((
                (attribute(line, "width"), attribute(line, "height")),
                Vec::new(),
            ));
        } else if line.starts_with("<word ") {
            let text = line
                .split_once('>')
                .and_then(|(_, rest)| rest.split_once("</word>"))
                .map(|(text, _)| text.to_string())
                .unwrap();
            pages.last_mut().unwrap().1.push(Word {
                text,
                x_min: attribute(line, "xMin"),
                y_min: attribute(line, "yMin"),
                x_max: attribute(line, "xMax"),
                y_max: attribute(line, "yMax"),
            });
        }
    }
    pages
}

/// The box around the consecutive words `line` on a page, if they are there.
pub fn line_box(words: &[Word], line: &[&str]) -> Option<Word> {
    let start = (0..words.len()).find(|&i| {
        line.iter()
            .enumerate()
            .all(|(k, text)| words.get(i + k).is_some_and(|w| w.text == *text))
    })?;
    let found = &words[start..start + line.len()];
    Some(Word {
        text: line.join(" "),
        x_min: found.iter().map(|w| w.x_min).fold(f64::MAX, f64::min),
        y_min: found.iter().map(|w| w.y_min).fold(f64::MAX, f64::min),
        x_max: found.iter().map(|w| w.x_max).fold(f64::MIN, f64::max),
        y_max: found.iter().map(|w| w.y_max).fold(f64::MIN, f64::max),
    })
}
