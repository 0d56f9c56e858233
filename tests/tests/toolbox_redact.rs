//! Redaction over real gRPC with a real worker, PDFium and Tesseract: what a search finds, what
//! applying removes, each checked by readers other than the engine (PDFium's text, poppler's
//! pdftotext, a byte search of qpdf's uncompressed copy, pixels of a PDFium render).

use std::process::Command;

use quire_e2e::{
    Stack, both_databases,
    pdf_check::facts,
    pdf_fixtures::{A4, photo_jpeg, photo_pdf, text_pdf},
    toolbox::{Toolbox, reason},
    v1,
};
use v1::{redact_options::Action, tool_options::Tool};

fn redact(action: Action) -> Tool {
    Tool::Redact(v1::RedactOptions {
        action: Some(action),
    })
}

fn search(terms: &[&str], presets: &[v1::RedactPreset]) -> v1::RedactSearch {
    v1::RedactSearch {
        terms: terms.iter().map(|t| (*t).to_owned()).collect(),
        patterns: Vec::new(),
        presets: presets.iter().map(|p| *p as i32).collect(),
    }
}

/// The text poppler's pdftotext reads from `pdf`.
fn pdftotext(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext is installed by scripts/setup.sh");
    assert!(out.status.success(), "pdftotext failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `qpdf --qdf` of a PDF: every stream decompressed, for byte searches.
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

fn notes(summary: &v1::ToolSummary) -> Vec<(String, String)> {
    summary
        .notes
        .iter()
        .map(|n| (n.key.clone(), n.value.clone()))
        .collect()
}

fn ticket() -> Vec<u8> {
    text_pdf(
        &[
            &[
                "Customer: Jane Doe",
                "Mail jane.doe@example.com from 10.1.2.3",
                "Keep this line as it is",
            ],
            &["Second page: Jane Doe again", "Nothing else here"],
        ],
        A4,
    )
}

both_databases!(redaction_finds_removes_and_verifies, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "redact@example.com").await;

    // Find: the phrase on both pages and the e-mail address, with places on the page.
    let (summary, json) = toolbox
        .run(
            redact(Action::Find(search(
                &["jane   doe"],
                &[v1::RedactPreset::Email],
            ))),
            &[("ticket.pdf", ticket())],
        )
        .await
        .unwrap();
    assert_eq!(summary.media_type, "application/json");
    let report: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let hits = report["hits"].as_array().unwrap();
    let found: Vec<(u64, &str)> = hits
        .iter()
        .map(|h| (h["page"].as_u64().unwrap(), h["text"].as_str().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            (1, "Jane Doe"),
            (1, "jane.doe@example.com"),
            (2, "Jane Doe")
        ]
    );
    for hit in hits {
        for area in hit["areas"].as_array().unwrap() {
            for key in ["x", "y", "width", "height"] {
                let v = area[key].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&v), "{key} {v}");
            }
        }
    }

    // Apply the reviewed hits: the first page's two, not the second page's.
    let areas: Vec<v1::RedactArea> = hits
        .iter()
        .filter(|h| h["page"] == 1)
        .flat_map(|h| {
            h["areas"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| v1::RedactArea {
                    page: 1,
                    x: a["x"].as_f64().unwrap() as f32,
                    y: a["y"].as_f64().unwrap() as f32,
                    width: a["width"].as_f64().unwrap() as f32,
                    height: a["height"].as_f64().unwrap() as f32,
                })
        })
        .collect();
    let (summary, redacted) = toolbox
        .run(
            redact(Action::Apply(v1::RedactApply {
                areas,
                search: None,
                terms: vec!["jane.doe@example.com".into()],
                fill: "#000000".into(),
                label: "REDACTED".into(),
                clean_document: true,
            })),
            &[("ticket.pdf", ticket())],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "ticket-redacted.pdf");
    let read = facts(redacted.clone()).await.unwrap();
    let page1 = &read.pages[0].text;
    assert!(
        !page1.contains("Jane Doe") && !page1.contains("jane.doe"),
        "{page1}"
    );
    assert!(
        page1.contains("Customer:")
            && page1.contains("10.1.2.3")
            && page1.contains("Keep this line as it is"),
        "{page1}"
    );
    assert!(
        read.pages[1].text.contains("Jane Doe"),
        "the rejected hit stays"
    );
    let poppler = pdftotext(&redacted);
    assert!(!poppler.contains("jane.doe@example.com"), "{poppler}");
    assert!(poppler.contains("Keep this line as it is"));
    let bytes = uncompressed(&redacted);
    assert!(!contains(&bytes, b"jane.doe@example.com"));
    let said = notes(&summary);
    let key = |k: &str| said.iter().any(|(key, _)| key == k);
    assert!(
        key("check: text") && key("check: bytes") && key("check: rendering"),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|(k, v)| k == "characters removed" && v.parse::<u32>().unwrap() >= 28),
        "{said:?}"
    );

    // Apply a search without review (a script's way): every IP address goes.
    let (_, no_ip) = toolbox
        .run(
            redact(Action::Apply(v1::RedactApply {
                search: Some(search(&[], &[v1::RedactPreset::IpAddress])),
                ..Default::default()
            })),
            &[("ticket.pdf", ticket())],
        )
        .await
        .unwrap();
    let text = &facts(no_ip).await.unwrap().pages[0].text;
    assert!(
        !text.contains("10.1.2.3") && text.contains("jane.doe@example.com"),
        "{text}"
    );

    // Bad requests: an area past the last page, an invalid pattern, an empty search.
    let past = toolbox
        .run(
            redact(Action::Apply(v1::RedactApply {
                areas: vec![v1::RedactArea {
                    page: 5,
                    x: 0.1,
                    y: 0.1,
                    width: 0.2,
                    height: 0.1,
                }],
                ..Default::default()
            })),
            &[("ticket.pdf", ticket())],
        )
        .await
        .unwrap_err();
    assert_eq!(past.code(), tonic::Code::InvalidArgument, "{past:?}");
    assert!(past.message().contains("page 5"), "{}", past.message());
    let pattern = toolbox
        .run(
            redact(Action::Find(v1::RedactSearch {
                patterns: vec!["(unclosed".into()],
                ..Default::default()
            })),
            &[("ticket.pdf", ticket())],
        )
        .await
        .unwrap_err();
    assert_eq!(pattern.code(), tonic::Code::InvalidArgument);
    let empty = toolbox
        .run(
            redact(Action::Find(v1::RedactSearch::default())),
            &[("ticket.pdf", ticket())],
        )
        .await
        .unwrap_err();
    assert_eq!(empty.code(), tonic::Code::InvalidArgument);
    assert_eq!(reason(&empty), "invalid-argument");
});

