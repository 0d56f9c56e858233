//! Inputs of the conversion and signing tools, made in the test: a DOCX that says a given
//! sentence, a ZIP of a small web site, a PKCS#12 certificate (by the openssl CLI).

use async_zip::{Compression, ZipEntryBuilder, base::write::ZipFileWriter};

/// A ZIP of `(name, bytes)` entries, deflated.
pub async fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = ZipFileWriter::new(Vec::new());
    for (name, bytes) in entries {
        let entry = ZipEntryBuilder::new((*name).to_owned().into(), Compression::Deflate);
        writer.write_entry_whole(entry, bytes).await.unwrap();
    }
    writer.close().await.unwrap()
}

/// A Word document (OOXML) with one paragraph per item of `paragraphs`.
pub async fn docx(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs
        .iter()
        .map(|p| format!("<w:p><w:r><w:t>{p}</w:t></w:r></w:p>"))
        .collect();
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
    );
    let types = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
    let rels = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;
    zip(&[
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", rels.as_bytes()),
        ("word/document.xml", document.as_bytes()),
    ])
    .await
}

/// A self-signed RSA certificate and its key as a PKCS#12 file locked with `password`, made
/// by the openssl CLI; `name` is its common name.
pub fn pkcs12(name: &str, password: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (key, cert, p12) = (
        dir.path().join("key.pem"),
        dir.path().join("cert.pem"),
        dir.path().join("id.p12"),
    );
    let run = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new("openssl")
            .args(args)
            .output()
            .expect("openssl is installed");
        assert!(
            out.status.success(),
            "openssl failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let subject = format!("/CN={name}/O=Quire tests");
    run(&[
        "req".as_ref(),
        "-x509".as_ref(),
        "-newkey".as_ref(),
        "rsa:2048".as_ref(),
        "-nodes".as_ref(),
        "-days".as_ref(),
        "30".as_ref(),
        "-subj".as_ref(),
        subject.as_ref(),
        "-keyout".as_ref(),
        key.as_os_str(),
        "-out".as_ref(),
        cert.as_os_str(),
    ]);
    let pass = format!("pass:{password}");
    run(&[
        "pkcs12".as_ref(),
        "-export".as_ref(),
        "-inkey".as_ref(),
        key.as_os_str(),
        "-in".as_ref(),
        cert.as_os_str(),
        "-passout".as_ref(),
        pass.as_ref(),
        "-out".as_ref(),
        p12.as_os_str(),
    ]);
    std::fs::read(p12).unwrap()
}
