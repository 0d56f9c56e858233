//! Test documents built with lopdf, page by page, and the redaction run on them.

use std::path::{Path, PathBuf};

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};
use quire_toolbox::redact::{Area, Rect, Redacted, Redaction, redact};

/// US Letter.
pub const LETTER: [i64; 4] = [0, 0, 612, 792];

pub struct Builder {
    pub doc: Document,
    root: ObjectId,
    pages: Vec<ObjectId>,
    /// Helvetica without /Widths: measured by the standard metrics.
    pub helvetica: ObjectId,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    pub fn new() -> Builder {
        let mut doc = Document::with_version("1.7");
        let root = doc.new_object_id();
        let helvetica = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
            "Encoding" => "WinAnsiEncoding",
        });
        Builder {
            doc,
            root,
            pages: Vec::new(),
            helvetica,
        }
    }

    /// A Letter page drawing `content`, with /F1 (Helvetica) among its fonts.
    pub fn page(&mut self, content: &str, resources: Dictionary) -> ObjectId {
        self.page_with(content.as_bytes(), resources, Dictionary::new())
    }

    /// A page with `extra` entries in its dictionary (/Rotate, /Annots...).
    pub fn page_with(
        &mut self,
        content: &[u8],
        mut resources: Dictionary,
        extra: Dictionary,
    ) -> ObjectId {
        let mut fonts = resources
            .get(b"Font")
            .ok()
            .and_then(|f| f.as_dict().ok())
            .cloned()
            .unwrap_or_default();
        if !fonts.has(b"F1") {
            fonts.set("F1", self.helvetica);
        }
        resources.set("Font", fonts);
        let content = self
            .doc
            .add_object(Stream::new(Dictionary::new(), content.to_vec()));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => self.root,
            "MediaBox" => LETTER.iter().map(|&v| Object::Integer(v)).collect::<Vec<_>>(),
            "Contents" => content, "Resources" => resources,
        };
        for (key, value) in extra {
            page.set(key, value);
        }
        let id = self.doc.add_object(page);
        self.pages.push(id);
        id
    }

    pub fn add(&mut self, object: impl Into<Object>) -> ObjectId {
        self.doc.add_object(object.into())
    }

    /// Writes the document; the catalog gets `catalog` entries too.
    pub fn save_with(mut self, path: &Path, catalog: Dictionary) -> PathBuf {
        let kids: Vec<Object> = self.pages.iter().map(|&id| id.into()).collect();
        let count = kids.len() as i64;
        self.doc.objects.insert(
            self.root,
            Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
        );
        let mut dict = dictionary! { "Type" => "Catalog", "Pages" => self.root };
        for (key, value) in catalog {
            dict.set(key, value);
        }
        let catalog = self.doc.add_object(dict);
        self.doc.trailer.set("Root", catalog);
        self.doc.compress();
        self.doc.save(path).unwrap();
        path.to_path_buf()
    }

    pub fn save(self, path: &Path) -> PathBuf {
        self.save_with(path, Dictionary::new())
    }
}

/// A literal string.
pub fn string(text: &str) -> Object {
    Object::string_literal(text)
}

/// Areas as (page, [x0 y0 x1 y1]), black boxes, no label, no terms.
pub fn redaction(areas: &[(u32, [f64; 4])]) -> Redaction {
    Redaction {
        areas: areas
            .iter()
            .map(|&(page, [x0, y0, x1, y1])| Area {
                page,
                rect: Rect { x0, y0, x1, y1 },
            })
            .collect(),
        fill: [0, 0, 0],
        label: None,
        terms: Vec::new(),
        clean_document: false,
    }
}

/// Redacts `input` into `<stem>-redacted.pdf` next to it.
pub fn run(input: &Path, redaction: &Redaction) -> (PathBuf, Redacted) {
    let output = input.with_file_name(format!(
        "{}-redacted.pdf",
        input.file_stem().unwrap().to_string_lossy()
    ));
    let report = redact(input, redaction, &output).unwrap();
    (output, report)
}

/// Helvetica's advance widths (AFM) of the few characters the tests measure, at size 1.
pub fn helvetica_width(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            ' ' => 278.0,
            'A' | 'B' | 'S' | 'E' | 'P' | 'X' | 'V' | 'K' | 'Y' => 667.0,
            'I' => 278.0,
            'J' => 500.0,
            'C' | 'D' | 'H' | 'N' | 'R' | 'U' => 722.0,
            'O' | 'G' | 'Q' => 778.0,
            'T' | 'F' | 'Z' => 611.0,
            'W' => 944.0,
            'M' => 833.0,
            'L' => 556.0,
            'i' | 'j' | 'l' => 222.0,
            'f' | 't' => 278.0,
            'r' => 333.0,
            'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' => 500.0,
            'w' => 722.0,
            'm' => 833.0,
            _ => 556.0,
        })
        .sum::<f64>()
        / 1000.0
}
