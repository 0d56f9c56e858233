//! Anonymizer for support-ticket logs: one pass of a combined regex finds candidates for five
//! kinds of sensitive items, code validates each candidate (address parsers, the public-suffix
//! list, look-alike rules), and every accepted item is replaced by a pseudonym that stays the same
//! for the same value within a request (`[IPV4_1]`, `[EMAIL_2]`, ...), so a reader can still
//! follow "the same host failed again".

use std::{
    collections::HashMap,
    net::{Ipv4Addr, Ipv6Addr},
    sync::LazyLock,
};

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Ipv4,
    Ipv6,
    Email,
    DomainUser,
    Fqdn,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Ipv4,
        Kind::Ipv6,
        Kind::Email,
        Kind::DomainUser,
        Kind::Fqdn,
    ];

    fn label(self) -> &'static str {
        match self {
            Kind::Ipv4 => "IPV4",
            Kind::Ipv6 => "IPV6",
            Kind::Email => "EMAIL",
            Kind::DomainUser => "DOMAIN_USER",
            Kind::Fqdn => "FQDN",
        }
    }
}

/// Occurrences replaced, per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub ipv4: u64,
    pub ipv6: u64,
    pub email: u64,
    pub domain_user: u64,
    pub fqdn: u64,
}

impl Stats {
    pub fn total(&self) -> u64 {
        self.ipv4 + self.ipv6 + self.email + self.domain_user + self.fqdn
    }

    fn count(&mut self, kind: Kind) {
        match kind {
            Kind::Ipv4 => self.ipv4 += 1,
            Kind::Ipv6 => self.ipv6 += 1,
            Kind::Email => self.email += 1,
            Kind::DomainUser => self.domain_user += 1,
            Kind::Fqdn => self.fqdn += 1,
        }
    }
}

/// One replaced item: where it was in the input, what it was, what replaced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    pub placeholder: String,
}

#[derive(Debug, Default)]
pub struct Anonymized {
    pub text: String,
    pub stats: Stats,
    pub found: Vec<Found>,
}

/// The candidate patterns, tried left to right at each position (leftmost-first): e-mail before
/// host name so an address's domain stays part of the address; IPv6 before IPv4 so an
/// IPv4-mapped address is one item.
static PATTERNS: LazyLock<[(Kind, &'static str); 5]> = LazyLock::new(|| {
    let email = r"[A-Za-z0-9](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+";
    let domain_user = r"(?:NT AUTHORITY|[A-Za-z0-9][A-Za-z0-9.-]{0,62})\\(?:[A-Za-z0-9][A-Za-z0-9._$-]{0,63}(?: (?:SERVICE|SYSTEM))?)";
    let ipv6 = r"\[?(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f.]*(?:%[A-Za-z0-9_.-]+)?\]?";
    let ipv4 = r"\d+(?:\.\d+)+";
    let fqdn = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{0,62}";
    [
        (Kind::Email, email),
        (Kind::DomainUser, domain_user),
        (Kind::Ipv6, ipv6),
        (Kind::Ipv4, ipv4),
        (Kind::Fqdn, fqdn),
    ]
});

/// All five patterns as one alternation: `find_iter` on it runs on the fast DFA engines, where
/// capture groups would force the slow ones over the whole log.
static CANDIDATES: LazyLock<Regex> = LazyLock::new(|| {
    let alternation: Vec<&str> = PATTERNS.iter().map(|(_, p)| *p).collect();
    // The bounded repetitions of host labels make a large automaton: give the lazy DFA room so
    // it does not keep clearing its cache on long logs.
    regex::RegexBuilder::new(&alternation.join("|"))
        .dfa_size_limit(64 << 20)
        .build()
        .expect("static pattern")
});

/// Each pattern anchored, to tell which alternative produced a match (the first that matches
/// the whole span, as leftmost-first alternation would have chosen).
static ANCHORED: LazyLock<Vec<(Kind, Regex)>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|(kind, p)| {
            (
                *kind,
                Regex::new(&format!("^(?:{p})$")).expect("static pattern"),
            )
        })
        .collect()
});

