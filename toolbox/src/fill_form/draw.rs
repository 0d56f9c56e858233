//! Normal appearances written for a field's widgets: variable text (text fields, combo boxes,
//! list boxes) always, a check mark or dot for a button widget only when it has none.

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId, dictionary};

use super::FieldKind;
use super::buttons;
use super::choices;
use super::da;
use super::face::{self, Face, Fallback};
use super::layout::{self, Style};
use super::tree::{Terminal, flags};
use super::widget::Frame;
use crate::forms::acroform;

/// What a variable text field shows.
pub enum Shown {
    Text {
        text: String,
        /// A comb field's cell count.
        comb: Option<u32>,
        multiline: bool,
    },
    List {
        labels: Vec<String>,
        selected: Vec<usize>,
        top: usize,
    },
}

impl Shown {
    /// Everything the field draws, for choosing its font.
    pub fn strings(&self) -> String {
        match self {
            Shown::Text { text, .. } => text.clone(),
            Shown::List { labels, .. } => labels.join(" "),
        }
    }
}

/// What the field shows now (its /V), or `None` for a field that is not variable text.
pub fn shown(doc: &Document, field: &Terminal) -> Option<Shown> {
    let value = choices::current(doc, field);
    match field.kind {
        FieldKind::Text => {
            let mut text = value.into_iter().next().unwrap_or_default();
            text = text.replace("\r\n", "\n").replace('\r', "\n");
            if field.has(flags::PASSWORD) {
                text = text
                    .chars()
                    .map(|c| if c == '\n' { c } else { '*' })
                    .collect();
            }
            let multiline = field.has(flags::MULTILINE);
            let comb = match field.get(doc, b"MaxLen") {
                Some(Object::Integer(n)) if field.has(flags::COMB) && !multiline && *n > 0 => {
                    u32::try_from(*n).ok()
                }
                _ => None,
            };
            if !multiline {
                text = text.replace('\n', " ");
            }
            Some(Shown::Text {
                text,
                comb,
                multiline,
            })
        }
        FieldKind::ComboBox => {
            let options = choices::options(doc, field);
            let text = value
                .first()
                .map(|v| {
                    options
                        .iter()
                        .find(|o| &o.export == v)
                        .map_or_else(|| v.clone(), |o| o.label.clone())
                })
                .unwrap_or_default();
            Some(Shown::Text {
                text: text.replace('\n', " "),
                comb: None,
                multiline: false,
            })
        }
        FieldKind::ListBox => {
            let options = choices::options(doc, field);
            let selected: Vec<usize> = options
                .iter()
                .enumerate()
                .filter(|(_, o)| value.contains(&o.export))
                .map(|(i, _)| i)
                .collect();
            let top = match field.get(doc, b"TI") {
                Some(Object::Integer(top)) => usize::try_from(*top).unwrap_or(0),
                _ => 0,
            };
            let top = match selected.first() {
                Some(&first) if first < top => first,
                _ => top.min(options.len().saturating_sub(1)),
            };
            Some(Shown::List {
                labels: options
                    .into_iter()
                    .map(|o| o.label.replace('\n', " "))
                    .collect(),
                selected,
                top,
            })
        }
        _ => None,
    }
}

/// Draws appearances; keeps the standard fonts it added to the document.
pub struct Drawer<'a> {
    pub fallback: Option<&'a Fallback>,
    added: HashMap<Vec<u8>, ObjectId>,
    dingbats: Option<Object>,
}

