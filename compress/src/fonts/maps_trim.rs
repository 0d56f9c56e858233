//! A Type 0 font's /ToUnicode and /W, cut to the codes it shows. A font embedded whole often
//! carries a ToUnicode entry and a width for each of its thousands of glyphs (40 KB of
//! ToUnicode for a Noto face in pypdf's font sampler); Ghostscript writes both again for the
//! glyphs used. Only Identity-H/V fonts whose every use is known are cut, so every code shown
//! keeps its text and width exactly, and a map shared with another font is left alone.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use lopdf::{Document, Object, ObjectId};

use super::cmap::{Token, tokenize};
use super::usage::Usage;

/// Largest ToUnicode stream read.
const MAX_MAP: usize = 16 << 20;

/// Cuts the maps of every Type 0 font whose usage is known; returns how many changed.
pub fn trim(doc: &mut Document, usage: &Usage, references: &HashMap<ObjectId, usize>) -> usize {
    let once = |id: &ObjectId| references.get(id) == Some(&1);
    // (ToUnicode stream, descendant font, codes shown) of each font to cut.
    let mut jobs: Vec<(Option<ObjectId>, Option<ObjectId>, BTreeSet<u32>)> = Vec::new();
    for (&id, object) in &doc.objects {
        let Object::Dictionary(font) = object else {
            continue;
        };
        let name = |key: &[u8]| font.get(key).and_then(Object::as_name).ok();
        if name(b"Subtype") != Some(b"Type0")
            || !matches!(name(b"Encoding"), Some(b"Identity-H" | b"Identity-V"))
            || !usage.seen.contains(&id)
            || usage.whole.contains(&id)
        {
            continue;
        }
        let mut codes = BTreeSet::new();
        let strings = usage.shown.get(&id).into_iter().flatten();
        if strings.clone().any(|s| s.len() % 2 != 0) {
            continue;
        }
        codes.extend(strings.flat_map(|s| {
            s.chunks_exact(2)
                .map(|c| u32::from(c[0]) << 8 | u32::from(c[1]))
        }));
        let to_unicode = font
            .get(b"ToUnicode")
            .and_then(Object::as_reference)
            .ok()
            .filter(once);
        // The array may be an object of its own, when no other font shares it.
        let descendant = match font.get(b"DescendantFonts") {
            Ok(Object::Array(list)) => Some(list),
            Ok(Object::Reference(id)) if once(id) => match doc.get_object(*id) {
                Ok(Object::Array(list)) => Some(list),
                _ => None,
            },
            _ => None,
        }
        .and_then(|list| list.first()?.as_reference().ok())
        .filter(once);
        jobs.push((to_unicode, descendant, codes));
    }
    let mut changed = 0;
    for (to_unicode, descendant, codes) in jobs {
        if let Some(id) = to_unicode
            && let Ok(Object::Stream(stream)) = doc.get_object_mut(id)
            && let Ok(data) = crate::plain::decode(stream, MAX_MAP)
            && let Some(cut) = to_unicode_for(&data, &codes)
            && cut.len() < data.len()
        {
            stream.dict.remove(b"Filter");
            stream.dict.remove(b"DecodeParms");
            stream.set_content(cut);
            changed += 1;
        }
        // An indirect /W is replaced by a direct one: the array, if no other font uses it,
        // is then dropped with the unused objects.
        if let Some(id) = descendant
            && let Ok(cid_font) = doc.get_dictionary(id)
            && let Ok((_, Object::Array(widths))) =
                cid_font.get(b"W").and_then(|o| doc.dereference(o))
            && let Some(cut) = widths_for(widths, &codes)
            && let Ok(cid_font) = doc.get_dictionary_mut(id)
        {
            cid_font.set("W", Object::Array(cut));
            changed += 1;
        }
    }
    changed
}

