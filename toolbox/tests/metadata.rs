//! Metadata read, edit and strip on built documents; edits are checked with pikepdf (an
//! independent reader, strict about XMP) where a Python with pikepdf is found.
#![allow(clippy::unwrap_used)]

mod hostile;

use std::path::{Path, PathBuf};

use lopdf::{Document, Object, Stream, dictionary};
use quire_toolbox::ToolError;
use quire_toolbox::metadata::{Edit, Metadata, edit, read, strip};

use hostile::{forbidden_in, load};

/// The catalog's XMP packet, as text.
fn packet(doc: &Document) -> Option<String> {
    let id = doc
        .catalog()
        .ok()?
        .get(b"Metadata")
        .ok()?
        .as_reference()
        .ok()?;
    let stream = doc.get_object(id).ok()?.as_stream().ok()?;
    let bytes = stream.decompressed_content().unwrap();
    Some(String::from_utf8(bytes).unwrap())
}

/// The text of the first `<name>...</name>` element of `xml`.
fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find(&format!("</{name}>"))?;
    Some(&xml[start..start + end])
}

fn some(text: &str) -> Option<String> {
    Some(text.to_string())
}

#[test]
fn info_is_read_first() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = hostile::fixture(dir.path());
    let metadata = read(&fixture.path).unwrap();
    assert_eq!(
        metadata,
        Metadata {
            title: some("Info title"),
            author: some("Info author"),
            subject: some("Info subject"),
            keywords: some("alpha, beta"),
            creator: some("Info creator"),
            producer: some("Info producer"),
            created: some("2024-01-02T03:04:05+01:00"),
            modified: some("2024-02-03T04:05:06Z"),
            custom: vec![("Department".into(), "Legal".into())],
            xmp_bytes: Some(hostile::xmp_packet(hostile::XMP_TITLE).len()),
        }
    );
}

/// A one-page document with `info` (if any) and `xmp` (if any, stored Flate-compressed).
fn document(dir: &Path, name: &str, info: Option<lopdf::Dictionary>, xmp: Option<&str>) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let pages = doc.new_object_id();
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages, "MediaBox" => vec![0.into(), 0.into(), 200.into(), 200.into()],
    });
    doc.objects.insert(
        pages,
        Object::Dictionary(
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 },
        ),
    );
    let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages };
    if let Some(xmp) = xmp {
        let mut stream = Stream::new(
            dictionary! { "Type" => "Metadata", "Subtype" => "XML" },
            xmp.as_bytes().to_vec(),
        );
        stream.compress().unwrap();
        catalog.set("Metadata", doc.add_object(stream));
    }
    let catalog = doc.add_object(catalog);
    doc.trailer.set("Root", catalog);
    if let Some(info) = info {
        let info = doc.add_object(info);
        doc.trailer.set("Info", info);
    }
    let path = dir.join(name);
    doc.save(&path).unwrap();
    path
}

#[test]
fn xmp_fills_in_what_info_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let xmp = hostile::xmp_packet("Only in XMP");
    let info = dictionary! { "Author" => Object::string_literal("Info author") };
    let path = document(dir.path(), "xmp.pdf", Some(info), Some(&xmp));
    let metadata = read(&path).unwrap();
    assert_eq!(metadata.title.as_deref(), Some("Only in XMP"));
    assert_eq!(metadata.author.as_deref(), Some("Info author"));
    assert_eq!(metadata.creator.as_deref(), Some("XMP tool"));
    assert_eq!(metadata.producer.as_deref(), Some("XMP producer"));
    assert_eq!(metadata.modified.as_deref(), Some("2020-01-01T00:00:00Z"));
    assert_eq!(metadata.subject, None);
    assert_eq!(metadata.xmp_bytes, Some(xmp.len()));

    let bare = document(dir.path(), "bare.pdf", None, None);
    assert_eq!(read(&bare).unwrap(), Metadata::default());
}

fn the_edit() -> Edit {
    Edit {
        title: some("Nouveau titre — été & <co>"),
        author: some("Zoë \"Z\" Österberg"),
        subject: some(""),
        keywords: None,
        creator: None,
        producer: some("Quire"),
    }
}

