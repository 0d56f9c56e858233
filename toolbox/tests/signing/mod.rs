//! What the sign tests share: certificates made with the openssl CLI (a test CA and signers
//! it issued), a small PDF built with lopdf, and independent verifiers to read the outputs
//! back: poppler's pdfsig, pdftotext and pyHanko (in the project's Python venv).
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;

use lopdf::{Document, Object, Stream, StringFormat, dictionary};
use quire_toolbox::sign::{Certificate, Placement, Sign};

pub const PASSWORD: &str = "s3cret pass";

/// The certificates of one test: the CA's certificate (PEM) and PKCS#12 files of signers.
pub struct Certs {
    pub ca: PathBuf,
    /// RSA 2048, OpenSSL 3's defaults (PBES2, AES-256-CBC, MAC SHA-256).
    pub rsa: PathBuf,
    /// The same key and certificate, `-legacy` (3DES key, RC2-40 certificates, MAC SHA-1).
    pub rsa_legacy: PathBuf,
    /// ECDSA P-256.
    pub ec: PathBuf,
    /// ECDSA P-384.
    pub ec384: PathBuf,
    /// RSA 2048 whose certificate expired yesterday.
    pub expired: PathBuf,
}

fn openssl(dir: &Path, args: &[&str]) {
    let output = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        output.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A CA and signers it issued, in `dir`.
pub fn certs(dir: &Path) -> Certs {
    std::fs::write(
        dir.join("signer.ext"),
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n\
         subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "30",
            "-subj",
            "/CN=Quire Test CA/O=Quire Tests",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    let issue = |name: &str, key: &[&str], subject: &str, days: &[&str]| {
        let key_file = format!("{name}.key");
        let csr = format!("{name}.csr");
        let pem = format!("{name}.pem");
        let mut args = vec!["req", "-newkey"];
        args.extend_from_slice(key);
        args.extend_from_slice(&[
            "-nodes", "-keyout", &key_file, "-out", &csr, "-subj", subject,
        ]);
        openssl(dir, &args);
        let mut args = vec![
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            &pem,
            "-extfile",
            "signer.ext",
        ];
        args.extend_from_slice(days);
        openssl(dir, &args);
        (key_file, pem)
    };
    let export = |key: &str, pem: &str, out: &str, legacy: bool| {
        let pass = format!("pass:{PASSWORD}");
        let mut args = vec![
            "pkcs12",
            "-export",
            "-inkey",
            key,
            "-in",
            pem,
            "-certfile",
            "ca.pem",
            "-name",
            "signer",
            "-out",
            out,
            "-passout",
            &pass,
        ];
        if legacy {
            args.push("-legacy");
        }
        openssl(dir, &args);
        dir.join(out)
    };
    let (key, pem) = issue(
        "alice",
        &["rsa:2048"],
        "/CN=Alice Example/O=Quire Tests",
        &["-days", "30"],
    );
    let rsa = export(&key, &pem, "alice.p12", false);
    let rsa_legacy = export(&key, &pem, "alice-legacy.p12", true);
    let (key, pem) = issue(
        "bob",
        &["ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
        "/CN=Bob Example/O=Quire Tests",
        &["-days", "30"],
    );
    let ec = export(&key, &pem, "bob.p12", false);
    let (key, pem) = issue(
        "carol",
        &["ec", "-pkeyopt", "ec_paramgen_curve:P-384"],
        "/CN=Carol Example",
        &["-days", "30"],
    );
    let ec384 = export(&key, &pem, "carol.p12", false);
    // `-days -1`: its validity ended a day before it was issued.
    let (key, pem) = issue("old", &["rsa:2048"], "/CN=Old Example", &["-days", "-1"]);
    let expired = export(&key, &pem, "old.p12", false);
    Certs {
        ca: dir.join("ca.pem"),
        rsa,
        rsa_legacy,
        ec,
        ec384,
        expired,
    }
}

pub fn certificate(p12: &Path) -> Certificate {
    Certificate {
        pkcs12: std::fs::read(p12).unwrap(),
        password: PASSWORD.into(),
    }
}

/// A three-page document: page 1 US Letter showing "First page", page 2 turned /Rotate 90
/// (612 x 792 unturned, so 792 x 612 as displayed), page 3 with a CropBox [100 100 400 500];
/// a text field "name" on page 1 and an outline entry to page 2, both to be kept.
pub fn sample(dir: &Path) -> PathBuf {
    let mut doc = Document::with_version("1.7");
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let root = doc.new_object_id();
    let mut kids = Vec::new();
    for i in 1..=3 {
        let text = ["First page", "Second page", "Third page"][i - 1];
        let content = doc.add_object(Stream::new(
            dictionary! {},
            format!("BT /F1 20 Tf 120 300 Td ({text}) Tj ET").into_bytes(),
        ));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => root, "Contents" => content,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        };
        if i == 2 {
            page.set("Rotate", 90);
        }
        if i == 3 {
            page.set(
                "CropBox",
                vec![100.into(), 100.into(), 400.into(), 500.into()],
            );
        }
        kids.push(doc.add_object(page));
    }
    let field = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Widget", "FT" => "Tx",
        "T" => Object::String(b"name".to_vec(), StringFormat::Literal),
        "Rect" => vec![100.into(), 100.into(), 300.into(), 120.into()], "P" => kids[0],
        "F" => 4,
    });
    doc.get_dictionary_mut(kids[0])
        .unwrap()
        .set("Annots", vec![field.into()]);
    doc.objects.insert(
        root,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Count" => 3,
            "Kids" => kids.iter().map(|&k| k.into()).collect::<Vec<Object>>(),
        }),
    );
    let outlines = doc.new_object_id();
    let entry = doc.add_object(dictionary! {
        "Title" => Object::String(b"Chapter".to_vec(), StringFormat::Literal),
        "Parent" => outlines, "Dest" => vec![kids[1].into(), "Fit".into()],
    });
    doc.objects.insert(
        outlines,
        Object::Dictionary(dictionary! {
            "Type" => "Outlines", "First" => entry, "Last" => entry, "Count" => 1,
        }),
    );
    let form = doc.add_object(dictionary! { "Fields" => vec![field.into()] });
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog", "Pages" => root, "AcroForm" => form, "Outlines" => outlines,
    });
    doc.trailer.set("Root", catalog);
    let path = dir.join("sample.pdf");
    doc.save(&path).unwrap();
    path
}

/// A digital signature request: invisible unless `appearance` is set.
pub fn digital(p12: &Path) -> Sign {
    Sign {
        appearance: None,
        placement: Placement {
            page: 1,
            x: 0.1,
            y: 0.1,
            width: 0.3,
        },
        certificate: Some(certificate(p12)),
        reason: Some("I approve this document".into()),
        location: Some("Zürich".into()),
        contact: Some("alice@example.org".into()),
    }
}
