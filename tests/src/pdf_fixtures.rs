//! Small PDFs written from scratch for the processing tests and benchmarks: text pages
//! (standard Helvetica, WinAnsi so French accents work), image-only "scanned" pages and
//! image-heavy pages with generated photos. Shared by file with the benchmarks, so it depends
//! on nothing but `image`.

/// A4 in points.
pub const A4: (f32, f32) = (595.276, 841.89);

/// One page per entry, each line of text set in 16 pt Helvetica from the top left.
pub fn text_pdf(pages: &[&[&str]], size: (f32, f32)) -> Vec<u8> {
    let mut pdf = Writer::default();
    let font = pdf.object(
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".into(),
    );
    let mut contents = Vec::new();
    for lines in pages {
        let mut ops = String::from("BT /F1 16 Tf 20 TL\n");
        ops.push_str(&format!("1 0 0 1 50 {} Tm\n", size.1 - 70.0));
        for line in *lines {
            ops.push_str(&format!("({}) '\n", win_ansi(line)));
        }
        ops.push_str("ET\n");
        contents.push(pdf.stream("", ops.as_bytes()));
    }
    let resources = format!("<< /Font << /F1 {font} 0 R >> >>");
    pdf.finish(size, &contents, &resources, None)
}

/// One page per JPEG, each drawn over the whole page: a scan without a text layer.
pub fn scanned_pdf(jpegs: &[(Vec<u8>, u32, u32)], size: (f32, f32)) -> Vec<u8> {
    image_pdf(jpegs, size, "DeviceGray")
}

/// One page per RGB JPEG drawn over the whole page: an image-heavy document.
pub fn photo_pdf(jpegs: &[(Vec<u8>, u32, u32)], size: (f32, f32)) -> Vec<u8> {
    image_pdf(jpegs, size, "DeviceRGB")
}

fn image_pdf(jpegs: &[(Vec<u8>, u32, u32)], size: (f32, f32), colour_space: &str) -> Vec<u8> {
    let mut pdf = Writer::default();
    let mut contents = Vec::new();
    let mut images = Vec::new();
    for (jpeg, width, height) in jpegs {
        let image = pdf.stream(
            &format!(
                "/Type /XObject /Subtype /Image /Width {width} /Height {height} \
                 /ColorSpace /{colour_space} /BitsPerComponent 8 /Filter /DCTDecode"
            ),
            jpeg,
        );
        images.push(image);
        let ops = format!("q {} 0 0 {} 0 0 cm /Im0 Do Q\n", size.0, size.1);
        contents.push(pdf.stream("", ops.as_bytes()));
    }
    pdf.finish(size, &contents, "", Some(&images))
}

/// A smooth RGB "photo" with fine grain, as a high-quality JPEG: what image-heavy PDFs hold.
pub fn photo_jpeg(width: u32, height: u32, seed: u64) -> (Vec<u8>, u32, u32) {
    let grain = noise((width * height) as usize, seed);
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        let g = grain[(y * width + x) as usize] / 16;
        let fx = x as f32 / width as f32;
        let fy = y as f32 / height as f32;
        image::Rgb([
            (200.0 * fx + 30.0 * (fy * 12.0).sin()) as u8 + g,
            (180.0 * fy + 40.0 * (fx * 9.0).cos().abs()) as u8 + g,
            (120.0 + 100.0 * (fx * fy * 7.0).sin().abs()) as u8,
        ])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 95)
        .encode_image(&image)
        .expect("in-memory JPEG");
    (out, width, height)
}

/// Deterministic pseudo-random bytes (xorshift), so large test files need no data files.
pub fn noise(len: usize, seed: u64) -> Vec<u8> {
    // Xorshift needs a non-zero state: an odd one for every seed, shifted first so that
    // distinct seeds stay distinct (`seed | 1` made seeds 40 and 41 one stream).
    let mut x = (seed << 1) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// PDF strings are bytes: encode the text as WinAnsi (Latin-1 for the letters used here),
/// escaping what PDF string syntax needs.
fn win_ansi(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '(' | ')' | '\\' => format!("\\{c}"),
            c if c.is_ascii() => c.to_string(),
            c if (c as u32) < 256 => format!("\\{:03o}", c as u32),
            _ => "?".to_owned(),
        })
        .collect()
}

#[derive(Default)]
struct Writer {
    body: Vec<u8>,
    offsets: Vec<usize>,
}

impl Writer {
    fn object(&mut self, dict: String) -> usize {
        self.push(dict.into_bytes())
    }

    fn stream(&mut self, dict: &str, data: &[u8]) -> usize {
        let mut object = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
        object.extend_from_slice(data);
        object.extend_from_slice(b"\nendstream");
        self.push(object)
    }

    fn push(&mut self, object: Vec<u8>) -> usize {
        if self.body.is_empty() {
            self.body
                .extend_from_slice(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n");
        }
        let id = self.offsets.len() + 1;
        self.offsets.push(self.body.len());
        self.body
            .extend_from_slice(format!("{id} 0 obj\n").as_bytes());
        self.body.extend_from_slice(&object);
        self.body.extend_from_slice(b"\nendobj\n");
        id
    }

    /// Pages (one per content stream; with `images`, page i draws image i as /Im0), the page
    /// tree, the catalog, the cross-reference table and the trailer.
    fn finish(
        mut self,
        size: (f32, f32),
        contents: &[usize],
        resources: &str,
        images: Option<&[usize]>,
    ) -> Vec<u8> {
        let pages_id = self.offsets.len() + contents.len() + 1;
        let mut kids = Vec::new();
        for (i, content) in contents.iter().enumerate() {
            let resources = match images {
                Some(images) => format!("<< /XObject << /Im0 {} 0 R >> >>", images[i]),
                None => resources.to_owned(),
            };
            let page = self.object(format!(
                "<< /Type /Page /Parent {pages_id} 0 R /MediaBox [0 0 {} {}] /Resources {resources} \
                 /Contents {content} 0 R >>",
                size.0, size.1
            ));
            kids.push(format!("{page} 0 R"));
        }
        let pages = self.object(format!(
            "<< /Type /Pages /Kids [{}] /Count {} >>",
            kids.join(" "),
            kids.len()
        ));
        assert_eq!(pages, pages_id);
        let catalog = self.object(format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
        let xref = self.body.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", self.offsets.len() + 1);
        for offset in &self.offsets {
            table.push_str(&format!("{offset:010} 00000 n \n"));
        }
        table.push_str(&format!(
            "trailer\n<< /Size {} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            self.offsets.len() + 1
        ));
        self.body.extend_from_slice(table.as_bytes());
        self.body
    }
}