#[test]
fn edit_keeps_info_and_xmp_in_step() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = hostile::fixture(dir.path());
    let out = dir.path().join("edited.pdf");
    let written = edit(&fixture.path, &the_edit(), &out).unwrap();
    assert_eq!(written.pages, 3);

    let metadata = read(&out).unwrap();
    assert_eq!(
        metadata.title.as_deref(),
        Some("Nouveau titre — été & <co>")
    );
    assert_eq!(metadata.author.as_deref(), Some("Zoë \"Z\" Österberg"));
    assert_eq!(metadata.subject, None);
    assert_eq!(metadata.keywords.as_deref(), Some("alpha, beta"));
    assert_eq!(metadata.creator.as_deref(), Some("Info creator"));
    assert_eq!(metadata.producer.as_deref(), Some("Quire"));
    assert_eq!(
        metadata.created.as_deref(),
        Some("2024-01-02T03:04:05+01:00")
    );
    assert_eq!(
        metadata.custom,
        [("Department".to_string(), "Legal".to_string())]
    );
    let modified = metadata.modified.unwrap();
    assert_eq!(modified.len(), "2024-01-02T03:04:05Z".len(), "{modified}");
    assert!(
        modified.ends_with('Z') && modified.as_str() > "2025",
        "{modified}"
    );

    let doc = load(&out);
    assert_eq!(doc.get_pages().len(), 3);
    let xml = packet(&doc).unwrap();
    // What changed, in the XMP too; what did not, kept as it was.
    assert!(
        xml.contains("Nouveau titre — été &amp; &lt;co&gt;"),
        "{xml}"
    );
    assert!(
        xml.contains("<rdf:Seq><rdf:li>Zoë &quot;Z&quot; Österberg</rdf:li></rdf:Seq>"),
        "{xml}"
    );
    assert_eq!(element(&xml, "pdf:Producer"), Some("Quire"));
    assert_eq!(element(&xml, "xmp:ModifyDate"), Some(modified.as_str()));
    for gone in [
        hostile::XMP_TITLE,
        "XMP author",
        "XMP producer",
        "2020-01-01",
    ] {
        assert!(!xml.contains(gone), "{gone} left in {xml}");
    }
    for kept in [
        "xmp:CreatorTool=\"XMP tool\"",
        "pdfaid:part=\"2\"",
        "<dc:format>application/pdf</dc:format>",
        "x:xmptk=\"Adobe XMP Core 5.6\"",
        "<?xpacket end=\"w\"?>",
    ] {
        assert!(xml.contains(kept), "{kept} lost from {xml}");
    }
    // Everything else of the document is untouched.
    assert!(!forbidden_in(&doc, &hostile::FORBIDDEN).is_empty());

    match hostile::pikepdf_python() {
        Some(python) => {
            let failures = hostile::pikepdf_check(
                &python,
                "Nouveau titre — été & <co>",
                "Zoë \"Z\" Österberg",
                &[(fixture.path.clone(), out.clone())],
            );
            assert!(failures.is_empty(), "{failures:#?}");
        }
        None => println!("no Python with pikepdf: the independent check is skipped"),
    }
}

#[test]
fn edit_adds_no_xmp_where_there_was_none() {
    let dir = tempfile::tempdir().unwrap();
    let input = document(dir.path(), "plain.pdf", None, None);
    let out = dir.path().join("edited.pdf");
    edit(&input, &the_edit(), &out).unwrap();
    let doc = load(&out);
    assert_eq!(packet(&doc), None);
    let metadata = read(&out).unwrap();
    assert_eq!(
        metadata.title.as_deref(),
        Some("Nouveau titre — été & <co>")
    );
    assert_eq!(metadata.xmp_bytes, None);
    assert!(metadata.modified.is_some());
}

#[test]
fn an_unreadable_packet_is_rebuilt_from_info() {
    let dir = tempfile::tempdir().unwrap();
    let info = dictionary! {
        "Keywords" => Object::string_literal("one; two"),
        "CreationDate" => Object::string_literal("D:20200304050607Z"),
    };
    let input = document(
        dir.path(),
        "junk-xmp.pdf",
        Some(info),
        Some("not XML at all"),
    );
    let out = dir.path().join("edited.pdf");
    edit(&input, &the_edit(), &out).unwrap();
    let xml = packet(&load(&out)).unwrap();
    assert!(xml.starts_with("<?xpacket begin="), "{xml}");
    assert_eq!(element(&xml, "pdf:Keywords"), Some("one; two"));
    assert_eq!(
        element(&xml, "xmp:CreateDate"),
        Some("2020-03-04T05:06:07Z")
    );
    assert!(
        xml.contains("<rdf:Bag><rdf:li>one</rdf:li><rdf:li>two</rdf:li></rdf:Bag>"),
        "{xml}"
    );
    assert!(
        xml.contains("Nouveau titre — été &amp; &lt;co&gt;"),
        "{xml}"
    );
    if let Some(python) = hostile::pikepdf_python() {
        let failures = hostile::pikepdf_check(
            &python,
            "Nouveau titre — été & <co>",
            "Zoë \"Z\" Österberg",
            &[(input, out)],
        );
        assert!(failures.is_empty(), "{failures:#?}");
    }
}

#[test]
fn strip_leaves_no_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = hostile::fixture(dir.path());
    let out = dir.path().join("stripped.pdf");
    let written = strip(&fixture.path, &out).unwrap();
    assert_eq!(written.pages, 3);
    assert_eq!(read(&out).unwrap(), Metadata::default());
    let doc = load(&out);
    assert!(doc.trailer.get(b"Info").is_err());
    let left = forbidden_in(&doc, &[b"Metadata", b"PieceInfo", b"LastModified"]);
    assert!(left.is_empty(), "{left:?}");
    assert!(!hostile::contains(
        &hostile::all_streams(&doc),
        hostile::XMP_TITLE
    ));
    // Strip is not sanitize: scripts and links stay.
    assert!(!forbidden_in(&doc, &hostile::FORBIDDEN).is_empty());
}

#[test]
fn not_a_pdf_is_an_invalid_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("junk.pdf");
    std::fs::write(&input, b"%PDF-1.4\n1 0 obj << /Title (x) >> endobj").unwrap();
    assert!(matches!(read(&input), Err(ToolError::InvalidFile(_))));
    let out = dir.path().join("out.pdf");
    assert!(matches!(
        strip(&input, &out),
        Err(ToolError::InvalidFile(_))
    ));
    assert!(matches!(
        edit(&input, &Edit::default(), &out),
        Err(ToolError::InvalidFile(_))
    ));
}
