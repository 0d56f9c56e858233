//! The `quire` client where a real server cannot be made to answer on demand: usage errors, a
//! server that is not there, a redirect, and retries against a scripted server (503, 409 and
//! 429 with `Retry-After`), checked on the client's output, exit code and the requests it sent.

// A test that unwraps fails loudly, which is its job.
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;
// Shared with cli.rs, which uses the rest of it.
#[allow(dead_code)]
#[path = "cli/harness.rs"]
mod harness;

use std::time::Duration;

use common::pdf_with_text;
use harness::{Client, Scripted, closed_port, problem};

const SECRET_KEY: &str = "qk_NotARealKeyButLongEnoughToLookLikeOne1234";

#[test]
fn usage_errors_are_2_and_an_absent_server_is_6() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("doc.pdf"), pdf_with_text("x")).unwrap();
    let nowhere = Client::new(&format!("http://127.0.0.1:{}", closed_port()), SECRET_KEY);
    let run = |args: &[&str]| nowhere.run_in(args, &[], Some(dir.path()));

    let no_output = run(&["compress", "doc.pdf"]).expect(2);
    assert!(
        no_output.stderr.contains("--output"),
        "{}",
        no_output.stderr
    );
    run(&["pdf-to-images", "doc.pdf", "--dpi", "20", "-o", "x.zip"]).expect(2);
    run(&["compress", "doc.pdf", "--quality", "best", "-o", "x.pdf"]).expect(2);
    run(&["upload"]).expect(2);
    run(&["upload", "doc.pdf", "--max-downloads", "0"]).expect(2);
    run(&["upload", "doc.pdf", "--max-downloads", "many"]).expect(2);
    let json_to_stdout = run(&["compress", "doc.pdf", "-o", "-", "--json"]).expect(2);
    assert!(
        json_to_stdout
            .stderr
            .starts_with("quire: invalid usage: --json needs -o FILE"),
        "{}",
        json_to_stdout.stderr
    );
    let missing = run(&["ocr", "missing.png"]).expect(2);
    assert!(
        missing
            .stderr
            .starts_with("quire: cannot read missing.png: "),
        "{}",
        missing.stderr
    );
    run(&["support", "--log", "-", "--context", "-"]).expect(2);

    // Nothing listens: unavailable, after the retries asked for.
    let absent = run(&["upload", "doc.pdf", "--retries", "1", "--max-wait", "1"]).expect(6);
    assert!(
        absent.stderr.contains("quire: cannot reach the server: ")
            && absent.stderr.contains("retry 1 of 1")
            && absent.stderr.contains("gave up after 1 retry"),
        "{}",
        absent.stderr
    );

    // The help never shows the key from the environment.
    let help = run(&["upload", "--help"]).expect(0);
    assert!(help.stdout_text().contains("QUIRE_API_KEY"));
    assert!(!help.stdout_text().contains(SECRET_KEY));

    // A QUIRE_URL that redirects (http to https) is a configuration to fix, not to follow: a
    // redirected POST would lose its body.
    let moved = Scripted::start(vec![(
        308,
        vec![(
            "location",
            "https://quire.example.com/api/upload".to_owned(),
        )],
        String::new(),
    )]);
    let redirected = Client::new(&moved.url, SECRET_KEY)
        .run_in(&["upload", "doc.pdf"], &[], Some(dir.path()))
        .expect(2);
    assert!(
        redirected
            .stderr
            .contains("308 to https://quire.example.com/api/upload: set QUIRE_URL"),
        "{}",
        redirected.stderr
    );
    assert_eq!(moved.seen().len(), 1);
}

#[test]
fn retries_honour_retry_after_with_one_idempotency_key() {
    let created = (
        201,
        vec![("content-type", "application/json".to_owned())],
        r#"{"success":true,"token":"t0k3n","filename":"stdin","size":5,"mimeType":"text/plain","expiresAt":null,"url":"http://share/f/t0k3n"}"#.to_owned(),
    );
    let server = Scripted::start(vec![
        problem(
            503,
            "scanner-unavailable",
            "Antivirus unavailable",
            &[("retry-after", "1")],
        ),
        problem(
            409,
            "idempotency-key-in-use",
            "Request with this Idempotency-Key still running",
            &[("retry-after", "1")],
        ),
        created,
    ]);
    let client = Client::new(&server.url, SECRET_KEY);
    let run = client.run_with_stdin(&["upload", "-"], b"hello").expect(0);
    assert_eq!(run.stdout_text(), "http://share/f/t0k3n\n");
    assert!(
        run.stderr.contains("retry 1 of 4") && run.stderr.contains("retry 2 of 4"),
        "{}",
        run.stderr
    );

    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    let key = seen[0].idempotency_key.clone().expect("an Idempotency-Key");
    assert!(uuid_v4(&key), "{key}");
    for request in &seen {
        assert_eq!(request.path, "/api/upload");
        assert_eq!(request.idempotency_key.as_deref(), Some(key.as_str()));
        assert_eq!(
            request.authorization.as_deref(),
            Some(&*format!("Bearer {SECRET_KEY}"))
        );
        // stdin was spooled: every attempt carries all of it.
        assert!(
            request.body.windows(5).any(|w| w == b"hello"),
            "attempt without the file"
        );
    }
    for pair in seen.windows(2) {
        let waited = pair[1].at - pair[0].at;
        assert!(
            waited >= Duration::from_secs(1),
            "Retry-After: 1, waited {waited:?}"
        );
    }

    // Another invocation is another request: another key.
    client.run_with_stdin(&["upload", "-"], b"hello").expect(0);
    let again = server.seen();
    assert_ne!(again[3].idempotency_key.as_deref(), Some(key.as_str()));
}

#[test]
fn a_quota_reset_beyond_max_wait_fails_at_once_and_503s_run_out() {
    let quota = Scripted::start(vec![problem(
        429,
        "daily-quota-exceeded",
        "Daily quota exceeded",
        &[("retry-after", "40000")],
    )]);
    let run = Client::new(&quota.url, SECRET_KEY)
        .run_with_stdin(&["ocr", "-", "--json"], b"img")
        .expect(4);
    assert_eq!(quota.seen().len(), 1, "no retry for a wait of 11 hours");
    assert!(run.elapsed < Duration::from_secs(5), "{:?}", run.elapsed);
    assert_eq!(run.json()["code"], "daily-quota-exceeded");

    let busy = Scripted::start(vec![problem(
        503,
        "processing-busy",
        "Processing queue full",
        &[("retry-after", "0")],
    )]);
    let run = Client::new(&busy.url, SECRET_KEY)
        .run_with_stdin(&["ocr", "-", "--retries", "2"], b"img")
        .expect(6);
    assert_eq!(busy.seen().len(), 3);
    assert!(
        run.stderr.ends_with(
            "quire: processing queue full: scripted processing-busy (gave up after 2 retries)\n"
        ),
        "{}",
        run.stderr
    );
    let quiet = Client::new(&busy.url, SECRET_KEY)
        .run_with_stdin(&["ocr", "-", "--retries", "1", "--quiet"], b"img")
        .expect(6);
    assert_eq!(quiet.stderr.lines().count(), 1, "{}", quiet.stderr);
}

fn uuid_v4(key: &str) -> bool {
    let groups: Vec<&str> = key.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && key.chars().all(|c| c == '-' || c.is_ascii_hexdigit())
        && groups[2].starts_with('4')
}
