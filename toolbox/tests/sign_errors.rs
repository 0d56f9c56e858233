//! Refused requests: each says what was wrong, and the password is told apart from the file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod signing;

use std::process::Command;

use quire_toolbox::ToolError;
use quire_toolbox::sign::{Appearance, Certificate, Placement, Sign, sign};
use signing::{certs, digital, sample, tools};

fn bad_options(result: Result<quire_toolbox::sign::Signed, ToolError>) -> String {
    match result {
        Err(ToolError::BadOptions(message)) => message,
        other => panic!("expected BadOptions, got {other:?}"),
    }
}

fn typed(page: u32, x: f32, y: f32, width: f32) -> Sign {
    Sign {
        appearance: Some(Appearance::Text {
            text: "Alice".into(),
            font: None,
        }),
        placement: Placement { page, x, y, width },
        certificate: None,
        reason: None,
        location: None,
        contact: None,
    }
}

#[test]
fn bad_placements_and_nothing_to_sign_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    let message = bad_options(sign(&input, &typed(9, 0.1, 0.1, 0.2), &out));
    assert!(
        message.contains("page 9") && message.contains("3 pages"),
        "{message}"
    );
    let message = bad_options(sign(&input, &typed(1, 0.9, 0.1, 0.5), &out));
    assert!(message.contains("does not fit"), "{message}");
    let message = bad_options(sign(&input, &typed(1, 1.2, 0.1, 0.2), &out));
    assert!(message.contains("top-left corner"), "{message}");
    let message = bad_options(sign(&input, &typed(1, 0.1, 0.1, 0.0), &out));
    assert!(message.contains("above 0 and at most 1"), "{message}");
    let nothing = Sign {
        appearance: None,
        ..typed(1, 0.1, 0.1, 0.2)
    };
    let message = bad_options(sign(&input, &nothing, &out));
    assert!(message.contains("nothing to sign with"), "{message}");
    let long = Sign {
        appearance: Some(Appearance::Text {
            text: "x".repeat(201),
            font: None,
        }),
        ..typed(1, 0.1, 0.1, 0.2)
    };
    let message = bad_options(sign(&input, &long, &out));
    assert!(message.contains("1 to 200 characters"), "{message}");
    let image = Sign {
        appearance: Some(Appearance::Image(input.clone())),
        ..typed(1, 0.1, 0.1, 0.2)
    };
    let message = bad_options(sign(&input, &image, &out));
    assert!(
        message.contains("signature image is not a PNG or JPEG"),
        "{message}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn certificate_problems_are_told_apart() {
    if !tools::available("certificate_problems_are_told_apart", &["openssl"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let certs = certs(dir.path());
    let input = sample(dir.path());
    let out = dir.path().join("out.pdf");
    for p12 in [&certs.rsa, &certs.rsa_legacy] {
        let mut request = digital(p12);
        request.certificate.as_mut().unwrap().password = "wrong".into();
        match sign(&input, &request, &out) {
            Err(ToolError::WrongPassword(message)) => {
                assert_eq!(message, "the certificate password is wrong");
            }
            other => panic!("expected WrongPassword, got {other:?}"),
        }
    }
    let mut garbage = digital(&certs.rsa);
    garbage.certificate = Some(Certificate {
        pkcs12: b"-----BEGIN CERTIFICATE-----\nnot really\n".to_vec(),
        password: signing::PASSWORD.into(),
    });
    let message = bad_options(sign(&input, &garbage, &out));
    assert!(
        message.contains("not a PKCS#12 (.p12/.pfx) file"),
        "{message}"
    );
    let message = bad_options(sign(&input, &digital(&certs.expired), &out));
    assert!(message.contains("the certificate expired on"), "{message}");
    // Certificates only, no key.
    let pass = format!("pass:{}", signing::PASSWORD);
    let status = Command::new("openssl")
        .args([
            "pkcs12",
            "-export",
            "-nokeys",
            "-in",
            "ca.pem",
            "-out",
            "nokey.p12",
        ])
        .args(["-passout", &pass])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let message = bad_options(sign(&input, &digital(&dir.path().join("nokey.p12")), &out));
    assert!(message.contains("no private key"), "{message}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn an_encrypted_pdf_asks_for_unlocking() {
    if !tools::available("an_encrypted_pdf_asks_for_unlocking", &["qpdf"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = sample(dir.path());
    let locked = dir.path().join("locked.pdf");
    let status = Command::new("qpdf")
        .args(["--encrypt", "user", "owner", "256", "--"])
        .arg(&input)
        .arg(&locked)
        .status()
        .unwrap();
    assert!(status.success());
    let out = dir.path().join("out.pdf");
    assert!(matches!(
        sign(&locked, &typed(1, 0.1, 0.1, 0.2), &out),
        Err(ToolError::Encrypted)
    ));
}
