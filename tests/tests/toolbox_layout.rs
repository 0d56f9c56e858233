//! The web toolbox's layout and repair tools over real gRPC with a real worker and PDFium:
//! crop, fit and pages per sheet change the page sizes they say; flatten keeps a field's value
//! as page text; repair gives back a whole PDF from a cut one.

use quire_e2e::{
    Db, Stack,
    pdf_check::facts,
    pdf_fixtures::A4,
    toolbox::{Toolbox, labelled, texts},
    v1,
};
use v1::{crop_options::Mode, tool_options::Tool};

fn pdftotext(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext is installed by scripts/setup.sh --tests");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn crop(mode: Mode) -> Tool {
    Tool::Crop(v1::CropOptions { mode: Some(mode) })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn layout_and_repair_tools_do_what_they_say() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut toolbox = Toolbox::open(&stack, "layout@example.com").await;

    // Margins: 50 pt off left and right of page 2 only.
    let (_, cropped) = toolbox
        .run(
            crop(Mode::Margins(v1::CropMargins {
                left: 50.0,
                right: 50.0,
                pages: "2".into(),
                ..Default::default()
            })),
            &[("memo.pdf", labelled("Memo", 3))],
        )
        .await
        .unwrap();
    let read = facts(cropped).await.unwrap();
    assert!((read.pages[0].size.0 - A4.0).abs() < 0.5);
    assert!(
        (read.pages[1].size.0 - (A4.0 - 100.0)).abs() < 0.5,
        "{:?}",
        read.pages[1].size
    );

    // Trimmed to the content: far smaller than A4, the text still there.
    let (_, trimmed) = toolbox
        .run(
            crop(Mode::Auto(v1::CropAuto::default())),
            &[("memo.pdf", labelled("Memo", 1))],
        )
        .await
        .unwrap();
    let read = facts(trimmed.clone()).await.unwrap();
    let (w, h) = read.pages[0].size;
    assert!(w < A4.0 / 2.0 && h < A4.1 / 4.0, "{w}x{h}");
    // pdfium-render reads a page's text inside a box at the origin, which a trimmed page's crop
    // box no longer is: poppler reads what a viewer shows.
    assert_eq!(pdftotext(&trimmed).trim(), "Memo page 1");

    // Four pages per sheet: 5 pages make 2 sheets, reading order kept.
    let (summary, sheets) = toolbox
        .run(
            crop(Mode::NUp(v1::NUp {
                per_sheet: 4,
                paper: v1::Paper::A4 as i32,
            })),
            &[("deck.pdf", labelled("Deck", 5))],
        )
        .await
        .unwrap();
    assert_eq!(summary.page_count, 2);
    let read = facts(sheets).await.unwrap();
    let first = &texts(&read)[0];
    let positions: Vec<usize> = (1..=4)
        .map(|n| {
            first
                .find(&format!("Deck page {n}"))
                .expect("each page on the sheet")
        })
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{first}");

    // Flatten: a filled field's value stays as page text, the form goes.
    let form = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../.cache/compress-corpus/cups-filters__form_english.pdf"),
    );
    if let Ok(form) = form {
        let (_, flat) = toolbox
            .run(
                Tool::Flatten(v1::FlattenOptions::default()),
                &[("form.pdf", form)],
            )
            .await
            .unwrap();
        let doc = lopdf::Document::load_mem(&flat).unwrap();
        assert!(
            doc.catalog().unwrap().get(b"AcroForm").is_err(),
            "the form is gone"
        );
        assert!(
            facts(flat)
                .await
                .unwrap()
                .pages
                .iter()
                .all(|p| p.fields.is_empty())
        );
    }

    // Repair: a file whose cross-reference offset points nowhere comes back whole, and the
    // notes say what was wrong.
    let whole = labelled("Long", 6);
    let at = whole
        .windows(9)
        .rposition(|w| w == b"startxref")
        .expect("a startxref");
    let mut broken = whole[..at].to_vec();
    broken.extend_from_slice(b"startxref\n12345\n%%EOF\n");
    assert!(lopdf::Document::load_mem(&broken).is_err() || broken != whole);
    let (summary, repaired) = toolbox
        .run(
            Tool::Repair(v1::RepairOptions {}),
            &[("broken.pdf", broken)],
        )
        .await
        .unwrap();
    assert!(!summary.notes.is_empty());
    assert_eq!(summary.page_count, 6);
    lopdf::Document::load_mem(&repaired).expect("the repaired file loads strictly");
    assert_eq!(
        facts(repaired).await.unwrap().pages.len() as u32,
        summary.page_count
    );
}
