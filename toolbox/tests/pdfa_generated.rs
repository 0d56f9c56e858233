//! Generated documents with every kind of thing PDF/A forbids or leaves out, converted to
//! each level and passed by pikepdf's allowlist validator; text and page count kept.
#![allow(clippy::unwrap_used)]

mod pdfa_support;

use std::path::Path;

use pdfa_support::fixture::{self, Spec};
use quire_toolbox::ToolError;
use quire_toolbox::pdfa::{self, Level};

const LEVELS: [Level; 3] = [Level::A1b, Level::A2b, Level::A3b];

/// Converts `input` at `level`, checks our verdict, pikepdf's, the text and the pages.
fn convert_and_judge(
    python: Option<&str>,
    input: &Path,
    level: Level,
    dir: &Path,
) -> pdfa::Converted {
    let output = dir.join(format!("out-{:?}.pdf", level));
    let converted = pdfa::convert(input, level, &output)
        .unwrap_or_else(|e| panic!("{level:?} of {}: {e}", input.display()));
    let ours = pdfa::validate(&output, level).unwrap();
    assert!(ours.passed, "{level:?}: {:?}", ours.findings);
    assert_eq!(pdfa_support::pages(input), pdfa_support::pages(&output));
    assert_eq!(converted.pages as usize, pdfa_support::pages(&output));
    if let (Some(before), Some(after)) = (pdfa_support::text(input), pdfa_support::text(&output)) {
        assert_eq!(
            pdfa_support::words(&before),
            pdfa_support::words(&after),
            "{level:?}: text changed"
        );
    }
    if let Some(python) = python {
        let judged = pdfa_support::judge(python, pdfa_support::flavour(level), &[&output]);
        assert!(
            judged[0].passed(),
            "{level:?}: pikepdf says {}: {:#?}\nchanges: {:#?}",
            judged[0].verdict,
            judged[0].findings,
            converted.changes
        );
    }
    converted
}

#[test]
fn a_document_with_everything_forbidden_converts_to_each_level() {
    let python = pdfa_support::python();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("all.pdf");
    fixture::build(&input, Spec::ALL);
    for level in LEVELS {
        let converted = convert_and_judge(python.as_deref(), &input, level, dir.path());
        let said = converted.changes.join("\n");
        assert!(said.contains("removed JavaScript"), "{said}");
        assert!(said.contains("Launch"), "{said}");
        assert!(said.contains("sRGB output intent"), "{said}");
        assert!(said.contains("LZW"), "{said}");
        assert!(said.contains("annotation"), "{said}");
        if level == Level::A1b {
            assert!(said.contains("removed transparency"), "{said}");
        }
        let output = dir.path().join(format!("out-{level:?}.pdf"));
        let doc = lopdf::Document::load(&output).unwrap();
        let catalog = doc.catalog().unwrap();
        match level {
            Level::A3b => {
                assert!(catalog.has(b"AF"), "PDF/A-3 keeps the attachment in /AF");
                assert!(!said.contains("removed 1 embedded file"), "{said}");
            }
            _ => {
                assert!(!catalog.has(b"AF"));
                assert!(said.contains("removed 1 embedded file"), "{said}");
            }
        }
        let named: Vec<&str> = converted
            .fonts_embedded
            .iter()
            .map(|(a, _)| a.as_str())
            .collect();
        for font in [
            "Helvetica",
            "Times-Bold",
            "Courier-Oblique",
            "Symbol",
            "Arial",
        ] {
            assert!(named.contains(&font), "{font} not in {named:?}");
        }
        assert!(
            converted
                .fonts_embedded
                .iter()
                .any(|(a, b)| a == "Helvetica" && b == "NimbusSans-Regular")
        );
    }
}

#[test]
fn encrypted_with_an_empty_password_is_decrypted() {
    let Some(python) = pdfa_support::python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.pdf");
    fixture::build(&plain, Spec::PLAIN);
    for (revision, aes) in [(4, false), (4, true), (6, true)] {
        let input = dir.path().join(format!("enc-{revision}-{aes}.pdf"));
        pdfa_support::encrypt(&python, &plain, &input, revision, aes);
        let converted = convert_and_judge(Some(&python), &input, Level::A2b, dir.path());
        assert!(
            converted
                .changes
                .iter()
                .any(|c| c.contains("password encryption")),
            "{:?}",
            converted.changes
        );
    }
    let locked = dir.path().join("locked.pdf");
    pdfa_support::encrypt_with_password(&python, &plain, &locked);
    let out = dir.path().join("locked-out.pdf");
    assert!(matches!(
        pdfa::convert(&locked, Level::A2b, &out),
        Err(ToolError::Encrypted)
    ));
    assert!(!out.exists());
}

/// Writes the generated document and its conversions to /tmp/pdfa-fixture*.pdf, to look at.
#[test]
#[ignore = "a debugging aid"]
fn write_fixture() {
    let input = Path::new("/tmp/pdfa-fixture.pdf");
    fixture::build(input, Spec::ALL);
    for level in LEVELS {
        let output = format!("/tmp/pdfa-fixture-{}.pdf", pdfa_support::flavour(level));
        let converted = pdfa::convert(input, level, Path::new(&output));
        eprintln!("{level:?}: {converted:#?}");
    }
}
