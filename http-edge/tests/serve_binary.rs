//! The shipped binary end to end: `quire serve` starts its engine workers as `quire worker`
//! (not the test harness's stand-in), answers OCR and PDF-to-images, and refuses to start when
//! its engines cannot load; and the scale-out layout as separate processes, one core killed
//! with SIGKILL in the middle of calls.

// A test that unwraps fails loudly, which is its job.
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::{
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use common::{Cluster, Server, pdf_with_text};

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

/// A call through curl whose body goes to `out` and whose status and content type are
/// printed; `rate` slows its upload down (curl's `--limit-rate`), to keep it in flight.
fn call(cluster: &Cluster, path: &str, file: &Path, out: &Path, rate: &str) -> Child {
    Command::new("curl")
        .args(["-sS", "--limit-rate", rate, "-o"])
        .arg(out)
        .args(["-w", "%{http_code} %{content_type}"])
        .args(["-H", &format!("Authorization: Bearer {}", cluster.key)])
        .arg("-F")
        .arg(format!("file=@{}", file.display()))
        .arg(cluster.url(path))
        .stdout(Stdio::piped())
        .spawn()
        .expect("curl runs")
}

/// The status and content type a [`call`] printed.
fn outcome(child: Child) -> (u16, String) {
    let out = child.wait_with_output().unwrap();
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    let (status, content_type) = printed.split_once(' ').unwrap_or((&printed, ""));
    (status.parse().unwrap_or(0), content_type.to_owned())
}

/// A number the query `sql` gives, read with psql.
fn query_number(database: &str, sql: &str) -> usize {
    let out = Command::new("psql")
        .arg(database)
        .args(["-tAc", sql])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn ready_files(database: &str) -> usize {
    query_number(database, "SELECT count(*) FROM files WHERE state = 'ready'")
}

fn calls_today(database: &str) -> usize {
    query_number(database, "SELECT sum(calls_today) FROM accounts")
}

/// Two cores behind an edge, one killed with SIGKILL while uploads and OCR calls stream into
/// both: each call that was on it ends with a clean 503 (problem+json, never a 500 or a cut
/// connection), what it had half-written never becomes a file, every file stored is whole,
/// the calls after the kill go to the survivor, and the calls that died are given back.
#[test]
fn a_core_killed_mid_call_costs_only_its_calls_in_flight() {
    const MIB: u64 = 1024 * 1024;
    let work = tempfile::tempdir().unwrap();
    let database = common::fresh_database(&format!("quire_kill_{}", std::process::id())).unwrap();
    let env = [
        ("QUIRE_INSECURE_NO_SCAN", "true".to_owned()),
        ("QUIRE_WORKERS", "1".to_owned()),
    ];
    let mut cluster = Cluster::start(work.path(), &env, 2, &database).unwrap();
    let big = work.path().join("big.bin");
    common::write_noise(&big, 16 * MIB).unwrap();
    let pdf = work.path().join("doc.pdf");
    std::fs::write(&pdf, pdf_with_text("Quire reads this line")).unwrap();
    let out = |name: String| work.path().join(name);

    // 16 MiB at 4 MiB/s and a PDF at 300 B/s: all still arriving when the core dies.
    let mut calls: Vec<(&str, Child)> = Vec::new();
    for i in 0..6 {
        calls.push((
            "upload",
            call(&cluster, "/api/upload", &big, &out(format!("u{i}")), "4M"),
        ));
        calls.push((
            "ocr",
            call(
                &cluster,
                "/api/v1/process/ocr",
                &pdf,
                &out(format!("o{i}")),
                "300",
            ),
        ));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let killed = &mut cluster.cores[0].0;
    killed.kill().unwrap(); // SIGKILL
    killed.wait().unwrap();

    let mut stored = 0;
    let mut served = 0;
    let mut unavailable = 0;
    for (i, (what, child)) in calls.into_iter().enumerate() {
        let (status, content_type) = outcome(child);
        match (what, status) {
            ("upload", 201) => {
                let body: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(out(format!("u{}", i / 2))).unwrap())
                        .unwrap();
                assert_eq!(body["size"], 16 * MIB, "upload {i}");
                stored += 1;
                served += 1;
            }
            ("ocr", 200) => served += 1,
            (_, 503) => {
                assert_eq!(content_type, "application/problem+json", "call {i}");
                unavailable += 1;
            }
            _ => panic!(
                "{what} call {i}: {status} {}",
                std::fs::read_to_string(out(format!("{}{}", &what[..1], i / 2)))
                    .unwrap_or_default()
            ),
        }
    }
    assert!(unavailable > 0, "no call was on the killed core");
    assert_eq!(
        ready_files(&database),
        stored,
        "a half-written upload became a file"
    );

    // The survivor takes what comes next.
    for i in 0..3 {
        let (status, _) = outcome(call(
            &cluster,
            "/api/upload",
            &pdf,
            &out(format!("a{i}")),
            "1G",
        ));
        assert_eq!(status, 201, "after the kill");
        let body: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out(format!("a{i}"))).unwrap()).unwrap();
        let token = body["token"].as_str().unwrap();
        let fetched = Command::new("curl")
            .args(["-sS", "--fail"])
            .arg(cluster.url(&format!("/f/{token}")))
            .output()
            .unwrap();
        assert_eq!(fetched.stdout, std::fs::read(&pdf).unwrap());
    }
    assert_eq!(ready_files(&database), stored + 3);

    // The calls the killed core had in flight were counted when admitted; the survivor gives
    // them back once the dead one has been silent long enough.
    let deadline = std::time::Instant::now() + Duration::from_secs(40);
    loop {
        let counted = calls_today(&database);
        if counted == served + 3 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{counted} calls counted for {} served",
            served + 3
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}