/// File extensions that are also country-code TLDs (.md, .py, .rs, .sh, ...): `README.md` is a
/// file, not a host. Such two-label names count as host names only in a URL or after `@`.
const FILE_EXTENSIONS: &[&str] = &[
    "md", "py", "rs", "sh", "pl", "js", "ts", "cs", "go", "rb", "php", "java", "kt", "sql", "so",
    "ps", "ai", "zip", "gz", "xz", "tar", "rar", "ini", "cfg", "conf", "yml", "yaml", "json",
    "xml", "csv", "txt", "log", "pdf", "doc", "docx", "xls", "xlsx", "png", "jpg", "gif", "bin",
    "dll", "exe", "class", "jar", "lock", "toml", "mk", "am", "in", "bz", "lz", "cc", "cx", "pm",
    "tf", "nu", "sc", "st", "sv", "vb", "ml",
];

/// First labels of reverse-DNS identifiers (`com.acme.billing.InvoiceService`, `org.apache.io`).
const REVERSE_DNS_ROOTS: &[&str] = &[
    "com", "org", "net", "io", "java", "javax", "android", "kotlin", "scala", "edu", "gov",
];

/// Replaces every sensitive item of `text` and counts the replacements.
///
/// Pass one finds and validates candidates. Pass two masks every other literal occurrence of a
/// value pass one judged sensitive (`10.0.0.1` inside `v10.0.0.1`, an address before a colon),
/// so no value that was counted anywhere survives anywhere.
pub fn anonymize(text: &str) -> Anonymized {
    let mut items: Vec<(usize, usize, Kind, String)> = CANDIDATES
        .find_iter(text)
        .filter_map(|m| accept(text, m.start(), m.end()))
        .map(|(kind, start, end, key)| (start, end, kind, key))
        .collect();
    if let Some(more) = other_occurrences(text, &items) {
        items.extend(more);
        items.sort_by_key(|item| item.0);
    }

    let mut out = Anonymized {
        text: String::with_capacity(text.len()),
        ..Default::default()
    };
    let mut pseudonyms: HashMap<(Kind, String), usize> = HashMap::new();
    let mut next_index: HashMap<Kind, usize> = HashMap::new();
    let mut copied = 0;
    for (start, end, kind, key) in items {
        let index = *pseudonyms.entry((kind, key)).or_insert_with(|| {
            let next = next_index.entry(kind).or_insert(0);
            *next += 1;
            *next
        });
        let placeholder = format!("[{}_{index}]", kind.label());
        out.text.push_str(&text[copied..start]);
        out.text.push_str(&placeholder);
        copied = end;
        out.stats.count(kind);
        out.found.push(Found {
            kind,
            start,
            end,
            placeholder,
        });
    }
    out.text.push_str(&text[copied..]);
    out
}

/// Literal occurrences of the values in `items` that no item covers yet.
fn other_occurrences(
    text: &str,
    items: &[(usize, usize, Kind, String)],
) -> Option<Vec<(usize, usize, Kind, String)>> {
    let mut values: HashMap<&str, (Kind, &str)> = HashMap::new();
    for (start, end, kind, key) in items {
        values.entry(&text[*start..*end]).or_insert((*kind, key));
    }
    let literals: Vec<&str> = values.keys().copied().collect();
    // Leftmost-longest: `10.0.0.10` wins over `10.0.0.1` at the same position.
    let finder = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&literals)
        .ok()?;
    // Pass-one items are in text order and do not overlap: the first one ending after `start`
    // is the only one that can overlap [start, end).
    let covered = |start: usize, end: usize| {
        let i = items.partition_point(|(_, e, ..)| *e <= start);
        items.get(i).is_some_and(|(s, ..)| *s < end)
    };
    let more: Vec<_> = finder
        .find_iter(text)
        .filter(|m| !covered(m.start(), m.end()))
        .filter_map(|m| {
            let (kind, key) = values.get(&text[m.start()..m.end()])?;
            Some((m.start(), m.end(), *kind, (*key).to_owned()))
        })
        .collect();
    (!more.is_empty()).then_some(more)
}