both_databases!(redaction_burns_image_pixels, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "redact-image@example.com").await;
    let photo = photo_pdf(&[photo_jpeg(600, 800, 7)], A4);
    // The top-left quarter of the page, which the photo covers.
    let (summary, redacted) = toolbox
        .run(
            redact(Action::Apply(v1::RedactApply {
                areas: vec![v1::RedactArea {
                    page: 1,
                    x: 0.0,
                    y: 0.0,
                    width: 0.5,
                    height: 0.5,
                }],
                fill: "#000000".into(),
                ..Default::default()
            })),
            &[("photo.pdf", photo.clone())],
        )
        .await
        .unwrap();
    let said = notes(&summary);
    assert!(
        said.iter()
            .any(|(k, _)| k == "images redacted" || k.contains("as a picture")),
        "{said:?}"
    );
    // The image data itself is black there: drawn without the box (the page's content only),
    // the top-left quarter is dark. The engine's box is drawn last, so extract the images.
    let doc = lopdf::Document::load_mem(&redacted).unwrap();
    let mut dark = false;
    for object in doc.objects.values() {
        let Ok(stream) = object.as_stream() else {
            continue;
        };
        if stream.dict.get(b"Subtype").and_then(|s| s.as_name()).ok() != Some(b"Image") {
            continue;
        }
        let width = stream.dict.get(b"Width").unwrap().as_i64().unwrap() as usize;
        let pixels: Vec<u8> = match stream.dict.get(b"Filter").and_then(|f| f.as_name()) {
            Ok(b"DCTDecode") => image::load_from_memory(&stream.content)
                .unwrap()
                .to_rgb8()
                .into_raw(),
            _ => stream.decompressed_content().unwrap(),
        };
        // The first pixel of the first row is in the redacted quarter.
        dark |= pixels.len() >= 3 && pixels[..3].iter().all(|&c| c < 40) && width > 0;
    }
    assert!(dark, "no image holds black pixels in the redacted area");
    let before = facts(photo).await.unwrap();
    let after = facts(redacted).await.unwrap();
    let (a, b) = (
        before.pages[0].render.as_ref().unwrap(),
        after.pages[0].render.as_ref().unwrap(),
    );
    // The bottom-right quarter is drawn as before.
    let (w, h) = (a.width as usize, a.height as usize);
    let mut diff = 0u64;
    let mut count = 0u64;
    for y in h * 3 / 5..h {
        for x in w * 3 / 5..w {
            let at = (y * w + x) * 3;
            diff += u64::from(a.rgb[at].abs_diff(b.rgb[at]));
            count += 1;
        }
    }
    assert!(
        diff / count < 8,
        "the untouched quarter changed: {}",
        diff / count
    );
});
