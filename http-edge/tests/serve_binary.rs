//! The shipped binary end to end: `quire serve` starts its engine workers as `quire worker`
//! (not the test harness's stand-in), answers OCR and PDF-to-images, and refuses to start when
//! its engines cannot load.

// A test that unwraps fails loudly, which is its job.
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::process::Command;

use common::{Server, pdf_with_text};

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
