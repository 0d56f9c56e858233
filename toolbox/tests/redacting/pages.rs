//! Pages of real-world files as pdftotext sees them: where page 1 is displayed, and whether
//! the words around a redacted area stayed in place while those inside went.

use std::path::Path;

use lopdf::{Document, Object};

use super::tools;

/// Page 1 as displayed: its visible box (crop box, else media box) in user space and its
/// quarter turns, as lopdf reads them (inherited if need be); Letter when unreadable.
pub fn frame(path: &Path) -> ([f64; 4], u8) {
    let letter = ([0.0, 0.0, 612.0, 792.0], 0);
    let Ok(doc) = Document::load(path) else {
        return letter;
    };
    let Some(&page) = doc.get_pages().get(&1) else {
        return letter;
    };
    let inherited = |key: &[u8]| -> Option<Object> {
        let mut node = doc.get_dictionary(page).ok();
        for _ in 0..32 {
            let dict = node?;
            if let Ok(value) = dict.get(key) {
                return doc.dereference(value).ok().map(|(_, v)| v.clone());
            }
            node = dict
                .get(b"Parent")
                .and_then(Object::as_reference)
                .ok()
                .and_then(|p| doc.get_dictionary(p).ok());
        }
        None
    };
    let rect = |key: &[u8]| -> Option<[f64; 4]> {
        let items = inherited(key)?;
        let numbers: Vec<f64> = items
            .as_array()
            .ok()?
            .iter()
            .map(|i| doc.dereference(i).ok()?.1.as_float().ok().map(f64::from))
            .collect::<Option<_>>()?;
        let [a, b, c, d] = <[f64; 4]>::try_from(numbers).ok()?;
        Some([a.min(c), b.min(d), a.max(c), b.max(d)])
    };
    let Some(media) = rect(b"MediaBox") else {
        return letter;
    };
    let visible = rect(b"CropBox")
        .map(|c| {
            [
                c[0].max(media[0]),
                c[1].max(media[1]),
                c[2].min(media[2]),
                c[3].min(media[3]),
            ]
        })
        .filter(|c| c[2] > c[0] && c[3] > c[1])
        .unwrap_or(media);
    let turns = inherited(b"Rotate")
        .and_then(|r| r.as_i64().ok())
        .unwrap_or(0)
        .rem_euclid(360)
        / 90;
    (visible, turns as u8)
}

/// A user-space box as pdftotext -bbox places it: from the visible box's displayed top-left.
pub fn displayed(([x0, y0, x1, y1], turns): ([f64; 4], u8), r: [f64; 4]) -> [f64; 4] {
    let point = |x: f64, y: f64| match turns {
        1 => (y - y0, x - x0),
        2 => (x1 - x, y - y0),
        3 => (y1 - y, x1 - x),
        _ => (x - x0, y1 - y),
    };
    let (a, b) = (point(r[0], r[1]), point(r[2], r[3]));
    [a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1)]
}

/// The boxes of page 1's annotations that overlap `area` (user space): they go whole, with
/// the words their appearances show.
pub fn removed_annotations(path: &Path, area: [f64; 4]) -> Vec<[f64; 4]> {
    let Ok(doc) = Document::load(path) else {
        return Vec::new();
    };
    let Some(&page) = doc.get_pages().get(&1) else {
        return Vec::new();
    };
    let Some(annots) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|p| p.get(b"Annots").ok())
        .and_then(|a| doc.dereference(a).ok())
        .and_then(|(_, a)| a.as_array().ok().cloned())
    else {
        return Vec::new();
    };
    annots
        .iter()
        .filter_map(|a| {
            let rect = doc
                .dereference(a)
                .ok()?
                .1
                .as_dict()
                .ok()?
                .get(b"Rect")
                .ok()?;
            let numbers: Vec<f64> = doc
                .dereference(rect)
                .ok()?
                .1
                .as_array()
                .ok()?
                .iter()
                .map(|v| doc.dereference(v).ok()?.1.as_float().ok().map(f64::from))
                .collect::<Option<_>>()?;
            let [a, b, c, d] = <[f64; 4]>::try_from(numbers).ok()?;
            let r = [a.min(c), b.min(d), a.max(c), b.max(d)];
            (r[0] <= area[2] && area[0] <= r[2] && r[1] <= area[3] && area[1] <= r[3]).then_some(r)
        })
        .collect()
}

/// pdftotext's words on page 1 before and after: every word clear of the area (by a point)
/// and of the annotations removed with it is still there in the same place, and none is left
/// with its centre inside the area.
pub fn words_check(
    input: &Path,
    output: &Path,
    area: [f64; 4],
    exempt: &[[f64; 4]],
) -> Result<usize, String> {
    let mut checked = 0;
    let before: Vec<_> = tools::words(input)
        .into_iter()
        .filter(|w| w.page == 1)
        .collect();
    let after: Vec<_> = tools::words(output)
        .into_iter()
        .filter(|w| w.page == 1 && w.text != "REDACTED")
        .collect();
    let [ax0, ay0, ax1, ay1] = area;
    for word in &before {
        let apart = |[x0, y0, x1, y1]: [f64; 4]| {
            word.x1 < x0 - 1.0 || word.x0 > x1 + 1.0 || word.y1 < y0 - 1.0 || word.y0 > y1 + 1.0
        };
        let clear = apart(area) && exempt.iter().all(|&r| apart(r));
        let kept = after.iter().any(|w| {
            w.text == word.text
                && (w.x0 - word.x0).abs() < 0.1
                && (w.x1 - word.x1).abs() < 0.1
                && (w.y0 - word.y0).abs() < 0.1
                && (w.y1 - word.y1).abs() < 0.1
        });
        checked += usize::from(clear);
        if clear && !kept {
            return Err(format!(
                "\"{}\" at {:?} moved or went",
                word.text,
                [word.x0, word.y0, word.x1, word.y1]
            ));
        }
    }
    for word in &after {
        let (cx, cy) = ((word.x0 + word.x1) / 2.0, (word.y0 + word.y1) / 2.0);
        if cx > ax0 + 1.0 && cx < ax1 - 1.0 && cy > ay0 + 1.0 && cy < ay1 - 1.0 {
            return Err(format!("\"{}\" is still inside the area", word.text));
        }
    }
    Ok(checked)
}
