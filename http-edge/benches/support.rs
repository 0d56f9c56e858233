//! The support workflow's anonymizer on generated multi-megabyte logs, side by side with
//! Microsoft Presidio's pattern recognizers (IpRecognizer, EmailRecognizer, UrlRecognizer) on
//! the same text in the same run, and the whole workflow through the HTTP API of a real
//! `quire serve`. Goals (issue #4): ≥ 100 MB/s in-process on one core, ≥ 100× Presidio.
//!
//! Two logs: `dense`, where every line carries items or look-alikes (the worst case), and
//! `typical`, where one line in five does, as in application logs sent with support tickets.
//!
//! `cargo bench -p quire-edge --bench support`. Presidio comes from PyPI:
//! `python3 -m venv .cache/presidio && .cache/presidio/bin/pip install presidio-analyzer==2.2.366`;
//! QUIRE_BENCH_PRESIDIO_PYTHON points at another interpreter, QUIRE_BENCH_LOG_MB sets the size,
//! QUIRE_BENCH_ONLY=anonymizer prints the in-process figures alone.

use std::{io::Write, process::Command, time::Instant};

use quire_core::support::{Locale, Ticket, anonymize::anonymize, auto_reply};

mod common;

fn main() -> anyhow::Result<()> {
    let mb: usize = std::env::var("QUIRE_BENCH_LOG_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    if std::env::var("QUIRE_BENCH_ONLY").as_deref() == Ok("anonymizer") {
        // The in-process figure alone, for profiling runs: no server, no Presidio.
        for (name, template_every) in [("dense", 1), ("typical", 5)] {
            let log = generate_log(mb * 1_000_000, template_every);
            let (ours, items) = in_process(&log);
            let rate = log.len() as f64 / 1e6 / ours;
            println!("{name:<8} {items:>8} items {rate:>8.1} MB/s");
        }
        return Ok(());
    }
    let work = tempfile::tempdir()?;
    let server = common::Server::start(&work.path().join("data"), &[], "read")?;
    println!(
        "{:<8} {:>6} {:>8} {:>14} {:>14} {:>8} {:>14} {:>14}",
        "log",
        "MB",
        "items",
        "quire MB/s",
        "presidio MB/s",
        "ratio",
        "workflow MB/s",
        "HTTP API MB/s"
    );
    for (name, template_every) in [("dense", 1), ("typical", 5)] {
        let log = generate_log(mb * 1_000_000, template_every);
        let megabytes = log.len() as f64 / 1e6;
        let (ours, items) = in_process(&log);
        let presidio = presidio(&log)?;
        let workflow = workflow(&log);
        let http = through_http(&server, &log, work.path())?;
        println!(
            "{name:<8} {megabytes:>6.1} {items:>8} {:>14.1} {:>14.2} {:>7.0}x {:>14.1} {:>14.1}",
            megabytes / ours,
            megabytes / presidio,
            presidio / ours,
            megabytes / workflow,
            megabytes / http,
        );
    }
    println!("goals: >= 100 MB/s in-process on one core, >= 100x presidio");
    Ok(())
}

/// Best of ten runs of the anonymizer, in seconds, and the items it replaced.
fn in_process(log: &str) -> (f64, u64) {
    let mut best = f64::MAX;
    let mut items = 0;
    for _ in 0..10 {
        let started = Instant::now();
        let out = anonymize(log);
        best = best.min(started.elapsed().as_secs_f64());
        items = out.stats.total();
    }
    (best, items)
}

