//! Finding what to redact in the pages' text as PDFium reads it: words and phrases (without
//! regard to case or to the spacing between words), regular expressions, and the support
//! workflow's kinds (e-mail addresses, IP addresses, DOMAIN\user names, host names). Each hit
//! becomes one rectangle per line it spans, around the characters' full height.

use pdfium_render::prelude::*;
use quire_toolbox::redact::Rect;
use regex::{Regex, RegexBuilder};

use super::frame::Frame;
use crate::{
    support::anonymize::{self, Kind},
    workers::protocol::{Failure, FailureKind},
};

/// A compiled pattern may take this much memory: a user's regex never stalls a worker.
const REGEX_SIZE: usize = 1 << 20;
/// Hits in one document, far above a real review list.
pub const MAX_HITS: usize = 20_000;
/// Points added around a hit's characters, so antialiased glyph edges are inside the box.
const PAD: f64 = 0.75;

/// The kinds of the support workflow that a search may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Email,
    IpAddress,
    Account,
    HostName,
}

impl Preset {
    fn takes(self, kind: Kind) -> bool {
        matches!(
            (self, kind),
            (Preset::Email, Kind::Email)
                | (Preset::IpAddress, Kind::Ipv4 | Kind::Ipv6)
                | (Preset::Account, Kind::DomainUser)
                | (Preset::HostName, Kind::Fqdn)
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Preset::Email => "e-mail",
            Preset::IpAddress => "ip-address",
            Preset::Account => "account",
            Preset::HostName => "host-name",
        }
    }
}

/// What to look for, compiled.
pub struct Search {
    /// (what the user typed, its pattern).
    matchers: Vec<(String, Regex)>,
    presets: Vec<Preset>,
}

impl Search {
    pub fn new(
        terms: &[String],
        patterns: &[String],
        presets: Vec<Preset>,
    ) -> Result<Search, Failure> {
        let mut matchers = Vec::new();
        for term in terms.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
            let words: Vec<String> = term.split_whitespace().map(broken_word).collect();
            matchers.push((term.to_owned(), compile(&words.join(r"\s*"), term)?));
        }
        for pattern in patterns.iter().filter(|p| !p.trim().is_empty()) {
            matchers.push((pattern.clone(), compile(pattern, pattern)?));
        }
        Ok(Search { matchers, presets })
    }

    pub fn is_empty(&self) -> bool {
        self.matchers.is_empty() && self.presets.is_empty()
    }
}

/// A word as a pattern that also finds it hyphenated at the end of a line ("exten-" then
/// "sions"): a reader, and poppler's text, read the word whole. Without a hyphen, a line break
/// ends the word ("internal" then "Structures" is no "internals").
fn broken_word(word: &str) -> String {
    let mut pattern = String::new();
    let mut previous: Option<char> = None;
    for c in word.chars() {
        match previous {
            // The word's own hyphen may end a line.
            Some('-' | '\u{2010}') => pattern.push_str(LINE_BREAK),
            Some(_) if c.is_alphanumeric() => pattern.push_str(LINE_END_HYPHEN),
            _ => {}
        }
        pattern.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
        previous = Some(c);
    }
    pattern
}

/// A hyphen (ASCII or Unicode's) and the line break after it, where PDFium did not take the
/// hyphen for a line-end one (U+0002, left out of the page's text: the word is whole there).
const LINE_END_HYPHEN: &str = r"(?:[-\u{2010}]\s*[\r\n]\s*)?";
/// A line break alone.
const LINE_BREAK: &str = r"(?:\s*[\r\n]\s*)?";

fn compile(pattern: &str, shown: &str) -> Result<Regex, Failure> {
    RegexBuilder::new(pattern)
        .case_insensitive(true)
        .size_limit(REGEX_SIZE)
        .build()
        .map_err(|e| {
            Failure::new(
                FailureKind::BadOptions,
                format!("the pattern {shown:?} is not a valid regular expression: {e}"),
            )
        })
}

/// One match: its page (1-based), the text found, what found it, and its rectangles in user
/// space (one per line).
#[derive(Clone, Debug)]
pub struct Hit {
    pub page: u32,
    pub text: String,
    pub by: String,
    pub rects: Vec<Rect>,
}

/// A page's text as one string, with each character's box (None for the spaces and line
/// breaks PDFium adds between words and lines).
pub struct PageText {
    pub text: String,
    /// Per char of `text`: its byte offset and box.
    pub chars: Vec<(usize, Option<Rect>)>,
}

