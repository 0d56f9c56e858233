//! The PDF limits on every PDF endpoint: bombs and floods are refused before an engine opens
//! them.

use super::*;

/// Issue 35: a 1.5 KB PDF whose content stream inflates past the decoded-size limit, and a
/// PDF of too many objects, are refused by every PDF endpoint before PDFium or lopdf opens
/// them, with the same 422 saying which limit and what to do, and quickly (the bomb was
/// rendered, 200, with a worker's memory up to 1.2 GiB). A large real PDF still passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_bombs_and_object_floods_are_refused_by_every_pdf_endpoint() {
    use quire_e2e::compress_fixtures::{BombIn, bomb_pdf, encrypted_bomb_pdf, object_flood_pdf};
    let stack = Stack::start(Db::Sqlite).await;
    let (_, key) = stack.account_with_key(Plan::Pro, "upload").await;
    let (content_bomb, decoded) = bomb_pdf(1, BombIn::Content);
    assert!(decoded > 1000 << 20 && content_bomb.len() < 64 << 10);
    let (image_bomb, _) = bomb_pdf(1, BombIn::Image);
    let flood = object_flood_pdf(1_000_001);
    let cases = [
        ("content bomb", &content_bomb, "256 MiB"),
        ("image bomb", &image_bomb, "256 MiB"),
        ("object flood", &flood, "1000000"),
    ];
    for (what, pdf, figure) in cases {
        for path in [
            "/api/v1/process/pdf-to-images",
            "/api/v1/process/ocr",
            "/api/v1/process/compress-pdf",
        ] {
            let started = std::time::Instant::now();
            let response = post(&stack, &key, path, file_form("hostile.pdf", pdf.clone())).await;
            let body = problem(response, 422, "unprocessable-file").await;
            let detail = body["detail"].as_str().unwrap();
            assert!(
                detail.contains("the PDF is refused"),
                "{what} {path}: {body}"
            );
            assert!(detail.contains(figure), "{what} {path}: {body}");
            assert!(detail.contains("limit"), "{what} {path}: {body}");
            let took = started.elapsed();
            assert!(
                took < std::time::Duration::from_secs(20),
                "{what} {path}: {took:?}"
            );
        }
    }

    // Sealed with AES under the empty user password, which PDFium opens without asking: the
    // guard decrypts the streams and finds the bomb all the same.
    let sealed = encrypted_bomb_pdf(1);
    let response = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        file_form("sealed.pdf", sealed),
    )
    .await;
    let body = problem(response, 422, "unprocessable-file").await;
    assert!(
        body["detail"].as_str().unwrap().contains("256 MiB"),
        "{body}"
    );

    // Large real files pass the guard: one rendered, one compressed.
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/compress-corpus");
    let render = std::fs::read(corpus.join("pdf-parse__test__data__02-valid.pdf")).unwrap();
    let response = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        file_form("real.pdf", render).text("dpi", "72"),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    let entries = unzip(response.bytes().await.unwrap().to_vec()).await;
    assert_eq!(entries.len(), 5);
    let big = std::fs::read(corpus.join("ghostscript-doc__GS9_Color_Management.pdf")).unwrap();
    let response = post(
        &stack,
        &key,
        "/api/v1/process/compress-pdf",
        file_form("big.pdf", big),
    )
    .await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
}
