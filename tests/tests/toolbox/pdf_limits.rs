//! The PDF limits in the web toolbox: bombs and floods refused before an engine opens them.

use super::*;

/// Issue 35: the web toolbox, over HTTP with a session, refuses a decompression bomb and a
/// flood of objects before PDFium (pdf-to-jpg) or lopdf (merge, rotate) opens them, with the
/// same 422 the processing endpoints give; a bomb among clean files is found too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_bombs_are_refused_before_any_toolbox_engine_opens_them() {
    use quire_e2e::compress_fixtures::{BombIn, bomb_pdf, object_flood_pdf};
    let stack = Stack::start(Db::Sqlite).await;
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let cookie = stack.web_session(&http, "bombs@example.com").await;
    let html = http
        .get(stack.url("/tools/merge"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let csrf = csrf_token(&html).expect("the page carries the anti-CSRF token");
    let run = |slug: &str, fields: &[(&str, &str)], files: Vec<(&str, Vec<u8>)>| {
        let mut form = reqwest::multipart::Form::new();
        for (name, value) in fields {
            form = form.text(name.to_string(), value.to_string());
        }
        for (name, bytes) in files {
            form = form.part(
                "file",
                reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned()),
            );
        }
        http.post(stack.url(&format!("/tools/{slug}/run")))
            .header("cookie", &cookie)
            .header("origin", stack.base.clone())
            .header("x-csrf-token", &csrf)
            .multipart(form)
            .send()
    };
    let (bomb, _) = bomb_pdf(1, BombIn::Content);
    let (image_bomb, _) = bomb_pdf(1, BombIn::Image);
    let flood = object_flood_pdf(1_000_001);
    for (what, pdf, figure) in [
        ("content bomb", &bomb, "256 MiB"),
        ("image bomb", &image_bomb, "256 MiB"),
        ("object flood", &flood, "1000000"),
    ] {
        for (slug, fields, files) in [
            ("pdf-to-jpg", &[][..], vec![("hostile.pdf", pdf.clone())]),
            (
                "rotate",
                &[("degrees", "90")][..],
                vec![("hostile.pdf", pdf.clone())],
            ),
            (
                "merge",
                &[][..],
                vec![
                    ("clean.pdf", labelled("Clean", 1)),
                    ("hostile.pdf", pdf.clone()),
                ],
            ),
        ] {
            let started = std::time::Instant::now();
            let response = run(slug, fields, files).await.unwrap();
            let body = problem(response, 422, "unprocessable-file").await;
            let detail = body["detail"].as_str().unwrap();
            assert!(
                detail.contains("the PDF is refused"),
                "{what} {slug}: {body}"
            );
            assert!(detail.contains(figure), "{what} {slug}: {body}");
            let took = started.elapsed();
            assert!(
                took < std::time::Duration::from_secs(20),
                "{what} {slug}: {took:?}"
            );
        }
    }
    // A clean file still goes through the same tools.
    let response = run("pdf-to-jpg", &[], vec![("clean.pdf", labelled("Clean", 2))])
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
}
