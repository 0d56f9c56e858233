//! The `quire` client as a pipeline runs it: the shipped binary as a subprocess, configured by
//! QUIRE_URL and QUIRE_API_KEY, against a real `quire serve` (with clamd and its engine
//! workers), checked on its stdout, stderr, output files and exit code. Usage errors, an absent
//! server and retries are in cli_scripted.rs.

// A test that unwraps fails loudly, which is its job.
#![allow(clippy::unwrap_used)]

#[path = "../benches/common/mod.rs"]
mod common;
// Shared with cli_scripted.rs, which uses the rest of it.
#[allow(dead_code)]
#[path = "cli/harness.rs"]
mod harness;

use std::time::{Duration, SystemTime};

use common::{Server, pdf_with_text};
use harness::{Client, account_with_key, eicar};

const SECRET_KEY: &str = "qk_NotARealKeyButLongEnoughToLookLikeOne1234";

#[test]
fn upload_prints_the_share_link_or_the_api_json_and_reads_stdin() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(data.path(), &[], "upload").unwrap();
    let client = Client::new(&server.url(""), &server.key);
    let file = data.path().join("report.txt");
    std::fs::write(&file, "quarterly figures\n").unwrap();
    let file = file.to_str().unwrap();

    let human = client.run(&["upload", file]).expect(0);
    let url = human.stdout_text();
    assert_eq!(url.lines().count(), 1, "{url}");
    assert!(url.starts_with(&server.url("/f/")), "{url}");
    let shared = std::process::Command::new("curl")
        .args(["-sS", url.trim()])
        .output()
        .unwrap();
    assert_eq!(shared.stdout, b"quarterly figures\n");

    let json = client
        .run(&["upload", file, "--expires-in", "1h", "--json"])
        .expect(0)
        .json();
    assert_eq!(json["success"], true, "{json}");
    assert_eq!(json["filename"], "report.txt");
    assert_eq!(json["size"], 18);
    assert!(
        json["mimeType"].as_str().unwrap().starts_with("text/plain"),
        "{json}"
    );
    assert!(json["expiresAt"].as_str().unwrap().ends_with('Z'), "{json}");
    let token = json["token"].as_str().unwrap();
    assert_eq!(json["url"], server.url(&format!("/f/{token}")));
    let never = client.run(&["upload", file, "--json"]).expect(0).json();
    assert!(never["expiresAt"].is_null(), "{never}");
    assert!(never["maxDownloads"].is_null(), "{never}");

    // A one-time link: the first download gets the file, the second a 410.
    let once = client
        .run(&["upload", file, "--max-downloads", "1", "--json"])
        .expect(0)
        .json();
    assert_eq!(
        (
            once["maxDownloads"].as_u64(),
            once["downloadsLeft"].as_u64()
        ),
        (Some(1), Some(1))
    );
    let fetch = |url: &str| {
        let out = std::process::Command::new("curl")
            .args(["-sS", "-o", "/dev/null", "-w", "%{http_code}", url])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let link = once["url"].as_str().unwrap();
    assert_eq!(fetch(link), "200");
    assert_eq!(fetch(link), "410");

    // stdin, spooled, under the name given.
    let piped = client
        .run_with_stdin(
            &["upload", "-", "--filename", "notes.md", "--json"],
            b"# from a pipe\n",
        )
        .expect(0)
        .json();
    assert_eq!(piped["filename"], "notes.md");
    assert_eq!(piped["size"], 14);

    // A virus is a rejected file (5), with the server's words and nothing on stdout.
    let virus = client.run_with_stdin(&["upload", "-"], &eicar()).expect(5);
    assert!(
        virus
            .stderr
            .starts_with("quire: file rejected by the antivirus: "),
        "{}",
        virus.stderr
    );
    assert!(virus.stdout.is_empty());
    let virus_json = client
        .run_with_stdin(&["upload", "-", "--json"], &eicar())
        .expect(5)
        .json();
    assert_eq!(virus_json["code"], "virus-found");
    assert_eq!(virus_json["status"], 422);
    assert_eq!(virus_json["exitCode"], 5);
}

