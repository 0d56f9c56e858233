//! Marks drawn on pages: watermark, page numbers.

use quire_proto::v1::{
    PageNumbersOptions, StampPosition, WatermarkOptions, tool_options::Tool as Options,
};
use quire_toolbox::stamp::{self, Mark, Numbering, Position, Watermark};

use super::{Done, Work, failure, unicode_font};
use crate::workers::protocol::{Failure, FailureKind};

pub fn run(work: &Work, options: Options) -> Result<Done, Failure> {
    let font = unicode_font();
    match options {
        Options::Watermark(WatermarkOptions {
            text,
            font_size,
            color,
            opacity,
            rotation,
            position,
            pages,
            behind,
            image_width,
        }) => {
            let mark = if text.trim().is_empty() {
                let image = work.inputs.get(1).ok_or_else(|| {
                    Failure::new(
                        FailureKind::BadOptions,
                        "write the watermark's text, or add a PNG or JPEG image as a second file",
                    )
                })?;
                Mark::Image {
                    path: image.clone(),
                    width_share: or(image_width, 0.5),
                }
            } else {
                Mark::Text {
                    text,
                    size: or(font_size, 48.0),
                    rgb: rgb(&color, [128, 128, 128])?,
                    font,
                }
            };
            let position = match StampPosition::try_from(position) {
                Ok(StampPosition::Tiled) => None,
                other => Some(place(other.unwrap_or_default(), Position::Center)),
            };
            let watermark = Watermark {
                mark,
                opacity: or(opacity, 0.3),
                rotation,
                position,
                pages: Some(pages).filter(|p| !p.trim().is_empty()),
                behind,
            };
            let (path, name) = work.output("-watermarked.pdf");
            let written = stamp::watermark(work.first(), &watermark, &path).map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        Options::PageNumbers(PageNumbersOptions {
            format,
            position,
            first_page,
            start,
            font_size,
            margin,
            color,
        }) => {
            let position = StampPosition::try_from(position).unwrap_or_default();
            if position == StampPosition::Tiled {
                return Err(Failure::new(
                    FailureKind::BadOptions,
                    "page numbers go at one place on the page, not tiled",
                ));
            }
            let numbering = Numbering {
                format: if format.trim().is_empty() {
                    "{n}".to_owned()
                } else {
                    format
                },
                position: place(position, Position::BottomCenter),
                first_page: first_page.max(1),
                start: start.max(1),
                size: or(font_size, 11.0),
                margin: or(margin, 28.0),
                rgb: rgb(&color, [0, 0, 0])?,
                font,
            };
            let (path, name) = work.output("-numbered.pdf");
            let written = stamp::number_pages(work.first(), &numbering, &path).map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        _ => Err(Failure::new(FailureKind::Engine, "not a stamp tool")),
    }
}

/// Unset numbers (0) take the default.
fn or(value: f32, default: f32) -> f32 {
    if value == 0.0 || !value.is_finite() {
        default
    } else {
        value
    }
}

fn place(position: StampPosition, unspecified: Position) -> Position {
    match position {
        StampPosition::TopLeft => Position::TopLeft,
        StampPosition::TopCenter => Position::TopCenter,
        StampPosition::TopRight => Position::TopRight,
        StampPosition::MiddleLeft => Position::MiddleLeft,
        StampPosition::Center => Position::Center,
        StampPosition::MiddleRight => Position::MiddleRight,
        StampPosition::BottomLeft => Position::BottomLeft,
        StampPosition::BottomCenter => Position::BottomCenter,
        StampPosition::BottomRight => Position::BottomRight,
        StampPosition::Unspecified | StampPosition::Tiled => unspecified,
    }
}

/// `#rrggbb` (or `rrggbb`); empty is the default.
pub(super) fn rgb(color: &str, default: [u8; 3]) -> Result<[u8; 3], Failure> {
    let hex = color.trim().trim_start_matches('#');
    if hex.is_empty() {
        return Ok(default);
    }
    let bad = || {
        Failure::new(
            FailureKind::BadOptions,
            format!("colour {color:?} is not of the form #rrggbb"),
        )
    };
    if hex.len() != 6 || !hex.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse() {
        assert_eq!(rgb("#ff8000", [0; 3]).unwrap(), [255, 128, 0]);
        assert_eq!(rgb("", [1, 2, 3]).unwrap(), [1, 2, 3]);
        assert!(rgb("#ff80", [0; 3]).is_err());
        assert!(rgb("#gg0000", [0; 3]).is_err());
        assert!(rgb("#ffé000", [0; 3]).is_err());
    }
}
