//! PDFs written from scratch for the compression quality tests: a document holding what a
//! compressor must keep (text in standard and embedded fonts, links, an outline, an AcroForm
//! with filled fields, annotations, a JPEG photo and Flate images), and decompression bombs
//! behind filter chains.

use std::io::Write as _;

use crate::pdf_fixtures::{A4, noise, photo_jpeg};

/// Fonts embedded in [`rich_pdf`]: a TrueType and a Type 1 program, from the Debian packages
/// fonts-dejavu-core and fonts-urw-base35 (Ghostscript's fonts).
const TRUETYPE: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
const TYPE1: &str = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1";
const TYPE1_AFM: &str = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.afm";

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

fn font_file(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        panic!("{path}: {e}; install the Debian packages fonts-dejavu-core and fonts-urw-base35")
    })
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

/// A smooth RGB picture with grain: a photo stored losslessly, as scanners and some writers do.
fn photo_pixels(width: u32, height: u32, seed: u64) -> Vec<u8> {
    let grain = noise((width * height) as usize, seed);
    let mut out = Vec::with_capacity((width * height * 3) as usize);
    for y in 0..height {
        for x in 0..width {
            let g = grain[(y * width + x) as usize] / 32;
            let fx = x as f32 / width as f32;
            let fy = y as f32 / height as f32;
            out.extend_from_slice(&[
                (60.0 + 150.0 * fy + 30.0 * (fx * 10.0).sin()) as u8 + g,
                (90.0 + 120.0 * fx * fy) as u8 + g,
                (200.0 - 140.0 * fx + 20.0 * (fy * 14.0).cos()) as u8 + g,
            ]);
        }
    }
    out
}

/// A grey "scan" of a printed page: paper, dark bars of text, a little noise.
fn scan_pixels(width: u32, height: u32, seed: u64) -> Vec<u8> {
    let grain = noise((width * height) as usize, seed);
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| {
            let line = (y / 18) % 2 == 0 && (y % 18) > 4 && x > 60 && x < width - 60;
            let word = (x / 37 + y / 36) % 5 != 0;
            let base: u8 = if line && word { 40 } else { 235 };
            base.saturating_add(grain[(y * width + x) as usize] / 16)
        })
        .collect()
}

/// Advance widths of codes 32-126 from an AFM file (StandardEncoding, which agrees with
/// WinAnsiEncoding on the letters, digits and punctuation the fixture uses).
fn afm_widths(afm: &str) -> (Vec<u32>, String) {
    let mut widths = vec![0; 95];
    let mut bbox = String::from("[-210 -307 1032 1154]");
    for line in afm.lines() {
        if let Some(rest) = line.strip_prefix("FontBBox ") {
            bbox = format!("[{}]", rest.trim());
        }
        let mut parts = line.split(';').map(str::trim);
        let (Some(code), Some(width)) = (parts.next(), parts.next()) else {
            continue;
        };
        let (Some(code), Some(width)) = (code.strip_prefix("C "), width.strip_prefix("WX ")) else {
            continue;
        };
        if let (Ok(code), Ok(width)) = (code.parse::<i32>(), width.parse::<f32>())
            && (32..=126).contains(&code)
        {
            widths[(code - 32) as usize] = width.round() as u32;
        }
    }
    (widths, bbox)
}

/// The Type 1 program's three parts for /Length1, /Length2, /Length3: clear text through
/// `eexec` and its end of line, the encrypted part, and the trailer of zeros.
fn type1_lengths(program: &[u8]) -> (usize, usize, usize) {
    let marker = b"currentfile eexec";
    let mut clear = program
        .windows(marker.len())
        .position(|w| w == marker)
        .expect("a Type 1 program")
        + marker.len();
    while matches!(program.get(clear), Some(b'\r' | b'\n')) {
        clear += 1;
    }
    // The trailer: the run of ASCII zeros before the last `cleartomark`, and what follows.
    let trailer = program
        .windows(b"cleartomark".len())
        .rposition(|w| w == b"cleartomark")
        .map_or(program.len(), |mut start| {
            while start > clear && matches!(program[start - 1], b'0' | b'\r' | b'\n' | b' ') {
                start -= 1;
            }
            start
        });
    (clear, trailer - clear, program.len() - trailer)
}

