//! Type 1 font programs (FontFile) parsed and rewritten as subset CFF (FontFile3 /Type1C).
//!
//! `eexec` splits and decrypts the program, `ps` reads its dictionaries, `charstring` runs
//! each kept glyph (subroutines inlined, flex and hint replacement resolved), `t2` and
//! `t2_path` write Type 2 charstrings (all stems up front, hintmask where the Type 1 glyph
//! replaced hints) and `cff` lays out the bare CFF font (no subroutines).

pub(crate) mod cff;
#[cfg(test)]
mod cff_reader;
mod charstring;
mod eexec;
mod names;
mod ps;
#[cfg(test)]
mod real_fonts;
mod t2;
mod t2_path;
#[cfg(test)]
mod test_asm;
#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, HashMap};

use super::encodings::STANDARD;
use cff::{dict_f64, dict_int, dict_num_text, dict_op};
use charstring::Outline;
use ps::{FontDict, Value};

/// A parsed Type 1 font: dictionaries and decrypted charstrings.
pub struct Type1Font {
    dict: FontDict,
    /// (glyph name, decrypted charstring) in font order.
    glyphs: Vec<(Vec<u8>, Vec<u8>)>,
    subrs: Vec<Vec<u8>>,
}

#[derive(Debug, thiserror::Error)]
pub enum Type1Error {
    #[error("no eexec section in the type 1 program")]
    NoEexec,
    #[error("no charstrings in the type 1 program")]
    NoCharStrings,
    #[error("glyph {glyph}: {reason}")]
    Charstring { glyph: String, reason: &'static str },
    #[error("seac component {0} missing from the font")]
    MissingComponent(String),
    #[error("too many glyphs for cff")]
    TooManyGlyphs,
}

impl Type1Font {
    /// `program` is the decoded FontFile stream; length1/length2 from its dictionary (may be
    /// wrong in real files: `eexec` is searched for, hex eexec sections and PFB segment
    /// headers are accepted).
    pub fn parse(program: &[u8], length1: usize, length2: usize) -> Result<Type1Font, Type1Error> {
        // Length2 is not trusted: the encrypted part is read to `closefile` or the end.
        let _ = length2;
        let (clear, private) = eexec::split(program, length1).ok_or(Type1Error::NoEexec)?;
        let mut dict = ps::read_font(&clear, &private);
        let len_iv = match dict.private.get(&b"lenIV"[..]) {
            Some(Value::Num(t)) => std::str::from_utf8(t)
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(4),
            _ => 4,
        };
        let subrs = dict
            .subrs
            .iter()
            .map(|s| charstring::decrypt(s, len_iv))
            .collect();
        let glyphs: Vec<_> = std::mem::take(&mut dict.charstrings)
            .into_iter()
            .map(|(n, cs)| (n, charstring::decrypt(&cs, len_iv)))
            .collect();
        dict.subrs.clear();
        if glyphs.is_empty() {
            return Err(Type1Error::NoCharStrings);
        }
        Ok(Type1Font {
            dict,
            glyphs,
            subrs,
        })
    }

    /// The names of the font's glyphs, in font order.
    pub fn glyph_names(&self) -> impl Iterator<Item = &[u8]> {
        self.glyphs.iter().map(|(name, _)| name.as_slice())
    }

    /// Glyph name of `code` in the font's built-in encoding (StandardEncoding or the font's
    /// own /Encoding array).
    pub fn builtin_name(&self, code: u8) -> Option<&[u8]> {
        let name = match &self.dict.encoding {
            None => Some(STANDARD[usize::from(code)]),
            Some(enc) => enc[usize::from(code)].as_deref(),
        };
        name.filter(|n| !n.is_empty() && *n != b".notdef")
    }

    /// A bare CFF font program for FontFile3 /Subtype /Type1C with the glyphs named in
    /// `keep` (names the font lacks are ignored), plus .notdef and the components of kept
    /// `seac` glyphs. The charset carries the glyph names; the Encoding is the predefined
    /// StandardEncoding when the font uses it, else the font's codes for the kept glyphs.
    /// Errors (unsupported OtherSubrs such as Multiple Master blends, malformed
    /// charstrings) mean the caller should keep the original program.
    pub fn to_cff(&self, keep: &BTreeSet<Vec<u8>>) -> Result<Vec<u8>, Type1Error> {
        self.to_cff_with_widths(keep, &HashMap::new())
    }

