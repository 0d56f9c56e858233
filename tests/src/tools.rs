//! Where the real parts the tests run against are: clamd, PostgreSQL, the engine worker,
//! PDFium and the Python with the test tools.

use sea_orm::{ConnectionTrait, Database};

/// clamd with the EICAR test signatures and limits at the default upload cap.
pub fn clamd_addr() -> String {
    std::env::var("QUIRE_TEST_CLAMD").unwrap_or_else(|_| "tcp://127.0.0.1:3310".into())
}

/// A second clamd whose size limits are 1 MiB, to prove a size-limit answer is never a pass.
pub fn small_clamd_addr() -> String {
    std::env::var("QUIRE_TEST_CLAMD_SMALL").unwrap_or_else(|_| "tcp://127.0.0.1:3311".into())
}

/// The pypdf and pikepdf test PDFs (real-world, odd and deliberately broken files) that
/// scripts/setup.sh fetches into .cache/pdf-corpus, sorted.
pub fn pdf_corpus() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/pdf-corpus");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{} missing ({e}): run scripts/setup.sh", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdf")))
        .collect();
    files.sort();
    assert!(files.len() >= 100, "the corpus holds {} PDFs", files.len());
    files
}

fn postgres_server() -> String {
    std::env::var("QUIRE_TEST_POSTGRES").unwrap_or_else(|_| "postgres://root@127.0.0.1:5432".into())
}

/// This package's `quire-test-worker`, which cargo builds before running its tests: it sits
/// beside the `deps/` folder that holds the running test binary.
pub fn test_worker() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let target = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target dir");
    target.join("quire-test-worker")
}

/// The interpreter with the test tools (grpcio, tuspy, schemathesis): the setup's venv unless
/// QUIRE_TEST_PYTHON says else.
pub fn python() -> String {
    std::env::var("QUIRE_TEST_PYTHON").unwrap_or_else(|_| {
        let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/venv/bin/python");
        if std::path::Path::new(venv).exists() {
            venv.to_owned()
        } else {
            "python3".to_owned()
        }
    })
}

/// The PDFium library scripts/setup.sh extracts into the workspace's .cache.
pub fn pdfium_lib() -> std::path::PathBuf {
    std::env::var_os("QUIRE_TEST_PDFIUM_LIB")
        .map(Into::into)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/pdfium/libpdfium.so")
        })
}

/// Creates an empty PostgreSQL database for one test stack.
pub async fn fresh_postgres_database() -> String {
    let server = postgres_server();
    let admin = Database::connect(format!("{server}/test"))
        .await
        .expect("postgres reachable");
    let name = format!("quire_test_{}", uuid::Uuid::new_v4().simple());
    admin
        .execute_unprepared(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create database");
    format!("{server}/{name}")
}
