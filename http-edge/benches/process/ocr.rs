//! OCR of text images and of a scanned PDF, against the tesseract CLI.

use std::{path::Path, process::Command};

use crate::{
    best,
    common::Server,
    pdf_fixtures::{A4, scanned_pdf, text_pdf},
    post_form, run,
};

pub const FRENCH: &[&str] = &[
    "Madame, Monsieur,",
    "Nous avons bien reçu votre demande de remboursement",
    "concernant la facture numéro 2024-0183 du 12 mars.",
    "Après vérification, le montant de 1 245,90 euros",
    "sera crédité sur votre compte sous huit jours ouvrés.",
    "Nous restons à votre disposition pour toute question",
    "et vous prions d'agréer nos salutations distinguées.",
    "Le service client, équipe facturation.",
];
pub const ENGLISH: &[&str] = &[
    "Dear customer,",
    "Thank you for your order of the wireless keyboard,",
    "reference KB-4471, placed on the fourth of June.",
    "Your parcel left our warehouse this morning and",
    "should reach the delivery address within three days.",
    "You can follow the shipment with the tracking link",
    "we sent by e-mail, or reply to this message.",
    "Best regards, the customer care team.",
];

pub fn ocr_images(server: &Server, dir: &Path) -> anyhow::Result<()> {
    println!("\nOCR of one text image (A4, 300 dpi PNG), lang fra+eng");
    println!(
        "{:<10} {:>10} {:>13} {:>7} {:>10} {:>13}",
        "image", "quire s", "tesseract s", "ratio", "quire CER", "tesseract CER"
    );
    for (name, lines) in [("french", FRENCH), ("english", ENGLISH)] {
        let pdf = dir.join(format!("{name}.pdf"));
        std::fs::write(&pdf, text_pdf(&[lines], A4))?;
        let prefix = dir.join(name);
        run(Command::new("pdftoppm")
            .args(["-r", "300", "-gray", "-png", "-singlefile"])
            .arg(&pdf)
            .arg(&prefix))?;
        let png = prefix.with_extension("png");
        let truth = lines.join("\n");
        let (ours, text) = best(|| {
            let body = post_form(server, "/api/v1/process/ocr", &png, &["lang=fra+eng"], None)?;
            let json: serde_json::Value = serde_json::from_slice(&body)?;
            Ok(json["text"].as_str().unwrap_or_default().to_owned())
        })?;
        let (theirs, reference) = best(|| tesseract(&png))?;
        println!(
            "{name:<10} {ours:>10.3} {theirs:>13.3} {:>6.2}x {:>9.2}% {:>12.2}%",
            ours / theirs,
            cer(&truth, &text) * 100.0,
            cer(&truth, &reference) * 100.0,
        );
    }
    println!("goal: ratio <= 0.7, quire CER within 0.5 point of tesseract's");
    Ok(())
}

pub fn ocr_scanned_pdf(server: &Server, dir: &Path) -> anyhow::Result<()> {
    println!("\nOCR of a 4-page scanned PDF (grey JPEG pages, no text layer), lang fra+eng");
    let text = dir.join("letters.pdf");
    std::fs::write(&text, text_pdf(&[FRENCH, ENGLISH, FRENCH, ENGLISH], A4))?;
    let scans_prefix = dir.join("scan");
    run(Command::new("pdftoppm")
        .args(["-r", "200", "-gray", "-jpeg"])
        .arg(&text)
        .arg(&scans_prefix))?;
    let mut pages = Vec::new();
    for page in 1..=4 {
        // pdftoppm writes three-component JPEGs even with -gray: re-encode as true grey.
        let grey = image::open(dir.join(format!("scan-{page}.jpg")))?.into_luma8();
        let mut jpeg = std::io::Cursor::new(Vec::new());
        grey.write_to(&mut jpeg, image::ImageFormat::Jpeg)?;
        pages.push((jpeg.into_inner(), grey.width(), grey.height()));
    }
    let scanned = dir.join("scanned.pdf");
    std::fs::write(&scanned, scanned_pdf(&pages, A4))?;
    let (ours, body) = best(|| post_form(server, "/api/v1/process/ocr", &scanned, &[], None))?;
    let json: serde_json::Value = serde_json::from_slice(&body)?;
    let ours_text = json["text"]
        .as_str()
        .unwrap_or_default()
        .replace('\u{c}', "\n");
    let (theirs, reference) = best(|| {
        let prefix = dir.join("ref");
        run(Command::new("pdftoppm")
            .args(["-r", "300", "-gray"])
            .arg(&scanned)
            .arg(&prefix))?;
        let mut text = String::new();
        for page in 1..=4 {
            text.push_str(&tesseract(&dir.join(format!("ref-{page}.pgm")))?);
        }
        Ok(text)
    })?;
    let truth = [FRENCH, ENGLISH, FRENCH, ENGLISH].concat().join("\n");
    println!(
        "quire {ours:.3} s (CER {:.2}%), pdftoppm + tesseract {theirs:.3} s (CER {:.2}%): {:.2}x \
         (goal <= 0.5)",
        cer(&truth, &ours_text) * 100.0,
        cer(&truth, &reference) * 100.0,
        ours / theirs
    );
    Ok(())
}

/// The tesseract CLI at its fastest (one OpenMP thread), text to stdout.
fn tesseract(image: &Path) -> anyhow::Result<String> {
    let out = Command::new("tesseract")
        .arg(image)
        .args(["stdout", "-l", "fra+eng"])
        .env("OMP_THREAD_LIMIT", "1")
        .output()?;
    anyhow::ensure!(out.status.success(), "tesseract failed");
    Ok(String::from_utf8(out.stdout)?)
}

/// Character error rate: edit distance over the truth's length, whitespace runs folded.
fn cer(truth: &str, text: &str) -> f64 {
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let a: Vec<char> = fold(truth).chars().collect();
    let b: Vec<char> = fold(text).chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()] as f64 / a.len().max(1) as f64
}
