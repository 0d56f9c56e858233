//! Digital signatures: made with PKCS#12 files of every kind openssl writes, checked by
//! pdfsig and pyHanko (valid, trusted by the test CA, covering the whole file, PAdES), by
//! qpdf, and shown to fail once a signed byte changes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod signing;

use std::path::Path;

use quire_toolbox::sign::{Appearance, Placement, Sign, sign};
use signing::tools::{self, Validated};
use signing::{certs, digital, sample};

const TOOLS: &[&str] = &["openssl", "pdfsig", "qpdf", "pyhanko"];

/// The one signature of `file`, checked by pdfsig, pyHanko and qpdf.
fn assert_valid(file: &Path, ca: &Path) -> Validated {
    let report = tools::pdfsig(file);
    assert!(report.contains("Signature is Valid"), "{report}");
    assert!(report.contains("Total document signed"), "{report}");
    assert!(report.contains("ETSI.CAdES.detached"), "{report}");
    let (code, check) = tools::qpdf_check(file);
    assert_eq!(code, 0, "{check}");
    let mut all = tools::pyhanko(file, ca).unwrap();
    assert_eq!(all.len(), 1, "{all:?}");
    let one = all.remove(0);
    assert!(one.intact && one.valid && one.trusted, "{one:?}");
    assert_eq!(one.coverage, "ENTIRE_FILE", "{one:?}");
    assert_eq!(one.subfilter, "/ETSI.CAdES.detached", "{one:?}");
    assert_eq!(one.md, "sha256", "{one:?}");
    one
}

#[test]
fn every_kind_of_pkcs12_signs_validly() {
    if !tools::available("every_kind_of_pkcs12_signs_validly", TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certs(dir.path());
    let input = sample(dir.path());
    let cases = [
        (&certs.rsa, "Alice Example", "RSA 2048 SHA-256"),
        (&certs.rsa_legacy, "Alice Example", "RSA 2048 SHA-256"),
        (&certs.ec, "Bob Example", "ECDSA P-256 SHA-256"),
        (&certs.ec384, "Carol Example", "ECDSA P-384 SHA-256"),
    ];
    for (p12, subject, algorithm) in cases {
        let out = dir.path().join("signed.pdf");
        let signed = sign(&input, &digital(p12), &out).unwrap();
        assert_eq!(signed.pages, 3);
        let signer = signed.signer.expect("a digital signature");
        assert_eq!(signer.subject, subject);
        assert_eq!(signer.issuer, "Quire Test CA");
        assert_eq!(signer.algorithm, algorithm);
        assert!(signer.not_after.ends_with('Z'), "{}", signer.not_after);
        let one = assert_valid(&out, &certs.ca);
        assert!(one.signer.contains(subject), "{one:?}");
        let doc = lopdf::Document::load(&out).unwrap();
        let reasons: Vec<&[u8]> = doc
            .objects
            .values()
            .filter_map(|o| o.as_dict().ok())
            .filter_map(|d| d.get(b"Reason").ok())
            .filter_map(|r| r.as_str().ok())
            .collect();
        assert_eq!(reasons, [b"I approve this document".as_slice()]);
    }
}

#[test]
fn the_document_keeps_its_field_and_outline() {
    if !tools::available("the_document_keeps_its_field_and_outline", TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certs(dir.path());
    let input = sample(dir.path());
    let out = dir.path().join("signed.pdf");
    sign(&input, &digital(&certs.rsa), &out).unwrap();
    let doc = lopdf::Document::load(&out).unwrap();
    let catalog = doc.catalog().unwrap();
    let form = doc
        .dereference(catalog.get(b"AcroForm").unwrap())
        .unwrap()
        .1
        .as_dict()
        .unwrap();
    assert_eq!(form.get(b"SigFlags").unwrap().as_i64().unwrap(), 3);
    let names: Vec<String> = doc
        .dereference(form.get(b"Fields").unwrap())
        .unwrap()
        .1
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let field = doc.get_dictionary(f.as_reference().unwrap()).unwrap();
            String::from_utf8_lossy(field.get(b"T").unwrap().as_str().unwrap()).into_owned()
        })
        .collect();
    assert_eq!(names, ["name", "Signature1"]);
    assert!(catalog.has(b"Outlines"));
    // The invisible signature's widget: no area, on page 1, printed and locked.
    let pages = doc.get_pages();
    let page = doc.get_dictionary(pages[&1]).unwrap();
    let annots = page.get(b"Annots").unwrap().as_array().unwrap();
    let widget = doc
        .get_dictionary(annots.last().unwrap().as_reference().unwrap())
        .unwrap();
    assert_eq!(widget.get(b"FT").unwrap().as_name().unwrap(), b"Sig");
    let rect: Vec<f32> = widget
        .get(b"Rect")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap())
        .collect();
    assert_eq!(rect, [0.0; 4]);
    assert_eq!(widget.get(b"F").unwrap().as_i64().unwrap(), 132);
    // No signing-time attribute in the CMS (PAdES B-B takes /M): its OID is absent.
    let sig = doc
        .get_dictionary(widget.get(b"V").unwrap().as_reference().unwrap())
        .unwrap();
    let cms = sig.get(b"Contents").unwrap().as_str().unwrap();
    let signing_time = [
        0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05,
    ];
    assert!(!cms.windows(11).any(|w| w == signing_time));
    let signing_certificate_v2 = [
        0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x10, 0x02, 0x2F,
    ];
    assert!(cms.windows(11).any(|w| w == signing_certificate_v2));
    assert!(
        sig.get(b"M")
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with(b"D:20")
    );
}

