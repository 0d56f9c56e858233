//! Finds occurrences of many literal strings (tens of thousands of distinct values from one log)
//! in short stretches of text, leftmost first and longest at each position, as Aho-Corasick's
//! leftmost-longest search does. Built for the anonymizer's second pass, where the set is large
//! and the text to search is small: an automaton over every value costs more to build than the
//! whole search, while indexing values by their first four bytes costs one hash insert each.

use foldhash::HashMap;

/// Bits in the prefix filter: 64 Kib, small enough to stay in the first-level cache.
const FILTER_BITS: usize = 1 << 16;

pub struct Literals<'v> {
    /// Values of four bytes or more by their first four bytes, longest first.
    by_prefix: HashMap<u32, Vec<&'v str>>,
    /// A bit per hashed prefix, so most positions are ruled out without a map lookup.
    filter: Vec<u64>,
    /// Values shorter than four bytes (`::`, `A\b`), longest first.
    short: Vec<&'v str>,
}

impl<'v> Literals<'v> {
    pub fn new(values: impl IntoIterator<Item = &'v str>) -> Self {
        let mut literals = Literals {
            by_prefix: HashMap::default(),
            filter: vec![0; FILTER_BITS / 64],
            short: Vec::new(),
        };
        for value in values {
            match prefix(value.as_bytes()) {
                Some(key) => {
                    let bit = filter_bit(key);
                    literals.filter[bit / 64] |= 1 << (bit % 64);
                    literals.by_prefix.entry(key).or_default().push(value);
                }
                None if !value.is_empty() => literals.short.push(value),
                None => {}
            }
        }
        for values in literals.by_prefix.values_mut() {
            values.sort_unstable_by_key(|v| std::cmp::Reverse(v.len()));
        }
        literals
            .short
            .sort_unstable_by_key(|v| std::cmp::Reverse(v.len()));
        literals
    }

    /// Every non-overlapping occurrence in `text`, as (start, end), leftmost first, the
    /// longest value at each position.
    pub fn find_all(&self, text: &str, mut found: impl FnMut(usize, usize)) {
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            match self.longest_at(&bytes[at..]) {
                Some(len) => {
                    found(at, at + len);
                    at += len;
                }
                None => at += 1,
            }
        }
    }

    fn longest_at(&self, rest: &[u8]) -> Option<usize> {
        let matches = |v: &&&str| rest.starts_with(v.as_bytes());
        if let Some(key) = prefix(rest) {
            let bit = filter_bit(key);
            if self.filter[bit / 64] & (1 << (bit % 64)) != 0
                && let Some(value) = self
                    .by_prefix
                    .get(&key)
                    .and_then(|vs| vs.iter().find(matches))
            {
                return Some(value.len());
            }
        }
        self.short.iter().find(matches).map(|v| v.len())
    }
}

fn prefix(bytes: &[u8]) -> Option<u32> {
    let head: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
    Some(u32::from_le_bytes(head))
}

fn filter_bit(key: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B1) >> 16) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(literals: &Literals<'_>, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        literals.find_all(text, |s, e| out.push(text[s..e].to_owned()));
        out
    }

    #[test]
    fn leftmost_then_longest_without_overlaps() {
        let literals = Literals::new(["10.0.0.1", "10.0.0.10", "::", "A\\b", "0.0.1"]);
        assert_eq!(
            all(&literals, "x10.0.0.10y 10.0.0.1:: A\\bc"),
            ["10.0.0.10", "10.0.0.1", "::", "A\\b"]
        );
    }

    /// The same matches as Aho-Corasick's leftmost-longest search, on random texts.
    #[test]
    fn agrees_with_aho_corasick() {
        let values = [
            "ab", "abc", "abcd", "abcde", "bcd", "cdab", "dd", "d", "cabd",
        ];
        let literals = Literals::new(values);
        let ac = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .build(values)
            .expect("patterns");
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..5000 {
            let text: String = (0..12)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    ['a', 'b', 'c', 'd', 'x'][(state % 5) as usize]
                })
                .collect();
            let expected: Vec<String> = ac
                .find_iter(&text)
                .map(|m| text[m.start()..m.end()].to_owned())
                .collect();
            assert_eq!(all(&literals, &text), expected, "{text:?}");
        }
    }
}
