//! The processing endpoints with the real engines (PDFium, Tesseract in worker processes):
//! OCR of every image format and of PDFs with and without a text layer, PDF to PNG pages,
//! option bounds, and hostile inputs that must give a 400 while the service keeps serving.

use std::io::Cursor;

use quire_core::quota::Plan;
use quire_e2e::{
    Db, Stack, file_form,
    pdf_fixtures::{A4, photo_jpeg, photo_pdf, scanned_pdf, text_pdf},
    problem,
};
use reqwest::{Client, multipart::Form};
use serde_json::Value;

/// Small pages keep Tesseract quick; the text is big enough to read at 300 dpi.
const CARD: (f32, f32) = (420.0, 160.0);
const FRENCH: &[&str] = &["Facture numéro 4821", "Déjà payée à Noël", "Très élevé"];
const ENGLISH: &[&str] = &["Invoice number 4821", "Shipping address", "Quick brown fox"];

async fn stack() -> (Stack, String) {
    let stack = Stack::start(Db::Sqlite).await;
    // Free, so every answer carries the remaining-calls figure.
    let (_, key) = stack.account_with_key(Plan::Free, "upload").await;
    (stack, key)
}

async fn post(stack: &Stack, key: &str, path: &str, form: Form) -> reqwest::Response {
    Client::new()
        .post(stack.url(path))
        .bearer_auth(key)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

async fn ocr(stack: &Stack, key: &str, name: &str, bytes: Vec<u8>, lang: Option<&str>) -> Value {
    let mut form = file_form(name, bytes);
    if let Some(lang) = lang {
        form = form.text("lang", lang.to_owned());
    }
    let response = post(stack, key, "/api/v1/process/ocr", form).await;
    let status = response.status();
    let body = response.text().await.unwrap();
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let text = body["text"].as_str().unwrap();
    assert_eq!(
        body["chars"],
        text.chars().count(),
        "chars counts characters"
    );
    body
}

/// The ZIP's entries: (name, bytes).
async fn unzip(bytes: Vec<u8>) -> Vec<(String, Vec<u8>)> {
    let reader = async_zip::base::read::mem::ZipFileReader::new(bytes)
        .await
        .unwrap();
    let mut entries = Vec::new();
    for index in 0..reader.file().entries().len() {
        let entry = &reader.file().entries()[index];
        assert_eq!(entry.compression(), async_zip::Compression::Stored);
        let name = entry.filename().as_str().unwrap().to_owned();
        let mut data = Vec::new();
        let mut entry_reader = reader.reader_with_entry(index).await.unwrap();
        entry_reader.read_to_end_checked(&mut data).await.unwrap();
        entries.push((name, data));
    }
    entries
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// Pages rendered by the service itself: the PNG of each page at `dpi`.
async fn render(stack: &Stack, key: &str, pdf: Vec<u8>, dpi: u32) -> Vec<Vec<u8>> {
    let form = file_form("doc.pdf", pdf).text("dpi", dpi.to_string());
    let response = post(stack, key, "/api/v1/process/pdf-to-images", form).await;
    assert_eq!(response.status(), 200);
    let zip = response.bytes().await.unwrap().to_vec();
    unzip(zip).await.into_iter().map(|(_, png)| png).collect()
}

fn words_found(text: &str, words: &[&str]) -> usize {
    words.iter().filter(|w| text.contains(*w)).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_to_images_streams_a_zip_of_numbered_pngs() {
    let (stack, key) = stack().await;
    let pdf = text_pdf(&[FRENCH, ENGLISH, &["page three"]], A4);
    let response = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        file_form("doc.pdf", pdf.clone()),
    )
    .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/zip");
    assert_eq!(response.headers()["x-page-count"], "3");
    assert_eq!(response.headers()["x-dpi"], "150");
    assert_eq!(response.headers()["x-ratelimit-remaining"], "99", "counted");
    let entries = unzip(response.bytes().await.unwrap().to_vec()).await;
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["page-001.png", "page-002.png", "page-003.png"]);
    for (_, png) in &entries {
        assert_eq!(png_size(png), (1240, 1754), "A4 at 150 dpi");
    }

    // dpi after the file part (curl -F file=@doc.pdf -F dpi=72) still applies.
    let form = file_form("doc.pdf", pdf).text("dpi", "72");
    let response = post(&stack, &key, "/api/v1/process/pdf-to-images", form).await;
    assert_eq!(response.headers()["x-dpi"], "72");
    let entries = unzip(response.bytes().await.unwrap().to_vec()).await;
    assert_eq!(png_size(&entries[0].1), (595, 842));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pdf_to_images_refuses_bad_dpi_page_counts_and_non_pdfs() {
    let (stack, key) = stack().await;
    let pdf = text_pdf(&[&["one page"]], A4);
    for dpi in ["71", "301", "abc", "-5", "150.5"] {
        let form = file_form("doc.pdf", pdf.clone()).text("dpi", dpi);
        let response = post(&stack, &key, "/api/v1/process/pdf-to-images", form).await;
        let body = problem(response, 400, "invalid-argument").await;
        assert!(body["detail"].as_str().unwrap().contains("72"), "{body}");
    }
    let many: Vec<&[&str]> = (0..31).map(|_| &["page"][..]).collect();
    let response = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        file_form("big.pdf", text_pdf(&many, A4)),
    )
    .await;
    let body = problem(response, 400, "too-many-pages").await;
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("31") && detail.contains("30"), "{detail}");

    let response = post(
        &stack,
        &key,
        "/api/v1/process/pdf-to-images",
        file_form("a.png", png_of_noise()),
    )
    .await;
    problem(response, 400, "unsupported-file-type").await;

    // A 200 x 200 inch page at 300 dpi is 3.6 billion pixels: refused before rendering.
    let huge = text_pdf(&[&["huge"]], (14_400.0, 14_400.0));
    let form = file_form("huge.pdf", huge).text("dpi", "300");
    let response = post(&stack, &key, "/api/v1/process/pdf-to-images", form).await;
    let body = problem(response, 400, "too-many-pixels").await;
    assert!(
        body["detail"].as_str().unwrap().contains("lower dpi"),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ocr_reads_every_image_format_and_keeps_french_accents() {
    let (stack, key) = stack().await;
    let pages = render(&stack, &key, text_pdf(&[FRENCH], CARD), 300).await;
    let png = pages[0].clone();
    let image = image::load_from_memory(&png).unwrap();
    let encode = |format: image::ImageFormat| {
        let mut out = Cursor::new(Vec::new());
        let converted = match format {
            image::ImageFormat::Jpeg | image::ImageFormat::Bmp => {
                image::DynamicImage::ImageRgb8(image.to_rgb8())
            }
            _ => image.clone(),
        };
        converted.write_to(&mut out, format).unwrap();
        out.into_inner()
    };
    let inputs = [
        ("scan.png", png.clone()),
        ("scan.jpg", encode(image::ImageFormat::Jpeg)),
        ("scan.tiff", encode(image::ImageFormat::Tiff)),
        ("scan.webp", encode(image::ImageFormat::WebP)),
        ("scan.bmp", encode(image::ImageFormat::Bmp)),
    ];
    for (name, bytes) in inputs {
        let body = ocr(&stack, &key, name, bytes, Some("fra")).await;
        assert_eq!(body["pages"], 1, "{name}");
        assert_eq!(body["lang"], "fra");
        let text = body["text"].as_str().unwrap();
        for word in [
            "Facture", "numéro", "Déjà", "payée", "Noël", "Très", "élevé",
        ] {
            assert!(
                text.contains(word),
                "{name}: {word:?} missing from {text:?}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ocr_of_a_multi_page_tiff_counts_its_pages() {
    let (stack, key) = stack().await;
    let pages = render(&stack, &key, text_pdf(&[FRENCH, ENGLISH], CARD), 300).await;
    let mut tiff = Cursor::new(Vec::new());
    {
        let mut encoder = tiff::encoder::TiffEncoder::new(&mut tiff).unwrap();
        for png in &pages {
            let grey = image::load_from_memory(png).unwrap().to_luma8();
            encoder
                .write_image::<tiff::encoder::colortype::Gray8>(
                    grey.width(),
                    grey.height(),
                    grey.as_raw(),
                )
                .unwrap();
        }
    }
    let body = ocr(&stack, &key, "scan.tiff", tiff.into_inner(), None).await;
    assert_eq!(body["pages"], 2);
    assert_eq!(body["lang"], "fra+eng", "the default");
    let text = body["text"].as_str().unwrap();
    let (first, second) = text
        .split_once('\u{c}')
        .expect("pages separated by a form feed");
    assert!(
        first.contains("Facture") && second.contains("Invoice"),
        "{text:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ocr_of_a_pdf_uses_the_text_layer_and_ocrs_scanned_pages() {
    let (stack, key) = stack().await;
    // Born-digital: the text layer comes back exactly.
    let body = ocr(
        &stack,
        &key,
        "doc.pdf",
        text_pdf(&[FRENCH, ENGLISH], A4),
        None,
    )
    .await;
    assert_eq!(body["pages"], 2);
    let text = body["text"].as_str().unwrap();
    assert_eq!(
        text,
        format!("{}\u{c}{}", FRENCH.join("\n"), ENGLISH.join("\n"))
    );

    // Scanned: pages without text are rendered at 300 dpi and read by Tesseract.
    let scans: Vec<(Vec<u8>, u32, u32)> =
        render(&stack, &key, text_pdf(&[ENGLISH, FRENCH], CARD), 300)
            .await
            .iter()
            .map(|png| {
                let grey = image::load_from_memory(png).unwrap().to_luma8();
                let mut jpeg = Cursor::new(Vec::new());
                image::DynamicImage::ImageLuma8(grey.clone())
                    .write_to(&mut jpeg, image::ImageFormat::Jpeg)
                    .unwrap();
                (jpeg.into_inner(), grey.width(), grey.height())
            })
            .collect();
    let body = ocr(
        &stack,
        &key,
        "scan.pdf",
        scanned_pdf(&scans, CARD),
        Some("eng+fra"),
    )
    .await;
    assert_eq!(body["pages"], 2);
    assert_eq!(body["lang"], "eng+fra");
    let text = body["text"].as_str().unwrap();
    let (first, second) = text.split_once('\u{c}').expect("two pages");
    assert!(
        words_found(
            first,
            &["Invoice", "number", "Shipping", "address", "brown", "fox"]
        ) >= 5,
        "{first:?}"
    );
    assert!(
        words_found(second, &["Facture", "numéro", "Déjà", "payée", "Noël"]) >= 4,
        "{second:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ocr_refuses_bad_languages_too_many_pages_and_unknown_types() {
    let (stack, key) = stack().await;
    let pdf = text_pdf(&[&["some text on a page, long enough"]], A4);
    for lang in ["klingon", "fra+xyz", "fra+fra", "../eng"] {
        let form = file_form("doc.pdf", pdf.clone()).text("lang", lang);
        let response = post(&stack, &key, "/api/v1/process/ocr", form).await;
        let body = problem(response, 400, "invalid-argument").await;
        let detail = body["detail"].as_str().unwrap();
        assert!(detail.contains("lang"), "{detail}");
    }
    let form = file_form("doc.pdf", pdf).text("lang", "klingon");
    let body = problem(
        post(&stack, &key, "/api/v1/process/ocr", form).await,
        400,
        "invalid-argument",
    )
    .await;
    assert!(
        body["detail"].as_str().unwrap().contains("eng, fra"),
        "lists the allowed values: {body}"
    );

    let many: Vec<&[&str]> = (0..31)
        .map(|_| &["a page with some words on it"][..])
        .collect();
    let response = post(
        &stack,
        &key,
        "/api/v1/process/ocr",
        file_form("big.pdf", text_pdf(&many, A4)),
    )
    .await;
    let body = problem(response, 400, "too-many-pages").await;
    assert!(body["detail"].as_str().unwrap().contains("31"), "{body}");

    let response = post(
        &stack,
        &key,
        "/api/v1/process/ocr",
        file_form("a.txt", b"just some text".to_vec()),
    )
    .await;
    let body = problem(response, 400, "unsupported-file-type").await;
    assert!(body["detail"].as_str().unwrap().contains("PNG"), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corrupt_truncated_and_bomb_inputs_are_400_and_the_service_keeps_serving() {
    let (stack, key) = stack().await;
    let pdf = text_pdf(&[FRENCH, ENGLISH], A4);
    let truncated_pdf = pdf[..pdf.len() / 3].to_vec();
    let mut garbage_pdf = b"%PDF-1.7\n".to_vec();
    garbage_pdf.extend(quire_e2e::noise(20_000, 7));
    let png = png_of_noise();
    let truncated_png = png[..png.len() / 2].to_vec();
    for (name, bytes) in [
        ("truncated.pdf", truncated_pdf.clone()),
        ("garbage.pdf", garbage_pdf.clone()),
    ] {
        for path in ["/api/v1/process/ocr", "/api/v1/process/pdf-to-images"] {
            let response = post(&stack, &key, path, file_form(name, bytes.clone())).await;
            let status = response.status().as_u16();
            let body = response.text().await.unwrap();
            assert!(
                status == 400 || status == 200,
                "{path} {name}: {status} {body}"
            );
            if status == 400 {
                assert!(body.contains("invalid-file"), "{path} {name}: {body}");
            }
        }
    }
    let response = post(
        &stack,
        &key,
        "/api/v1/process/ocr",
        file_form("cut.png", truncated_png),
    )
    .await;
    problem(response, 400, "invalid-file").await;

    // A PNG whose header claims 60000 x 60000 pixels: refused from the header, nothing decoded.
    let response = post(
        &stack,
        &key,
        "/api/v1/process/ocr",
        file_form("bomb.png", png_bomb(60_000, 60_000)),
    )
    .await;
    let body = problem(response, 400, "too-many-pixels").await;
    assert!(
        body["detail"].as_str().unwrap().contains("60000x60000"),
        "{body}"
    );

    // Still serving, and still right.
    let body = ocr(&stack, &key, "doc.pdf", pdf, None).await;
    assert_eq!(body["pages"], 2);
}

struct Compression {
    original: u64,
    compressed: u64,
    savings: String,
    pdf: Vec<u8>,
}

async fn compress(stack: &Stack, key: &str, pdf: Vec<u8>, quality: Option<&str>) -> Compression {
    let mut form = file_form("doc.pdf", pdf.clone());
    if let Some(quality) = quality {
        form = form.text("quality", quality.to_owned());
    }
    let response = post(stack, key, "/api/v1/process/compress-pdf", form).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    let header = |name: &str| response.headers()[name].to_str().unwrap().to_owned();
    let (original, compressed, savings) = (
        header("x-original-size").parse().unwrap(),
        header("x-compressed-size").parse().unwrap(),
        header("x-savings-percent"),
    );
    let body = response.bytes().await.unwrap().to_vec();
    assert_eq!(original, pdf.len() as u64);
    assert_eq!(compressed, body.len() as u64);
    assert!(compressed <= original, "never larger");
    let (whole, decimals) = savings.split_once('.').expect("a decimal point");
    assert!(
        whole.parse::<u32>().is_ok() && decimals.len() == 2,
        "{savings}"
    );
    if compressed == original {
        assert_eq!(body, pdf, "returned unchanged");
        assert_eq!(savings, "0.00");
    }
    Compression {
        original,
        compressed,
        savings,
        pdf: body,
    }
}

/// `qpdf --check` passes on the file.
fn qpdf_checks(pdf: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("qpdf")
        .arg("--check")
        .arg(&path)
        .output()
        .expect("qpdf is installed by scripts/setup.sh");
    assert!(
        out.status.success(),
        "qpdf --check: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compress_pdf_presets_shrink_photos_in_order_and_keep_pages() {
    let (stack, key) = stack().await;
    let pdf = photo_pdf(&[photo_jpeg(2400, 1700, 1), photo_jpeg(2400, 1700, 2)], A4);
    let mut sizes = Vec::new();
    for quality in ["screen", "ebook", "printer", "prepress"] {
        let result = compress(&stack, &key, pdf.clone(), Some(quality)).await;
        qpdf_checks(&result.pdf);
        // It opens in PDFium with the same pages.
        let pages = render(&stack, &key, result.pdf.clone(), 72).await;
        assert_eq!(pages.len(), 2, "{quality}");
        println!(
            "{quality}: {} -> {} bytes ({}% saved)",
            result.original, result.compressed, result.savings
        );
        sizes.push(result.compressed);
    }
    assert!(
        sizes[0] <= sizes[1] && sizes[1] <= sizes[2],
        "screen <= ebook <= printer: {sizes:?}"
    );
    assert!(
        sizes[0] * 4 < pdf.len() as u64,
        "screen shrinks photos a lot: {sizes:?}"
    );
    // The default is ebook.
    assert_eq!(compress(&stack, &key, pdf, None).await.compressed, sizes[1]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compress_pdf_keeps_a_damaged_jpeg_as_it_is_and_shrinks_the_rest() {
    let (stack, key) = stack().await;
    let (whole, width, height) = photo_jpeg(1600, 1100, 3);
    // Cut in the middle of its scan: a viewer draws the top half, a re-encode would bake grey
    // blocks into the bottom half.
    let cut = whole[..whole.len() / 2].to_vec();
    let pdf = photo_pdf(
        &[(cut.clone(), width, height), photo_jpeg(1600, 1100, 4)],
        A4,
    );
    // No qpdf --check here: it decodes every stream and warns on this JPEG, in the input too.
    let result = compress(&stack, &key, pdf.clone(), Some("screen")).await;
    assert!(
        result.compressed < pdf.len() as u64 - cut.len() as u64,
        "the whole photo was re-encoded"
    );
    let marker = &cut[cut.len() - 4096..];
    assert!(
        result.pdf.windows(marker.len()).any(|w| w == marker),
        "the damaged JPEG keeps its bytes"
    );
    assert_eq!(render(&stack, &key, result.pdf, 72).await.len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compress_pdf_stores_a_repeated_photo_once() {
    let (stack, key) = stack().await;
    let photo = photo_jpeg(1600, 1100, 5);
    let pdf = photo_pdf(&[photo.clone(), photo_jpeg(1600, 1100, 6), photo], A4);
    let result = compress(&stack, &key, pdf, Some("ebook")).await;
    qpdf_checks(&result.pdf);
    let images = result
        .pdf
        .windows(b"/DCTDecode".len())
        .filter(|w| w == b"/DCTDecode")
        .count();
    assert_eq!(images, 2, "three pages, two distinct photos");
    assert_eq!(render(&stack, &key, result.pdf, 72).await.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compress_pdf_keeps_the_text_and_never_grows_a_file() {
    let (stack, key) = stack().await;
    let pdf = text_pdf(&[FRENCH, ENGLISH, FRENCH], A4);
    let result = compress(&stack, &key, pdf.clone(), Some("screen")).await;
    qpdf_checks(&result.pdf);
    let before = ocr(&stack, &key, "a.pdf", pdf, None).await;
    let after = ocr(&stack, &key, "b.pdf", result.pdf.clone(), None).await;
    assert_eq!(before["text"], after["text"]);
    assert_eq!(after["pages"], 3);
    // Compressing the result again finds nothing more to save: the same bytes come back.
    let again = compress(&stack, &key, result.pdf.clone(), Some("screen")).await;
    assert!(again.compressed <= result.compressed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encrypted_corrupt_and_non_pdf_inputs_are_refused_by_every_pdf_endpoint() {
    let (stack, key) = stack().await;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.pdf");
    let locked = dir.path().join("locked.pdf");
    std::fs::write(&plain, text_pdf(&[ENGLISH], A4)).unwrap();
    let status = std::process::Command::new("qpdf")
        .args(["--encrypt", "user-secret", "owner-secret", "256", "--"])
        .arg(&plain)
        .arg(&locked)
        .status()
        .unwrap();
    assert!(status.success());
    let locked = std::fs::read(&locked).unwrap();
    for path in [
        "/api/v1/process/compress-pdf",
        "/api/v1/process/ocr",
        "/api/v1/process/pdf-to-images",
    ] {
        let response = post(&stack, &key, path, file_form("locked.pdf", locked.clone())).await;
        let body = problem(response, 400, "encrypted-pdf").await;
        assert!(
            body["detail"].as_str().unwrap().contains("password"),
            "{body}"
        );
    }
    let truncated = text_pdf(&[ENGLISH, FRENCH], A4)[..300].to_vec();
    let response = post(
        &stack,
        &key,
        "/api/v1/process/compress-pdf",
        file_form("cut.pdf", truncated),
    )
    .await;
    problem(response, 400, "invalid-file").await;
    let response = post(
        &stack,
        &key,
        "/api/v1/process/compress-pdf",
        file_form("a.png", png_of_noise()),
    )
    .await;
    let body = problem(response, 400, "unsupported-file-type").await;
    assert!(body["detail"].as_str().unwrap().contains("PDF"), "{body}");
}

/// A real, valid PNG of noise (the image crate writes it).
fn png_of_noise() -> Vec<u8> {
    let pixels = quire_e2e::noise(64 * 64, 3);
    let image = image::GrayImage::from_raw(64, 64, pixels).unwrap();
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A PNG header announcing `width` x `height` grey pixels, followed by a tiny IDAT.
fn png_bomb(width: u32, height: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut crc_input = kind.to_vec();
        crc_input.extend_from_slice(data);
        out.extend_from_slice(&crc_input);
        out.extend_from_slice(&crc32(&crc_input).to_be_bytes());
    }
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(
        &mut out,
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[path = "process/pdf_limits.rs"]
mod pdf_limits;

mod grpc {
    use super::*;
    use quire_e2e::authed;
    use quire_e2e::v1::{
        self, OcrOptions, OcrRequest, PdfToImagesOptions, PdfToImagesRequest, ocr_request,
        pdf_to_images_request, pdf_to_images_response,
        process_service_client::ProcessServiceClient,
    };
    use tonic::Code;
    use tonic_types::StatusExt;

    fn ocr_messages(
        bytes: &[u8],
        first_lang: &str,
        trailing_lang: Option<&str>,
    ) -> Vec<OcrRequest> {
        let options = |lang: &str| OcrRequest {
            payload: Some(ocr_request::Payload::Options(OcrOptions {
                filename: "doc.pdf".into(),
                lang: lang.into(),
            })),
        };
        let mut messages = vec![options(first_lang)];
        messages.extend(bytes.chunks(256 * 1024).map(|c| OcrRequest {
            payload: Some(ocr_request::Payload::Chunk(bytes::Bytes::copy_from_slice(
                c,
            ))),
        }));
        messages.extend(trailing_lang.map(options));
        messages
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ocr_and_pdf_to_images_over_grpc_with_reasons_on_errors() {
        let (stack, key) = stack().await;
        let mut client = ProcessServiceClient::connect(stack.grpc.clone())
            .await
            .unwrap();
        let pdf = text_pdf(&[ENGLISH], A4);

        // Options after the chunks replace the first ones.
        let messages = ocr_messages(&pdf, "fra", Some("eng"));
        let response = client
            .ocr(authed(futures::stream::iter(messages), &key))
            .await
            .unwrap();
        assert!(response.metadata().contains_key("x-ratelimit-remaining"));
        let v1::OcrResponse {
            text,
            pages,
            chars,
            lang,
        } = response.into_inner();
        assert_eq!((pages, lang.as_str()), (1, "eng"));
        assert_eq!(text, ENGLISH.join("\n"));
        assert_eq!(chars, text.chars().count() as u64);

        let status = client
            .ocr(authed(
                futures::stream::iter(ocr_messages(&pdf, "xx", None)),
                &key,
            ))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "invalid-argument"
        );

        let many: Vec<&[&str]> = (0..31).map(|_| &["words on a page"][..]).collect();
        let status = client
            .ocr(authed(
                futures::stream::iter(ocr_messages(&text_pdf(&many, A4), "", None)),
                &key,
            ))
            .await
            .unwrap_err();
        assert_eq!(
            status.get_details_error_info().unwrap().reason,
            "too-many-pages"
        );

        let mut messages = vec![PdfToImagesRequest {
            payload: Some(pdf_to_images_request::Payload::Options(
                PdfToImagesOptions {
                    filename: "doc.pdf".into(),
                    dpi: 100,
                },
            )),
        }];
        messages.push(PdfToImagesRequest {
            payload: Some(pdf_to_images_request::Payload::Chunk(pdf.into())),
        });
        let response = client
            .pdf_to_images(authed(futures::stream::iter(messages), &key))
            .await
            .unwrap();
        assert_eq!(response.metadata().get("x-page-count").unwrap(), "1");
        assert_eq!(response.metadata().get("x-dpi").unwrap(), "100");
        let mut stream = response.into_inner();
        let mut zip = Vec::new();
        let mut summary = None;
        while let Some(message) = stream.message().await.unwrap() {
            match message.payload {
                Some(pdf_to_images_response::Payload::Summary(s)) => summary = Some(s),
                Some(pdf_to_images_response::Payload::Chunk(c)) => zip.extend_from_slice(&c),
                None => {}
            }
        }
        let summary = summary.expect("summary first");
        assert_eq!((summary.page_count, summary.dpi), (1, 100));
        let entries = unzip(zip).await;
        assert_eq!(entries[0].0, "page-001.png");
        assert_eq!(png_size(&entries[0].1), (827, 1169));
    }
}
