//! One file through the endpoint, compared with its input.

use std::time::Duration;

use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack, file_form,
    pdf_check::{self, Facts, Measured, compare},
};
use reqwest::Client;

use super::PRESETS;

/// Far above any single file's time; reaching it means a hang.
const HANG: Duration = Duration::from_secs(240);

/// A compression through the endpoint: `Ok(pdf)` for a 200 (whose headers are checked),
/// `Err((status, problem code))` otherwise.
pub(super) async fn compress(
    Server { stack, key, client }: &Server,
    name: &str,
    pdf: &[u8],
    preset: &str,
) -> Result<Vec<u8>, (u16, String)> {
    let form = file_form(name, pdf.to_vec()).text("quality", preset.to_owned());
    let response = client
        .post(stack.url("/api/v1/process/compress-pdf"))
        .bearer_auth(key)
        .multipart(form)
        .send()
        .await
        .map_err(|e| (0, format!("request failed: {e}")))?;
    let status = response.status().as_u16();
    let size = |header: &str| {
        response
            .headers()
            .get(header)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
    };
    let (original, compressed) = (size("x-original-size"), size("x-compressed-size"));
    let body = response
        .bytes()
        .await
        .map_err(|e| (0, format!("body cut off after status {status}: {e}")))?;
    if status != 200 {
        let code = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|b| b["code"].as_str().map(str::to_owned))
            .unwrap_or_default();
        return Err((status, code));
    }
    if original != Some(pdf.len() as u64) || compressed != Some(body.len() as u64) {
        return Err((
            status,
            format!(
                "size headers {original:?} -> {compressed:?} do not match {} -> {} bytes",
                pdf.len(),
                body.len()
            ),
        ));
    }
    Ok(body.to_vec())
}

/// Compresses `pdf` at `preset` and compares the output with `input`: every difference, each
/// naming `name`, the preset, the page and the fact.
pub(super) async fn check_one(
    server: &Server,
    name: &str,
    pdf: &[u8],
    input: &Facts,
    preset: usize,
    floors: &[f64; 4],
) -> Outcome {
    let (floor, preset) = (floors[preset], PRESETS[preset]);
    let label = format!("{name} [{preset}]");
    let output = match compress(server, name, pdf, preset).await {
        Ok(output) => output,
        Err((status, code)) if status >= 500 || status == 0 => {
            return Outcome::failed(format!("{label}: answered {status} {code}"));
        }
        Err((status, code)) => return Outcome::Refused(format!("{status} {code}")),
    };
    let mut diffs = Vec::new();
    if output.len() > pdf.len() {
        diffs.push(format!(
            "{label}: the output is larger: {} -> {} bytes",
            pdf.len(),
            output.len()
        ));
    }
    let size = output.len();
    let measured = match pdf_check::facts(output).await {
        Ok(facts) => {
            let (more, measured) = compare(&label, input, &facts, floor);
            diffs.extend(more);
            measured
        }
        Err(e) => {
            diffs.push(format!("{label}: the output is unreadable: {e}"));
            Measured::default()
        }
    };
    Outcome::Compared {
        diffs,
        measured,
        saved: 1.0 - size as f64 / pdf.len() as f64,
    }
}

pub(super) enum Outcome {
    Compared {
        diffs: Vec<String>,
        measured: Measured,
        /// Share of the input's size saved.
        saved: f64,
    },
    /// A 4xx answer, documented (invalid-file, too-many-pixels, unprocessable-file...).
    Refused(String),
}

impl Outcome {
    fn failed(diff: String) -> Outcome {
        Outcome::Compared {
            diffs: vec![diff],
            measured: Measured::default(),
            saved: 0.0,
        }
    }
}

/// A stack, a key on the Pro plan and an HTTP client.
pub(super) struct Server {
    stack: Stack,
    key: String,
    client: Client,
}

pub(super) async fn server() -> Server {
    let stack = Stack::start(Db::Sqlite).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let client = Client::builder().timeout(HANG).build().unwrap();
    Server { stack, key, client }
}
