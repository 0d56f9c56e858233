//! The rich document: everything a compressor must keep, on three pages.

use super::inputs::{
    TRUETYPE, TYPE1, TYPE1_AFM, afm_widths, font_file, photo_pixels, scan_pixels, type1_lengths,
};
use super::{Objects, literal};
use crate::pdf_fixtures::{A4, photo_jpeg};

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