/// Validates one candidate: its kind, the span to replace, and the key pseudonyms are keyed on.
fn accept(text: &str, start: usize, end: usize) -> Option<(Kind, usize, usize, String)> {
    let candidate = &text[start..end];
    let kind = ANCHORED
        .iter()
        .find(|(_, re)| re.is_match(candidate))
        .map(|(kind, _)| *kind)?;
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    match kind {
        Kind::Email => {
            // Inside a longer token (`a@b.c@d`) it is not an address.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '@') {
                return None;
            }
            let domain = candidate.rsplit_once('@')?.1;
            let key = candidate.to_lowercase();
            is_public_host(domain).then_some((Kind::Email, start, end, key))
        }
        Kind::DomainUser => {
            domain_user(candidate, before).map(|key| (Kind::DomainUser, start, end, key))
        }
        Kind::Ipv6 => ipv6(candidate, start, before, after),
        Kind::Ipv4 => {
            if before.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '-')
                || after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                return None;
            }
            let addr: Ipv4Addr = strict_ipv4(candidate)?;
            Some((Kind::Ipv4, start, end, addr.to_string()))
        }
        Kind::Fqdn => {
            fqdn(text, candidate, start, before, after).map(|key| (Kind::Fqdn, start, end, key))
        }
    }
}

/// Four decimal octets, each 0–255 without a sign or a leading zero beyond `0` itself.
fn strict_ipv4(candidate: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = candidate.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut octets = [0u8; 4];
    for (octet, part) in octets.iter_mut().zip(&parts) {
        if part.is_empty() || part.len() > 3 || (part.len() > 1 && part.starts_with('0')) {
            return None;
        }
        *octet = part.parse().ok()?;
    }
    Some(Ipv4Addr::from(octets))
}

/// Any form std::net accepts, with an optional zone id; in `[addr]:port` only the address is
/// replaced, the brackets and port stay.
fn ipv6(
    raw: &str,
    start: usize,
    before: Option<char>,
    after: Option<char>,
) -> Option<(Kind, usize, usize, String)> {
    if before.is_some_and(|c| c.is_alphanumeric() || c == ':' || c == '_') {
        return None; // std::vector, or the middle of a longer token
    }
    let open = usize::from(raw.starts_with('['));
    let close = usize::from(raw.ends_with(']'));
    let mut inner = &raw[open..raw.len() - close];
    // A colon or dot right after an address ends the clause (`fe80::1: unreachable`), unless it
    // completes a `::`.
    if close == 0 {
        while (inner.ends_with(':') && !inner.ends_with("::")) || inner.ends_with('.') {
            inner = &inner[..inner.len() - 1];
        }
    }
    if after.is_some_and(|c| c.is_alphanumeric() || c == '_') && inner.len() + open == raw.len() {
        return None;
    }
    let (addr, zone) = match inner.split_once('%') {
        Some((addr, zone)) => (addr, Some(zone)),
        None => (inner, None),
    };
    let parsed: Ipv6Addr = addr.parse().ok()?;
    // Require a real address shape: at least one `::` or all eight groups, which rules out
    // times (10:14:22) and MAC addresses (00:1A:2B:3C:4D:5E) as well.
    if !addr.contains("::") && addr.split(':').count() != 8 && !addr.contains('.') {
        return None;
    }
    let key = match zone {
        Some(zone) => format!("{parsed}%{zone}"),
        None => parsed.to_string(),
    };
    let span_start = start + open;
    Some((Kind::Ipv6, span_start, span_start + inner.len(), key))
}