/// Text drawn by [`rich_pdf`], per page, in the order it is drawn.
pub const RICH_TEXT: [&[&str]; 3] = [
    &[
        "Quire keeps what matters",
        "Times Roman: The quick brown fox jumps over the lazy dog.",
        "Courier: 0123456789 + - * / = ( ) [ ] { }",
        "DejaVu Sans Mono, embedded TrueType: Sphinx of black quartz, judge my vow.",
        "Nimbus Sans, embedded Type 1: Pack my box with five dozen liquor jugs.",
        "https://example.com/quire",
        "Go to the appendix",
        "Name:",
        "I agree:",
    ],
    &[
        "A photograph, stored as JPEG",
        "A picture stored with Flate, losslessly",
        "Captions in Nimbus Sans: figures 1 and 2.",
    ],
    &[
        "Appendix",
        "A scanned page, grey and Flate encoded, beside real text.",
        "Back to the start",
    ],
];

/// Three A4 pages: text in five fonts (two embedded), a URI link and a link to page 3, an
/// outline of four entries, an AcroForm with a filled text field and a checked box, a sticky
/// note, a square and a free-text annotation, a JPEG photo, a Flate RGB picture and a Flate
/// grey scan.
pub fn rich_pdf() -> Vec<u8> {
    let mut o = Objects::default();
    let catalog = o.reserve();
    let pages = o.reserve();
    let page_ids = [o.reserve(), o.reserve(), o.reserve()];
    let (w, h) = A4;

    // Fonts: three standard ones, a TrueType and a Type 1 embedded whole.
    let helvetica =
        o.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    let times = o
        .add("<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>");
    let courier =
        o.add("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>");
    let ttf = font_file(TRUETYPE);
    let ttf_file = o.flate_stream(&format!("/Length1 {}", ttf.len()), &ttf);
    let ttf_descriptor = o.add(format!(
        "<< /Type /FontDescriptor /FontName /DejaVuSansMono /Flags 33 \
         /FontBBox [-558 -375 718 1042] /ItalicAngle 0 /Ascent 928 /Descent -236 \
         /CapHeight 729 /StemV 80 /FontFile2 {ttf_file} 0 R >>"
    ));
    let mono_widths = vec!["602"; 95].join(" ");
    let dejavu = o.add(format!(
        "<< /Type /Font /Subtype /TrueType /BaseFont /DejaVuSansMono /FirstChar 32 \
         /LastChar 126 /Widths [{mono_widths}] /Encoding /WinAnsiEncoding \
         /FontDescriptor {ttf_descriptor} 0 R >>"
    ));
    let t1 = font_file(TYPE1);
    let (length1, length2, length3) = type1_lengths(&t1);
    let t1_file = o.flate_stream(
        &format!("/Length1 {length1} /Length2 {length2} /Length3 {length3}"),
        &t1,
    );
    let afm = String::from_utf8_lossy(&font_file(TYPE1_AFM)).into_owned();
    let (widths, bbox) = afm_widths(&afm);
    let t1_descriptor = o.add(format!(
        "<< /Type /FontDescriptor /FontName /NimbusSans-Regular /Flags 32 /FontBBox {bbox} \
         /ItalicAngle 0 /Ascent 729 /Descent -218 /CapHeight 729 /StemV 85 \
         /FontFile {t1_file} 0 R >>"
    ));
    let widths: Vec<String> = widths.iter().map(u32::to_string).collect();
    let nimbus = o.add(format!(
        "<< /Type /Font /Subtype /Type1 /BaseFont /NimbusSans-Regular /FirstChar 32 \
         /LastChar 126 /Widths [{}] /Encoding /WinAnsiEncoding \
         /FontDescriptor {t1_descriptor} 0 R >>",
        widths.join(" ")
    ));
    let fonts = format!(
        "/Font << /F1 {helvetica} 0 R /F2 {times} 0 R /F3 {courier} 0 R /F4 {dejavu} 0 R \
         /F5 {nimbus} 0 R /Helv {helvetica} 0 R >>"
    );

    // Page 1: text, links, form fields, annotations.
    let t = RICH_TEXT[0];
    let line = |font: &str, size: u32, x: f32, y: f32, text: &str| {
        format!("BT /{font} {size} Tf {x} {y} Td {} Tj ET\n", literal(text))
    };
    let mut ops = String::new();
    ops.push_str(&line("F1", 22, 50.0, h - 80.0, t[0]));
    ops.push_str(&line("F2", 13, 50.0, h - 120.0, t[1]));
    ops.push_str(&line("F3", 11, 50.0, h - 145.0, t[2]));
    ops.push_str(&line("F4", 10, 50.0, h - 170.0, t[3]));
    ops.push_str(&line("F5", 12, 50.0, h - 195.0, t[4]));
    ops.push_str("0 0 0.8 rg\n");
    ops.push_str(&line("F1", 12, 50.0, h - 240.0, t[5]));
    ops.push_str(&line("F1", 12, 50.0, h - 265.0, t[6]));
    ops.push_str("0 g\n");
    ops.push_str(&line("F1", 12, 50.0, h - 320.0, t[7]));
    ops.push_str(&line("F1", 12, 50.0, h - 350.0, t[8]));
    let content1 = o.flate_stream("", ops.as_bytes());

    let uri_link = o.add(format!(
        "<< /Type /Annot /Subtype /Link /Rect [48 {} 210 {}] /Border [0 0 0] \
         /A << /S /URI /URI (https://example.com/quire) >> >>",
        h - 245.0,
        h - 227.0
    ));
    let goto_link = o.add(format!(
        "<< /Type /Annot /Subtype /Link /Rect [48 {} 170 {}] /Border [0 0 0] \
         /Dest [{} 0 R /XYZ 0 {h} 0] >>",
        h - 270.0,
        h - 252.0,
        page_ids[2]
    ));
    let text_ap = o.stream(
        &format!("/Type /XObject /Subtype /Form /BBox [0 0 200 22] /Resources << {fonts} >>"),
        b"/Tx BMC q 0.95 g 0 0 200 22 re f BT /F1 12 Tf 0 g 3 6 Td (Ada Lovelace) Tj ET Q EMC",
    );
    let name_field = o.add(format!(
        "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Ada Lovelace) \
         /DA (/Helv 12 Tf 0 g) /F 4 /Rect [110 {} 310 {}] /P {} 0 R /AP << /N {text_ap} 0 R >> >>",
        h - 326.0,
        h - 304.0,
        page_ids[0]
    ));
    let box_on = o.stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 14 14]",
        b"q 0 G 1 w 0.5 0.5 13 13 re S 0 g 3 3 8 8 re f Q",
    );
    let box_off = o.stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 14 14]",
        b"q 0 G 1 w 0.5 0.5 13 13 re S Q",
    );
    let agree_field = o.add(format!(
        "<< /Type /Annot /Subtype /Widget /FT /Btn /T (agree) /V /Yes /AS /Yes /F 4 \
         /Rect [110 {} 124 {}] /P {} 0 R /AP << /N << /Yes {box_on} 0 R /Off {box_off} 0 R >> >> >>",
        h - 353.0,
        h - 339.0,
        page_ids[0]
    ));
    let note = o.add(format!(
        "<< /Type /Annot /Subtype /Text /Rect [520 {} 540 {}] /Contents (Checked by the guard) \
         /Name /Comment /C [1 1 0] /F 4 >>",
        h - 100.0,
        h - 80.0
    ));
    let square_ap = o.stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 120 60]",
        b"q 1 0 0 RG 3 w 1.5 1.5 117 57 re S Q",
    );
    let square = o.add(format!(
        "<< /Type /Annot /Subtype /Square /Rect [400 {} 520 {}] /C [1 0 0] /Border [0 0 3] \
         /F 4 /AP << /N {square_ap} 0 R >> >>",
        h - 420.0,
        h - 360.0
    ));
    o.set(
        page_ids[0],
        format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {w} {h}] \
             /Resources << {fonts} >> /Contents {content1} 0 R \
             /Annots [{uri_link} 0 R {goto_link} 0 R {name_field} 0 R {agree_field} 0 R \
             {note} 0 R {square} 0 R] >>"
        ),
    );

    // Page 2: a JPEG photo and a Flate picture, with captions.
    let (jpeg, jw, jh) = photo_jpeg(1600, 1100, 11);
    let photo = o.stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {jw} /Height {jh} /ColorSpace /DeviceRGB \
             /BitsPerComponent 8 /Filter /DCTDecode"
        ),
        &jpeg,
    );
    let (fw, fh) = (900, 600);
    let picture = o.flate_stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {fw} /Height {fh} /ColorSpace /DeviceRGB \
             /BitsPerComponent 8"
        ),
        &photo_pixels(fw, fh, 12),
    );
    let t = RICH_TEXT[1];
    let mut ops = String::new();
    ops.push_str(&format!("q 400 0 0 275 50 {} cm /Im1 Do Q\n", h - 340.0));
    ops.push_str(&line("F1", 12, 50.0, h - 360.0, t[0]));
    ops.push_str(&format!("q 300 0 0 200 50 {} cm /Im2 Do Q\n", h - 600.0));
    ops.push_str(&line("F1", 12, 50.0, h - 620.0, t[1]));
    ops.push_str(&line("F5", 12, 50.0, h - 660.0, t[2]));
    let content2 = o.flate_stream("", ops.as_bytes());
    o.set(
        page_ids[1],
        format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {w} {h}] \
             /Resources << {fonts} /XObject << /Im1 {photo} 0 R /Im2 {picture} 0 R >> >> \
             /Contents {content2} 0 R >>"
        ),
    );

    // Page 3: a grey scan beside text, a free-text note and a link back.
    let (sw, sh) = (1000, 700);
    let scan = o.flate_stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {sw} /Height {sh} /ColorSpace /DeviceGray \
             /BitsPerComponent 8"
        ),
        &scan_pixels(sw, sh, 13),
    );
    let t = RICH_TEXT[2];
    let mut ops = String::new();
    ops.push_str(&line("F1", 20, 50.0, h - 80.0, t[0]));
    ops.push_str(&line("F2", 12, 50.0, h - 110.0, t[1]));
    ops.push_str(&format!("q 250 0 0 175 50 {} cm /Im3 Do Q\n", h - 320.0));
    ops.push_str("0 0 0.8 rg\n");
    ops.push_str(&line("F1", 12, 50.0, h - 360.0, t[2]));
    let content3 = o.flate_stream("", ops.as_bytes());
    let back = o.add(format!(
        "<< /Type /Annot /Subtype /Link /Rect [48 {} 170 {}] /Border [0 0 0] \
         /A << /S /GoTo /D [{} 0 R /Fit] >> >>",
        h - 365.0,
        h - 347.0,
        page_ids[0]
    ));
    let free_ap = o.stream(
        &format!("/Type /XObject /Subtype /Form /BBox [0 0 180 30] /Resources << {fonts} >>"),
        b"q 0.9 0.9 1 rg 0 0 180 30 re f BT /F1 11 Tf 0 g 5 10 Td (Reviewed in November) Tj ET Q",
    );
    let free_text = o.add(format!(
        "<< /Type /Annot /Subtype /FreeText /Rect [340 {} 520 {}] /Contents (Reviewed in November) \
         /DA (/Helv 11 Tf 0 g) /F 4 /AP << /N {free_ap} 0 R >> >>",
        h - 250.0,
        h - 220.0
    ));
    o.set(
        page_ids[2],
        format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {w} {h}] \
             /Resources << {fonts} /XObject << /Im3 {scan} 0 R >> >> /Contents {content3} 0 R \
             /Annots [{back} 0 R {free_text} 0 R] >>"
        ),
    );

    // The outline: Introduction (with a child, Fonts), Pictures, Appendix.
    let outlines = o.reserve();
    let [intro, fonts_entry, pictures, appendix] =
        [o.reserve(), o.reserve(), o.reserve(), o.reserve()];
    let dest = |page: usize, top: f32| format!("[{page} 0 R /XYZ 0 {top} 0]");
    o.set(
        outlines,
        format!("<< /Type /Outlines /First {intro} 0 R /Last {appendix} 0 R /Count 4 >>"),
    );
    o.set(
        intro,
        format!(
            "<< /Title (Introduction) /Parent {outlines} 0 R /Next {pictures} 0 R \
             /First {fonts_entry} 0 R /Last {fonts_entry} 0 R /Count 1 /Dest {} >>",
            dest(page_ids[0], h)
        ),
    );
    o.set(
        fonts_entry,
        format!(
            "<< /Title (Fonts) /Parent {intro} 0 R /Dest {} >>",
            dest(page_ids[0], h - 110.0)
        ),
    );
    o.set(
        pictures,
        format!(
            "<< /Title (Pictures) /Parent {outlines} 0 R /Prev {intro} 0 R /Next {appendix} 0 R \
             /Dest {} >>",
            dest(page_ids[1], h)
        ),
    );
    o.set(
        appendix,
        format!(
            "<< /Title (Appendix) /Parent {outlines} 0 R /Prev {pictures} 0 R /Dest {} >>",
            dest(page_ids[2], h)
        ),
    );

    o.set(
        pages,
        format!(
            "<< /Type /Pages /Kids [{} 0 R {} 0 R {} 0 R] /Count 3 >>",
            page_ids[0], page_ids[1], page_ids[2]
        ),
    );
    o.set(
        catalog,
        format!(
            "<< /Type /Catalog /Pages {pages} 0 R /Outlines {outlines} 0 R /PageMode /UseOutlines \
             /AcroForm << /Fields [{name_field} 0 R {agree_field} 0 R] /DA (/Helv 0 Tf 0 g) \
             /DR << /Font << /Helv {helvetica} 0 R >> >> >> >>"
        ),
    );
    o.finish(catalog)
}

