//! The browser-local tools (`/local/{slug}`): their pages in Chromium with the network cut
//! (tests/web/local.test.mjs, on images written by tests/web/local-fixtures.py with Pillow),
//! and from outside the browser what makes "nothing leaves the page" hold: the pages' CSP
//! allows no connection, and they need no account.

use std::{path::Path, process::Command};

use quire_e2e::{Db, Stack, python};

const TOOLS: [&str; 7] = [
    "social-resize",
    "og-preview",
    "text-on-image",
    "qr",
    "favicon",
    "exif-strip",
    "minify",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_tools_in_chromium() {
    let stack = Stack::start(Db::Sqlite).await;
    let fixtures = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let web = root.join("web");
    let written = Command::new(python())
        .arg(web.join("local-fixtures.py"))
        .arg(fixtures.path())
        .output()
        .expect("python runs (scripts/setup.sh makes .cache/venv)");
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    let shots = root.join("../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    super::browser_test(
        &web.join("local.test.mjs"),
        &[
            ("QUIRE_WEB_BASE", stack.base.as_ref()),
            ("QUIRE_WEB_FIXTURES", fixtures.path().as_os_str()),
            ("QUIRE_WEB_SCREENSHOTS", shots.as_os_str()),
        ],
        "local: all passed",
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
        let html = page.text().await.unwrap();
        let script = format!("/assets/local-{slug}.js");
        assert!(html.contains(&script), "{slug}");
        let asset = client.get(stack.url(&script)).send().await.unwrap();
        assert_eq!(asset.status(), 200, "{script}");
        assert!(asset.bytes().await.unwrap().len() > 500, "{script}");
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
