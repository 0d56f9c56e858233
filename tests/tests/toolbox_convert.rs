//! Office to PDF and HTML to PDF over real gRPC, through the worker's warm LibreOffice and
//! Chromium: the text the input holds is in the PDF (read by PDFium), the image of a site is
//! drawn, and nothing outside the uploaded files is fetched.

use std::{
    net::TcpListener,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use quire_e2e::{
    Db, Stack,
    documents::{docx, zip},
    pdf_check::facts,
    toolbox::{Toolbox, reason, texts},
    v1,
};
use v1::tool_options::Tool;

/// A TCP listener that counts the connections made to it: where a document's links to
/// another host point.
fn trap() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            counter.fetch_add(1, Ordering::SeqCst);
            drop(stream);
        }
    });
    (port, hits)
}

fn png(width: u32, height: u32, rgb: [u8; 3]) -> Vec<u8> {
    let image = image::RgbImage::from_pixel(width, height, image::Rgb(rgb));
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn note<'a>(summary: &'a v1::ToolSummary, key: &str) -> Option<&'a str> {
    summary
        .notes
        .iter()
        .find(|n| n.key == key)
        .map(|n| n.value.as_str())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn office_documents_become_pdfs() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "office@example.com").await;
    let document = docx(&["Quarterly zeppelin report", "Second paragraph"]).await;
    let (summary, pdf) = toolbox
        .run(
            Tool::OfficeToPdf(v1::OfficeToPdfOptions {}),
            &[("report.docx", document.clone())],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "report.pdf");
    assert_eq!(summary.media_type, "application/pdf");
    assert_eq!(summary.page_count, 1);
    assert_eq!(note(&summary, "document"), Some("text"));
    let text = texts(&facts(pdf).await.unwrap()).join(" ");
    assert!(text.contains("Quarterly zeppelin report"), "{text}");
    assert!(text.contains("Second paragraph"), "{text}");

    // The second document goes to the same, warm engine, and works as well.
    let (_, again) = toolbox
        .run(
            Tool::OfficeToPdf(v1::OfficeToPdfOptions {}),
            &[("again.docx", docx(&["Another zeppelin"]).await)],
        )
        .await
        .unwrap();
    assert!(texts(&facts(again).await.unwrap())[0].contains("Another zeppelin"));

    // A ZIP that is no office document, and a PDF, are refused with what was expected.
    let junk = zip(&[("notes.txt", b"just text")]).await;
    let unreadable = toolbox
        .run(
            Tool::OfficeToPdf(v1::OfficeToPdfOptions {}),
            &[("notes.docx", junk)],
        )
        .await
        .unwrap_err();
    assert_eq!(
        unreadable.code(),
        tonic::Code::InvalidArgument,
        "{unreadable:?}"
    );
    assert_eq!(reason(&unreadable), "invalid-file");
    let pdf = toolbox
        .run(
            Tool::OfficeToPdf(v1::OfficeToPdfOptions {}),
            &[("a.pdf", quire_e2e::toolbox::labelled("A", 1))],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&pdf), "unsupported-file-type");
    assert!(
        pdf.message().contains("office document"),
        "{}",
        pdf.message()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn html_sites_print_with_nothing_fetched_from_elsewhere() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "html@example.com").await;
    let (port, hits) = trap();
    let index = format!(
        r#"<!doctype html><html><head><link rel="stylesheet" href="style.css">
<link rel="stylesheet" href="http://127.0.0.1:{port}/remote.css"></head>
<body><h1>Harbour inventory</h1><p class="lead">Twelve cranes</p>
<img src="images/crane.png" alt="crane" width="200">
<img src="http://127.0.0.1:{port}/tracker.png">
<iframe src="http://localhost:{port}/frame"></iframe>
<script>fetch("http://127.0.0.1:{port}/api").catch(() => {{}});</script>
</body></html>"#
    );
    let site = zip(&[
        ("index.html", index.as_bytes()),
        (
            "style.css",
            b".lead::after { content: ' and a lighthouse'; }",
        ),
        ("images/crane.png", &png(64, 32, [200, 30, 30])),
    ])
    .await;
    let (summary, pdf) = toolbox
        .run(
            Tool::HtmlToPdf(v1::HtmlToPdfOptions {
                paper: v1::Paper::Letter as i32,
                background: true,
                ..Default::default()
            }),
            &[("harbour.zip", site)],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "harbour.pdf");
    let site = facts(pdf).await.unwrap();
    let text = texts(&site).join(" ");
    assert!(text.contains("Harbour inventory"), "{text}");
    assert!(
        text.contains("Twelve cranes and a lighthouse"),
        "the CSS applied: {text}"
    );
    // Letter is 612 x 792 points.
    let (width, height) = site.pages[0].size;
    assert!(
        (width - 612.0).abs() < 1.0 && (height - 792.0).abs() < 1.0,
        "{width} x {height}"
    );
    // The site's image, a red rectangle, is drawn.
    let render = site.pages[0].render.as_ref().unwrap();
    let red = render
        .rgb
        .chunks(3)
        .filter(|p| p[0] > 150 && p[1] < 80 && p[2] < 80)
        .count();
    assert!(red > 500, "the image is drawn: {red} red pixels");
    // Give a late request the time to arrive before counting.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "nothing fetched from elsewhere"
    );
    let refused = note(&summary, "not-fetched").unwrap_or_default();
    assert!(refused.contains(&format!("127.0.0.1:{port}")), "{refused}");

    // Markdown, on A4 in landscape.
    let markdown = b"# Tide table\n\n| port | high |\n|---|---|\n| Brest | 06:12 |\n".to_vec();
    let (_, pdf) = toolbox
        .run(
            Tool::HtmlToPdf(v1::HtmlToPdfOptions {
                landscape: true,
                ..Default::default()
            }),
            &[("tides.md", markdown)],
        )
        .await
        .unwrap();
    let tides = facts(pdf).await.unwrap();
    let text = texts(&tides).join(" ");
    assert!(
        text.contains("Tide table") && text.contains("Brest"),
        "{text}"
    );
    let (width, height) = tides.pages[0].size;
    assert!(width > height, "landscape: {width} x {height}");

    // Out-of-range options are refused before any engine is asked.
    let wide = toolbox
        .run(
            Tool::HtmlToPdf(v1::HtmlToPdfOptions {
                margin_mm: Some(80.0),
                ..Default::default()
            }),
            &[("a.html", b"<p>x</p>".to_vec())],
        )
        .await
        .unwrap_err();
    assert_eq!(wide.code(), tonic::Code::InvalidArgument);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn html_pages_that_navigate_answer_at_once() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "navigate@example.com").await;
    // Far under the job's time limit, which a page that navigated used to hold.
    let at_once = Duration::from_secs(10);
    let pages: [(&str, &[u8]); 3] = [
        (
            "refresh.html",
            b"<meta http-equiv=\"refresh\" content=\"0;url=https://example.com/\"><p>Staying here</p>",
        ),
        (
            "script.html",
            b"<p>Staying here</p><script>location.href = 'https://example.com/'</script>",
        ),
        (
            "form.html",
            b"<form method=post action=\"https://example.com/\"></form><p>Staying here</p><script>document.forms[0].submit()</script>",
        ),
    ];
    for (name, page) in pages {
        let started = std::time::Instant::now();
        let (summary, pdf) = toolbox
            .run(
                Tool::HtmlToPdf(v1::HtmlToPdfOptions::default()),
                &[(name, page.to_vec())],
            )
            .await
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let took = started.elapsed();
        assert!(took < at_once, "{name}: {took:?}");
        let text = texts(&facts(pdf).await.unwrap()).join(" ");
        assert!(text.contains("Staying here"), "{name}: {text}");
        let refused = note(&summary, "not-fetched").unwrap_or_default();
        assert!(
            refused.contains("https://example.com/"),
            "{name}: {refused}"
        );
    }

    // A page that replaces itself anyway is refused, as the page's fault.
    let started = std::time::Instant::now();
    let left = toolbox
        .run(
            Tool::HtmlToPdf(v1::HtmlToPdfOptions::default()),
            &[(
                "blank.html",
                b"<p>Leaving</p><script>location.href = 'about:blank'</script>".to_vec(),
            )],
        )
        .await
        .unwrap_err();
    assert!(started.elapsed() < at_once, "{:?}", started.elapsed());
    assert_eq!(reason(&left), "unprocessable-file", "{left:?}");
    assert_eq!(left.code(), tonic::Code::FailedPrecondition);
    assert!(
        left.message().contains("replaced itself"),
        "{}",
        left.message()
    );

    // The worker's browser prints the next page.
    let (_, pdf) = toolbox
        .run(
            Tool::HtmlToPdf(v1::HtmlToPdfOptions::default()),
            &[("next.html", b"<p>Next page</p>".to_vec())],
        )
        .await
        .unwrap();
    let text = texts(&facts(pdf).await.unwrap()).join(" ");
    assert!(text.contains("Next page"), "{text}");
}