/// A zlib stream that inflates to `1 + 258 * (1 + 8 * repeats)` zero bytes, written directly:
/// one fixed-Huffman block of a literal zero and length-258, distance-1 matches. Eight matches
/// take 13 bytes, so the stream is a 3-byte head, a 13-byte pattern repeated, and a tail:
/// about 1:159, built without deflating gigabytes first. The pattern repeats, so a second
/// Flate layer over it shrinks it about a thousand times more.
pub struct ZeroBomb {
    head: Vec<u8>,
    pattern: Vec<u8>,
    tail: Vec<u8>,
    pub repeats: u64,
}

#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u32,
    len: u32,
}

impl Bits {
    /// `count` bits of `value`, least significant first (Deflate's packing order).
    fn push(&mut self, value: u32, count: u32) {
        for i in 0..count {
            self.acc |= ((value >> i) & 1) << self.len;
            self.len += 1;
            if self.len == 8 {
                self.out.push(self.acc as u8);
                self.acc = 0;
                self.len = 0;
            }
        }
    }

    /// A Huffman code: most significant bit first.
    fn code(&mut self, code: u32, count: u32) {
        for i in (0..count).rev() {
            self.push((code >> i) & 1, 1);
        }
    }

    /// A length-258 (code 285, 8 bits 11000101), distance-1 (code 0, 5 bits) match.
    fn match_258(&mut self) {
        self.code(0b1100_0101, 8);
        self.code(0, 5);
    }
}

