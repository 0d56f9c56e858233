//! The OpenAPI document against the running service: it is served and names only routes that
//! exist; Swagger UI renders it from the binary under the pages' CSP (in chromium); and
//! schemathesis (PyPI, pinned in scripts/requirements-dev.txt) finds every answer to the requests
//! it generates from it as documented: no 5xx, every status, media type, header and body as the
//! document says.

use std::{process::Command, time::Instant};

use quire_core::quota::Plan;
use quire_e2e::{Db, Stack, python};
use reqwest::{Client, Method};
use serde_json::Value;

async fn document(stack: &Stack) -> Value {
    let response = reqwest::get(stack.url("/openapi.json")).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    response.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_is_served_and_names_routed_endpoints_only() {
    let stack = Stack::start(Db::Sqlite).await;
    let doc = document(&stack).await;
    assert_eq!(
        doc,
        serde_json::to_value(quire_edge::openapi::document()).unwrap()
    );
    assert_eq!(doc["openapi"], "3.1.0");
    let client = Client::new();
    let mut operations = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        // A real code, and for any other parameter a value that names nothing.
        let mut concrete = path.replace("{code}", "internal");
        while let Some(start) = concrete.find('{') {
            let end = concrete[start..].find('}').unwrap() + start;
            concrete.replace_range(start..=end, "DxwB45H5M6mhJrVz");
        }
        let url = stack.url(&concrete);
        for (method, _) in item.as_object().unwrap() {
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            // No key: each endpoint refuses or answers, but none is the router's fallback.
            let response = client.request(method.clone(), &url).send().await.unwrap();
            let status = response.status().as_u16();
            assert_ne!(status, 405, "{method} {path}");
            if status == 404 && method != Method::HEAD {
                let body: Value = response.json().await.unwrap();
                assert_ne!(body["code"], "not-found", "{method} {path} is not routed");
            }
            operations += 1;
        }
    }
    assert!(operations >= 10, "{operations} operations");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_docs_page_and_its_assets_come_from_the_binary() {
    let stack = Stack::start(Db::Sqlite).await;
    let client = Client::new();
    let page = client.get(stack.url("/docs")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self';"), "{csp}");
    let html = page.text().await.unwrap();
    assert!(!html.contains("<script>"), "no inline script");
    for (asset, kind) in [
        ("swagger-ui-bundle.js", "text/javascript"),
        ("swagger-ui.css", "text/css"),
        ("init.js", "text/javascript"),
    ] {
        let path = format!("/docs/assets/{asset}");
        assert!(html.contains(&path), "{path}");
        let response = client.get(stack.url(&path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let headers = response.headers();
        assert!(headers["content-type"].to_str().unwrap().starts_with(kind));
        assert_eq!(headers["cache-control"], "public, max-age=3600");
        assert!(response.bytes().await.unwrap().len() > 100, "{path}");
    }
    let missing = client
        .get(stack.url("/docs/assets/nothing.js"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
}

/// Opens the page in Debian's chromium (playwright-core, as tests/web): prints the operations
/// Swagger UI rendered, then one line per console error or request that left the server.
const BROWSER_CHECK: &str = r#"
import { chromium } from "playwright-core";
const base = process.env.QUIRE_DOCS_BASE;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage();
const problems = [];
page.on("console", (m) => { if (m.type() === "error") problems.push(`console: ${m.text()}`); });
page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
page.on("request", (r) => {
  if (!r.url().startsWith(base) && !r.url().startsWith("data:")) problems.push(`request to ${r.url()}`);
});
await page.goto(`${base}/docs`);
await page.waitForSelector(".opblock", { timeout: 20000 });
const operations = await page.$$eval(".opblock", (blocks) => blocks.length);
console.log(`operations: ${operations}`);
for (const problem of problems) console.log(problem);
await browser.close();
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swagger_ui_renders_the_document_under_the_pages_csp() {
    let stack = Stack::start(Db::Sqlite).await;
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    assert!(
        web.join("node_modules/playwright-core").is_dir(),
        "playwright-core is not installed: run scripts/setup.sh --tests (npm ci in tests/web)"
    );
    let base = stack.base.clone();
    // Blocking: the stack keeps serving on the runtime's threads meanwhile. The script runs in
    // tests/web, where its import finds playwright-core.
    let out = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .args(["--input-type=module", "--eval", BROWSER_CHECK])
            .current_dir(web)
            .env("QUIRE_DOCS_BASE", base)
            .output()
            .expect("node runs (install nodejs)")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // Every operation, and nothing refused by the CSP or fetched from elsewhere.
    let doc = serde_json::to_value(quire_edge::openapi::document()).unwrap();
    let operations: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    assert_eq!(
        stdout.trim(),
        format!("operations: {operations}"),
        "{stderr}"
    );
}

/// What schemathesis is told besides its command line: the answers to requests the schema
/// calls valid that the service must still refuse.
const CONFIG: &str = r#"
[checks.positive_data_acceptance]
# The generator sends one Idempotency-Key with different requests: 422 `idempotency-key-reused`,
# by design.
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-tag = "processing"
# For the schema a form's `file` is any bytes; the engines take only real images and PDFs.
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429"]

[[operations]]
include-path = "/f/{token}"
# A byte range past the end of the file; a link the generator's own upload made expire
# (`expiresIn`) or used up (`maxDownloads`): 410 `file-gone`.
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "410", "416", "422", "429"]
"#;

/// Runs schemathesis on the stack's document with `key`, `max_examples` per operation and
/// phase, every check; it must pass.
async fn schemathesis(stack: &Stack, key: &str, max_examples: u32, run: &str) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("schemathesis.toml");
    std::fs::write(&config, CONFIG).unwrap();
    // Every request and answer (HAR) and the failures (JUnit), kept where CI can pick them up
    // when QUIRE_TEST_SCHEMATHESIS_REPORT names a directory.
    let report = std::env::var_os("QUIRE_TEST_SCHEMATHESIS_REPORT")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| dir.path().to_owned())
        .join(run);
    let args: Vec<String> = [
        "-m",
        "schemathesis.cli",
        "--config-file",
        config.to_str().unwrap(),
        "--no-color",
        "run",
        &stack.url("/openapi.json"),
        "--checks",
        "all",
        "--header",
        &format!("Authorization: Bearer {key}"),
        "--max-examples",
        &max_examples.to_string(),
        "--workers",
        "2",
        "--request-timeout",
        "60",
        "--report-dir",
        report.to_str().unwrap(),
        "--report",
        "junit,har",
        // Nothing kept between runs: each is its own.
        "--generation-database",
        "none",
        // The same cases on every run, so that CI passes or fails on the code alone. With
        // random seeds, a run could send `expiresIn` as an empty array, which multipart
        // cannot tell from no field at all, and count its 201 as a schema violation.
        "--seed",
        "20261123",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Schemathesis writes what it caches into the working directory.
    let cwd = dir.path().to_owned();
    let started = Instant::now();
    // Blocking: the stack keeps serving on the runtime's threads meanwhile.
    let out = tokio::task::spawn_blocking(move || {
        Command::new(python())
            .args(&args)
            .current_dir(&cwd)
            .output()
            .expect("python runs (scripts/setup.sh --tests installs schemathesis)")
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!(
        "{stdout}\nschemathesis ({run}) took {:.0?}",
        started.elapsed()
    );
    assert!(
        out.status.success(),
        "schemathesis found answers that differ from the document:\n{stdout}\n{stderr}"
    );
}

/// A Pro key with every scope: no daily quota to run out of, so every endpoint answers in
/// full. 300 examples per operation and phase: about a minute on 2 cores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_every_answer_as_documented() {
    let stack = Stack::start(Db::Sqlite).await;
    let (_, key) = stack
        .account_with_key(Plan::Pro, "upload,read,process")
        .await;
    schemathesis(&stack, &key, 300, "pro").await;
}

/// A Free key: its answers carry the rate-limit headers, and its quota (100 calls) runs out
/// during the run, so the 429s are checked too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_the_free_plans_answers_as_documented() {
    let stack = Stack::start(Db::Sqlite).await;
    let (account, key) = stack
        .account_with_key(Plan::Free, "upload,read,process")
        .await;
    schemathesis(&stack, &key, 20, "free").await;
    assert_eq!(stack.calls_today(account).await, 100, "the quota ran out");
}
