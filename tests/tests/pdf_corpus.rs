//! Every PDF of the pypdf and pikepdf test resources (real-world, odd and deliberately broken
//! files; scripts/setup.sh fetches them into .cache/pdf-corpus) through the processing
//! endpoints: no answer may be a 5xx, no request may hang, a 200 must be a whole answer, and a
//! compressed file must still pass `qpdf --check` with the same pages when its original does.

use std::time::Duration;

use futures::StreamExt;
use quire_core::quota::Plan;
use quire_e2e::{Db, Stack, file_form, pdf_corpus};
use reqwest::Client;

/// (file, endpoint, status and problem code, or why there was no whole answer)
type Outcome = (String, &'static str, Result<(u16, String), String>);

/// Far above any single file's time with the per-job limit; reaching it means a hang.
const HANG: Duration = Duration::from_secs(240);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_corpus_pdf_gets_an_answer_and_never_a_5xx() {
    let stack = Stack::start(Db::Sqlite).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let client = Client::builder().timeout(HANG).build().unwrap();
    let endpoints = [
        "/api/v1/process/ocr",
        "/api/v1/process/pdf-to-images",
        "/api/v1/process/compress-pdf",
    ];
    let jobs = pdf_corpus()
        .into_iter()
        .flat_map(|file| endpoints.map(|endpoint| (file.clone(), endpoint)));
    let results: Vec<Outcome> = futures::stream::iter(jobs)
        .map(|(file, endpoint)| {
            let client = client.clone();
            let url = stack.url(endpoint);
            let key = key.clone();
            async move {
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                let bytes = std::fs::read(&file).unwrap();
                let outcome = async {
                    let response = client
                        .post(url)
                        .bearer_auth(key)
                        .multipart(file_form(&name, bytes))
                        .send()
                        .await
                        .map_err(|e| format!("request failed: {e}"))?;
                    let status = response.status().as_u16();
                    // A streamed ZIP cut short is an error here, not a short 200.
                    let body = response
                        .bytes()
                        .await
                        .map_err(|e| format!("body cut off after status {status}: {e}"))?;
                    let code = if status == 200 {
                        if endpoint.ends_with("compress-pdf") {
                            same_document(&file, &body)?;
                        }
                        String::new()
                    } else {
                        serde_json::from_slice::<serde_json::Value>(&body)
                            .ok()
                            .and_then(|b| b["code"].as_str().map(str::to_owned))
                            .unwrap_or_default()
                    };
                    Ok((status, code))
                }
                .await;
                (name, endpoint, outcome)
            }
        })
        .buffer_unordered(2)
        .collect()
        .await;

    let mut tally = std::collections::BTreeMap::<String, usize>::new();
    let mut failures = Vec::new();
    for (name, endpoint, outcome) in &results {
        match outcome {
            Ok((status, code)) => {
                *tally
                    .entry(format!("{endpoint} {status} {code}"))
                    .or_default() += 1;
                if *status >= 500 {
                    failures.push(format!("{endpoint} {name}: {status} {code}"));
                }
            }
            Err(err) => failures.push(format!("{endpoint} {name}: {err}")),
        }
    }
    for (outcome, count) in &tally {
        println!("{count:4}  {outcome}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A compressed file passes `qpdf --check` and keeps the page count whenever its original
/// does.
fn same_document(original: &std::path::Path, compressed: &[u8]) -> Result<(), String> {
    let qpdf = |args: &[&str], path: &std::path::Path| {
        std::process::Command::new("qpdf")
            .args(args)
            .arg(path)
            .output()
            .map(|out| {
                (
                    out.status.success(),
                    String::from_utf8_lossy(&out.stdout).trim().to_owned(),
                )
            })
            .map_err(|e| format!("qpdf: {e}"))
    };
    if !qpdf(&["--check"], original)?.0 {
        return Ok(());
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let output = dir.path().join("compressed.pdf");
    std::fs::write(&output, compressed).map_err(|e| e.to_string())?;
    let (ok, report) = qpdf(&["--check"], &output)?;
    if !ok {
        return Err(format!("compressed output fails qpdf --check: {report}"));
    }
    let before = qpdf(&["--show-npages"], original)?.1;
    let after = qpdf(&["--show-npages"], &output)?.1;
    if before != after {
        return Err(format!("{before} pages became {after}"));
    }
    Ok(())
}