impl ZeroBomb {
    pub fn new(repeats: u64) -> ZeroBomb {
        // zlib header: deflate, 32 KiB window, no dictionary, default level.
        let mut head = Bits::default();
        head.push(0x78, 8);
        head.push(0x9c, 8);
        head.push(1, 1); // final block
        head.push(1, 2); // fixed Huffman codes
        head.code(0b0011_0000, 8); // literal 0
        head.match_258(); // 3 + 8 + 13 = 24 bits: byte aligned
        assert_eq!(head.len, 0);
        let mut pattern = Bits::default();
        for _ in 0..8 {
            pattern.match_258();
        }
        assert_eq!((pattern.out.len(), pattern.len), (13, 0));
        let mut tail = Bits::default();
        tail.code(0, 7); // end of block
        if tail.len > 0 {
            tail.push(0, 8 - tail.len); // to a byte boundary
        }
        let decoded = ZeroBomb::decoded_len_of(repeats);
        // Adler-32 of zeros: a stays 1, b adds a for every byte.
        let adler = ((decoded % 65521) << 16) | 1;
        tail.out.extend_from_slice(&(adler as u32).to_be_bytes());
        ZeroBomb {
            head: head.out,
            pattern: pattern.out,
            tail: tail.out,
            repeats,
        }
    }

