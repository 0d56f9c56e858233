//! Anonymizer throughput on a generated multi-megabyte support log, on one core, side by side
//! with Microsoft Presidio's pattern recognizers (IpRecognizer, EmailRecognizer, UrlRecognizer)
//! on the same text in the same run. Goals (issue #4): ≥ 100 MB/s in-process, ≥ 100× Presidio.
//!
//! `cargo bench -p quire-core --bench anonymize`. Presidio comes from PyPI:
//! `python3 -m venv .cache/presidio && .cache/presidio/bin/pip install presidio-analyzer`;
//! QUIRE_BENCH_PRESIDIO_PYTHON points at another interpreter, QUIRE_BENCH_LOG_MB sets the size.

use std::{io::Write, process::Command, time::Instant};

use quire_core::support::anonymize::anonymize;

fn main() -> anyhow::Result<()> {
    let mb: usize = std::env::var("QUIRE_BENCH_LOG_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let log = generate_log(mb * 1_000_000);
    let mut file = tempfile::NamedTempFile::new()?;
    file.write_all(log.as_bytes())?;
    let megabytes = log.len() as f64 / 1e6;

    // Best of ten: the figure is the code's speed, not the machine's noise.
    let mut best = f64::MAX;
    let mut items = 0;
    for _ in 0..10 {
        let started = Instant::now();
        let out = anonymize(&log);
        best = best.min(started.elapsed().as_secs_f64());
        items = out.stats.total();
    }
    let ours = megabytes / best;
    println!("log: {megabytes:.1} MB, {items} items replaced");
    println!("quire anonymizer (1 core):            {ours:>9.1} MB/s");

    let python = std::env::var("QUIRE_BENCH_PRESIDIO_PYTHON").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.cache/presidio/bin/python").to_owned()
    });
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/presidio_recognizers.py"
    );
    let output = Command::new(&python).arg(script).arg(file.path()).output();
    match output {
        Ok(out) if out.status.success() => {
            let line = String::from_utf8_lossy(&out.stdout);
            let seconds: f64 = line.split_whitespace().next().unwrap_or("0").parse()?;
            let presidio = megabytes / seconds;
            println!("presidio Ip+Email+Url recognizers:    {presidio:>9.1} MB/s");
            println!(
                "ratio: {:.0}x presidio (goal >= 100x); {ours:.0} MB/s in-process (goal >= 100)",
                ours / presidio
            );
        }
        Ok(out) => anyhow::bail!("presidio failed: {}", String::from_utf8_lossy(&out.stderr)),
        Err(err) => anyhow::bail!(
            "cannot run {python} ({err}): install presidio-analyzer as the header says"
        ),
    }
    Ok(())
}

/// A realistic mixed log, deterministic: timestamps, levels, addresses of every kind and the
/// look-alikes the anonymizer must leave alone, in French and English.
fn generate_log(bytes: usize) -> String {
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
        let template = LINES[(x >> 32) as usize % LINES.len()];
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
