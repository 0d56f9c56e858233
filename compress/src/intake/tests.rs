//! Files with the damage seen in real-world PDFs, compressed whole: what a page shows survives.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use flate2::{Compression, write::ZlibEncoder};
use lopdf::{Document, Object, Stream, dictionary};

use crate::{Preset, compress, test_pdf::one_page};

const SHOWN: &[u8] = b"BT /F1 24 Tf 72 700 Td (Hello from the page) Tj ET\n";

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(data).expect("test data");
    encoder.finish().expect("test data")
}

/// A one-page document whose content stream is `content`; the font is a standard one.
fn document(content: Stream) -> (Document, lopdf::ObjectId) {
    let mut doc = Document::with_version("1.5");
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let content = doc.add_object(content);
    let page = dictionary! {
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
        "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
    };
    one_page(&mut doc, page, dictionary! {});
    (doc, content)
}

fn saved(doc: &mut Document) -> Vec<u8> {
    let mut bytes = Vec::new();
    // A classic cross-reference table, whose entries the damage test edits.
    doc.reference_table.cross_reference_type = lopdf::xref::XrefType::CrossReferenceTable;
    doc.save_to(&mut bytes).expect("test data");
    bytes
}

/// Compresses `bytes` at ebook; returns the output's bytes.
fn compressed(bytes: &[u8]) -> Vec<u8> {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("quire-intake-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("test data");
    let (input, output): (PathBuf, PathBuf) = (dir.join("in.pdf"), dir.join("out.pdf"));
    std::fs::write(&input, bytes).expect("test data");
    compress(&input, &output, Preset::Ebook, 1 << 26).expect("test data");
    let out = std::fs::read(&output).expect("test data");
    std::fs::remove_dir_all(&dir).expect("test data");
    out
}

/// The first page's content, decoded by lopdf.
fn page_content(bytes: &[u8]) -> Vec<u8> {
    let doc = Document::load_mem(bytes).expect("test data");
    let page = *doc.get_pages().values().next().expect("test data");
    doc.get_page_content(page)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn a_filter_given_by_reference_is_decoded_not_compressed_again() {
    let padded = SHOWN.repeat(40);
    let (mut doc, content) = document(Stream::new(dictionary! {}, zlib(&padded)));
    let filter = doc.add_object(Object::Name(b"FlateDecode".to_vec()));
    let parms = doc.add_object(dictionary! { "Predictor" => 1 });
    let Ok(Object::Stream(stream)) = doc.get_object_mut(content) else {
        panic!("no content stream")
    };
    stream.dict.set("Filter", vec![Object::Reference(filter)]);
    stream.dict.set("DecodeParms", Object::Reference(parms));
    let input = saved(&mut doc);
    let out = compressed(&input);
    assert!(contains(&page_content(&out), b"(Hello from the page)Tj"));
}

#[test]
fn an_entry_pointing_at_another_objects_header_is_rebuilt() {
    let (mut doc, content) = document(Stream::new(dictionary! {}, SHOWN.repeat(40)));
    let input = saved(&mut doc);
    // The content's entry is pointed at the font's header, as in a file edited by hand.
    let offset_of = |id: u32| {
        let header = format!("\n{id} 0 obj");
        memchr::memmem::find(&input, header.as_bytes()).expect("test data") + 1
    };
    let xref = memchr::memmem::rfind(&input, b"\nxref\n").expect("test data");
    let (wrong, right) = (
        format!("{:010} 00000 n", offset_of(1)),
        format!("{:010} 00000 n", offset_of(content.0)),
    );
    let at = xref + memchr::memmem::find(&input[xref..], right.as_bytes()).expect("test data");
    let mut damaged = input.clone();
    damaged[at..at + wrong.len()].copy_from_slice(wrong.as_bytes());
    // lopdf alone loses the page's content.
    let lenient = Document::load_mem(&damaged).expect("test data");
    assert!(
        lenient.get_object(content).is_err()
            || lenient
                .get_object(content)
                .expect("test data")
                .as_stream()
                .is_err()
    );

    let out = compressed(&damaged);
    assert!(contains(&page_content(&out), b"(Hello from the page)Tj"));
}

#[test]
fn a_damaged_flate_stream_keeps_its_bytes() {
    let long = SHOWN.repeat(400);
    let packed = zlib(&long);
    let cut = packed[..packed.len() * 3 / 4].to_vec();
    let (mut doc, _) = document(Stream::new(
        dictionary! { "Filter" => "FlateDecode" },
        cut.clone(),
    ));
    // Something else to save, so the file does come out smaller.
    doc.add_object(Stream::new(dictionary! {}, vec![b'x'; 20_000]));
    let input = saved(&mut doc);
    let out = compressed(&input);
    assert!(out.len() < input.len(), "nothing was saved at all");
    let doc = Document::load_mem(&out).expect("test data");
    let page = *doc.get_pages().values().next().expect("test data");
    let contents = doc.get_page_contents(page);
    let stream = doc
        .get_object(contents[0])
        .expect("test data")
        .as_stream()
        .expect("test data");
    assert_eq!(stream.content, cut, "the damaged stream was rewritten");
}

#[test]
fn a_filter_outside_the_standard_set_keeps_the_document() {
    let (mut doc, _) = document(Stream::new(dictionary! {}, SHOWN.repeat(400)));
    doc.add_object(Stream::new(
        dictionary! { "Filter" => "BrotliDecode" },
        vec![0x0b, 0x02, 0x80],
    ));
    let input = saved(&mut doc);
    assert_eq!(compressed(&input), input);
}

#[test]
fn objects_lost_with_a_damaged_object_stream_keep_the_document() {
    let (mut doc, _) = document(Stream::new(dictionary! {}, SHOWN.repeat(400)));
    for i in 0..200 {
        doc.add_object(dictionary! { "Filler" => i });
    }
    let mut input = Vec::new();
    let options = lopdf::SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .build();
    doc.save_with_options(&mut input, options)
        .expect("test data");
    // The object stream's data damaged in its middle: the page tree inside it is lost.
    let at = memchr::memmem::find(&input, b"/Type/ObjStm").expect("an object stream");
    let data = at + memchr::memmem::find(&input[at..], b"stream\n").expect("its data") + 7;
    for byte in &mut input[data + 20..data + 40] {
        *byte ^= 0xA5;
    }
    let out = compressed(&input);
    assert_eq!(out, input, "a document that lost objects was rewritten");
}

/// A file that needs a user password, its /Encrypt dictionary written in the trailer itself
/// (as older Acrobat did in pdfminer's encryption samples) rather than by reference: lopdf
/// cannot decrypt it and `Document::is_encrypted` said it was not encrypted, so it was
/// "compressed" into itself instead of refused. (The toolbox's unlock tests build such a file
/// with qpdf; here a standard handler whose password hashes match no password will do.)
#[test]
fn a_password_protected_file_with_its_encryption_in_the_trailer_is_refused() {
    let (mut doc, _) = document(Stream::new(dictionary! {}, SHOWN.to_vec()));
    doc.trailer.set(
        "Encrypt",
        dictionary! {
            "Filter" => "Standard", "V" => 1, "R" => 2, "P" => -4,
            "O" => Object::string_literal(vec![0x4f; 32]),
            "U" => Object::string_literal(vec![0x55; 32]),
        },
    );
    let id = Object::string_literal(vec![7; 16]);
    doc.trailer.set("ID", vec![id.clone(), id]);
    let input = saved(&mut doc);
    let doc = Document::load_mem(&input).expect("lopdf loads it");
    assert!(
        !doc.is_encrypted(),
        "lopdf now finds an inline /Encrypt: this fixture no longer reproduces its miss"
    );
    assert!(super::still_encrypted(&doc));
    assert!(matches!(
        super::load(&input),
        Err(crate::CompressError::Encrypted)
    ));
}
