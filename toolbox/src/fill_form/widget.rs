//! A widget's box as its appearance sees it: the rectangle's size (turned by /MK /R), the
//! background and border /MK and /BS ask for, and the form XObject that holds an appearance.

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use crate::geometry::{number, number_of};

/// A widget's appearance box.
pub struct Frame {
    /// The box's size in the appearance's space (the rectangle's, swapped for 90 and 270).
    pub width: f64,
    pub height: f64,
    /// /MK /R: 0, 90, 180 or 270 degrees counter-clockwise.
    rotation: i64,
    background: Option<String>,
    border: Option<Border>,
}

struct Border {
    /// The stroke colour operators.
    colour: String,
    width: f64,
    /// /BS /S: S solid, D dashed, B beveled, I inset, U underline.
    style: u8,
    dash: Vec<f64>,
}

impl Frame {
    /// The frame of `widget`; `None` when its rectangle has no area.
    pub fn of(doc: &Document, widget: &Dictionary) -> Option<Frame> {
        let rect = resolve(doc, widget.get(b"Rect").ok())?.as_array().ok()?;
        let values: Vec<f64> = rect
            .iter()
            .filter_map(|v| resolve(doc, Some(v)).and_then(number_of))
            .collect();
        let [x0, y0, x1, y1] = <[f64; 4]>::try_from(values).ok()?;
        let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
        if !(w > 0.01 && h > 0.01) {
            return None;
        }
        let mk = resolve(doc, widget.get(b"MK").ok()).and_then(|mk| mk.as_dict().ok());
        let rotation = mk
            .and_then(|mk| resolve(doc, mk.get(b"R").ok()))
            .and_then(|r| r.as_i64().ok())
            .map_or(0, |r| r.rem_euclid(360));
        let rotation = if rotation % 90 == 0 { rotation } else { 0 };
        let (width, height) = if rotation % 180 == 0 { (w, h) } else { (h, w) };
        let colour = |key: &[u8], stroke: bool| {
            mk.and_then(|mk| resolve(doc, mk.get(key).ok()))
                .and_then(|c| colour(doc, c, stroke))
        };
        let bs = resolve(doc, widget.get(b"BS").ok()).and_then(|bs| bs.as_dict().ok());
        let border_width = bs
            .and_then(|bs| resolve(doc, bs.get(b"W").ok()))
            .and_then(number_of)
            .or_else(|| {
                let border = resolve(doc, widget.get(b"Border").ok())?.as_array().ok()?;
                resolve(doc, border.get(2)).and_then(number_of)
            })
            .unwrap_or(1.0);
        let style = bs
            .and_then(|bs| resolve(doc, bs.get(b"S").ok()))
            .and_then(|s| s.as_name().ok())
            .and_then(|s| s.first().copied())
            .unwrap_or(b'S');
        let dash = bs
            .and_then(|bs| resolve(doc, bs.get(b"D").ok()))
            .and_then(|d| d.as_array().ok())
            .map(|d| d.iter().filter_map(number_of).collect())
            .unwrap_or_else(|| vec![3.0]);
        let border = colour(b"BC", true)
            .filter(|_| border_width > 0.0 && border_width.is_finite())
            .map(|colour| Border {
                colour,
                width: border_width.min(width.min(height) / 2.0),
                style,
                dash,
            });
        Some(Frame {
            width,
            height,
            rotation,
            background: colour(b"BG", false),
            border,
        })
    }

    /// How far the text stays from the edges: the border (twice it for the beveled and inset
    /// styles, which draw a second band) and one point more, as viewers lay it out.
    pub fn inset(&self) -> f64 {
        let border = self.border.as_ref().map_or(0.0, |b| match b.style {
            b'B' | b'I' => 2.0 * b.width,
            _ => b.width,
        });
        border + 1.0
    }

    /// The operators drawing the background and the border.
    pub fn decoration(&self) -> String {
        let (w, h) = (self.width, self.height);
        let mut ops = String::new();
        if let Some(background) = &self.background {
            ops.push_str(&format!(
                "{background} 0 0 {} {} re f\n",
                number(w),
                number(h)
            ));
        }
        if let Some(border) = &self.border {
            let b = border.width;
            ops.push_str(&format!("{} {} w\n", border.colour, number(b)));
            match border.style {
                b'U' => ops.push_str(&format!(
                    "0 {0} m {1} {0} l S\n",
                    number(b / 2.0),
                    number(w)
                )),
                style => {
                    if style == b'D' {
                        let dash: Vec<String> = border.dash.iter().map(|&d| number(d)).collect();
                        ops.push_str(&format!("[{}] 0 d\n", dash.join(" ")));
                    }
                    ops.push_str(&format!(
                        "{0} {0} {1} {2} re S\n",
                        number(b / 2.0),
                        number(w - b),
                        number(h - b)
                    ));
                    if style == b'D' {
                        ops.push_str("[] 0 d\n");
                    }
                }
            }
        }
        ops
    }

    /// Adds a form XObject drawing `content` in this frame with `fonts` as its font resources.
    pub fn stream(&self, doc: &mut Document, content: String, fonts: Dictionary) -> ObjectId {
        let (w, h) = (self.width, self.height);
        let mut dict = dictionary! {
            "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), Object::Real(w as f32), Object::Real(h as f32)],
        };
        if !fonts.is_empty() {
            dict.set("Resources", dictionary! { "Font" => fonts });
        }
        // The matrix turns the box; §12.5.5 then moves it onto the rectangle.
        let matrix: Option<[i64; 4]> = match self.rotation {
            90 => Some([0, 1, -1, 0]),
            180 => Some([-1, 0, 0, -1]),
            270 => Some([0, -1, 1, 0]),
            _ => None,
        };
        if let Some([a, b, c, d]) = matrix {
            let matrix: Vec<Object> = [a, b, c, d, 0, 0]
                .into_iter()
                .map(Object::Integer)
                .collect();
            dict.set("Matrix", matrix);
        }
        doc.add_object(Stream::new(dict, content.into_bytes()))
    }
}

fn resolve<'a>(doc: &'a Document, value: Option<&'a Object>) -> Option<&'a Object> {
    doc.dereference(value?).ok().map(|(_, object)| object)
}

/// A colour array of /MK as fill (or stroke) operators; `None` for an empty (transparent) one.
fn colour(doc: &Document, value: &Object, stroke: bool) -> Option<String> {
    let values: Vec<String> = value
        .as_array()
        .ok()?
        .iter()
        .filter_map(|v| resolve(doc, Some(v)).and_then(number_of))
        .map(|v| number(v.clamp(0.0, 1.0)))
        .collect();
    let operator = match values.len() {
        1 => "g",
        3 => "rg",
        4 => "k",
        _ => return None,
    };
    let operator = if stroke {
        operator.to_ascii_uppercase()
    } else {
        operator.to_string()
    };
    Some(format!("{} {operator}", values.join(" ")))
}
