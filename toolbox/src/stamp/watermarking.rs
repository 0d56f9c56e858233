//! Watermarks: the mark drawn once into a form XObject shared by every page, and each chosen
//! page placing it (once, or tiled) through one ExtGState carrying the opacity.

use std::path::Path;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::content::{self, Resource, Stamper};
use super::font::Font;
use super::geometry::{self, Frame, matrix_cm, number};
use super::picture::Picture;
use super::{Mark, Watermark};
use crate::{ToolError, Written, io, pages};

/// A positioned mark stays this share of the page's shorter side away from the edges.
const MARGIN_SHARE: f64 = 0.05;

/// At most this many tiles on a page: a tiny mark on a poster would otherwise be drawn
/// hundreds of thousands of times.
const MAX_TILES: f64 = 400.0;

pub fn watermark(input: &Path, watermark: &Watermark, output: &Path) -> Result<Written, ToolError> {
    if !(0.0..=1.0).contains(&watermark.opacity) {
        return Err(ToolError::BadOptions(format!(
            "the opacity is {}: use a value from 0 (invisible) to 1 (opaque)",
            watermark.opacity
        )));
    }
    if !watermark.rotation.is_finite() {
        return Err(ToolError::BadOptions(
            "the rotation is not a number: give it in degrees".into(),
        ));
    }
    let prepared = Prepared::new(&watermark.mark)?;
    let mut doc = io::open(input)?;
    let mut tree = pages::walk(&doc)?;
    content::flatten(&mut doc, &mut tree)?;
    let count = crate::count(tree.pages.len());
    let chosen = super::chosen(watermark.pages.as_deref(), count)?;
    let form = prepared.add_form(&mut doc);
    let opacity = Object::Real(watermark.opacity);
    let state = doc.add_object(dictionary! {
        "Type" => "ExtGState", "ca" => opacity.clone(), "CA" => opacity,
    });
    let resources = [
        Resource {
            category: b"ExtGState",
            name: "QuireGS",
            object: state,
        },
        Resource {
            category: b"XObject",
            name: "QuireMark",
            object: form,
        },
    ];
    let angle = f64::from(watermark.rotation).to_radians();
    let (sin, cos) = angle.sin_cos();
    let mut stamper = Stamper::new();
    for index in chosen {
        let page = &tree.pages[index];
        let frame = Frame::of(&doc, page);
        let names = stamper.add_resources(&mut doc, page, &resources);
        let scale = prepared.scale(&frame);
        let (w, h) = (prepared.width * scale, prepared.height * scale);
        // The box the turned mark takes.
        let turned = (w * cos.abs() + h * sin.abs(), w * sin.abs() + h * cos.abs());
        let centres = match watermark.position {
            Some(position) => {
                let margin = frame.width.min(frame.height) * MARGIN_SHARE;
                let (x, y) = geometry::place(&frame, position, turned.0, turned.1, margin);
                vec![(x + turned.0 / 2.0, y + turned.1 / 2.0)]
            }
            None => tiles(&frame, (w, h), (sin, cos), turned),
        };
        let mut stream = format!(
            "q\n{}{} gs\n",
            geometry::cm(&frame),
            content::name(&names[0])
        );
        for (x, y) in centres {
            // Scaled, centred on the origin, turned, then moved to its centre.
            let matrix = [
                scale * cos,
                scale * sin,
                -scale * sin,
                scale * cos,
                x - cos * w / 2.0 + sin * h / 2.0,
                y - sin * w / 2.0 - cos * h / 2.0,
            ];
            stream.push_str("q ");
            stream.push_str(matrix_cm(matrix).trim_end());
            stream.push_str(&format!(" {} Do Q\n", content::name(&names[1])));
        }
        stream.push_str("Q\n");
        stamper.add_content(&mut doc, page.id, stream, watermark.behind);
    }
    io::save(&mut doc, output)?;
    Ok(Written { pages: count })
}

