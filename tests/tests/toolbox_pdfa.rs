//! PDF/A over real gRPC with a real worker: a PDF with unembedded standard fonts becomes
//! PDF/A-1b, 2b and 3b, each judged by an independent validator (pikepdf's PDF/A allowlist
//! validator, in the test tools' Python) and read back by PDFium with the same text.

use std::process::Command;

use quire_e2e::{
    Stack, both_databases,
    pdf_check::facts,
    pdf_fixtures::{A4, text_pdf},
    python,
    toolbox::{Toolbox, reason},
    v1,
};
use v1::tool_options::Tool;

/// pikepdf's verdict on `pdf` for `flavour` (`1b`, `2b`, `3b`): passed, and the findings.
fn pikepdf_verdict(pdf: &[u8], flavour: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    let script = "import sys, pikepdf.pdfa as a\n\
                  r = a.validate_written(sys.argv[1], sys.argv[2])\n\
                  print('passed' if r.passed else 'failed')\n\
                  for f in r.findings: print(f)";
    let out = Command::new(python())
        .args(["-c", script])
        .arg(&path)
        .arg(flavour)
        .output()
        .expect("the test tools' Python (scripts/setup.sh --tests)");
    assert!(
        out.status.success(),
        "pikepdf failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (text.starts_with("passed"), text)
}

fn pdfa(level: v1::PdfaLevel) -> Tool {
    Tool::Pdfa(v1::PdfaOptions {
        level: level as i32,
    })
}

both_databases!(pdfa_outputs_pass_an_independent_validator, |db| {
    let stack = Stack::start(db).await;
    let mut toolbox = Toolbox::open(&stack, "pdfa@example.com").await;
    let report = text_pdf(
        &[&["Annual report", "Résumé des comptes"], &["Second page"]],
        A4,
    );
    // The input itself is not PDF/A: its Helvetica is not embedded.
    assert!(!pikepdf_verdict(&report, "2b").0);
    for (level, flavour, suffix) in [
        (v1::PdfaLevel::Unspecified, "2b", "-pdfa-2b.pdf"),
        (v1::PdfaLevel::A1b, "1b", "-pdfa-1b.pdf"),
        (v1::PdfaLevel::A3b, "3b", "-pdfa-3b.pdf"),
    ] {
        let (summary, out) = toolbox
            .run(pdfa(level), &[("report.pdf", report.clone())])
            .await
            .unwrap();
        assert_eq!(summary.filename, format!("report{suffix}"));
        let (passed, findings) = pikepdf_verdict(&out, flavour);
        assert!(passed, "pikepdf fails the {flavour} output: {findings}");
        let notes: Vec<(&str, &str)> = summary
            .notes
            .iter()
            .map(|n| (n.key.as_str(), n.value.as_str()))
            .collect();
        assert!(
            notes
                .iter()
                .any(|(k, v)| *k == "validation" && v.starts_with("conforms")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|(k, _)| k.contains("Helvetica")),
            "the embedded substitute is not named: {notes:?}"
        );
        let read = facts(out).await.unwrap();
        assert_eq!(read.pages.len(), 2);
        assert!(
            read.pages[0].text.contains("Résumé des comptes"),
            "{}",
            read.pages[0].text
        );
    }

    // A PDF that needs a password is refused with the same error as the other tools.
    let locked = toolbox
        .run(
            Tool::Protect(v1::ProtectOptions {
                user_password: "open sesame".into(),
                ..Default::default()
            }),
            &[("report.pdf", report.clone())],
        )
        .await
        .unwrap()
        .1;
    let refused = toolbox
        .run(pdfa(v1::PdfaLevel::A2b), &[("report.pdf", locked)])
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "encrypted-pdf", "{refused:?}");
    let bad = toolbox
        .run(
            Tool::Pdfa(v1::PdfaOptions { level: 9 }),
            &[("report.pdf", report)],
        )
        .await
        .unwrap_err();
    assert_eq!(bad.code(), tonic::Code::InvalidArgument);
});

