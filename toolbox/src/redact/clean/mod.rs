//! The document outside the pages, cleaned of the redacted terms: bookmark titles, the
//! document information and XMP packets, embedded files, named destinations, the XFA form,
//! actions (links' addresses, launched files, scripts), form fields' tooltips and names, and
//! embedded fonts' names.
//! Terms match without regard to case.

mod actions;
mod attachments;
mod bookmarks;
mod destinations;
mod fields;
mod fonts;
mod metadata;
mod xfa;

use lopdf::Document;

/// What was cleaned.
#[derive(Debug, Default, Clone, Copy)]
pub struct Cleaned {
    pub bookmarks: u32,
    /// /Info entries and XMP packets removed, and the XFA form (one) when it went.
    pub metadata: u32,
    pub attachments: u32,
    pub destinations: u32,
    /// Uses of an action whose target held a term, removed.
    pub actions: u32,
    /// Form fields' tooltips and names, and embedded fonts' names, that held a term.
    pub names: u32,
}

/// The terms, lowercased, empty ones left out.
pub struct Terms {
    lowered: Vec<String>,
}

impl Terms {
    pub fn new(terms: &[String]) -> Terms {
        let mut lowered: Vec<String> = terms
            .iter()
            .map(|t| t.trim().to_lowercase())
            .filter(|t| !t.is_empty())
            .collect();
        lowered.sort();
        lowered.dedup();
        Terms { lowered }
    }

    pub fn is_empty(&self) -> bool {
        self.lowered.is_empty()
    }

    pub fn found_in(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        self.lowered.iter().any(|term| text.contains(term.as_str()))
    }

    /// Whether raw bytes hold a term, read as UTF-8 (ASCII), Latin-1, or UTF-16 either way.
    /// ASCII terms are looked for in the bytes themselves, with no copy of a large file.
    pub fn found_in_bytes(&self, bytes: &[u8]) -> bool {
        let (ascii, other): (Vec<&String>, Vec<&String>) =
            self.lowered.iter().partition(|t| t.is_ascii());
        if ascii.iter().any(|term| spelled(bytes, term.as_bytes())) {
            return true;
        }
        if other.is_empty() {
            return false;
        }
        let terms = Terms {
            lowered: other.into_iter().cloned().collect(),
        };
        let latin1: String = bytes.iter().map(|&b| char::from(b)).collect();
        let utf16 = |big: bool, skip: usize| -> String {
            let units = bytes
                .get(skip..)
                .unwrap_or_default()
                .chunks_exact(2)
                .map(|p| {
                    if big {
                        u16::from_be_bytes([p[0], p[1]])
                    } else {
                        u16::from_le_bytes([p[0], p[1]])
                    }
                });
            char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect()
        };
        terms.found_in(&String::from_utf8_lossy(bytes))
            || terms.found_in(&latin1)
            || (0..2).any(|skip| {
                terms.found_in(&utf16(true, skip)) || terms.found_in(&utf16(false, skip))
            })
    }

    /// `text` with each occurrence of a term replaced by `with`.
    pub fn replace_in(&self, text: &str, with: &str) -> String {
        let mut out = text.to_string();
        for term in &self.lowered {
            out = replace_ignoring_case(&out, term, with);
        }
        out
    }
}

/// Whether `bytes` spell the ASCII `term` (lowercase) in any case, as single bytes or as
/// UTF-16 units in either byte order.
fn spelled(bytes: &[u8], term: &[u8]) -> bool {
    let n = term.len();
    if n == 0 {
        return false;
    }
    let plain = bytes.windows(n).any(|w| w.eq_ignore_ascii_case(term));
    let wide = |big: bool| {
        bytes.windows(2 * n).any(|w| {
            w.chunks_exact(2).zip(term).all(|(unit, &c)| {
                let (high, low) = if big {
                    (unit[0], unit[1])
                } else {
                    (unit[1], unit[0])
                };
                high == 0 && low.eq_ignore_ascii_case(&c)
            })
        })
    };
    plain || wide(true) || wide(false)
}

/// Replaces every occurrence of `term` (lowercase) in `text`, compared in lowercase.
fn replace_ignoring_case(text: &str, term: &str, with: &str) -> String {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        match matched_length(&chars[i..], term) {
            Some(n) if n > 0 => {
                out.push_str(with);
                i += n;
            }
            _ => {
                out.push(chars[i].1);
                i += 1;
            }
        }
    }
    out
}

/// How many of `chars` spell `term` in lowercase from the start, if they do.
fn matched_length(chars: &[(usize, char)], term: &str) -> Option<usize> {
    let mut wanted = term.chars().peekable();
    let mut used = 0;
    while wanted.peek().is_some() {
        let (_, c) = chars.get(used)?;
        for lower in c.to_lowercase() {
            if wanted.next() != Some(lower) {
                return None;
            }
        }
        used += 1;
    }
    Some(used)
}

/// Cleans the document of `terms`; bookmark titles get `replacement` where a term was.
pub fn clean(doc: &mut Document, terms: &Terms, replacement: &str) -> Cleaned {
    if terms.is_empty() {
        return Cleaned::default();
    }
    let attachments = attachments::remove(doc, terms);
    let bookmarks = bookmarks::retitle(doc, terms, replacement);
    let metadata = metadata::remove(doc, terms) + xfa::remove(doc, terms);
    let destinations = destinations::rename(doc, terms);
    // After the renaming, so that a link to a renamed destination no longer holds the term
    // and keeps working.
    let actions = actions::remove(doc, terms);
    let names = fields::clean(doc, terms, replacement) + fonts::rename(doc, terms);
    Cleaned {
        attachments,
        bookmarks,
        metadata,
        destinations,
        actions,
        names,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_match_and_replace_without_regard_to_case() {
        let terms = Terms::new(&["Jane Doe".into(), " ".into(), "ÉTÉ".into()]);
        assert!(terms.found_in("Report on JANE DOE"));
        assert!(terms.found_in("un été"));
        assert!(!terms.found_in("John"));
        assert_eq!(
            terms.replace_in("To jane doe, from Jane Doe", "[x]"),
            "To [x], from [x]"
        );
        let mut utf16 = vec![0xFE, 0xFF];
        for unit in "Dear Jane Doe".encode_utf16() {
            utf16.extend_from_slice(&unit.to_be_bytes());
        }
        assert!(terms.found_in_bytes(&utf16));
        assert!(terms.found_in_bytes(b"...jane doe..."));
        assert!(!terms.found_in_bytes(b"nothing"));
    }
}
