//! The web interface in a real browser: starts the stack, writes the files the tools get, and
//! runs tests/web/web.test.mjs (playwright-core driving Debian's chromium) against it. The
//! screenshots of every page land in target/web-screenshots for a reviewer to look at.

use std::{path::Path, process::Command};

use quire_e2e::{
    Db, Stack,
    pdf_fixtures::{A4, photo_jpeg, photo_pdf, text_pdf},
};

#[path = "web/account_forms.rs"]
mod account_forms;
#[path = "web/local_tools.rs"]
mod local_tools;
#[path = "web/share.rs"]
mod share;

/// Runs the browser test `script` with node and `env`, and checks that it ends with `passed`;
/// its output. Blocking in a thread of its own: the stack keeps serving on the runtime's
/// threads meanwhile.
async fn browser_test(script: &Path, env: &[(&str, &std::ffi::OsStr)], passed: &str) -> String {
    let mut command = Command::new("node");
    command.arg(script);
    for (name, value) in env {
        command.env(name, value);
    }
    let out =
        tokio::task::spawn_blocking(move || command.output().expect("node runs (install nodejs)"))
            .await
            .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "browser test failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains(passed), "{stdout}");
    stdout
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_interface_in_chromium() {
    let stack = Stack::start(Db::Sqlite).await;
    let fixtures = tempfile::tempdir().unwrap();
    let dir = fixtures.path();
    std::fs::write(dir.join("notes.txt"), "notes from the browser test\n").unwrap();
    std::fs::write(
        dir.join("letter.pdf"),
        text_pdf(
            &[
                &[
                    "Quire browser test letter",
                    "Bonjour, voici le texte de la page un.",
                ],
                &["Second page of the letter", "Merci et bonne journée."],
            ],
            A4,
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("letter-changed.pdf"),
        text_pdf(
            &[
                &[
                    "Quire browser test letter",
                    "Bonjour, voici le texte de la page un.",
                ],
                &["Second page of the letter", "Merci et bonne soirée."],
            ],
            A4,
        ),
    )
    .unwrap();
    let photos: Vec<_> = (0..2).map(|i| photo_jpeg(1600, 1100, 7 + i)).collect();
    std::fs::write(dir.join("photos.pdf"), photo_pdf(&photos, A4)).unwrap();

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = root.join("../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let web = root.join("web");
    assert!(
        web.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run scripts/setup.sh (npm ci in tests/web)"
    );
    browser_test(
        &web.join("web.test.mjs"),
        &[
            ("QUIRE_WEB_BASE", stack.base.as_ref()),
            ("QUIRE_WEB_FIXTURES", dir.as_os_str()),
            ("QUIRE_WEB_SCREENSHOTS", shots.as_os_str()),
        ],
        "web: all passed",
    )
    .await;
    println!("screenshots: {}", shots.display());
}

/// The icon: linked from every page as SVG, and at `/favicon.ico` (where browsers and feed
/// readers look when a page names none) as a real ICO, so no visit logs a 404 for it.
#[tokio::test]
async fn the_favicon_is_served_and_linked() {
    let stack = Stack::start(Db::Sqlite).await;
    let client = reqwest::Client::new();
    let ico = client.get(stack.url("/favicon.ico")).send().await.unwrap();
    assert_eq!(ico.status(), 200);
    assert_eq!(ico.headers()["content-type"], "image/x-icon");
    let bytes = ico.bytes().await.unwrap();
    assert_eq!(&bytes[..4], &[0, 0, 1, 0], "an ICO header");
    let svg = client
        .get(stack.url("/assets/favicon.svg"))
        .send()
        .await
        .unwrap();
    assert_eq!(svg.status(), 200);
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    assert!(svg.text().await.unwrap().starts_with("<svg"));
    let page = client.get(stack.url("/")).send().await.unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains(r#"rel="icon" href="/assets/favicon.svg""#),
        "{html}"
    );
}

/// The browser code's logic in Node (http-edge/web/test/*.test.mjs, every file there): the
/// one-time share's encryption format in Node's WebCrypto, the browser's API (round trips at
/// chunk boundaries, a wrong secret or password, every alteration of the ciphertext refused,
/// the typeable secret) and the uploader's pieces from any offset it resumes at; the support
/// desk's pairing of a raw log with its anonymized text, its corrections and the reply's
/// Markdown; the browser-local tools' pure parts (the ICO writer, the crops, the metadata
/// cleaners on built and real files, the QR payloads, the link card's tags).
#[test]
fn browser_logic_holds_in_node() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../http-edge/web/test");
    let mut files: Vec<_> = std::fs::read_dir(&tests)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the Node tests are missing: {files:?}");
    let output = Command::new("node")
        .arg("--test")
        .args(&files)
        .output()
        .expect("node runs (install nodejs)");
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
