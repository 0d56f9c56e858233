//! The stamps the tests ask for (page numbers, text and image watermarks), the fonts and
//! images they use, and the refusal they expect for bad options.

use std::path::{Path, PathBuf};

use quire_toolbox::ToolError;
use quire_toolbox::stamp::{Mark, Numbering, Position, Watermark};

const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

pub fn numbering(format: &str) -> Numbering {
    Numbering {
        format: format.into(),
        position: Position::BottomCenter,
        first_page: 1,
        start: 1,
        size: 12.0,
        margin: 20.0,
        rgb: [0, 0, 0],
        font: None,
    }
}

pub fn text_mark(text: &str, font: Option<&str>) -> Watermark {
    Watermark {
        mark: Mark::Text {
            text: text.into(),
            size: 40.0,
            rgb: [200, 0, 0],
            font: font.map(PathBuf::from),
        },
        opacity: 0.3,
        rotation: 0.0,
        position: Some(Position::Center),
        pages: None,
        behind: false,
    }
}

pub fn dejavu() -> Option<&'static str> {
    let found = Path::new(DEJAVU).exists();
    if !found {
        eprintln!("{DEJAVU} not installed: Unicode checks skipped");
    }
    found.then_some(DEJAVU)
}

pub fn jpeg_file(dir: &Path) -> (PathBuf, Vec<u8>) {
    let pixels: Vec<u8> = (0..64 * 32)
        .flat_map(|i| [(i % 256) as u8, 80, 160])
        .collect();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 85)
        .encode(&pixels, 64, 32, image::ExtendedColorType::Rgb8)
        .unwrap();
    let path = dir.join("logo.jpg");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

pub fn image_mark(path: &Path, width_share: f32) -> Watermark {
    Watermark {
        mark: Mark::Image {
            path: path.into(),
            width_share,
        },
        opacity: 1.0,
        rotation: 0.0,
        position: Some(Position::Center),
        pages: None,
        behind: false,
    }
}

pub fn bad_options(result: Result<quire_toolbox::Written, ToolError>) -> String {
    match result {
        Err(ToolError::BadOptions(message)) => message,
        other => panic!("expected BadOptions, got {other:?}"),
    }
}
