//! TrueType Collections (`ttcf`) embedded as a font program. The PDF format has no way to
//! say which face of a collection a font uses: Ghostscript, MuPDF, Poppler and PDFium load
//! face 0 of an embedded collection, pdf.js the face whose name table carries the font's
//! name. A collection is reduced to its face 0 (as Ghostscript writes it, a plain TrueType
//! subset like any other) only when the font's names single out that face, or the
//! collection holds one face: then every viewer draws the same face before and after. Any
//! doubt (no face named, several, or another face) keeps the whole collection.

use ttf_parser::{Face, PlatformId, name_id};

/// Whether the program is a collection.
pub fn is_collection(data: &[u8]) -> bool {
    data.starts_with(b"ttcf")
}

/// The names a PDF font gives its program (/BaseFont of the font and of its descendant,
/// /FontName of the descriptor), each without its subset tag (`ABCDEF+`).
pub fn pdf_names(names: impl IntoIterator<Item = Option<Vec<u8>>>) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for name in names.into_iter().flatten() {
        let name = match name.get(6) {
            Some(b'+') if name[..6].iter().all(u8::is_ascii_uppercase) => name[7..].to_vec(),
            _ => name,
        };
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The face to keep, 0, when `names` single it out or it is the only face; `None` when no
/// face, several faces, or a face other than the first fits.
pub fn pick(data: &[u8], names: &[Vec<u8>]) -> Option<u32> {
    let count = ttf_parser::fonts_in_collection(data)?;
    let faces: Vec<[Vec<Vec<u8>>; 3]> = (0..count)
        .map(|i| Face::parse(data, i).ok().map(|f| names_of(&f)))
        .collect::<Option<_>>()?;
    // From the most to the least specific name (PostScript, full, family): the first kind
    // that some face carries decides, and it must single out one face.
    for kind in [0, 1, 2] {
        let fits: Vec<u32> = (0..count)
            .filter(|&i| {
                let listed = &faces[i as usize][kind];
                names.iter().any(|n| listed.iter().any(|l| same(l, n)))
            })
            .collect();
        match fits.as_slice() {
            [] => continue,
            [0] => return Some(0),
            _ => return None,
        }
    }
    (count == 1).then_some(0)
}

/// One face of a collection as a TrueType file of its own (its tables copied out, shared
/// ones included); `None` when it cannot be read back as a font.
pub fn extract(data: &[u8], index: u32) -> Option<Vec<u8>> {
    let at = 12 + 4 * usize::try_from(index).ok()?;
    let offset =
        usize::try_from(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?)).ok()?;
    let header = data.get(offset..)?;
    let version = header.get(..4)?;
    let count = usize::from(u16::from_be_bytes(header.get(4..6)?.try_into().ok()?));
    let mut tables: Vec<([u8; 4], &[u8])> = Vec::with_capacity(count);
    for i in 0..count {
        let record = header.get(12 + 16 * i..28 + 16 * i)?;
        let tag: [u8; 4] = record.get(..4)?.try_into().ok()?;
        // Offsets in a collection count from the start of the file.
        let start = u32::from_be_bytes(record.get(8..12)?.try_into().ok()?) as usize;
        let length = u32::from_be_bytes(record.get(12..16)?.try_into().ok()?) as usize;
        tables.push((tag, data.get(start..start.checked_add(length)?)?));
    }
    tables.sort_by_key(|(tag, _)| *tag);
    if tables.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let out = super::program::build(version, &tables);
    Face::parse(&out, 0).ok()?;
    Some(out)
}

/// A face's PostScript, full and family names, spaces removed.
fn names_of(face: &Face) -> [Vec<Vec<u8>>; 3] {
    let mut names: [Vec<Vec<u8>>; 3] = Default::default();
    for name in face.names() {
        let list = match name.name_id {
            name_id::POST_SCRIPT_NAME => &mut names[0],
            name_id::FULL_NAME => &mut names[1],
            name_id::FAMILY | name_id::TYPOGRAPHIC_FAMILY => &mut names[2],
            _ => continue,
        };
        let text = match name.to_string() {
            Some(text) => text.into_bytes(),
            // Mac Roman: the ASCII names PDF fonts are named by read the same.
            None if name.platform_id == PlatformId::Macintosh => name.name.to_vec(),
            None => continue,
        };
        let text: Vec<u8> = text.into_iter().filter(|b| *b != b' ').collect();
        if !text.is_empty() && !list.contains(&text) {
            list.push(text);
        }
    }
    names
}

/// Whether a face's name is the PDF's, ignoring case, spaces and a style written after a
/// comma (`MSGothic,Bold`).
fn same(listed: &[u8], pdf: &[u8]) -> bool {
    let pdf: Vec<u8> = pdf.iter().copied().filter(|b| *b != b' ').collect();
    let base = pdf.split(|b| *b == b',').next().unwrap_or(&pdf);
    listed.eq_ignore_ascii_case(&pdf) || listed.eq_ignore_ascii_case(base)
}