/// The centres of a grid of `w` x `h` marks turned by the angle whose sine and cosine are
/// given, covering the page: rows run along the mark's baseline, one tile sits at the page's
/// centre, tiles are spaced by their size plus the smaller side, every other row shifted by
/// half a step. Only tiles whose turned box (`turned`) meets the page are kept.
fn tiles(
    frame: &Frame,
    (w, h): (f64, f64),
    (sin, cos): (f64, f64),
    turned: (f64, f64),
) -> Vec<(f64, f64)> {
    let gap = w.min(h);
    let (mut along, mut across) = (w + gap, h + gap);
    // Every tile within this distance of the centre may touch the page.
    let reach = frame.width.hypot(frame.height) / 2.0 + w.max(h);
    let estimate = (2.0 * reach / along + 1.0) * (2.0 * reach / across + 1.0);
    if estimate > MAX_TILES {
        let stretch = (estimate / MAX_TILES).sqrt();
        along *= stretch;
        across *= stretch;
    }
    let (mid_x, mid_y) = (frame.width / 2.0, frame.height / 2.0);
    let columns = (reach / along).ceil() as i64 + 1;
    let rows = (reach / across).ceil() as i64;
    let mut centres = Vec::new();
    for row in -rows..=rows {
        let shift = if row.rem_euclid(2) == 1 { 0.5 } else { 0.0 };
        for column in -columns..=columns {
            let a = (column as f64 + shift) * along;
            let b = row as f64 * across;
            let (x, y) = (mid_x + a * cos - b * sin, mid_y + a * sin + b * cos);
            if (x - mid_x).abs() < mid_x + turned.0 / 2.0
                && (y - mid_y).abs() < mid_y + turned.1 / 2.0
            {
                centres.push((x, y));
            }
        }
    }
    centres
}

/// The mark, loaded and measured before the document is opened.
struct Prepared {
    kind: Kind,
    /// The form's size, in its own units.
    width: f64,
    height: f64,
}

enum Kind {
    Text {
        font: Font,
        shown: String,
        size: f64,
        rgb: [u8; 3],
        descent: f64,
    },
    Image {
        picture: Box<Picture>,
        width_share: f64,
    },
}

impl Prepared {
    fn new(mark: &Mark) -> Result<Prepared, ToolError> {
        match mark {
            Mark::Text {
                text,
                size,
                rgb,
                font,
            } => {
                if text.trim().is_empty() {
                    return Err(ToolError::BadOptions(
                        "the watermark text is empty: write the text to stamp".into(),
                    ));
                }
                let size = super::text_size(*size)?;
                let font = Font::for_text(text, font.as_deref())?;
                let (ascent, descent) = font.vertical();
                Ok(Prepared {
                    width: font.width(text) * size,
                    height: (ascent - descent) * size,
                    kind: Kind::Text {
                        shown: font.show(text),
                        font,
                        size,
                        rgb: *rgb,
                        descent: descent * size,
                    },
                })
            }
            Mark::Image { path, width_share } => {
                if !(*width_share > 0.0 && *width_share <= 1.0) {
                    return Err(ToolError::BadOptions(format!(
                        "the image is to be {width_share} of the page width: use a share \
                         above 0 and at most 1"
                    )));
                }
                let picture = Picture::load(path)?;
                let height = f64::from(picture.height) / f64::from(picture.width);
                Ok(Prepared {
                    width: 1.0,
                    height,
                    kind: Kind::Image {
                        picture: Box::new(picture),
                        width_share: f64::from(*width_share),
                    },
                })
            }
        }
    }

    /// How much the form is scaled on a page: text keeps its size, an image takes its share
    /// of the page width.
    fn scale(&self, frame: &Frame) -> f64 {
        match &self.kind {
            Kind::Text { .. } => 1.0,
            Kind::Image { width_share, .. } => width_share * frame.width,
        }
    }

    /// The form XObject drawing the mark in [0 0 width height].
    fn add_form(&self, doc: &mut Document) -> ObjectId {
        let (resources, stream) = match &self.kind {
            Kind::Text {
                font,
                shown,
                size,
                rgb,
                descent,
            } => {
                let id = font.add_to(doc);
                let operators = super::text_operators(b"F", *size, *rgb, (0.0, -descent), shown);
                (
                    dictionary! { "Font" => dictionary! { "F" => id } },
                    operators,
                )
            }
            Kind::Image { picture, .. } => {
                let id = picture.add_to(doc);
                let stream = format!("q 1 0 0 {} 0 0 cm /Im Do Q\n", number(self.height));
                (
                    dictionary! { "XObject" => dictionary! { "Im" => id } },
                    stream,
                )
            }
        };
        let bbox = [0.0, 0.0, self.width, self.height].map(|v| Object::Real(v as f32));
        let dict: Dictionary = dictionary! {
            "Type" => "XObject", "Subtype" => "Form", "BBox" => bbox.to_vec(),
            "Resources" => resources,
        };
        doc.add_object(Stream::new(dict, stream.into_bytes()))
    }
}
