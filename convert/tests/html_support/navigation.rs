//! Pages that navigate away from themselves, with a real Chromium: each answers at once (not
//! after the job's time limit), with its own document printed or a refusal, and the browser
//! prints the next job.

use std::time::{Duration, Instant};

use crate::html_support::{Bench, LIMITS, pdftotext, zip};
use quire_convert::chromium::{PrintOptions, Source};
use quire_convert::{ConvertError, Limits};

/// The page every navigation below aims at: never printed.
const OTHER: &str = "<p>Other document</p>";

/// A site whose index.html is `page`, with other.html beside it and a frame that navigates the
/// top frame.
fn site(page: &str) -> Vec<u8> {
    zip(&[
        ("index.html", page.as_bytes()),
        ("other.html", OTHER.as_bytes()),
        (
            "frame.html",
            b"<p>frame</p><script>top.location.href = 'other.html'</script>",
        ),
    ])
}

/// Shorter than the job limit the probe met (108 s), so that a wait for a navigation shows.
const NAVIGATION_LIMITS: Limits = Limits {
    time: Duration::from_secs(30),
    memory: LIMITS.memory,
};

/// Well under the job's time limit: a page that leaves answers at once (in 0.5-1.6 s on an
/// idle machine, up to 5 s on a loaded one).
const ANSWERED_WITHIN: Duration = Duration::from_secs(10);

/// Prints a normal page right after, in the same browser.
fn next_job_prints(bench: &mut Bench, pid: Option<u32>, case: &str) {
    let (printed, pdf) = bench.print(
        "next.html",
        b"<p>The next job</p>",
        Source::Html,
        &PrintOptions::default(),
        LIMITS,
    );
    printed.unwrap_or_else(|e| panic!("{case}: the next job: {e:?}"));
    assert!(pdftotext(&pdf).contains("The next job"), "{case}");
    assert_eq!(bench.chromium.pid(), pid, "{case}: the same browser");
}

#[test]
fn pages_that_navigate_print_their_own_document_at_once() {
    const FIRST: &str = "<p>First document</p>";
    // (case, index.html, whether the refused navigation is sure to be listed: one that
    // starts late may come after the print)
    let cases: Vec<(&str, String, bool)> = vec![
        (
            "meta refresh elsewhere",
            format!(r#"<meta http-equiv="refresh" content="0;url=other.html">{FIRST}"#),
            true,
        ),
        (
            "meta refresh to itself",
            format!(r#"<meta http-equiv="refresh" content="0">{FIRST}"#),
            true,
        ),
        (
            "meta refresh outside",
            format!(r#"<meta http-equiv="refresh" content="0;url=https://example.com/">{FIRST}"#),
            true,
        ),
        (
            "location.href at once",
            format!("{FIRST}<script>location.href = 'other.html'</script>"),
            true,
        ),
        (
            "location.href after the load",
            format!(
                "{FIRST}<script>onload = () => setTimeout(() => location.href = 'other.html', 0)</script>"
            ),
            false,
        ),
        (
            "location.href after 500 ms",
            format!("{FIRST}<script>setTimeout(() => location.href = 'other.html', 500)</script>"),
            false,
        ),
        (
            "while printing",
            format!(
                "{FIRST}<script>addEventListener('beforeprint', () => location.href = 'other.html')</script>"
            ),
            false,
        ),
        (
            "form get",
            format!(
                "<form action=other.html><input name=a value=1></form>{FIRST}<script>document.forms[0].submit()</script>"
            ),
            true,
        ),
        (
            "form post",
            format!(
                "<form method=post action=other.html><input name=a value=1></form>{FIRST}<script>document.forms[0].submit()</script>"
            ),
            true,
        ),
        (
            "location.reload()",
            format!("{FIRST}<script>location.reload()</script>"),
            true,
        ),
        (
            "window.open",
            format!(
                "{FIRST}<script>window.open('other.html'); window.open('other.html', '_self')</script>"
            ),
            true,
        ),
        (
            "a frame navigates the top",
            format!("{FIRST}<iframe src=frame.html></iframe>"),
            true,
        ),
        (
            "window.close()",
            format!("{FIRST}<script>window.close()</script>"),
            false,
        ),
        (
            "history.pushState",
            format!("{FIRST}<script>history.pushState({{}}, '', 'elsewhere.html')</script>"),
            false,
        ),
    ];
    let mut bench = Bench::new();
    bench.chromium.start().expect("start");
    let pid = bench.chromium.pid();
    for (case, page, listed) in cases {
        let started = Instant::now();
        let (printed, pdf) = bench.print(
            "site.zip",
            &site(&page),
            Source::Zip,
            &PrintOptions::default(),
            NAVIGATION_LIMITS,
        );
        let took = started.elapsed();
        eprintln!("{case}: {took:?}");
        let printed = printed.unwrap_or_else(|e| panic!("{case}: {e:?} after {took:?}"));
        assert!(took < ANSWERED_WITHIN, "{case}: {took:?}");
        let text = pdftotext(&pdf);
        assert!(
            text.contains("First document") && !text.contains("Other document"),
            "{case}: {text}"
        );
        if listed {
            assert!(
                printed.blocked.iter().any(|url| url.contains("other.html")
                    || url.contains("index.html")
                    || url.contains("example.com")),
                "{case}: the navigation is listed: {:?}",
                printed.blocked
            );
        }
        next_job_prints(&mut bench, pid, case);
    }
}

#[test]
fn pages_that_replace_their_document_are_refused_at_once() {
    // (case, script, whether the page is sure to be replaced before its print is done)
    let cases = [
        (
            "about:blank",
            "<script>location.href = 'about:blank'</script>",
            true,
        ),
        (
            "about:blank after the load",
            "<script>onload = () => setTimeout(() => location.href = 'about:blank', 0)</script>",
            false,
        ),
        (
            "a blob: URL",
            "<script>location.href = URL.createObjectURL(new Blob(['<p>Other document</p>'], { type: 'text/html' }))</script>",
            true,
        ),
        ("history.back()", "<script>history.back()</script>", true),
    ];
    let mut bench = Bench::new();
    bench.chromium.start().expect("start");
    let pid = bench.chromium.pid();
    for (case, script, sure) in cases {
        let page = format!("<p>First document</p>{script}");
        let started = Instant::now();
        let (printed, pdf) = bench.print(
            "site.zip",
            &site(&page),
            Source::Zip,
            &PrintOptions::default(),
            NAVIGATION_LIMITS,
        );
        let took = started.elapsed();
        eprintln!("{case}: {took:?}");
        match printed {
            Err(ConvertError::Refused(message)) => {
                assert!(message.contains("replaced itself"), "{case}: {message}")
            }
            // Printed before the page left: its own document.
            Ok(_) if !sure => {
                let text = pdftotext(&pdf);
                assert!(text.contains("First document"), "{case}: {text}");
            }
            other => panic!("{case}: expected a refusal, got {other:?} after {took:?}"),
        }
        assert!(took < ANSWERED_WITHIN, "{case}: {took:?}");
        next_job_prints(&mut bench, pid, case);
    }
}
