//! Every PDF of the corpora through extract-images, the image objects found compared with
//! poppler's `pdfimages -list`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use quire_toolbox::ToolError;
use quire_toolbox::extract_images::{Skipped, extract_images};

use super::{MANY, corpus_files, total};

/// The image objects `pdfimages -list` reports (images and stencils, not masks or inline
/// images), or `None` without poppler.
pub fn pdfimages_objects(path: &Path) -> Option<BTreeSet<u32>> {
    let output = Command::new("pdfimages")
        .arg("-list")
        .arg(path)
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut objects = BTreeSet::new();
    for line in text.lines().skip(2) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() > 10
            && matches!(fields[2], "image" | "stencil")
            && let Ok(number) = fields[10].parse()
        {
            objects.insert(number);
        }
    }
    Some(objects)
}

/// Files where this finds more image objects than `pdfimages -list`, how many more, and why.
/// poppler draws the pages and lists what is drawn; this reads the resources.
const EXPLAINED: [(&str, i64, &str); 3] = [
    // /I5 is listed in the page's resources (and is /I6's /Mask), the content never draws it.
    (
        "ocrmypdf__tests__resources__masks.pdf",
        1,
        "listed, not drawn",
    ),
    // A 1×1 image on a hidden optional-content layer on each page, one shared by all pages:
    // poppler does not draw hidden layers. (The same pages merged with another file lost
    // their /OCProperties, so every layer shows there and both agree.)
    (
        "pypdf__resources__Seige_of_Vicksburg_Sample_OCR.pdf",
        7,
        "hidden layers",
    ),
    // Four images drawn by Type 3 glyphs: poppler's image extractor does not run glyph procedures.
    ("pypdf__resources__example.pdf", 4, "Type 3 glyphs"),
];

/// Every file of the corpora with the service's settings (16-pixel floor, masks): no panic,
/// no error but InvalidFile or Encrypted, every PNG readable; then with no floor and no masks,
/// the image objects found compared with poppler's (differences explained in [`EXPLAINED`]).
#[test]
fn corpus_extracts_without_panics() {
    let files = corpus_files::corpus();
    if files.is_empty() {
        eprintln!("no corpus under .cache: skipped");
        return;
    }
    let mut by_ext: BTreeMap<String, u32> = BTreeMap::new();
    let mut skipped_all = Skipped::default();
    let (mut ok, mut invalid, mut encrypted) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut comparisons = Vec::new();
    for (name, path) in &files {
        let out = tempfile::tempdir().unwrap();
        let result =
            std::panic::catch_unwind(|| extract_images(path, "img", out.path(), 16, true, MANY));
        let (list, skipped) = match result {
            Err(_) => {
                failures.push(format!("{name}: panic"));
                continue;
            }
            Ok(Err(ToolError::InvalidFile(_))) => {
                invalid += 1;
                continue;
            }
            Ok(Err(ToolError::Encrypted)) => {
                encrypted += 1;
                continue;
            }
            Ok(Err(other)) => {
                failures.push(format!("{name}: {other:?}"));
                continue;
            }
            Ok(Ok(done)) => done,
        };
        ok += 1;
        for file in &list {
            let ext = file.name.rsplit('.').next().unwrap_or_default();
            let kind = if file.name.contains("-mask.") {
                format!("{ext} (mask)")
            } else {
                ext.to_string()
            };
            *by_ext.entry(kind).or_default() += 1;
            // Every PNG reads back whole, at the size reported.
            if ext == "png" {
                match image::open(&file.path) {
                    Ok(png) if (png.width(), png.height()) == (file.width, file.height) => {}
                    Ok(png) => failures.push(format!(
                        "{name}: {} is {}x{}, reported {}x{}",
                        file.name,
                        png.width(),
                        png.height(),
                        file.width,
                        file.height
                    )),
                    Err(err) => failures.push(format!("{name}: {} unreadable: {err}", file.name)),
                }
            } else if ext == "jpg" {
                // JPEGs as stored: their own header says the size the PDF declares.
                match image::image_dimensions(&file.path) {
                    Ok(size) if size == (file.width, file.height) => {}
                    other => failures.push(format!("{name}: {}: {other:?}", file.name)),
                }
            } else if !file.path.is_file() {
                failures.push(format!("{name}: {} not written", file.name));
            }
        }
        skipped_all.undecodable += skipped.undecodable;
        skipped_all.small += skipped.small;
        skipped_all.too_large += skipped.too_large;
        skipped_all.duplicates += skipped.duplicates;
        // Against poppler: every image object, none skipped as small, masks aside.
        if let Some(objects) = pdfimages_objects(path) {
            let again = tempfile::tempdir().unwrap();
            let (list, skipped) =
                extract_images(path, "img", again.path(), 0, false, MANY).unwrap();
            let mine = i64::from(total(&list, &skipped));
            let theirs = objects.len() as i64;
            let explained = EXPLAINED.iter().find(|(file, _, _)| file == name);
            match explained {
                Some((_, more, _)) if mine - theirs == *more => {}
                None if mine == theirs => {}
                _ => failures.push(format!(
                    "{name}: {mine} image objects here, {theirs} by pdfimages"
                )),
            }
            if mine != theirs {
                comparisons.push(format!("{name}: {mine} here, {theirs} by pdfimages"));
            }
        }
    }
    eprintln!("corpus: {ok} read, {invalid} invalid, {encrypted} encrypted");
    eprintln!("written by kind: {by_ext:?}");
    eprintln!("skipped: {skipped_all:?}");
    eprintln!(
        "image objects differing from pdfimages -list:\n  {}",
        comparisons.join("\n  ")
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