impl<'a> Drawer<'a> {
    pub fn new() -> Drawer<'a> {
        Drawer {
            fallback: None,
            added: HashMap::new(),
            dingbats: None,
        }
    }

    /// Whether some widget's /DA font cannot show `text`.
    pub fn needs_fallback(&mut self, doc: &mut Document, field: &Terminal, text: &str) -> bool {
        field.widgets.iter().any(|&widget| {
            let Ok(dict) = doc.get_dictionary(widget).cloned() else {
                return false;
            };
            let da = da::of(doc, field, &dict);
            let font = face::form_font(doc, field, &da.font, &mut self.added);
            !font.is_some_and(|font| font.covers(text))
        })
    }

    /// Writes the normal appearance of every widget of a variable text field; how many.
    pub fn variable_text(&mut self, doc: &mut Document, field: &Terminal, shown: &Shown) -> u32 {
        let text = shown.strings();
        let mut drawn = 0;
        for &widget in &field.widgets {
            let Ok(dict) = doc.get_dictionary(widget).cloned() else {
                continue;
            };
            let Some(frame) = Frame::of(doc, &dict) else {
                continue;
            };
            let da = da::of(doc, field, &dict);
            let face = match face::form_font(doc, field, &da.font, &mut self.added) {
                Some(font) if font.covers(&text) => Face::Form(Box::new(font)),
                _ => match self.fallback {
                    Some(fallback) => Face::Own(fallback),
                    None => continue,
                },
            };
            let style = Style {
                face: &face,
                size: da.size,
                colour: &da.colour,
                quadding: da::quadding(doc, field, &dict),
            };
            let body = match shown {
                Shown::Text {
                    text,
                    comb: Some(cells),
                    ..
                } => layout::comb(&frame, &style, text, *cells),
                Shown::Text {
                    text,
                    multiline: true,
                    ..
                } => layout::multiline(&frame, &style, text),
                Shown::Text { text, .. } => layout::single_line(&frame, &style, text),
                Shown::List {
                    labels,
                    selected,
                    top,
                } => layout::list(&frame, &style, labels, selected, *top),
            };
            let (name, object) = face.resource();
            let mut fonts = Dictionary::new();
            fonts.set(name, object);
            let stream = frame.stream(doc, layout::wrap(&frame, &body), fonts);
            if let Ok(annot) = doc.get_dictionary_mut(widget) {
                annot.set("AP", dictionary! { "N" => stream });
            }
            drawn += 1;
        }
        drawn
    }

    /// Gives each widget of a checkbox or radio group that has no appearance for its on-state
    /// a ZapfDingbats check (or dot) and an empty off appearance, and an /AS that matches the
    /// field's value; how many.
    pub fn buttons(&mut self, doc: &mut Document, field: &Terminal) -> u32 {
        let value = buttons::current(doc, field);
        let mut drawn = 0;
        for widget in buttons::widgets(doc, field) {
            if widget.drawn {
                continue;
            }
            let Ok(dict) = doc.get_dictionary(widget.id).cloned() else {
                continue;
            };
            let Some(frame) = Frame::of(doc, &dict) else {
                continue;
            };
            let da = da::of(doc, field, &dict);
            let symbol = caption(doc, &dict).unwrap_or(if field.kind == FieldKind::Radio {
                b'l'
            } else {
                b'4'
            });
            let width = dingbat_width(symbol);
            let size = if da.size > 0.0 {
                da.size
            } else {
                (frame.width.min(frame.height) - 2.0 * frame.inset()).max(1.0) * 0.8
            };
            let (x, y) = (
                (frame.width - width * size) / 2.0,
                (frame.height - 0.705 * size) / 2.0,
            );
            let on = format!(
                "{}q BT /ZaDb {} Tf {} {} {} Td <{symbol:02X}> Tj ET Q\n",
                frame.decoration(),
                crate::geometry::number(size),
                da.colour,
                crate::geometry::number(x),
                crate::geometry::number(y),
            );
            let mut fonts = Dictionary::new();
            fonts.set("ZaDb", self.dingbats(doc));
            let on = frame.stream(doc, on, fonts);
            let off = frame.stream(doc, frame.decoration(), Dictionary::new());
            let mut states = Dictionary::new();
            states.set(widget.state.clone(), on);
            states.set("Off", off);
            let shown = if value.as_bytes() == widget.state.as_slice() {
                widget.state.clone()
            } else {
                b"Off".to_vec()
            };
            if let Ok(annot) = doc.get_dictionary_mut(widget.id) {
                annot.set("AP", dictionary! { "N" => states });
                annot.set("AS", Object::Name(shown));
            }
            drawn += 1;
        }
        drawn
    }

    /// ZapfDingbats: the form's /ZaDb, else a standard font dictionary added once.
    fn dingbats(&mut self, doc: &mut Document) -> Object {
        if let Some(font) = &self.dingbats {
            return font.clone();
        }
        let own = acroform(doc)
            .and_then(|form| form.get(b"DR").ok())
            .and_then(|dr| doc.dereference(dr).ok())
            .and_then(|(_, dr)| dr.as_dict().ok())
            .and_then(|dr| dr.get(b"Font").ok())
            .and_then(|fonts| doc.dereference(fonts).ok())
            .and_then(|(_, fonts)| fonts.as_dict().ok())
            .and_then(|fonts| fonts.get(b"ZaDb").ok())
            .cloned();
        let font = own.unwrap_or_else(|| {
            Object::Reference(doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "ZapfDingbats",
            }))
        });
        self.dingbats = Some(font.clone());
        font
    }
}

/// The widget's /MK /CA: the ZapfDingbats character its check shows.
fn caption(doc: &Document, widget: &Dictionary) -> Option<u8> {
    let mk = doc
        .dereference(widget.get(b"MK").ok()?)
        .ok()?
        .1
        .as_dict()
        .ok()?;
    match doc.dereference(mk.get(b"CA").ok()?).ok()?.1 {
        Object::String(bytes, _) => bytes.first().copied().filter(u8::is_ascii_graphic),
        _ => None,
    }
}

/// ZapfDingbats advance widths (AFM) of the characters check boxes use, in font sizes.
fn dingbat_width(symbol: u8) -> f64 {
    let thousandths = match symbol {
        b'4' => 846.0,
        b'l' => 791.0,
        b'8' => 746.0,
        b'n' => 762.0,
        b'u' => 759.0,
        b'H' => 816.0,
        _ => 800.0,
    };
    thousandths / 1000.0
}
