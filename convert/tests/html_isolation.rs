//! html-to-pdf's walls with a real Chromium: nothing outside the upload is fetched (no
//! server-side request forgery, no local files), a page that never ends is stopped by the time
//! limit without harming the next job, uploads that would escape their folder or fill the
//! disk are refused, and a page that navigates away from itself answers at once.

mod html_support;
// Inside html_support's folder, but only this binary runs it.
#[path = "html_support/navigation.rs"]
mod navigation;

use std::io::ErrorKind;
use std::net::TcpListener;
use std::time::{Duration, Instant};

use html_support::{Bench, LIMITS, pdftotext, zip, zip_with_modes};
use quire_convert::chromium::{PrintOptions, Source};
use quire_convert::{ConvertError, Limits};

#[test]
fn nothing_outside_the_upload_is_fetched() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("listener");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    let page = format!(
        r#"<!DOCTYPE html><html><head>
<link rel="stylesheet" href="http://localhost:{port}/x.css">
</head><body>
<p>Page with outside references</p>
<img src="http://127.0.0.1:{port}/a.png">
<iframe src="http://127.0.0.1:{port}/frame"></iframe>
<iframe src="file:///etc/passwd"></iframe>
<img src="file:///etc/passwd">
<object data="file:///etc/passwd"></object>
<p id="out">script did not run</p>
<script>
  fetch("http://127.0.0.1:{port}/fetch").catch(() => {{}});
  try {{ new WebSocket("ws://127.0.0.1:{port}/ws"); }} catch (e) {{}}
  fetch("file:///etc/passwd").then(r => r.text()).then(t => document.body.append(t)).catch(() => {{}});
  document.getElementById("out").textContent = "script ran";
</script>
</body></html>"#
    );
    let mut bench = Bench::new();
    let (printed, pdf) = bench.print(
        "ssrf.html",
        page.as_bytes(),
        Source::Html,
        &PrintOptions::default(),
        LIMITS,
    );
    let printed = printed.expect("printed");

    let text = pdftotext(&pdf);
    assert!(
        text.contains("Page with outside references") && text.contains("script ran"),
        "{text}"
    );
    assert!(!text.contains("root:"), "/etc/passwd was read: {text}");
    match listener.accept() {
        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
        other => panic!("the browser connected to the test's port: {other:?}"),
    }
    for url in [
        format!("http://localhost:{port}/x.css"),
        format!("http://127.0.0.1:{port}/a.png"),
        format!("http://127.0.0.1:{port}/frame"),
        format!("http://127.0.0.1:{port}/fetch"),
        format!("ws://127.0.0.1:{port}/ws"),
    ] {
        assert!(
            printed.blocked.contains(&url),
            "{url} not in {:?}",
            printed.blocked
        );
    }
}

#[test]
fn a_page_that_never_finishes_is_stopped_and_the_next_job_prints() {
    let mut bench = Bench::new();
    bench.chromium.start().expect("start");
    let first_pid = bench.chromium.pid();
    let limits = Limits {
        time: Duration::from_secs(2),
        memory: LIMITS.memory,
    };
    let started = Instant::now();
    let (printed, _) = bench.print(
        "loop.html",
        b"<p>never</p><script>while (true) {}</script>",
        Source::Html,
        &PrintOptions::default(),
        limits,
    );
    assert!(
        matches!(printed, Err(ConvertError::OverLimit(_))),
        "{printed:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "stopped in {:?}",
        started.elapsed()
    );

    let (printed, pdf) = bench.print(
        "ok.html",
        b"<p>After the loop</p>",
        Source::Html,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.expect("the next job prints");
    assert!(pdftotext(&pdf).contains("After the loop"));
    assert_ne!(
        bench.chromium.pid(),
        first_pid,
        "a new browser after the overrun"
    );
}

#[test]
fn a_page_past_the_memory_limit_is_stopped() {
    let mut bench = Bench::new();
    bench.chromium.start().expect("start");
    // The warm browser's own size plus 300 MB: the page below keeps allocating past that.
    let idle = bench.chromium.pid().map(tree_rss_estimate).unwrap_or(0);
    let limits = Limits {
        time: Duration::from_secs(30),
        memory: idle + (300 << 20),
    };
    let hog = b"<script>const keep = []; while (true) { keep.push(new Float64Array(1 << 20).fill(1)); }</script>";
    let (printed, _) = bench.print(
        "hog.html",
        hog,
        Source::Html,
        &PrintOptions::default(),
        limits,
    );
    match printed {
        Err(ConvertError::OverLimit(message)) => assert!(message.contains("memory"), "{message}"),
        other => panic!("expected the memory limit: {other:?}"),
    }
}

/// VmRSS of the browser's process group, as /proc tells it (an estimate is enough here).
fn tree_rss_estimate(pid: u32) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir("/proc").expect("proc").flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let pgrp: Option<u32> = rest.split_whitespace().nth(2).and_then(|p| p.parse().ok());
        if pgrp == Some(pid) {
            let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
            let kib: u64 = status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0);
            total += kib * 1024;
        }
    }
    total
}

