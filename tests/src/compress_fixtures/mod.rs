//! PDFs written from scratch for the compression quality tests: a document holding what a
//! compressor must keep (rich.rs: text in standard and embedded fonts, links, an outline, an
//! AcroForm with filled fields, annotations, a JPEG photo and Flate images, made of the inputs
//! in inputs.rs), and decompression bombs behind filter chains (bomb.rs). This file is the
//! small PDF writer they share.

use std::io::Write as _;

mod bomb;
mod inputs;
mod rich;

pub use bomb::{BombIn, ZeroBomb, bomb_pdf, encrypted_bomb_pdf, object_flood_pdf};
pub use rich::{RICH_TEXT, rich_pdf};

/// Objects numbered up front, so that pages, annotations and the outline can point at each
/// other.
#[derive(Default)]
struct Objects {
    bodies: Vec<Option<Vec<u8>>>,
}

impl Objects {
    fn reserve(&mut self) -> usize {
        self.bodies.push(None);
        self.bodies.len()
    }

    fn set(&mut self, id: usize, body: impl Into<Vec<u8>>) {
        self.bodies[id - 1] = Some(body.into());
    }

    fn add(&mut self, body: impl Into<Vec<u8>>) -> usize {
        let id = self.reserve();
        self.set(id, body);
        id
    }

    fn stream(&mut self, dict: &str, data: &[u8]) -> usize {
        let mut body = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.add(body)
    }

    fn flate_stream(&mut self, dict: &str, data: &[u8]) -> usize {
        self.stream(&format!("{dict} /Filter /FlateDecode"), &zlib(data))
    }

    fn finish(self, catalog: usize) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = Vec::new();
        for (index, body) in self.bodies.into_iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", index + 1).as_bytes());
            out.extend_from_slice(&body.expect("every reserved object is written"));
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1);
        for offset in &offsets {
            table.push_str(&format!("{offset:010} 00000 n \n"));
        }
        table.push_str(&format!(
            "trailer\n<< /Size {} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            offsets.len() + 1
        ));
        out.extend_from_slice(table.as_bytes());
        out
    }
}

pub fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).expect("in memory");
    encoder.finish().expect("in memory")
}

/// PDF string syntax for ASCII text.
fn literal(text: &str) -> String {
    let mut out = String::from("(");
    for c in text.chars() {
        if matches!(c, '(' | ')' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push(')');
    out
}