impl PageText {
    pub fn read(page: &PdfPage) -> Result<PageText, Failure> {
        let text = page.text().map_err(|e| {
            Failure::new(
                FailureKind::InvalidFile,
                format!("PDFium could not read the page's text: {e}"),
            )
        })?;
        let mut out = PageText {
            text: String::new(),
            chars: Vec::new(),
        };
        for ch in text.chars().iter() {
            let Some(c) = ch.unicode_char() else {
                continue;
            };
            let generated = ch.is_generated().unwrap_or(false);
            let rect = (!generated)
                .then(|| ch.loose_bounds().ok())
                .flatten()
                .map(|r| Rect {
                    x0: f64::from(r.left().value),
                    y0: f64::from(r.bottom().value),
                    x1: f64::from(r.right().value),
                    y1: f64::from(r.top().value),
                })
                .filter(|r| r.x1 > r.x0 || r.y1 > r.y0);
            if ignorable(c) {
                // Not read, but drawn (a line-end hyphen): its box joins the character
                // before it, so a hit's box covers it too.
                if let (Some(rect), Some((_, Some(previous)))) = (rect, out.chars.last_mut()) {
                    previous.x0 = previous.x0.min(rect.x0);
                    previous.y0 = previous.y0.min(rect.y0);
                    previous.x1 = previous.x1.max(rect.x1);
                    previous.y1 = previous.y1.max(rect.y1);
                }
                continue;
            }
            out.chars.push((out.text.len(), rect));
            out.text.push(c);
        }
        Ok(out)
    }

    /// The boxes of the characters in a byte range, merged into one rectangle per line.
    fn rects(&self, start: usize, end: usize) -> Vec<Rect> {
        let mut lines: Vec<Rect> = Vec::new();
        for rect in self
            .chars
            .iter()
            .filter(|(at, _)| (start..end).contains(at))
            .filter_map(|(_, rect)| *rect)
        {
            match lines.last_mut() {
                Some(line) if same_line(line, &rect) => {
                    line.x0 = line.x0.min(rect.x0);
                    line.y0 = line.y0.min(rect.y0);
                    line.x1 = line.x1.max(rect.x1);
                    line.y1 = line.y1.max(rect.y1);
                }
                _ => lines.push(rect),
            }
        }
        lines
            .into_iter()
            .map(|r| Rect {
                x0: r.x0 - PAD,
                y0: r.y0 - PAD,
                x1: r.x1 + PAD,
                y1: r.y1 + PAD,
            })
            .collect()
    }
}

/// Characters that break a word in PDFium's text without being read: a hyphen that ends a
/// line inside a word (PDFium's character is U+0002; its whole-page text shows U+FFFE), a soft
/// hyphen, zero-width spaces and joiners, the byte order mark. `archi\u{2}tecture` is the word
/// `architecture` to a reader and to pdftotext.
pub fn ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{2}'
            | '\u{AD}'
            | '\u{FFFE}'
            | '\u{FFFF}'
            | '\u{200B}'
            | '\u{200C}'
            | '\u{200D}'
            | '\u{2060}'
            | '\u{FEFF}'
    )
}

/// Two boxes on one line: their vertical extents overlap by half the smaller one, and the
/// second does not start far back (a new line of a rotated or right-to-left run).
fn same_line(a: &Rect, b: &Rect) -> bool {
    let overlap = a.y1.min(b.y1) - a.y0.max(b.y0);
    let smaller = (a.y1 - a.y0).min(b.y1 - b.y0);
    overlap > smaller * 0.5 && b.x0 >= a.x0 - (a.y1 - a.y0)
}

/// Every hit of `search` in the document, page by page.
pub fn find(document: &PdfDocument, search: &Search) -> Result<(Vec<Hit>, Vec<Frame>), Failure> {
    let mut hits = Vec::new();
    let mut frames = Vec::new();
    for (index, page) in document.pages().iter().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        frames.push(Frame::of(&page));
        let text = PageText::read(&page)?;
        for (start, end, by) in matches(&text.text, search) {
            let rects = text.rects(start, end);
            if rects.is_empty() {
                continue;
            }
            hits.push(Hit {
                page: number,
                text: text.text[start..end].to_owned(),
                by,
                rects,
            });
            if hits.len() > MAX_HITS {
                return Err(Failure::new(
                    FailureKind::BadOptions,
                    format!(
                        "the search finds more than {MAX_HITS} places: narrow it, or redact \
                         whole pages with boxes"
                    ),
                ));
            }
        }
    }
    Ok((hits, frames))
}

/// Byte ranges of `text` that the search finds, with what found each.
pub fn matches(text: &str, search: &Search) -> Vec<(usize, usize, String)> {
    let mut found = Vec::new();
    for (shown, regex) in &search.matchers {
        for m in regex
            .find_iter(text)
            .filter(|m| !m.as_str().trim().is_empty())
        {
            found.push((m.start(), m.end(), shown.clone()));
        }
    }
    if !search.presets.is_empty() {
        for item in anonymize::anonymize(text).found {
            if let Some(preset) = search.presets.iter().find(|p| p.takes(item.kind)) {
                found.push((item.start, item.end, preset.name().to_owned()));
            }
        }
    }
    found.sort_by_key(|(start, end, _)| (*start, *end));
    found
}

#[cfg(test)]
mod tests;