#[test]
fn processing_commands_write_their_outputs_and_summaries() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(
        data.path(),
        &[("QUIRE_WORKERS", "1".to_owned())],
        "upload,read",
    )
    .unwrap();
    let client = Client::new(&server.url(""), &server.key);
    let dir = data.path();
    std::fs::write(dir.join("doc.pdf"), pdf_with_text("Quire reads this line")).unwrap();
    let pdf_len = std::fs::metadata(dir.join("doc.pdf")).unwrap().len();

    // PDF to images: a ZIP of PNG pages, and the page count and resolution on stderr.
    let pages = client
        .run_in(
            &[
                "pdf-to-images",
                "doc.pdf",
                "--dpi",
                "300",
                "-o",
                "pages.zip",
            ],
            &[],
            Some(dir),
        )
        .expect(0);
    assert!(pages.stdout.is_empty());
    assert!(
        pages.stderr.contains("1 page of doc.pdf at 300 dpi") && pages.stderr.contains("pages.zip"),
        "{}",
        pages.stderr
    );
    let zip = std::fs::read(dir.join("pages.zip")).unwrap();
    let entries = harness::unzip(&zip);
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].0, "page-001.png");
    // 595 × 842 pt at 300 dpi.
    assert_eq!(harness::png_size(&entries[0].1), (2479, 3508));
    std::fs::write(dir.join("page.png"), &entries[0].1).unwrap();
    let json = client
        .run_in(
            &["pdf-to-images", "doc.pdf", "-o", "default.zip", "--json"],
            &[],
            Some(dir),
        )
        .expect(0)
        .json();
    assert_eq!(json["pageCount"], 1, "{json}");
    assert_eq!(json["dpi"], 150);
    assert_eq!(json["output"], "default.zip");
    let written = std::fs::metadata(dir.join("default.zip")).unwrap().len();
    assert_eq!(json["bytesWritten"], written);

    // OCR of the rendered page (an image: Tesseract reads it), as text and as the API's JSON.
    let page = dir.join("page.png");
    let page = page.to_str().unwrap();
    let text = client.run(&["ocr", page, "--lang", "eng"]).expect(0);
    assert!(
        text.stdout_text().contains("Quire reads this line"),
        "{}",
        text.stdout_text()
    );
    let png = std::fs::read(page).unwrap();
    let json = client
        .run_with_stdin(&["ocr", "-", "--json", "--lang", "eng"], &png)
        .expect(0)
        .json();
    assert_eq!(json["pages"], 1, "{json}");
    assert_eq!(json["lang"], "eng");
    assert!(
        json["text"]
            .as_str()
            .unwrap()
            .contains("Quire reads this line")
    );

    // Compression: the PDF to -o, sizes from the answer's headers.
    let compressed = client
        .run_in(&["compress", "doc.pdf", "-o", "small.pdf"], &[], Some(dir))
        .expect(0);
    assert!(
        compressed.stderr.starts_with("quire: compressed doc.pdf: ")
            && compressed.stderr.contains("written to small.pdf"),
        "{}",
        compressed.stderr
    );
    let small = std::fs::read(dir.join("small.pdf")).unwrap();
    assert!(small.starts_with(b"%PDF-"));
    let json = client
        .run_in(
            &[
                "compress",
                "doc.pdf",
                "--quality",
                "screen",
                "-o",
                "screen.pdf",
                "--json",
            ],
            &[],
            Some(dir),
        )
        .expect(0)
        .json();
    let screen_len = std::fs::metadata(dir.join("screen.pdf")).unwrap().len();
    assert_eq!(json["originalSize"], pdf_len, "{json}");
    assert_eq!(json["compressedSize"], screen_len);
    assert_eq!(json["bytesWritten"], screen_len);
    assert!(json["savingsPercent"].is_number());
    // stdin to stdout, nothing on stderr with --quiet.
    let piped = client
        .run_with_stdin(
            &["compress", "-", "-o", "-", "--quiet"],
            &std::fs::read(dir.join("doc.pdf")).unwrap(),
        )
        .expect(0);
    assert!(piped.stdout.starts_with(b"%PDF-"));
    assert_eq!(piped.stdout, small, "the same PDF as with -o FILE");
    assert_eq!(piped.stderr, "");

    // A file the endpoint does not take is a rejected file (5), and leaves no output behind.
    let refused = client
        .run_in(
            &["compress", "page.png", "-o", "refused.pdf"],
            &[],
            Some(dir),
        )
        .expect(5);
    assert!(
        refused.stderr.starts_with("quire: unsupported file type: "),
        "{}",
        refused.stderr
    );
    assert!(!dir.join("refused.pdf").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".quire-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // Support: the summary and the draft reply, written from the anonymized log.
    let log = "2026-11-21 10:14:22 ERROR vpn auth failed for CORP\\jdoe from 10.2.3.4\n";
    std::fs::write(dir.join("ticket.log"), log).unwrap();
    std::fs::write(dir.join("context.txt"), "mail me at jdoe@example.com").unwrap();
    let reply = client
        .run_in(
            &[
                "support",
                "--log",
                "ticket.log",
                "--context",
                "context.txt",
                "--locale",
                "en",
            ],
            &[],
            Some(dir),
        )
        .expect(0);
    let text = reply.stdout_text();
    assert!(
        text.starts_with("summary\n") && text.contains("\ndraft reply\n"),
        "{text}"
    );
    assert!(text.contains("Hello"), "{text}");
    assert!(
        !text.contains("10.2.3.4") && !text.contains("jdoe@example.com"),
        "{text}"
    );
    let json = client
        .run_with_stdin(&["support", "--log", "-", "--json"], log.as_bytes())
        .expect(0)
        .json();
    assert_eq!(json["ok"], true, "{json}");
    assert_eq!(json["result"]["stats"]["ipv4"], 1);
    assert_eq!(json["result"]["stats"]["domainUser"], 1);
    assert!(
        json["result"]["anonymized"]
            .as_str()
            .unwrap()
            .contains("[IPV4_1]")
    );
}

