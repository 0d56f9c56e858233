//! The web toolbox's document, stamp and rendering tools over real gRPC with a real worker and
//! PDFium, each checked by an independent reader: qpdf for passwords, PDFium for the text a
//! watermark or page number adds, the `image` crate for exported pages.

use std::process::Command;

use lopdf::{Object, Stream, dictionary};
use quire_e2e::{
    Db, Stack, both_databases,
    pdf_check::facts,
    toolbox::{Toolbox, labelled, reason, texts, zip_entries},
    v1,
};
use v1::tool_options::Tool;

/// Runs qpdf with `args` on `pdf` (written to a temporary file); its exit code.
fn qpdf(pdf: &[u8], args: &[&str]) -> i32 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("qpdf")
        .args(args)
        .arg(&path)
        .output()
        .expect("qpdf is installed by scripts/setup.sh");
    out.status.code().unwrap_or(-1)
}

/// `qpdf --qdf` of a PDF: every stream decompressed, no object streams, for byte searches.
fn uncompressed(pdf: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    std::fs::write(&input, pdf).unwrap();
    let status = Command::new("qpdf")
        .args(["--qdf", "--object-streams=disable"])
        .arg(&input)
        .arg(&output)
        .status()
        .unwrap();
    assert!(matches!(status.code(), Some(0 | 3)), "qpdf --qdf failed");
    std::fs::read(output).unwrap()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A text PDF with JavaScript on open, an embedded file, an external link and Info metadata.
fn risky_pdf() -> Vec<u8> {
    let mut doc = lopdf::Document::load_mem(&labelled("Risky", 2)).unwrap();
    let js = doc.add_object(
        dictionary! { "S" => "JavaScript", "JS" => Object::string_literal("app.alert('hi')") },
    );
    let payload = doc.add_object(Stream::new(
        dictionary! { "Type" => "EmbeddedFile" },
        b"secret attachment".to_vec(),
    ));
    let spec = doc.add_object(dictionary! {
        "Type" => "Filespec", "F" => Object::string_literal("a.txt"),
        "EF" => dictionary! { "F" => payload },
    });
    let link = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Link", "Rect" => vec![0.into(), 0.into(), 100.into(), 100.into()],
        "A" => dictionary! { "S" => "URI", "URI" => Object::string_literal("https://tracker.example/x") },
    });
    let first = *doc.get_pages().values().next().unwrap();
    doc.get_dictionary_mut(first)
        .unwrap()
        .set("Annots", vec![Object::Reference(link)]);
    let info = doc.add_object(dictionary! { "Title" => Object::string_literal("Secret plan") });
    doc.trailer.set("Info", info);
    let catalog = doc.catalog_mut().unwrap();
    catalog.set("OpenAction", js);
    catalog.set(
        "Names",
        dictionary! { "EmbeddedFiles" => dictionary! { "Names" => vec![Object::string_literal("a.txt"), spec.into()] } },
    );
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

both_databases!(document_tools_do_what_they_say, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "documents@example.com").await;

    // Protect: qpdf needs a password, the right one opens it; unlock: the wrong one is a 400.
    let (summary, protected) = toolbox
        .run(
            Tool::Protect(v1::ProtectOptions {
                user_password: "open sesame".into(),
                owner_password: "owner pass".into(),
                allow_print: true,
                ..Default::default()
            }),
            &[("plan.pdf", labelled("Plan", 2))],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "plan-protected.pdf");
    assert_eq!(
        qpdf(&protected, &["--requires-password"]),
        0,
        "a password is needed"
    );
    assert_eq!(qpdf(&protected, &["--password=open sesame", "--check"]), 0);
    assert_ne!(qpdf(&protected, &["--password=guess", "--check"]), 0);
    let unlock = |password: &str| {
        Tool::Unlock(v1::UnlockOptions {
            password: password.into(),
        })
    };
    let wrong = toolbox
        .run(unlock("guess"), &[("plan.pdf", protected.clone())])
        .await
        .unwrap_err();
    assert_eq!(wrong.code(), tonic::Code::InvalidArgument);
    assert_eq!(reason(&wrong), "wrong-password");
    let (_, unlocked) = toolbox
        .run(unlock("open sesame"), &[("plan.pdf", protected)])
        .await
        .unwrap();
    assert_eq!(
        qpdf(&unlocked, &["--is-encrypted"]),
        2,
        "no longer encrypted"
    );
    assert_eq!(
        texts(&facts(unlocked).await.unwrap()),
        ["Plan page 1", "Plan page 2"]
    );

    // Metadata: edit the title, then read it back as JSON.
    let (_, edited) = toolbox
        .run(
            Tool::Metadata(v1::MetadataOptions {
                action: Some(v1::metadata_options::Action::Edit(v1::MetadataEdit {
                    title: Some("Rapport annuel".into()),
                    author: Some("Ada".into()),
                    ..Default::default()
                })),
            }),
            &[("report.pdf", labelled("Report", 1))],
        )
        .await
        .unwrap();
    let (summary, json) = toolbox
        .run(
            Tool::Metadata(v1::MetadataOptions {
                action: Some(v1::metadata_options::Action::Read(true)),
            }),
            &[("report.pdf", edited)],
        )
        .await
        .unwrap();
    assert_eq!(summary.media_type, "application/json");
    let read: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(read["title"], "Rapport annuel");
    assert_eq!(read["author"], "Ada");

    // Sanitize: nothing that acts or leaks is left, and the report says what went.
    let risky = risky_pdf();
    assert!(contains(&uncompressed(&risky), b"/JavaScript"));
    let (summary, clean) = toolbox
        .run(
            Tool::Sanitize(v1::SanitizeOptions::default()),
            &[("risky.pdf", risky)],
        )
        .await
        .unwrap();
    let bytes = uncompressed(&clean);
    for key in [
        &b"/JavaScript"[..],
        b"/EmbeddedFile",
        b"/URI",
        b"secret attachment",
        b"Secret plan",
    ] {
        assert!(
            !contains(&bytes, key),
            "{} is still there",
            String::from_utf8_lossy(key)
        );
    }
    let removed: Vec<&str> = summary.notes.iter().map(|n| n.key.as_str()).collect();
    for what in [
        "JavaScript actions",
        "embedded files",
        "external links and actions",
        "metadata",
    ] {
        assert!(removed.contains(&what), "{what} not reported: {removed:?}");
    }
    assert_eq!(
        texts(&facts(clean).await.unwrap()),
        ["Risky page 1", "Risky page 2"]
    );
});