#[test]
fn a_changed_byte_breaks_the_signature() {
    if !tools::available("a_changed_byte_breaks_the_signature", TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certs(dir.path());
    let input = sample(dir.path());
    let out = dir.path().join("signed.pdf");
    sign(&input, &digital(&certs.rsa), &out).unwrap();
    assert_valid(&out, &certs.ca);
    let mut bytes = std::fs::read(&out).unwrap();
    // "First page" becomes "Firsu page": inside the first signed range.
    let at = bytes
        .windows(10)
        .position(|w| w == b"First page")
        .expect("the page text is stored uncompressed");
    bytes[at + 4] = b'u';
    let tampered = dir.path().join("tampered.pdf");
    std::fs::write(&tampered, &bytes).unwrap();
    let report = tools::pdfsig(&tampered);
    assert!(!report.contains("Signature is Valid"), "{report}");
    let all = tools::pyhanko(&tampered, &certs.ca).unwrap();
    // The digest no longer matches: not intact, so INVALID (the CMS's own signature over
    // its attributes still checks, which pyHanko reports as `valid`).
    assert!(!all[0].intact && all[0].summary == "INVALID", "{all:?}");
}

#[test]
fn a_signed_file_signed_again_keeps_both_signatures() {
    if !tools::available("a_signed_file_signed_again_keeps_both_signatures", TOOLS) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certs(dir.path());
    let input = sample(dir.path());
    let first = dir.path().join("first.pdf");
    sign(&input, &digital(&certs.rsa), &first).unwrap();
    let second = dir.path().join("second.pdf");
    let visible = Sign {
        appearance: Some(Appearance::Text {
            text: "Bob Example".into(),
            font: None,
        }),
        placement: Placement {
            page: 2,
            x: 0.5,
            y: 0.7,
            width: 0.3,
        },
        ..digital(&certs.ec)
    };
    sign(&first, &visible, &second).unwrap();
    let original = std::fs::read(&first).unwrap();
    let appended = std::fs::read(&second).unwrap();
    assert!(
        appended.starts_with(&original),
        "the first revision is kept byte for byte"
    );
    let report = tools::pdfsig(&second);
    assert_eq!(report.matches("Signature is Valid").count(), 2, "{report}");
    let (code, check) = tools::qpdf_check(&second);
    assert_eq!(code, 0, "{check}");
    let all = tools::pyhanko(&second, &certs.ca).unwrap();
    assert_eq!(all.len(), 2, "{all:?}");
    for one in &all {
        assert!(one.intact && one.valid && one.trusted, "{one:?}");
    }
    assert_eq!(all[0].field, "Signature1");
    assert_eq!(all[0].coverage, "ENTIRE_REVISION");
    assert_eq!(all[1].field, "Signature2");
    assert_eq!(all[1].coverage, "ENTIRE_FILE");
    // A visible signature only, on top: an update too, both signatures still valid.
    let third = dir.path().join("third.pdf");
    let drawn = Sign {
        certificate: None,
        ..visible.clone()
    };
    sign(&second, &drawn, &third).unwrap();
    assert!(std::fs::read(&third).unwrap().starts_with(&appended));
    let all = tools::pyhanko(&third, &certs.ca).unwrap();
    assert_eq!(all.len(), 2, "{all:?}");
    assert!(all.iter().all(|one| one.intact && one.valid), "{all:?}");
}
