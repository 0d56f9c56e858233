//! The shipped binary end to end: `quire serve` starts its engine workers as `quire worker`
//! (not the test harness's stand-in), answers OCR and PDF-to-images, and refuses to start when
//! its engines cannot load.

// A test that unwraps fails loudly, which is its job.
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::process::Command;

use common::Server;

/// A one-page PDF whose text layer says `text` (Helvetica, ASCII).
fn pdf_with_text(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 18 Tf 50 750 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut pdf = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

fn curl(server: &Server, path: &str, file: &std::path::Path, headers: &std::path::Path) -> Vec<u8> {
    let out = Command::new("curl")
        .args(["-sS", "-D"])
        .arg(headers)
        .args(["-H", &format!("Authorization: Bearer {}", server.key)])
        .arg("-F")
        .arg(format!("file=@{}", file.display()))
        .arg(server.url(path))
        .output()
        .expect("curl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn quire_serve_runs_ocr_and_rendering_in_quire_worker_processes() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(
        data.path(),
        &[
            ("QUIRE_WORKERS", "1".to_owned()),
            ("QUIRE_INSECURE_NO_SCAN", "true".to_owned()),
        ],
        "upload",
    )
    .unwrap();
    let file = data.path().join("doc.pdf");
    std::fs::write(&file, pdf_with_text("Quire reads this line")).unwrap();
    let headers = data.path().join("headers");

    let body = curl(&server, "/api/v1/process/ocr", &file, &headers);
    let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["text"], "Quire reads this line", "{json}");
    assert_eq!(json["pages"], 1);

    let zip = curl(&server, "/api/v1/process/pdf-to-images", &file, &headers);
    let headers = std::fs::read_to_string(&headers)
        .unwrap()
        .to_ascii_lowercase();
    assert!(headers.contains("x-page-count: 1"), "{headers}");
    assert!(zip.starts_with(b"PK\x03\x04"));
    assert!(zip.windows(12).any(|w| w == b"page-001.png"));
}

#[test]
fn quire_serve_refuses_to_start_without_its_engines() {
    let data = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_quire"))
        .arg("serve")
        .env("QUIRE_DATA_DIR", data.path())
        .env("QUIRE_HTTP_ADDR", "127.0.0.1:0")
        .env("QUIRE_GRPC_ADDR", "127.0.0.1:0")
        .env("QUIRE_PDFIUM_LIB", data.path().join("missing/libpdfium.so"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no PDFium library") && stderr.contains("QUIRE_PDFIUM_LIB"),
        "{stderr}"
    );
}