#[test]
fn uploads_that_escape_their_folder_or_fill_the_disk_are_refused() {
    let mut bench = Bench::new();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "dotdot",
            zip(&[
                ("index.html", b"<p>x</p>"),
                ("../evil.html", b"<p>evil</p>"),
            ]),
        ),
        ("absolute", zip(&[("/tmp/evil.html", b"<p>evil</p>")])),
        (
            "symlink",
            zip_with_modes(&[
                ("index.html", b"<p>x</p>", None),
                ("link", b"/etc/passwd", Some(0o120777)),
            ]),
        ),
        (
            "bomb",
            zip(&[
                ("index.html", b"<p>x</p>"),
                ("zeros.bin", &vec![0u8; 201 << 20]),
            ]),
        ),
        ("not a zip", b"<p>not a zip</p>".to_vec()),
        ("no page", zip(&[("style.css", b"p {}")])),
    ];
    for (name, upload) in cases {
        let (printed, _) = bench.print(
            "upload.zip",
            &upload,
            Source::Zip,
            &PrintOptions::default(),
            LIMITS,
        );
        assert!(
            matches!(printed, Err(ConvertError::Unreadable(_))),
            "{name}: {printed:?}"
        );
    }
    assert!(!bench.dir.path().join("evil.html").exists());
    let many: Vec<(String, Vec<u8>)> = (0..2001)
        .map(|n| (format!("f{n}.txt"), Vec::new()))
        .collect();
    let entries: Vec<(&str, &[u8])> = many
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let (printed, _) = bench.print(
        "many.zip",
        &zip(&entries),
        Source::Zip,
        &PrintOptions::default(),
        LIMITS,
    );
    assert!(
        matches!(printed, Err(ConvertError::Unreadable(ref m)) if m.contains("2001")),
        "{printed:?}"
    );
}

/// The browser's own process (its first `chromium` descendant: the supervised pid is that of
/// its wrapper when it runs in a view).
fn browser_process(leader: u32) -> u32 {
    let mut found = vec![leader];
    let mut next = 0;
    while next < found.len() {
        let parent = found[next];
        if std::fs::read_to_string(format!("/proc/{parent}/comm"))
            .is_ok_and(|comm| comm.trim() == "chromium")
        {
            return parent;
        }
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let ppid = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().nth(1))
                .and_then(|ppid| ppid.parse::<u32>().ok());
            if ppid == Some(parent) && !found.contains(&pid) {
                found.push(pid);
            }
        }
        next += 1;
    }
    panic!("no chromium process under {leader}");
}

/// Whether `pid` sees `path` in its view: its root, read through /proc/<pid>/root.
fn sees(pid: u32, path: &std::path::Path) -> bool {
    let inside = path.strip_prefix("/").expect("an absolute path");
    std::path::Path::new(&format!("/proc/{pid}/root"))
        .join(inside)
        .exists()
}

#[test]
fn chromium_sees_only_its_profile_as_nobody_without_network() {
    let mut bench = Bench::new();
    let secret = bench.path("secret.txt");
    std::fs::write(&secret, "chromium-secret-4e7b").expect("write");
    let page = format!(
        r#"<!DOCTYPE html><html><body><p>View case</p>
<iframe src="file://{secret}"></iframe><iframe src="file:///etc/hostname"></iframe>
<p id="out"></p>
<script>
  fetch("file://{secret}").then(r => r.text()).then(t => document.getElementById("out").append(t)).catch(() => {{}});
</script></body></html>"#,
        secret = secret.display()
    );
    let (printed, pdf) = bench.print(
        "view.html",
        page.as_bytes(),
        Source::Html,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.expect("printed");
    let text = pdftotext(&pdf);
    assert!(text.contains("View case"), "{text}");
    assert!(!text.contains("chromium-secret-4e7b"), "{text}");

    let browser = browser_process(bench.chromium.pid().expect("running"));
    assert!(
        sees(browser, &bench.path("profiles")),
        "the browser's profile is not in its view (or the test cannot look)"
    );
    let input = bench.path("view.html");
    for hidden in [
        secret.as_path(),
        input.as_path(),
        pdf.as_path(),
        std::path::Path::new("/etc/passwd"),
        std::path::Path::new("/etc/hostname"),
        std::path::Path::new("/root"),
    ] {
        assert!(!sees(browser, hidden), "chromium sees {}", hidden.display());
    }
    if rustix::process::geteuid().is_root() {
        let status =
            std::fs::read_to_string(format!("/proc/{browser}/status")).expect("its status");
        let uid = status
            .lines()
            .find_map(|line| line.strip_prefix("Uid:"))
            .and_then(|uids| uids.split_whitespace().next())
            .expect("a uid");
        assert_ne!(uid, "0", "chromium runs as root");
    }
    let ours = std::fs::read_link("/proc/self/ns/net").expect("our netns");
    let theirs = std::fs::read_link(format!("/proc/{browser}/ns/net")).expect("its netns");
    assert_ne!(ours, theirs, "chromium shares the worker's network");
}