    /// [`Type1Font::to_cff`], each glyph named in `widths` given that advance width instead
    /// of its own (PDF/A: a substituted font takes the widths the document was laid out
    /// with, which its /Widths must then agree with).
    pub fn to_cff_with_widths(
        &self,
        keep: &BTreeSet<Vec<u8>>,
        widths: &HashMap<Vec<u8>, f64>,
    ) -> Result<Vec<u8>, Type1Error> {
        let by_name: HashMap<&[u8], usize> = self
            .glyphs
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.as_slice(), i))
            .collect();
        // Run the kept glyphs, following seac components.
        let mut outlines: HashMap<&[u8], Outline> = HashMap::new();
        let mut todo: Vec<&[u8]> = keep
            .iter()
            .map(Vec::as_slice)
            .filter(|n| by_name.contains_key(n))
            .collect();
        if by_name.contains_key(&b".notdef"[..]) {
            todo.push(b".notdef");
        }
        while let Some(name) = todo.pop() {
            if outlines.contains_key(name) {
                continue;
            }
            let (gname, code) = &self.glyphs[by_name[name]];
            let mut outline = charstring::interpret(code, &self.subrs).map_err(|reason| {
                Type1Error::Charstring {
                    glyph: String::from_utf8_lossy(gname).into_owned(),
                    reason,
                }
            })?;
            if let Some(&width) = widths.get(gname.as_slice()) {
                outline.width = width;
            }
            if let Some(s) = outline.seac {
                for c in [s[2], s[3]] {
                    let comp = STANDARD
                        .get(c as usize)
                        .copied()
                        .filter(|n| by_name.contains_key(n))
                        .ok_or_else(|| Type1Error::MissingComponent(format!("{c}")))?;
                    todo.push(comp);
                }
            }
            outlines.insert(gname.as_slice(), outline);
        }
        // Glyph order: .notdef, glyphs in the built-in encoding by code, then the rest. Each
        // glyph's first nonzero code goes in the main table, other codes (and code 0, which
        // some readers skip there) in supplements.
        let mut codes: HashMap<&[u8], Vec<u8>> = HashMap::new();
        for c in (1..=255u8).chain([0]) {
            if let Some(n) = self.builtin_name(c).filter(|n| outlines.contains_key(n)) {
                codes.entry(n).or_default().push(c);
            }
        }
        let primary = |n: &[u8]| {
            codes
                .get(n)
                .and_then(|c| c.first().copied().filter(|&c| c != 0))
        };
        let mut order: Vec<&[u8]> = outlines
            .keys()
            .copied()
            .filter(|n| *n != b".notdef")
            .collect();
        order.sort_by_key(|n| (primary(n).map_or(256, u16::from), by_name[n]));
        if order.len() >= 65535 {
            return Err(Type1Error::TooManyGlyphs);
        }
        let notdef = outlines.get(&b".notdef"[..]).cloned().unwrap_or_default();

        let mut strings = cff::Strings::new();
        let sids: Vec<u16> = order.iter().map(|n| strings.sid(n)).collect();
        let encoding = self.dict.encoding.as_ref().map(|_| {
            let first: Vec<u8> = order.iter().map_while(|n| primary(n)).collect();
            let mut supplements: Vec<(u8, u16)> = Vec::new();
            for (n, &sid) in order.iter().zip(&sids) {
                let skip = usize::from(primary(n).is_some());
                let extra = codes.get(n).map_or(&[][..], |c| &c[skip..]);
                supplements.extend(extra.iter().map(|&c| (c, sid)));
            }
            cff::encoding(&first, &supplements)
        });

        // Widths: the most common one is the default, the others relative to their median.
        let all: Vec<&Outline> = std::iter::once(&notdef)
            .chain(order.iter().map(|n| &outlines[n]))
            .collect();
        let mut freq: HashMap<i64, usize> = HashMap::new();
        for o in &all {
            *freq.entry((o.width * 65536.0).round() as i64).or_default() += 1;
        }
        let default_w = freq
            .iter()
            .max_by_key(|(w, n)| (**n, -**w))
            .map_or(0, |(w, _)| *w) as f64
            / 65536.0;
        let mut others: Vec<f64> = all
            .iter()
            .map(|o| o.width)
            .filter(|w| *w != default_w)
            .collect();
        others.sort_by(f64::total_cmp);
        let nominal_w = others.get(others.len() / 2).map_or(0.0, |w| w.round());
        let mut charstrings = Vec::with_capacity(all.len());
        for (o, name) in all
            .iter()
            .zip(std::iter::once(&b".notdef"[..]).chain(order.iter().copied()))
        {
            charstrings.push(t2::encode(o, default_w, nominal_w).map_err(|reason| {
                Type1Error::Charstring {
                    glyph: String::from_utf8_lossy(name).into_owned(),
                    reason,
                }
            })?);
        }

