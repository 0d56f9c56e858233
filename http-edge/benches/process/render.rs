//! PDF to PNG against mutool draw and pdftoppm.

use std::{path::Path, process::Command};

use crate::{
    best,
    common::Server,
    ocr::{ENGLISH, FRENCH},
    pdf_fixtures::{A4, photo_jpeg, photo_pdf, text_pdf},
    post_form, run,
};

pub fn pdf_to_images(server: &Server, dir: &Path) -> anyhow::Result<()> {
    println!("\nPDF to PNG, 30 mixed pages (text and photos, A4) at 150 dpi");
    let text = dir.join("text15.pdf");
    let lines: Vec<&[&str]> = (0..15)
        .map(|i| if i % 2 == 0 { FRENCH } else { ENGLISH })
        .collect();
    std::fs::write(&text, text_pdf(&lines, A4))?;
    let photos = dir.join("photos15.pdf");
    let jpegs: Vec<_> = (0..15).map(|i| photo_jpeg(1600, 1100, i + 1)).collect();
    std::fs::write(&photos, photo_pdf(&jpegs, A4))?;
    let mixed = dir.join("mixed.pdf");
    let mut qpdf = Command::new("qpdf");
    qpdf.arg("--empty").arg("--pages");
    for page in 1..=15 {
        qpdf.arg(&text).arg(page.to_string());
        qpdf.arg(&photos).arg(page.to_string());
    }
    run(qpdf.arg("--").arg(&mixed))?;
    let zip = dir.join("pages.zip");
    let (ours, _) = best(|| {
        post_form(
            server,
            "/api/v1/process/pdf-to-images",
            &mixed,
            &["dpi=150"],
            Some(&zip),
        )
    })?;
    let out = dir.join("mutool");
    std::fs::create_dir_all(&out)?;
    let (mutool, _) = best(|| {
        run(Command::new("mutool")
            .args(["draw", "-q", "-r", "150", "-o"])
            .arg(out.join("page-%d.png"))
            .arg(&mixed))
    })?;
    let (pdftoppm, _) = best(|| {
        run(Command::new("pdftoppm")
            .args(["-r", "150", "-png"])
            .arg(&mixed)
            .arg(out.join("poppler")))
    })?;
    let zip_size = std::fs::metadata(&zip)?.len();
    println!(
        "quire {ours:.3} s ({:.1} MB ZIP), mutool draw {mutool:.3} s, pdftoppm {pdftoppm:.3} s: \
         {:.2}x mutool, {:.2}x pdftoppm (goal <= 0.5x mutool)",
        zip_size as f64 / 1e6,
        ours / mutool,
        ours / pdftoppm
    );
    Ok(())
}