/// Best of three runs of the whole workflow in-process (anonymize, classify, read the log,
/// summarize, draft), in seconds.
fn workflow(log: &str) -> f64 {
    let ticket = Ticket {
        raw_log: log,
        context: "",
        locale: Locale::En,
    };
    (0..3)
        .map(|_| {
            let started = Instant::now();
            let _ = auto_reply(&ticket);
            started.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// Seconds Presidio's three pattern recognizers take on the same text (the script times only
/// the analysis, not Python's start-up).
fn presidio(log: &str) -> anyhow::Result<f64> {
    let mut file = tempfile::NamedTempFile::new()?;
    file.write_all(log.as_bytes())?;
    let python = std::env::var("QUIRE_BENCH_PRESIDIO_PYTHON").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/presidio/bin/python").to_owned()
    });
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/presidio_recognizers.py"
    );
    let out = Command::new(&python)
        .arg(script)
        .arg(file.path())
        .output()
        .map_err(|err| {
            anyhow::anyhow!(
                "cannot run {python} ({err}): install presidio-analyzer as the header says"
            )
        })?;
    anyhow::ensure!(
        out.status.success(),
        "presidio failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8_lossy(&out.stdout);
    Ok(line.split_whitespace().next().unwrap_or("0").parse()?)
}

/// Best of three POSTs of the log to /api/workflows/support/auto with curl, in seconds: JSON
/// in, the whole workflow (anonymize, classify, summarize, draft), JSON out.
fn through_http(server: &common::Server, log: &str, work: &std::path::Path) -> anyhow::Result<f64> {
    let body = work.join("ticket.json");
    std::fs::write(
        &body,
        serde_json::to_vec(&serde_json::json!({ "rawLog": log, "locale": "en" }))?,
    )?;
    let mut best = f64::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        let out = Command::new("curl")
            .args(["-sS", "--fail-with-body", "-o", "/dev/null", "-H"])
            .arg(format!("Authorization: Bearer {}", server.key))
            .args(["-H", "Content-Type: application/json", "--data-binary"])
            .arg(format!("@{}", body.display()))
            .arg(server.url("/api/workflows/support/auto"))
            .output()?;
        best = best.min(started.elapsed().as_secs_f64());
        anyhow::ensure!(
            out.status.success(),
            "support call failed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    Ok(best)
}

/// A mixed log, deterministic: timestamps, levels, addresses of every kind and the look-alikes
/// the anonymizer must leave alone, in French and English. One line in `template_every` comes
/// from those templates; the others are ordinary application lines with no item in them.
fn generate_log(bytes: usize, template_every: u64) -> String {
    const PLAIN: &[&str] = &[
        "{t} INFO request handled in {b} ms status=200 path=/api/v1/items/{a}",
        "{t} DEBUG cache hit ratio 0.{a} for key user:{n} after {b} lookups",
        "    at com.acme.billing.InvoiceService.run(InvoiceService.java:{a})",
        "{t} INFO worker {n} finished batch {a} of {b}: {c} records, 0 rejected",
        "{t} WARN slow query took {b} ms on table invoices (rows={a})",
        "{t} INFO synchronisation terminée : {a} fichiers, {b} dossiers, aucune erreur",
    ];
    const LINES: &[&str] = &[
        "{t} ERROR vpn: auth failed for CORP\\user{n} from 10.{a}.{b}.{c} (gw vpn{n}.example.com)",
        "{t} WARN retry {a}/5 to 203.0.113.{c}:443, notify ops{n}@example.com",
        "{t} INFO GET https://api{n}.acme-corp.co.uk/v1/items?page={a} 200 in {b} ms",
        "{t} ERROR [erreur] échec de synchro de m.dupont{n}@exemple.fr vers imap.exemple.fr (2001:db8::{a:x})",
        "{t} DEBUG java.lang.NullPointerException at com.acme.billing.InvoiceService.run(InvoiceService.java:{a})",
        "{t} INFO loaded config.yaml, README.md and lib v1.{a}.{b} (build 10.0.19045.{c})",
        "{t} WARN disk C:\\Users\\user{n}\\AppData at {a}% on WS-{n}.acme.com, mac 00:1A:2B:3C:4D:{c:02X}",
        "{t} INFO le poste 192.168.{a}.{b} n'accède plus à intranet.exemple.fr depuis {b}h",
    ];
    let mut out = String::with_capacity(bytes + 256);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut line_no = 0u64;
    while out.len() < bytes {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (a, b, c, n) = (x % 250, (x >> 8) % 250, (x >> 16) % 250, (x >> 24) % 500);
        let template = if line_no.is_multiple_of(template_every) {
            LINES[(x >> 32) as usize % LINES.len()]
        } else {
            PLAIN[(x >> 32) as usize % PLAIN.len()]
        };
        let t = format!(
            "2024-03-{:02} {:02}:{:02}:{:02}",
            1 + line_no / 86_400 % 28,
            line_no / 3600 % 24,
            line_no / 60 % 60,
            line_no % 60
        );
        let line = template
            .replace("{t}", &t)
            .replace("{a:x}", &format!("{a:x}"))
            .replace("{c:02X}", &format!("{c:02X}"))
            .replace("{a}", &a.to_string())
            .replace("{b}", &b.to_string())
            .replace("{c}", &c.to_string())
            .replace("{n}", &n.to_string());
        out.push_str(&line);
        out.push('\n');
        line_no += 1;
    }
    out
}
