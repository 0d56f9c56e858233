//! Compression of a generated image-heavy PDF against Ghostscript.

use std::{path::Path, process::Command};

use crate::{
    best,
    common::Server,
    ghostscript,
    pdf_fixtures::{A4, photo_jpeg, photo_pdf},
    post_form, psnr, render_pages, run,
};

pub fn compression(server: &Server, dir: &Path) -> anyhow::Result<()> {
    println!("\nCompression of an image-heavy PDF (6 A4 pages, one 3000x2100 photo each)");
    let jpegs: Vec<_> = (0..6).map(|i| photo_jpeg(3000, 2100, 40 + i)).collect();
    let input = dir.join("photos.pdf");
    std::fs::write(&input, photo_pdf(&jpegs, A4))?;
    let original = std::fs::metadata(&input)?.len();
    let reference = render_pages(&input, dir, "orig")?;
    println!("input: {:.2} MB", original as f64 / 1e6);
    println!(
        "{:<8} {:>10} {:>10} {:>8} {:>9} {:>9} {:>7} {:>9} {:>9}",
        "preset", "quire KB", "gs KB", "size", "quire s", "gs s", "time", "quire dB", "gs dB"
    );
    let mut gs_times = Vec::new();
    for preset in ["screen", "ebook", "printer"] {
        let ours_pdf = dir.join(format!("quire-{preset}.pdf"));
        let (ours, _) = best(|| {
            post_form(
                server,
                "/api/v1/process/compress-pdf",
                &input,
                &[&format!("quality={preset}")],
                Some(&ours_pdf),
            )
        })?;
        let gs_pdf = dir.join(format!("gs-{preset}.pdf"));
        let gs = ghostscript(preset, &input, &gs_pdf, &[])?;
        gs_times.push((preset, gs));
        let ours_size = std::fs::metadata(&ours_pdf)?.len();
        let gs_size = std::fs::metadata(&gs_pdf)?.len();
        let ours_psnr = psnr(&reference, &render_pages(&ours_pdf, dir, "ours")?);
        let gs_psnr = psnr(&reference, &render_pages(&gs_pdf, dir, "gs")?);
        println!(
            "{preset:<8} {:>10.0} {:>10.0} {:>7.2}x {ours:>9.3} {gs:>9.3} {:>6.2}x {ours_psnr:>9.2} {gs_psnr:>9.2}",
            ours_size as f64 / 1e3,
            gs_size as f64 / 1e3,
            ours_size as f64 / gs_size as f64,
            ours / gs,
        );
        // Ghostscript copies a JPEG it does not downsample as it is (PassThroughJPEGImages,
        // on by default), where Quire re-encodes it at the preset's quality: the same work
        // Ghostscript does with pass-through off.
        let reencoded_pdf = dir.join(format!("gs-reencoded-{preset}.pdf"));
        let reencoded = ghostscript(
            preset,
            &input,
            &reencoded_pdf,
            &["-dPassThroughJPEGImages=false"],
        )?;
        let reencoded_size = std::fs::metadata(&reencoded_pdf)?.len();
        let reencoded_psnr = psnr(&reference, &render_pages(&reencoded_pdf, dir, "gs")?);
        println!(
            "  gs re-encoding its JPEGs too: {:.0} KB ({:.2}x), {reencoded:.3} s ({:.2}x), {reencoded_psnr:.2} dB",
            reencoded_size as f64 / 1e3,
            ours_size as f64 / reencoded_size as f64,
            ours / reencoded,
        );
    }
    // What no re-encoder can skip: Huffman-decoding every source JPEG. libjpeg-turbo's djpeg
    // at 1/8 scale does the least pixel work it can; its time, spread over all cores, is a
    // floor under any compressor that re-encodes these photos.
    let photos = jpegs
        .iter()
        .enumerate()
        .map(|(i, (jpeg, _, _))| {
            let path = dir.join(format!("photo-{i}.jpg"));
            std::fs::write(&path, jpeg).map(|()| path)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (decode, ()) = best(|| {
        for photo in &photos {
            run(Command::new("djpeg")
                .args(["-scale", "1/8", "-outfile", "/dev/null"])
                .arg(photo))?;
        }
        Ok(())
    })?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from) as f64;
    let floor = gs_times
        .iter()
        .map(|(preset, gs)| format!("{preset} {:.2}x", decode / cores / gs))
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "floor for re-encoding: decoding the 6 source JPEGs alone (djpeg -scale 1/8, one after another) {decode:.3} s, over {cores} cores {:.3} s = gs time x {floor}",
        decode / cores
    );
    println!(
        "goals: size <= 1.00x gs, time <= 0.20x gs, quire dB >= gs dB - 0.5 (pages rendered at 100 dpi)"
    );
    Ok(())
}
