//! The browser-local tools (`/local/{slug}`): their pages in Chromium with the network cut
//! (tests/web/local.test.mjs, on images written by tests/web/local-fixtures.py with Pillow),
//! and from outside the browser what makes "nothing leaves the page" hold: the pages' CSP
//! allows no connection, and they need no account. The tools whose encoders and canvas differ
//! between browsers run again in Firefox ESR through geckodriver (tests/web/local-firefox.mjs),
//! and image-optimize's benchmark (ignored; `scripts/bench.sh image-optimize`) runs here too.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use quire_e2e::{Db, Stack, python};

const TOOLS: [&str; 8] = [
    "social-resize",
    "og-preview",
    "text-on-image",
    "qr",
    "image-optimize",
    "favicon",
    "exif-strip",
    "minify",
];

/// The test images, written by local-fixtures.py with Pillow into a new folder.
fn fixtures() -> tempfile::TempDir {
    let fixtures = tempfile::tempdir().unwrap();
    let written = Command::new(python())
        .arg(web().join("local-fixtures.py"))
        .arg(fixtures.path())
        .output()
        .expect("python runs (scripts/setup.sh makes .cache/venv)");
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    fixtures
}

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

fn screenshots() -> PathBuf {
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    shots
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_tools_in_chromium() {
    let stack = Stack::start(Db::Sqlite).await;
    let fixtures = fixtures();
    let shots = screenshots();
    super::browser_test(
        &web().join("local.test.mjs"),
        &[
            ("QUIRE_WEB_BASE", stack.base.as_ref()),
            ("QUIRE_WEB_FIXTURES", fixtures.path().as_os_str()),
            ("QUIRE_WEB_SCREENSHOTS", shots.as_os_str()),
        ],
        "local: all passed",
    )
    .await;
}

/// Firefox ESR (Debian) through geckodriver (built by scripts/setup.sh --tests into
/// .cache/geckodriver): image-optimize, social-resize and favicon, whose outputs come from the
/// browser's canvas and encoders.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_tools_in_firefox() {
    let stack = Stack::start(Db::Sqlite).await;
    let fixtures = fixtures();
    let geckodriver = std::env::var_os("QUIRE_WEB_GECKODRIVER").unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/geckodriver/bin/geckodriver")
            .into_os_string()
    });
    super::browser_test(
        &web().join("local-firefox.mjs"),
        &[
            ("QUIRE_WEB_BASE", stack.base.as_ref()),
            ("QUIRE_WEB_FIXTURES", fixtures.path().as_os_str()),
            ("QUIRE_WEB_GECKODRIVER", &geckodriver),
        ],
        "firefox: all passed",
    )
    .await;
}

/// image-optimize on 20 real photos (scripts/corpus/bench-photos.sh) in Chromium, beside cwebp
/// and avifenc at the same quality: sizes and times. A benchmark, not a test: it prints its
/// figures and asserts only that every photo was encoded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: scripts/bench.sh image-optimize"]
async fn image_optimize_bench_in_chromium() {
    let stack = Stack::start(Db::Sqlite).await;
    let photos = std::env::var_os("QUIRE_BENCH_PHOTOS").unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/bench-photos")
            .into_os_string()
    });
    let python = python();
    super::browser_test(
        &web().join("bench-image-optimize.mjs"),
        &[
            ("QUIRE_WEB_BASE", stack.base.as_ref()),
            ("QUIRE_BENCH_PHOTOS", &photos),
            ("QUIRE_BENCH_PYTHON", python.as_ref()),
        ],
        "bench: done",
    )
    .await;
}

/// Every tool page is public and forbids any connection and form target, so a script on it
/// could not send a file even if it tried; its script is served; an unknown tool is a 404
/// problem that says where the list is.
#[tokio::test]
async fn local_pages_allow_no_connection() {
    let stack = Stack::start(Db::Sqlite).await;
    let client = reqwest::Client::new();
    for slug in TOOLS {
        let page = client
            .get(stack.url(&format!("/local/{slug}")))
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200, "{slug}");
        let csp = page.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(csp.contains("connect-src 'none'"), "{slug}: {csp}");
        assert!(csp.contains("form-action 'none'"), "{slug}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{slug}: {csp}");
        // WebAssembly only where a tool runs it.
        assert_eq!(
            csp.contains("'wasm-unsafe-eval'"),
            slug == "image-optimize",
            "{slug}: {csp}"
        );
        let html = page.text().await.unwrap();
        let script = format!("/assets/local-{slug}.js");
        assert!(html.contains(&script), "{slug}");
        let asset = client.get(stack.url(&script)).send().await.unwrap();
        assert_eq!(asset.status(), 200, "{script}");
        assert!(asset.bytes().await.unwrap().len() > 500, "{script}");
    }
    // The workers are bound by the CSP their scripts come with: the local pages'.
    for (worker, wasm) in [
        ("local-minify-worker.js", false),
        ("local-image-encoder.js", true),
    ] {
        let response = client
            .get(stack.url(&format!("/assets/{worker}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{worker}");
        let csp = response.headers()["content-security-policy"]
            .to_str()
            .unwrap();
        assert!(csp.contains("connect-src 'none'"), "{worker}: {csp}");
        assert_eq!(csp.contains("'wasm-unsafe-eval'"), wasm, "{worker}: {csp}");
    }
    // The other pages keep the site's CSP, which lets the tool forms reach the API.
    let home = client.get(stack.url("/")).send().await.unwrap();
    assert!(
        home.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("connect-src 'self'")
    );
    let missing = client.get(stack.url("/local/nope")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(
        missing.headers()["content-type"],
        "application/problem+json"
    );
    assert!(missing.text().await.unwrap().contains("/local"));
}
