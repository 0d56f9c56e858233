//! What [`super::rich_pdf`] embeds: two real font programs (with their metrics) and generated
//! pictures.

use crate::pdf_fixtures::noise;

/// Fonts embedded in [`rich_pdf`]: a TrueType and a Type 1 program, from the Debian packages
/// fonts-dejavu-core and fonts-urw-base35 (Ghostscript's fonts).
pub(super) const TRUETYPE: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
pub(super) const TYPE1: &str = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1";
pub(super) const TYPE1_AFM: &str = "/usr/share/fonts/type1/urw-base35/NimbusSans-Regular.afm";

pub(super) fn font_file(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        panic!("{path}: {e}; install the Debian packages fonts-dejavu-core and fonts-urw-base35")
    })
}

/// A smooth RGB picture with grain: a photo stored losslessly, as scanners and some writers do.
pub(super) fn photo_pixels(width: u32, height: u32, seed: u64) -> Vec<u8> {
    let grain = noise((width * height) as usize, seed);
    let mut out = Vec::with_capacity((width * height * 3) as usize);
    for y in 0..height {
        for x in 0..width {
            let g = grain[(y * width + x) as usize] / 32;
            let fx = x as f32 / width as f32;
            let fy = y as f32 / height as f32;
            out.extend_from_slice(&[
                (60.0 + 150.0 * fy + 30.0 * (fx * 10.0).sin()) as u8 + g,
                (90.0 + 120.0 * fx * fy) as u8 + g,
                (200.0 - 140.0 * fx + 20.0 * (fy * 14.0).cos()) as u8 + g,
            ]);
        }
    }
    out
}

/// A grey "scan" of a printed page: paper, dark bars of text, a little noise.
pub(super) fn scan_pixels(width: u32, height: u32, seed: u64) -> Vec<u8> {
    let grain = noise((width * height) as usize, seed);
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| {
            let line = (y / 18) % 2 == 0 && (y % 18) > 4 && x > 60 && x < width - 60;
            let word = (x / 37 + y / 36) % 5 != 0;
            let base: u8 = if line && word { 40 } else { 235 };
            base.saturating_add(grain[(y * width + x) as usize] / 16)
        })
        .collect()
}

/// Advance widths of codes 32-126 from an AFM file (StandardEncoding, which agrees with
/// WinAnsiEncoding on the letters, digits and punctuation the fixture uses).
pub(super) fn afm_widths(afm: &str) -> (Vec<u32>, String) {
    let mut widths = vec![0; 95];
    let mut bbox = String::from("[-210 -307 1032 1154]");
    for line in afm.lines() {
        if let Some(rest) = line.strip_prefix("FontBBox ") {
            bbox = format!("[{}]", rest.trim());
        }
        let mut parts = line.split(';').map(str::trim);
        let (Some(code), Some(width)) = (parts.next(), parts.next()) else {
            continue;
        };
        let (Some(code), Some(width)) = (code.strip_prefix("C "), width.strip_prefix("WX ")) else {
            continue;
        };
        if let (Ok(code), Ok(width)) = (code.parse::<i32>(), width.parse::<f32>())
            && (32..=126).contains(&code)
        {
            widths[(code - 32) as usize] = width.round() as u32;
        }
    }
    (widths, bbox)
}

/// The Type 1 program's three parts for /Length1, /Length2, /Length3: clear text through
/// `eexec` and its end of line, the encrypted part, and the trailer of zeros.
pub(super) fn type1_lengths(program: &[u8]) -> (usize, usize, usize) {
    let marker = b"currentfile eexec";
    let mut clear = program
        .windows(marker.len())
        .position(|w| w == marker)
        .expect("a Type 1 program")
        + marker.len();
    while matches!(program.get(clear), Some(b'\r' | b'\n')) {
        clear += 1;
    }
    // The trailer: the run of ASCII zeros before the last `cleartomark`, and what follows.
    let trailer = program
        .windows(b"cleartomark".len())
        .rposition(|w| w == b"cleartomark")
        .map_or(program.len(), |mut start| {
            while start > clear && matches!(program[start - 1], b'0' | b'\r' | b'\n' | b' ') {
                start -= 1;
            }
            start
        });
    (clear, trailer - clear, program.len() - trailer)
}