both_databases!(stamps_and_rendered_tools_do_what_they_say, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "stamps@example.com").await;

    // Watermark on page 2 only; page numbers "n / total" from page 1.
    let (_, marked) = toolbox
        .run(
            Tool::Watermark(v1::WatermarkOptions {
                text: "CONFIDENTIEL".into(),
                pages: "2".into(),
                ..Default::default()
            }),
            &[("memo.pdf", labelled("Memo", 3))],
        )
        .await
        .unwrap();
    let pages = texts(&facts(marked).await.unwrap());
    assert!(!pages[0].contains("CONFIDENTIEL") && !pages[2].contains("CONFIDENTIEL"));
    assert!(pages[1].contains("CONFIDENTIEL"), "{pages:?}");
    let (_, numbered) = toolbox
        .run(
            Tool::PageNumbers(v1::PageNumbersOptions {
                format: "{n} / {total}".into(),
                ..Default::default()
            }),
            &[("memo.pdf", labelled("Memo", 3))],
        )
        .await
        .unwrap();
    let pages = texts(&facts(numbered).await.unwrap());
    assert!(pages[1].contains("2 / 3"), "{pages:?}");

    // Remove blank pages: the preview measures, the run removes page 2.
    let with_blank = quire_e2e::pdf_fixtures::text_pdf(
        &[&["Kept one"], &[], &["Kept two"]],
        quire_e2e::pdf_fixtures::A4,
    );
    let (summary, preview) = toolbox
        .run(
            Tool::RemoveBlank(v1::RemoveBlankOptions {
                preview: true,
                ..Default::default()
            }),
            &[("scan.pdf", with_blank.clone())],
        )
        .await
        .unwrap();
    assert_eq!(summary.media_type, "application/json");
    let preview: serde_json::Value = serde_json::from_slice(&preview).unwrap();
    assert_eq!(preview["blank"], serde_json::json!([2]));
    let (summary, kept) = toolbox
        .run(
            Tool::RemoveBlank(v1::RemoveBlankOptions::default()),
            &[("scan.pdf", with_blank)],
        )
        .await
        .unwrap();
    assert_eq!(summary.page_count, 2);
    assert_eq!(texts(&facts(kept).await.unwrap()), ["Kept one", "Kept two"]);

    // Pages as JPEG at 72 dpi: one decodable A4-sized image per page.
    let (summary, zip) = toolbox
        .run(
            Tool::PdfToJpg(v1::PdfToJpgOptions {
                dpi: 72,
                ..Default::default()
            }),
            &[("memo.pdf", labelled("Memo", 2))],
        )
        .await
        .unwrap();
    assert_eq!(summary.file_count, 2);
    for (name, bytes) in zip_entries(&zip) {
        assert!(name.ends_with(".jpg"), "{name}");
        let image = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).unwrap();
        assert_eq!((image.width(), image.height()), (595, 842));
    }

    // Compare: the changed word is found on the page where it changed.
    let before = quire_e2e::pdf_fixtures::text_pdf(
        &[&["The same first page"], &["The quick brown fox"]],
        quire_e2e::pdf_fixtures::A4,
    );
    let after = quire_e2e::pdf_fixtures::text_pdf(
        &[&["The same first page"], &["The slow brown fox"]],
        quire_e2e::pdf_fixtures::A4,
    );
    let (_, zip) = toolbox
        .run(
            Tool::Compare(v1::CompareOptions {}),
            &[("before.pdf", before), ("after.pdf", after)],
        )
        .await
        .unwrap();
    let entries = zip_entries(&zip);
    assert_eq!(entries[0].0, "report.json");
    let report: serde_json::Value = serde_json::from_slice(&entries[0].1).unwrap();
    assert_eq!(report["changedPages"], serde_json::json!([2]));
    let diff = report["pages"][1]["diff"].to_string();
    assert!(diff.contains("quick") && diff.contains("slow"), "{diff}");
    assert!(entries.iter().any(|(name, _)| name.ends_with(".png")));
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_that_cannot_work_are_refused_before_a_worker_is_asked() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "refusals@example.com").await;
    let refused = toolbox
        .run(
            Tool::Protect(v1::ProtectOptions::default()),
            &[("a.pdf", labelled("A", 1))],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "invalid-argument");
    let refused = toolbox
        .run(
            Tool::Compare(v1::CompareOptions {}),
            &[("a.pdf", labelled("A", 1))],
        )
        .await
        .unwrap_err();
    assert!(
        refused.message().contains("two PDFs"),
        "{}",
        refused.message()
    );
    let refused = toolbox
        .run(
            Tool::Watermark(v1::WatermarkOptions::default()),
            &[("a.pdf", labelled("A", 1)), ("b.pdf", labelled("B", 1))],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "unsupported-file-type");
}
