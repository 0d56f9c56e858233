//! Reading a successful answer, and printing what a command prints.

use std::io::Write;

use reqwest::{Response, header::HeaderMap};
use serde_json::Value;

use crate::error::CliError;

/// Below this many calls left today, the client says so on stderr.
const FEW_CALLS_LEFT: u64 = 10;

/// The JSON body of a 2xx answer.
pub async fn json(response: Response) -> Result<Value, CliError> {
    let body = response
        .bytes()
        .await
        .map_err(|source| CliError::Interrupted { source })?;
    serde_json::from_slice(&body)
        .map_err(|e| CliError::Unexpected(format!("the answer is not the JSON expected: {e}")))
}

/// A header holding a number (`X-Original-Size`, `X-Page-Count`, ...).
pub fn header_number<T: std::str::FromStr>(headers: &HeaderMap, name: &str) -> Option<T> {
    headers.get(name)?.to_str().ok()?.trim().parse().ok()
}

/// The Free plan's remaining calls today, when few are left (SPEC 5 asks clients to watch
/// `X-RateLimit-Remaining`); Pro answers carry no such header.
pub fn note_calls_left(headers: &HeaderMap, quiet: bool) {
    if let Some(left) = header_number::<u64>(headers, "x-ratelimit-remaining")
        && left < FEW_CALLS_LEFT
        && !quiet
    {
        let plural = if left == 1 { "call" } else { "calls" };
        eprintln!("quire: note: {left} {plural} left today on this account's plan");
    }
}

/// `value` on one line of stdout.
pub fn print_json(value: &Value) -> Result<(), CliError> {
    print_text(&format!("{value}\n"))
}

/// `text` on stdout, ending with a newline.
pub fn print_text(text: &str) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| {
            if text.ends_with('\n') {
                Ok(())
            } else {
                stdout.write_all(b"\n")
            }
        })
        .and_then(|()| stdout.flush())
        .map_err(CliError::output("stdout"))
}

/// A JSON string field of an answer the command needs.
pub fn field<'a>(body: &'a Value, pointer: &str) -> Result<&'a str, CliError> {
    body.pointer(pointer)
        .and_then(Value::as_str)
        .ok_or_else(|| CliError::Unexpected(format!("the answer has no {pointer} string")))
}

/// 48213 → "47.1 KiB".
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_do() {
        assert_eq!(human_size(0), "0 bytes");
        assert_eq!(human_size(1023), "1023 bytes");
        assert_eq!(human_size(48_213), "47.1 KiB");
        assert_eq!(human_size(5 * 1024 * 1024 + 1), "5.0 MiB");
    }
}
