//! What a visible signature shows, drawn into a form XObject: an image stretched over the
//! form, or a typed name set at the size that makes it as wide as the form.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use super::Appearance;
use crate::ToolError;
use crate::geometry::Matrix;
use crate::stamp::font::Font;
use crate::stamp::geometry::number;
use crate::stamp::picture::Picture;

/// The most characters a typed signature may have.
const MAX_CHARS: usize = 200;

/// The ink of a typed signature: black.
const INK: [u8; 3] = [0, 0, 0];

/// An appearance loaded and measured, before the document is opened.
pub struct Drawing {
    kind: Kind,
    /// Height over width.
    pub aspect: f64,
}

enum Kind {
    Text {
        font: Font,
        shown: String,
        /// Width at size 1.
        width: f64,
        /// Below the baseline at size 1 (negative).
        descent: f64,
    },
    Image(Box<Picture>),
}

impl Drawing {
    pub fn new(appearance: &Appearance) -> Result<Drawing, ToolError> {
        match appearance {
            Appearance::Image(path) => {
                let picture = Picture::load(path).map_err(|e| match e {
                    ToolError::BadOptions(message) => ToolError::BadOptions(
                        message.replace("the watermark image", "the signature image"),
                    ),
                    other => other,
                })?;
                Ok(Drawing {
                    aspect: f64::from(picture.height) / f64::from(picture.width),
                    kind: Kind::Image(Box::new(picture)),
                })
            }
            Appearance::Text { text, font } => {
                let count = text.chars().count();
                if text.trim().is_empty() || count > MAX_CHARS {
                    return Err(ToolError::BadOptions(format!(
                        "the typed signature has {count} characters: type your name in 1 to \
                         {MAX_CHARS} characters"
                    )));
                }
                let font = Font::for_text(text, font.as_deref())?;
                let width = font.width(text);
                let (ascent, descent) = font.vertical();
                if width <= 0.0 || ascent - descent <= 0.0 {
                    return Err(ToolError::BadOptions(
                        "the typed signature draws nothing: type your name".into(),
                    ));
                }
                Ok(Drawing {
                    aspect: (ascent - descent) / width,
                    kind: Kind::Text {
                        shown: font.show(text),
                        font,
                        width,
                        descent,
                    },
                })
            }
        }
    }

    /// Adds a form XObject drawing the appearance over [0 0 w h], with `matrix` as its /Matrix
    /// (a widget's appearance turned with its page).
    pub fn add_form(&self, doc: &mut Document, (w, h): (f64, f64), matrix: Matrix) -> ObjectId {
        let (resources, content) = match &self.kind {
            Kind::Text {
                font,
                shown,
                width,
                descent,
            } => {
                let id = font.add_to(doc);
                let size = w / width;
                let operators =
                    crate::stamp::text_operators(b"F", size, INK, (0.0, -descent * size), shown);
                (
                    dictionary! { "Font" => dictionary! { "F" => id } },
                    operators,
                )
            }
            Kind::Image(picture) => {
                let id = picture.add_to(doc);
                let content = format!("q {} 0 0 {} 0 0 cm /Im Do Q\n", number(w), number(h));
                (
                    dictionary! { "XObject" => dictionary! { "Im" => id } },
                    content,
                )
            }
        };
        doc.add_object(form((w, h), matrix, resources, content.into_bytes()))
    }
}

/// An empty appearance, for the widget of an invisible signature.
pub fn empty_form(doc: &mut Document) -> ObjectId {
    doc.add_object(form(
        (0.0, 0.0),
        crate::geometry::IDENTITY,
        Dictionary::new(),
        Vec::new(),
    ))
}

fn form((w, h): (f64, f64), matrix: Matrix, resources: Dictionary, content: Vec<u8>) -> Stream {
    let real = |v: f64| Object::Real(v as f32);
    let mut dict = dictionary! {
        "Type" => "XObject", "Subtype" => "Form",
        "BBox" => [0.0, 0.0, w, h].map(real).to_vec(),
        "Resources" => resources,
    };
    if matrix != crate::geometry::IDENTITY {
        dict.set("Matrix", matrix.map(real).to_vec());
    }
    Stream::new(dict, content)
}