#[test]
fn exit_codes_tell_auth_quota_and_rejections_apart() {
    let data = tempfile::tempdir().unwrap();
    // The Free plan gets one call a day here, so the second is over quota.
    let server = Server::start(
        data.path(),
        &[("QUIRE_FREE_DAILY_CALLS", "1".to_owned())],
        "upload",
    )
    .unwrap();
    let file = data.path().join("a.txt");
    std::fs::write(&file, "a").unwrap();
    let file = file.to_str().unwrap();

    // A key the server does not know: auth (3), and the key never appears in the output.
    let stranger = Client::new(&server.url(""), SECRET_KEY);
    let refused = stranger.run(&["upload", file]).expect(3);
    assert!(
        refused.stderr.starts_with("quire: invalid API key"),
        "{}",
        refused.stderr
    );
    assert!(!refused.stderr.contains(SECRET_KEY));
    // A key without the scope: auth too.
    let read_only = account_with_key(data.path(), "reader@example.com", "pro", "read");
    let scope = Client::new(&server.url(""), &read_only)
        .run(&["upload", file])
        .expect(3);
    assert!(
        scope.stderr.starts_with("quire: missing scope"),
        "{}",
        scope.stderr
    );
    // No key at all.
    let mut keyless = Client::new(&server.url(""), "");
    keyless.key = None;
    let missing = keyless.run(&["upload", file]).expect(3);
    assert!(
        missing.stderr.contains("QUIRE_API_KEY"),
        "{}",
        missing.stderr
    );

    // Quota: the first call passes (and says none are left); the second fails at once with
    // 4, although Retry-After asks to wait until midnight and retries are on by default.
    let free_key = account_with_key(data.path(), "free@example.com", "free", "upload");
    let free = Client::new(&server.url(""), &free_key);
    let first = free.run(&["upload", file]).expect(0);
    assert!(
        first.stderr.contains("0 calls left today"),
        "{}",
        first.stderr
    );
    // Within a minute of UTC midnight the reset is nearer than --max-wait: no retry then.
    let near_midnight = seconds_to_utc_midnight() < 90;
    let args: &[&str] = if near_midnight {
        &["upload", file, "--retries", "0"]
    } else {
        &["upload", file]
    };
    let over = free.run(args).expect(4);
    assert!(
        over.stderr.starts_with("quire: daily quota exceeded: "),
        "{}",
        over.stderr
    );
    assert!(over.elapsed < Duration::from_secs(10), "{:?}", over.elapsed);
    assert!(!over.stderr.contains("retry 1"), "{}", over.stderr);
}

fn seconds_to_utc_midnight() -> u64 {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    86_400 - now % 86_400
}
