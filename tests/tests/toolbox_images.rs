//! The web toolbox's image tools over real gRPC with a real worker: images to PDF keeps a JPEG
//! byte for byte and makes a page per TIFF frame; extract images gives the JPEG back as stored,
//! once, however many pages draw it.

use quire_e2e::{
    Db, Stack,
    pdf_check::facts,
    pdf_fixtures::{A4, photo_jpeg, photo_pdf},
    toolbox::{Toolbox, reason, zip_entries},
    v1,
};
use v1::tool_options::Tool;

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_become_pages_and_come_back_out_as_stored() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "images@example.com").await;
    let (jpeg, width, height) = photo_jpeg(800, 600, 3);

    let (summary, pdf) = toolbox
        .run(
            Tool::ImagesToPdf(v1::ImagesToPdfOptions {
                margin: 20.0,
                ..Default::default()
            }),
            &[("holiday.jpeg", jpeg.clone()), ("chart.png", png(300, 200))],
        )
        .await
        .unwrap();
    assert_eq!(summary.filename, "holiday.pdf");
    assert_eq!(summary.page_count, 2);
    assert!(
        contains(&pdf, &jpeg),
        "the JPEG is embedded as it is, not re-encoded"
    );
    let read = facts(pdf).await.unwrap();
    assert_eq!(read.pages.len(), 2);
    // A4, landscape for the wider-than-tall photo (automatic orientation).
    let (w, h) = read.pages[0].size;
    assert!((w - A4.1).abs() < 1.0 && (h - A4.0).abs() < 1.0, "{w}x{h}");

    // The same JPEG on two pages comes out once, byte for byte.
    let two_pages = photo_pdf(
        &[(jpeg.clone(), width, height), (jpeg.clone(), width, height)],
        A4,
    );
    let (summary, zip) = toolbox
        .run(
            Tool::ExtractImages(v1::ExtractImagesOptions::default()),
            &[("photos.pdf", two_pages)],
        )
        .await
        .unwrap();
    assert_eq!(summary.media_type, "application/zip");
    let entries = zip_entries(&zip);
    let jpegs: Vec<_> = entries
        .iter()
        .filter(|(name, _)| name.ends_with(".jpg"))
        .collect();
    assert!(
        !jpegs.is_empty(),
        "{:?}",
        entries.iter().map(|e| &e.0).collect::<Vec<_>>()
    );
    assert!(jpegs.iter().all(|(_, bytes)| *bytes == jpeg));

    // A PDF among images, and a PDF without images, are refused with what to do.
    let refused = toolbox
        .run(
            Tool::ImagesToPdf(v1::ImagesToPdfOptions::default()),
            &[
                ("a.png", png(10, 10)),
                ("b.pdf", quire_e2e::toolbox::labelled("B", 1)),
            ],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "unsupported-file-type");
    let refused = toolbox
        .run(
            Tool::ExtractImages(v1::ExtractImagesOptions::default()),
            &[("text.pdf", quire_e2e::toolbox::labelled("Text", 1))],
        )
        .await
        .unwrap_err();
    assert_eq!(reason(&refused), "invalid-argument");
    assert!(
        refused.message().contains("no image"),
        "{}",
        refused.message()
    );
}