/// `DOMAIN\user`: a NetBIOS domain in capitals (`CORP\jdoe`), a DNS-style domain with a public
/// suffix (`corp.example.com\jdoe`), or `NT AUTHORITY\...`. Not a path segment (`C:\Users\x`,
/// `%SYSTEMROOT%\system32`) and not a lowercase word before an escape sequence (`token\nat`).
fn domain_user(candidate: &str, before: Option<char>) -> Option<String> {
    if before.is_some_and(|c| {
        c.is_alphanumeric() || matches!(c, '\\' | '/' | ':' | '%' | '.' | '-' | '_')
    }) {
        return None;
    }
    let (domain, user) = candidate.split_once('\\')?;
    let netbios = domain == "NT AUTHORITY"
        || (domain.len() <= 15
            && domain.chars().any(|c| c.is_ascii_uppercase())
            && domain
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-'));
    let dns = domain.contains('.') && is_public_host(domain);
    if !(netbios || dns) || user.is_empty() {
        return None;
    }
    Some(candidate.to_uppercase())
}

/// A host name: two labels or more, ending in a real public suffix, not a file name, not a
/// reverse-DNS identifier, not a version.
fn fqdn(
    text: &str,
    name: &str,
    start: usize,
    before: Option<char>,
    after: Option<char>,
) -> Option<String> {
    if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '\\' | '$')) {
        return None;
    }
    if after.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '(' | '$')) {
        return None; // a method call (`foo.bar()`) or the middle of a longer token
    }
    if !is_public_host(name) {
        return None;
    }
    let labels: Vec<&str> = name.split('.').collect();
    let first = labels.first()?.to_ascii_lowercase();
    let last = labels.last()?.to_ascii_lowercase();
    let in_url = text[..start].ends_with("://") || text[..start].ends_with('@');
    if labels.len() == 2 && FILE_EXTENSIONS.contains(&last.as_str()) && !in_url {
        return None;
    }
    if labels.len() >= 3 && REVERSE_DNS_ROOTS.contains(&first.as_str()) && !in_url {
        return None;
    }
    // Qualified names in code: CamelCase labels (NullPointerException) are not hosts.
    if labels.iter().any(|l| {
        l.chars().skip(1).any(|c| c.is_ascii_uppercase())
            && l.chars().any(|c| c.is_ascii_lowercase())
    }) {
        return None;
    }
    Some(name.to_ascii_lowercase())
}

/// A name whose suffix is on the public-suffix list and that has a label before it.
fn is_public_host(name: &str) -> bool {
    let lower = name.trim_end_matches('.').to_ascii_lowercase();
    match psl::suffix(lower.as_bytes()) {
        Some(suffix) if suffix.is_known() => lower.len() > suffix.as_bytes().len() + 1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (String, Stats) {
        let out = anonymize(text);
        (out.text, out.stats)
    }

    #[test]
    fn same_value_same_placeholder() {
        let (text, stats) = run("10.0.0.1 down, 10.0.0.2 up, 10.0.0.1 down again");
        assert_eq!(text, "[IPV4_1] down, [IPV4_2] up, [IPV4_1] down again");
        assert_eq!(stats.ipv4, 3);
        assert_eq!(stats.total(), 3);
    }

    #[test]
    fn suffixes_stay_and_brackets_stay() {
        let (text, _) = run("from 192.168.1.10:8443 and 10.0.0.0/8 via [2001:db8::1]:443");
        assert_eq!(text, "from [IPV4_1]:8443 and [IPV4_2]/8 via [[IPV6_1]]:443");
    }

    #[test]
    fn the_domain_of_an_email_is_not_an_fqdn() {
        let (text, stats) = run("mail <Jane.Doe+ops@mail.Example.co.uk> or mailto:x@y.org");
        assert_eq!(text, "mail <[EMAIL_1]> or mailto:[EMAIL_2]");
        assert_eq!((stats.email, stats.fqdn), (2, 0));
    }

    /// Random mixes of item-like fragments, separators and multi-byte text: never panics,
    /// and no replaced item survives in the output.
    #[test]
    fn random_logs_never_panic_and_never_leak_counted_items() {
        const PARTS: &[&str] = &[
            "10.0.0.1",
            "255.",
            "1.2.3",
            "::",
            "fe80::1",
            "%eth0",
            "[",
            "]",
            ":443",
            "2001:db8::",
            "a@b.com",
            "x.y@z.org",
            "@",
            "CORP\\",
            "jdoe",
            "NT AUTHORITY\\SYSTEM",
            "\\",
            "api.example.com",
            ".",
            "..",
            "README.md",
            "java.lang.X",
            "é",
            "日本",
            "🦀",
            " ",
            "\n",
            "/",
            "-",
            "_",
            "0",
            "9",
            "ff",
            ":",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut replaced = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..1 + next() % 12 {
                text.push_str(PARTS[(next() % PARTS.len() as u64) as usize]);
            }
            let out = anonymize(&text);
            assert_eq!(out.stats.total() as usize, out.found.len());
            replaced += out.found.len();
            for f in &out.found {
                let item = &text[f.start..f.end];
                assert!(
                    !out.text.contains(item),
                    "{item:?} survives in {:?} (from {text:?})",
                    out.text
                );
            }
        }
        assert!(
            replaced > 1000,
            "the generator must produce items, got {replaced}"
        );
    }
}