/// Three Letter pages with "Hidden words" in black 24 pt Helvetica, each covered: page 1 by
/// a 40 % yellow rectangle (an ExtGState /ca 0.4), page 2 by a highlight annotation (/CA 0.4,
/// an appearance that multiplies), page 3 by a yellow rectangle through a soft mask (which
/// PDF/A-1 cannot keep in vectors).
fn covered_text_pdf() -> Vec<u8> {
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let translucent = doc.add_object(dictionary! { "Type" => "ExtGState", "ca" => 0.4 });
    let multiply = doc.add_object(dictionary! { "Type" => "ExtGState", "BM" => "Multiply" });
    let page_box = || vec![0.into(), 0.into(), 612.into(), 792.into()];
    let mask_group = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Form", "BBox" => page_box(),
            "Group" => dictionary! { "S" => "Transparency", "CS" => "DeviceGray" },
        },
        b"0.4 g 0 0 612 792 re f".to_vec(),
    ));
    let masked = doc.add_object(dictionary! {
        "Type" => "ExtGState",
        "SMask" => dictionary! { "Type" => "Mask", "S" => "Luminosity", "G" => mask_group },
    });
    let mut kids = Vec::new();
    for cover in [
        &b"/GS1 gs 1 1 0 rg 66 690 200 36 re f\n"[..],
        b"",
        b"/GS3 gs 1 1 0 rg 66 690 200 36 re f\n",
    ] {
        let mut content = b"BT /F1 24 Tf 72 700 Td (Hidden words) Tj ET\n".to_vec();
        content.extend_from_slice(cover);
        let contents = doc.add_object(Stream::new(dictionary! {}, content));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => pages_id, "MediaBox" => page_box(),
            "Contents" => contents,
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => font },
                "ExtGState" => dictionary! { "GS1" => translucent, "GS3" => masked },
            },
        };
        if cover.is_empty() {
            let appearance = doc.add_object(Stream::new(
                dictionary! {
                    "Type" => "XObject", "Subtype" => "Form",
                    "BBox" => vec![0.into(), 0.into(), 200.into(), 36.into()],
                    "Resources" => dictionary! { "ExtGState" => dictionary! { "M" => multiply } },
                },
                b"/M gs 1 1 0 rg 0 0 200 36 re f".to_vec(),
            ));
            let annot = doc.add_object(dictionary! {
                "Type" => "Annot", "Subtype" => "Highlight", "F" => 4, "CA" => 0.4,
                "Rect" => vec![66.into(), 690.into(), 266.into(), 726.into()],
                "QuadPoints" => vec![
                    66.into(), 726.into(), 266.into(), 726.into(),
                    66.into(), 690.into(), 266.into(), 690.into(),
                ],
                "C" => vec![1.into(), 1.into(), 0.into()],
                "AP" => dictionary! { "N" => appearance },
            });
            page.set("Annots", vec![Object::Reference(annot)]);
        }
        kids.push(Object::Reference(doc.add_object(page)));
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => 3 }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// Pixels darker than mid-grey where the words are (x 72-260 pt, 694-722 pt up a 792 pt page).
fn dark_in_words(render: &quire_e2e::pdf_check::Render) -> usize {
    let scale = f64::from(render.width) / 612.0;
    let (x0, x1) = ((72.0 * scale) as u32, (260.0 * scale) as u32);
    let (y0, y1) = (
        ((792.0 - 722.0) * scale) as u32,
        ((792.0 - 694.0) * scale) as u32,
    );
    let mut dark = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            let at = ((y * render.width + x) * 3) as usize;
            let [r, g, b] = [0, 1, 2].map(|i| u32::from(render.rgb[at + i]));
            if (r * 299 + g * 587 + b * 114) / 1000 < 128 {
                dark += 1;
            }
        }
    }
    dark
}

both_databases!(
    pdfa_1_keeps_text_under_translucent_highlights_readable,
    |db| {
        let stack = Stack::start(db).await;
        let mut toolbox = Toolbox::open(&stack, "pdfa-see-through@example.com").await;
        let input = covered_text_pdf();
        let (summary, out) = toolbox
            .run(pdfa(v1::PdfaLevel::A1b), &[("covered.pdf", input.clone())])
            .await
            .unwrap();
        let (passed, findings) = pikepdf_verdict(&out, "1b");
        assert!(passed, "pikepdf fails the 1b output: {findings}");
        let notes: Vec<String> = summary
            .notes
            .iter()
            .map(|n| format!("{}: {}", n.key, n.value))
            .collect();
        let before = facts(input).await.unwrap();
        let after = facts(out).await.unwrap();
        assert_eq!(after.pages.len(), 3);
        for (number, (a, b)) in before.pages.iter().zip(&after.pages).enumerate() {
            let seen = dark_in_words(a.render.as_ref().unwrap());
            let kept = dark_in_words(b.render.as_ref().unwrap());
            // The words were readable through the highlight; so are they in the PDF/A file.
            assert!(
                seen > 50,
                "page {}: the input's words are not dark ({seen})",
                number + 1
            );
            assert!(
                kept * 2 >= seen,
                "page {}: the words under the highlight are hidden ({kept} dark pixels, {seen} in \
             the input); notes: {notes:?}",
                number + 1
            );
            assert!(
                b.text.contains("Hidden words"),
                "page {}: {}",
                number + 1,
                b.text
            );
        }
        // The translucent rectangle (page 1) and the highlight annotation (page 2) stay
        // vectors, under the text (black over the highlight where the input showed it grey
        // through it: more contrast, which the rendering check does not count as a change);
        // the soft mask (page 3) is a picture of the input's page.
        assert!(!notes.iter().any(|n| n.starts_with("page 1:")), "{notes:?}");
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("page 3: drawn as a picture")),
            "{notes:?}"
        );
        assert!(!notes.iter().any(|n| n.starts_with("page 2:")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("see-through")), "{notes:?}");
    }
);
