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