        let top = self.top_dict(&mut strings);
        let mut private = self.private_dict();
        if default_w != 0.0 {
            dict_f64(&mut private, default_w);
            dict_op(&mut private, 20);
        }
        if nominal_w != 0.0 {
            dict_f64(&mut private, nominal_w);
            dict_op(&mut private, 21);
        }
        let name = match self.dict.top.get(&b"FontName"[..]) {
            Some(Value::Name(n) | Value::Str(n)) if !n.is_empty() => n.clone(),
            _ => b"Untitled".to_vec(),
        };
        Ok(cff::assemble(&cff::Parts {
            name,
            top,
            strings,
            charset: cff::charset(&sids),
            encoding,
            charstrings,
            private,
        }))
    }

    fn num(map: &HashMap<Vec<u8>, Value>, key: &[u8]) -> Option<f64> {
        match map.get(key)? {
            Value::Num(t) => std::str::from_utf8(t).ok()?.parse().ok(),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    fn top_dict(&self, strings: &mut cff::Strings) -> Vec<u8> {
        let top = &self.dict.top;
        let mut out = Vec::new();
        let string_keys: [(&[u8], u16); 6] = [
            (b"version", 0),
            (b"Notice", 1),
            (b"Copyright", 1200),
            (b"FullName", 2),
            (b"FamilyName", 3),
            (b"Weight", 4),
        ];
        for (key, op) in string_keys {
            if let Some(Value::Str(s)) = top.get(key) {
                dict_int(&mut out, i32::from(strings.sid(s)));
                dict_op(&mut out, op);
            }
        }
        let num_keys: [(&[u8], u16, f64); 5] = [
            (b"isFixedPitch", 1201, 0.0),
            (b"ItalicAngle", 1202, 0.0),
            (b"UnderlinePosition", 1203, -100.0),
            (b"UnderlineThickness", 1204, 50.0),
            (b"PaintType", 1205, 0.0),
        ];
        for (key, op, default) in num_keys {
            if let Some(v) = Self::num(top, key).filter(|v| *v != default) {
                match top.get(key) {
                    Some(Value::Num(t)) => {
                        dict_num_text(&mut out, t);
                    }
                    _ => dict_f64(&mut out, v),
                }
                dict_op(&mut out, op);
            }
        }
        if let Some(Value::Arr(m)) = top.get(&b"FontMatrix"[..]) {
            let vals: Vec<f64> = m
                .iter()
                .filter_map(|t| std::str::from_utf8(t).ok()?.parse().ok())
                .collect();
            if m.len() == 6 && vals.len() == 6 && vals != [0.001, 0.0, 0.0, 0.001, 0.0, 0.0] {
                m.iter().for_each(|t| _ = dict_num_text(&mut out, t));
                dict_op(&mut out, 1207);
            }
        }
        if let Some(Value::Arr(b)) = top.get(&b"FontBBox"[..])
            && b.len() == 4
        {
            b.iter().for_each(|t| _ = dict_num_text(&mut out, t));
            dict_op(&mut out, 5);
        }
        if let Some(Value::Num(t)) = top.get(&b"StrokeWidth"[..])
            && Self::num(top, b"StrokeWidth") != Some(0.0)
            && dict_num_text(&mut out, t)
        {
            dict_op(&mut out, 1208);
        }
        out
    }

    fn private_dict(&self) -> Vec<u8> {
        let p = &self.dict.private;
        let mut out = Vec::new();
        let arrays: [(&[u8], u16); 6] = [
            (b"BlueValues", 6),
            (b"OtherBlues", 7),
            (b"FamilyBlues", 8),
            (b"FamilyOtherBlues", 9),
            (b"StemSnapH", 1212),
            (b"StemSnapV", 1213),
        ];
        for (key, op) in arrays {
            if let Some(Value::Arr(a)) = p.get(key) {
                let vals: Vec<f64> = a
                    .iter()
                    .filter_map(|t| std::str::from_utf8(t).ok()?.parse().ok())
                    .collect();
                if vals.is_empty() || vals.len() != a.len() {
                    continue;
                }
                let mut prev = 0.0;
                for v in vals {
                    dict_f64(&mut out, v - prev);
                    prev = v;
                }
                dict_op(&mut out, op);
            }
        }
        for (key, op) in [(&b"StdHW"[..], 10u16), (b"StdVW", 11)] {
            let first = match p.get(key) {
                Some(Value::Arr(a)) => a.first(),
                Some(Value::Num(t)) => Some(t),
                _ => None,
            };
            if let Some(t) = first
                && dict_num_text(&mut out, t)
            {
                dict_op(&mut out, op);
            }
        }
        let nums: [(&[u8], u16); 5] = [
            (b"BlueScale", 1209),
            (b"BlueShift", 1210),
            (b"BlueFuzz", 1211),
            (b"LanguageGroup", 1217),
            (b"ExpansionFactor", 1218),
        ];
        for (key, op) in nums {
            if let Some(Value::Num(t)) = p.get(key)
                && dict_num_text(&mut out, t)
            {
                dict_op(&mut out, op);
            }
        }
        if let Some(Value::Bool(true)) = p.get(&b"ForceBold"[..]) {
            dict_int(&mut out, 1);
            dict_op(&mut out, 1214);
        }
        out
    }
}
