//! Manual check on real fonts (ignored by default):
//! `TYPE1_FILES=a.pfb:b.t1 TYPE1_OUT=/tmp/out cargo test -p quire-compress real_fonts -- --ignored --nocapture`
//! (`<name>.<length1>.<length2>.fontfile`: a FontFile stream from a PDF) writes `<name>.full.cff` and `<name>.sub40.cff` per font and prints sizes (raw and Flate).

use std::collections::BTreeSet;
use std::io::Write;

use super::Type1Font;

fn deflated(data: &[u8]) -> usize {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = e.write_all(data);
    e.finish().map_or(0, |v| v.len())
}

/// The program as a PDF embeds it: PFB segment headers and the trailing zeros removed.
fn embedded_form(data: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    if data.first() == Some(&0x80) {
        let mut p = 0;
        while p + 6 <= data.len() && data[p] == 0x80 && data[p + 1] != 3 {
            let len =
                u32::from_le_bytes([data[p + 2], data[p + 3], data[p + 4], data[p + 5]]) as usize;
            let end = (p + 6 + len).min(data.len());
            if data[p + 1] == 1 && !body.is_empty() {
                break; // trailer segment (zeros, cleartomark)
            }
            body.extend_from_slice(&data[p + 6..end]);
            p = end;
        }
    } else {
        body = data.to_vec();
    }
    body
}

#[test]
#[ignore = "needs TYPE1_FILES and TYPE1_OUT"]
fn real_fonts() {
    let (Ok(files), Ok(out)) = (std::env::var("TYPE1_FILES"), std::env::var("TYPE1_OUT")) else {
        eprintln!("set TYPE1_FILES and TYPE1_OUT");
        return;
    };
    let mut failures = 0;
    for path in files.split(':').filter(|p| !p.is_empty()) {
        let Ok(data) = std::fs::read(path) else {
            eprintln!("skip {path}: unreadable");
            continue;
        };
        let stem = std::path::Path::new(path)
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        // `<name>.<length1>.<length2>.fontfile`: a FontFile stream extracted from a PDF.
        let parts: Vec<&str> = stem.rsplitn(3, '.').collect();
        let (l1, l2, stem) = match parts[..] {
            [l2, l1, base] if path.ends_with(".fontfile") => (
                l1.parse().unwrap_or(0),
                l2.parse().unwrap_or(0),
                base.to_string(),
            ),
            _ => (0, 0, stem.clone()),
        };
        let font = match Type1Font::parse(&data, l1, l2) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{stem}: parse error: {e}");
                failures += 1;
                continue;
            }
        };
        let all: BTreeSet<Vec<u8>> = font.glyphs.iter().map(|(n, _)| n.clone()).collect();
        // 40 glyphs: the first encoded ones from 'A' on, like a short document would use.
        let sub: BTreeSet<Vec<u8>> = (65u8..=255)
            .chain(32..65)
            .filter_map(|c| font.builtin_name(c).map(<[u8]>::to_vec))
            .filter(|n| all.contains(n))
            .take(40)
            .collect();
        let orig = embedded_form(&data);
        for (tag, keep) in [("full", &all), ("sub40", &sub)] {
            match font.to_cff(keep) {
                Ok(cff) => {
                    let _ = std::fs::write(format!("{out}/{stem}.{tag}.cff"), &cff);
                    println!(
                        "{stem} {tag}: glyphs {} type1 {} ({} flate) -> cff {} ({} flate)",
                        keep.len(),
                        orig.len(),
                        deflated(&orig),
                        cff.len(),
                        deflated(&cff)
                    );
                }
                Err(e) => {
                    eprintln!("{stem} {tag}: convert error: {e}");
                    failures += 1;
                }
            }
        }
        let names: Vec<String> = sub
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        let _ = std::fs::write(format!("{out}/{stem}.sub40.txt"), names.join("\n"));
    }
    assert_eq!(failures, 0);
}