    fn decoded_len_of(repeats: u64) -> u64 {
        1 + 258 * (1 + 8 * repeats)
    }

    pub fn decoded_len(&self) -> u64 {
        ZeroBomb::decoded_len_of(self.repeats)
    }

    /// The stream's bytes written into `out` (a Vec, or an encoder for another layer).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.head)?;
        let chunk = self.pattern.repeat(64 * 1024);
        let mut left = self.repeats;
        while left > 0 {
            let n = left.min(64 * 1024);
            out.write_all(&chunk[..n as usize * self.pattern.len()])?;
            left -= n;
        }
        out.write_all(&self.tail)
    }
}

/// Where [`bomb_pdf`] hides the bomb.
#[derive(Clone, Copy, Debug)]
pub enum BombIn {
    /// A second content stream of the page.
    Content,
    /// An image XObject of plausible size whose data inflates far past it.
    Image,
}

/// A one-page PDF with a small text and a stream of `/Filter [/ASCIIHexDecode /FlateDecode
/// /FlateDecode]` that decodes to `gib` GiB of zeros: hex of a Flate layer of a Flate layer
/// of zeros. Returns the PDF and the size the stream decodes to.
pub fn bomb_pdf(gib: u64, place: BombIn) -> (Vec<u8>, u64) {
    let repeats = (gib << 30) / (258 * 8);
    let bomb = ZeroBomb::new(repeats);
    let mut outer = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    bomb.write_to(&mut outer).expect("in memory");
    let outer = outer.finish().expect("in memory");
    let mut hex: Vec<u8> = Vec::with_capacity(outer.len() * 2 + 1);
    for (i, byte) in outer.iter().enumerate() {
        hex.extend_from_slice(format!("{byte:02x}").as_bytes());
        if i % 40 == 39 {
            hex.push(b'\n');
        }
    }
    hex.push(b'>');
    let chain = "/Filter [/ASCIIHexDecode /FlateDecode /FlateDecode]";

    let mut o = Objects::default();
    let catalog = o.reserve();
    let pages = o.reserve();
    let page = o.reserve();
    let font =
        o.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    let text = o.flate_stream("", b"BT /F1 14 Tf 50 780 Td (A page over a bomb) Tj ET\n");
    let (contents, xobjects) = match place {
        BombIn::Content => {
            let bomb = o.stream(chain, &hex);
            (format!("[{text} 0 R {bomb} 0 R]"), String::new())
        }
        BombIn::Image => {
            let image = o.stream(
                &format!(
                    "/Type /XObject /Subtype /Image /Width 4000 /Height 4000 \
                     /ColorSpace /DeviceGray /BitsPerComponent 8 {chain}"
                ),
                &hex,
            );
            let draw = o.flate_stream("", b"q 500 0 0 500 50 200 cm /Im0 Do Q\n");
            (
                format!("[{text} 0 R {draw} 0 R]"),
                format!("/XObject << /Im0 {image} 0 R >>"),
            )
        }
    };
    let (w, h) = A4;
    o.set(
        page,
        format!(
            "<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {w} {h}] \
             /Resources << /Font << /F1 {font} 0 R >> {xobjects} >> /Contents {contents} >>"
        ),
    );
    o.set(
        pages,
        format!("<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>"),
    );
    o.set(catalog, format!("<< /Type /Catalog /Pages {pages} 0 R >>"));
    (o.finish(catalog), bomb.decoded_len())
}