/// A ToUnicode CMap with only `codes`' entries (two-byte codes); `None` when it is not
/// one this reads whole (another CMap underneath, odd code lengths, a range that would carry).
fn to_unicode_for(data: &[u8], codes: &BTreeSet<u32>) -> Option<Vec<u8>> {
    let tokens = tokenize(data)?;
    let mut codespace: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    let mut kept: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
    let mut i = 0;
    let hex = |i: usize| match tokens.get(i) {
        Some(Token::Hex(bytes)) => Some(bytes),
        _ => None,
    };
    let word = |i: usize| match tokens.get(i) {
        Some(Token::Word(w)) => Some(w.as_slice()),
        _ => None,
    };
    while let Some(token) = tokens.get(i) {
        i += 1;
        let Token::Word(w) = token else { continue };
        match w.as_slice() {
            b"usecmap" => return None,
            b"begincodespacerange" => {
                while let (Some(low), Some(high)) = (hex(i), hex(i + 1)) {
                    codespace.push((low.clone(), high.clone()));
                    i += 2;
                }
            }
            b"beginbfchar" => {
                while let (Some(code), Some(dst)) = (hex(i), hex(i + 1)) {
                    if code.len() != 2 {
                        return None;
                    }
                    if codes.contains(&be(code)) {
                        kept.insert(be(code), dst.clone());
                    }
                    i += 2;
                }
                (word(i) == Some(b"endbfchar")).then_some(())?;
            }
            b"beginbfrange" => {
                while let (Some(low), Some(high)) = (hex(i), hex(i + 1)) {
                    if low.len() != 2 || high.len() != 2 {
                        return None;
                    }
                    let (low, high) = (be(low), be(high));
                    match tokens.get(i + 2) {
                        Some(Token::Hex(base)) => {
                            for &code in codes.range(low..=high) {
                                let mut dst = base.clone();
                                let last = dst.last_mut()?;
                                *last = u8::try_from(u32::from(*last) + (code - low)).ok()?;
                                kept.insert(code, dst);
                            }
                            i += 3;
                        }
                        // `[`: an array of destinations, one per code of the range.
                        Some(Token::Other) => {
                            let mut j = i + 3;
                            for code in low..=high {
                                let dst = hex(j)?;
                                if codes.contains(&code) {
                                    kept.insert(code, dst.clone());
                                }
                                j += 1;
                            }
                            matches!(tokens.get(j), Some(Token::Other)).then_some(())?;
                            i = j + 1;
                        }
                        _ => return None,
                    }
                }
                (word(i) == Some(b"endbfrange")).then_some(())?;
            }
            _ => {}
        }
    }
    if codespace.is_empty() || codespace.iter().any(|(l, h)| l.len() != 2 || h.len() != 2) {
        return None;
    }
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n",
    );
    let hex_of = |bytes: &[u8]| {
        bytes.iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02X}");
            s
        })
    };
    let _ = writeln!(out, "{} begincodespacerange", codespace.len());
    for (low, high) in &codespace {
        let _ = writeln!(out, "<{}> <{}>", hex_of(low), hex_of(high));
    }
    out.push_str("endcodespacerange\n");
    let entries: Vec<_> = kept.into_iter().collect();
    // At most 100 entries per block, as the CMap format requires.
    for block in entries.chunks(100) {
        let _ = writeln!(out, "{} beginbfchar", block.len());
        for (code, dst) in block {
            let _ = writeln!(out, "<{code:04X}> <{}>", hex_of(dst));
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    Some(out.into_bytes())
}

/// A /W array with only `cids`' widths, in runs of consecutive CIDs; `None` when it is not
/// read whole or nothing would be dropped.
fn widths_for(widths: &[Object], cids: &BTreeSet<u32>) -> Option<Vec<Object>> {
    let mut all: BTreeMap<u32, Object> = BTreeMap::new();
    let mut i = 0;
    let cid = |o: &Object| o.as_i64().ok().and_then(|v| u32::try_from(v).ok());
    while i < widths.len() {
        let first = cid(&widths[i])?;
        match widths.get(i + 1)? {
            Object::Array(list) => {
                for (n, width) in list.iter().enumerate() {
                    width.as_float().ok()?;
                    all.insert(first.checked_add(u32::try_from(n).ok()?)?, width.clone());
                }
                i += 2;
            }
            last => {
                let last = cid(last)?;
                let width = widths.get(i + 2)?;
                width.as_float().ok()?;
                if last < first || last - first > 0xFFFF {
                    return None;
                }
                for &c in cids.range(first..=last) {
                    all.insert(c, width.clone());
                }
                i += 3;
            }
        }
    }
    let kept: Vec<(u32, Object)> = all.into_iter().filter(|(c, _)| cids.contains(c)).collect();
    let mut out: Vec<Object> = Vec::new();
    let mut run: Vec<Object> = Vec::new();
    let mut run_start = 0u32;
    for (n, (c, width)) in kept.iter().enumerate() {
        if n > 0 && *c != kept[n - 1].0 + 1 {
            out.push(Object::Integer(i64::from(run_start)));
            out.push(Object::Array(std::mem::take(&mut run)));
        }
        if run.is_empty() {
            run_start = *c;
        }
        run.push(width.clone());
    }
    if !run.is_empty() {
        out.push(Object::Integer(i64::from(run_start)));
        out.push(Object::Array(run));
    }
    (out.len() < widths.len() || count(&out) < count(widths)).then_some(out)
}

/// Numbers in a /W array, nested ones included.
fn count(widths: &[Object]) -> usize {
    widths
        .iter()
        .map(|o| match o {
            Object::Array(list) => list.len(),
            _ => 1,
        })
        .sum()
}

fn be(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0, |acc, &b| acc << 8 | u32::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_unicode_keeps_the_entries_of_shown_codes() {
        let map = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap
            1 begincodespacerange <0000> <FFFF> endcodespacerange
            2 beginbfchar <0003> <0020> <0010> <D83DDE00> endbfchar
            2 beginbfrange <0020> <0030> <0041> <0100> <0102> [<00E9> <00EA> <00EB>] endbfrange
            endcmap CMapName currentdict /CMap defineresource pop end end";
        let codes = BTreeSet::from([0x0003, 0x0010, 0x0022, 0x0101]);
        let cut = to_unicode_for(map, &codes).expect("read");
        let text = String::from_utf8(cut).expect("ascii");
        for entry in [
            "<0003> <0020>",
            "<0010> <D83DDE00>",
            "<0022> <0043>",
            "<0101> <00EA>",
        ] {
            assert!(text.contains(entry), "{entry} missing: {text}");
        }
        // Codes not shown (the start of the range) are gone.
        assert!(!text.contains("<0020> <0041>") && !text.contains("<0100>"));
        assert!(text.contains("4 beginbfchar") && !text.contains("bfrange"));
        // Another CMap underneath: not read, kept whole.
        assert!(
            to_unicode_for(
                b"/Foo usecmap 1 begincodespacerange <0000> <FFFF> endcodespacerange",
                &codes
            )
            .is_none()
        );
    }

    #[test]
    fn widths_keep_the_shown_cids_in_runs() {
        let w = vec![
            Object::Integer(1),
            Object::Array(vec![500.into(), 600.into(), 700.into()]),
            Object::Integer(10),
            Object::Integer(20),
            Object::Real(250.5),
        ];
        let cids = BTreeSet::from([2, 3, 15]);
        let cut = widths_for(&w, &cids).expect("cut");
        assert_eq!(
            cut,
            vec![
                Object::Integer(2),
                Object::Array(vec![600.into(), 700.into()]),
                Object::Integer(15),
                Object::Array(vec![Object::Real(250.5)]),
            ]
        );
        assert!(widths_for(&[Object::Integer(1)], &cids).is_none());
        // One range for many CIDs is shorter than the pieces shown: left as it is.
        let range = [1.into(), 1000.into(), 500.into()];
        assert!(widths_for(&range, &BTreeSet::from([5, 50, 500])).is_none());
    }
}
