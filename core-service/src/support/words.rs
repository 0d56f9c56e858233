//! Whole-word keyword matching, shared by the classifier, the log reader and the checks for
//! missing information: one Aho-Corasick automaton, ASCII case folded, longest keyword first.

use aho_corasick::{AhoCorasick, MatchKind};

pub struct Vocabulary {
    matcher: AhoCorasick,
}

impl Vocabulary {
    /// `words` are lowercase; they match ASCII-case-insensitively.
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Self {
        let matcher = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(words)
            .expect("static vocabulary");
        Self { matcher }
    }

    /// A vocabulary of groups of words that share a tag (a level, a service, a category),
    /// with the tag of each word by its index.
    pub fn tagged<T: Copy>(
        groups: impl IntoIterator<Item = (T, &'static [&'static str])>,
    ) -> (Self, Vec<T>) {
        let (words, tags): (Vec<&str>, Vec<T>) = groups
            .into_iter()
            .flat_map(|(tag, words)| words.iter().map(move |word| (*word, tag)))
            .unzip();
        (Self::new(words), tags)
    }

    /// (index of the word, start, end) of every whole-word occurrence, left to right.
    pub fn find_iter<'a>(
        &'a self,
        text: &'a str,
    ) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        self.matcher
            .find_iter(text)
            .filter(move |m| whole_word(text, m.start(), m.end()))
            .map(|m| (m.pattern().as_usize(), m.start(), m.end()))
    }

    /// Whether any word occurs in `text`.
    pub fn any_in(&self, text: &str) -> bool {
        self.find_iter(text).next().is_some()
    }
}

/// Patterns run over whole logs: ASCII classes and case folding keep them on the fast DFA
/// engines (Unicode word boundaries and `\d` would drop them to the slow ones on accented
/// text); their literals may still be any UTF-8.
pub fn ascii_regex(pattern: &str) -> regex::Regex {
    regex::RegexBuilder::new(pattern)
        .unicode(false)
        .build()
        .expect("static pattern")
}

/// A keyword counts only as a whole word: `rame` is not in `parametre`, `ms` not in `items`.
/// A keyword that ends in punctuation (`550 5.`) may run on into the next word.
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let keyword = &text[start..end];
    let open_start = !keyword.chars().next().is_some_and(word);
    let open_end = !keyword.chars().next_back().is_some_and(word);
    (open_start || !text[..start].chars().next_back().is_some_and(word))
        && (open_end || !text[end..].chars().next().is_some_and(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only_and_longest_first() {
        let v = Vocabulary::new(["rame", "ms", "account", "account is locked", "550 5."]);
        let found: Vec<usize> = v
            .find_iter("parametres items; Account is locked; 550 5.1.1; rame")
            .map(|(i, ..)| i)
            .collect();
        assert_eq!(found, vec![3, 4, 0]);
    }
}
