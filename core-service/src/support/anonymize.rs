//! Anonymizer for support-ticket logs: one pass of a combined regex finds candidates for five
//! kinds of sensitive items, code validates each candidate (address parsers, the public-suffix
//! list, look-alike rules), and every accepted item is replaced by a pseudonym that stays the same
//! for the same value within a request (`[IPV4_1]`, `[EMAIL_2]`, ...), so a reader can still
//! follow "the same host failed again".

use std::{
    borrow::Cow,
    net::{Ipv4Addr, Ipv6Addr},
    sync::LazyLock,
};

use foldhash::HashMap;
use regex_automata::meta;

use super::literals::Literals;

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
    let email =
        r"[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9][A-Za-z0-9-]*)+";
    let domain_user = r"(?:NT AUTHORITY|[A-Za-z0-9][A-Za-z0-9.-]*)\\[A-Za-z0-9][A-Za-z0-9._$-]*(?: (?:SERVICE|SYSTEM))?";
    let ipv6 = r"\[?(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f.]*(?:%[A-Za-z0-9_.-]+)?\]?";
    let ipv4 = r"[0-9]+(?:\.[0-9]+)+";
    let fqdn = r"(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z][A-Za-z0-9-]*";
    [
        (Kind::Email, email),
        (Kind::DomainUser, domain_user),
        (Kind::Ipv6, ipv6),
        (Kind::Ipv4, ipv4),
        (Kind::Fqdn, fqdn),
    ]
});

/// All five patterns as one leftmost-first multi-pattern regex (the same matches as their
/// alternation, in the same order of preference), which also says which pattern matched.
/// Searching for spans alone runs on the fast DFA engines, where capture groups would force
/// the slow ones.
static CANDIDATES: LazyLock<meta::Regex> = LazyLock::new(|| {
    let patterns: Vec<&str> = PATTERNS.iter().map(|(_, p)| *p).collect();
    // Give the lazy DFA room, so it does not keep clearing its cache on long logs.
    meta::Regex::builder()
        .configure(meta::Config::new().hybrid_cache_capacity(64 << 20))
        .build_many(&patterns)
        .expect("static pattern")
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

/// The placeholder given to each value so far, across the texts of one request.
#[derive(Debug, Default)]
struct Pseudonyms {
    /// Per kind: key → placeholder.
    given: [HashMap<String, String>; Kind::ALL.len()],
    last_index: [usize; Kind::ALL.len()],
}

impl Pseudonyms {
    fn placeholder(&mut self, kind: Kind, key: &str) -> &str {
        let given = &mut self.given[kind as usize];
        if !given.contains_key(key) {
            let last = &mut self.last_index[kind as usize];
            *last += 1;
            given.insert(key.to_owned(), format!("[{}_{last}]", kind.label()));
        }
        given.get(key).map_or("", String::as_str)
    }
}

/// Replaces every sensitive item of `text` and counts the replacements.
pub fn anonymize(text: &str) -> Anonymized {
    anonymize_all(&[text]).pop().unwrap_or_default()
}

/// An item: its span, its kind, and the key its pseudonym is given by.
type Item<'t> = (usize, usize, Kind, Cow<'t, str>);

/// Anonymizes the texts of one request (the log and the ticket context) together: the same
/// value gets the same placeholder in all of them, and a value judged sensitive in one is
/// masked in the others too.
///
/// Pass one finds and validates candidates. Pass two masks every other literal occurrence of a
/// value pass one judged sensitive (`10.0.0.1` inside `v10.0.0.1`, an address before a colon),
/// so no value that was counted anywhere survives anywhere.
pub fn anonymize_all(texts: &[&str]) -> Vec<Anonymized> {
    let windows: Vec<Vec<(usize, usize)>> = texts.iter().map(|text| windows(text)).collect();
    let mut items: Vec<Vec<Item<'_>>> = texts
        .iter()
        .zip(&windows)
        .map(|(text, windows)| {
            candidates(text, windows)
                .filter_map(|(kind, start, end)| accept(text, kind, start, end))
                .map(|(kind, start, end, key)| (start, end, kind, key))
                .collect()
        })
        .collect();
    let more: Vec<Vec<Item<'static>>> = {
        let mut values: HashMap<&str, (Kind, &str)> = HashMap::default();
        for (text, items) in texts.iter().zip(&items) {
            for (start, end, kind, key) in items {
                values.entry(&text[*start..*end]).or_insert((*kind, key));
            }
        }
        texts
            .iter()
            .zip(&windows)
            .zip(&items)
            .map(|((text, windows), items)| other_occurrences(text, windows, items, &values))
            .collect()
    };
    for (items, more) in items.iter_mut().zip(more) {
        if !more.is_empty() {
            items.extend(more);
            items.sort_by_key(|item| item.0);
        }
    }
    let mut pseudonyms = Pseudonyms::default();
    texts
        .iter()
        .zip(items)
        .map(|(text, items)| replace(text, items, &mut pseudonyms))
        .collect()
}

fn replace(text: &str, items: Vec<Item<'_>>, pseudonyms: &mut Pseudonyms) -> Anonymized {
    let mut out = Anonymized {
        text: String::with_capacity(text.len()),
        ..Default::default()
    };
    let mut copied = 0;
    for (start, end, kind, key) in items {
        out.text.push_str(&text[copied..start]);
        out.text.push_str(pseudonyms.placeholder(kind, &key));
        copied = end;
        out.stats.count(kind);
        out.found.push(Found { kind, start, end });
    }
    out.text.push_str(&text[copied..]);
    out
}

/// What a byte is to the run finder: 0 for a byte no item holds, else ITEM plus the trigger a
/// kind needs (`@`, `\`, `.`, `:`). A match never holds a byte of class 0, except the spaces of
/// `NT AUTHORITY\` and of `\LOCAL SERVICE`.
const ITEM: u8 = 1;
const AT: u8 = 2;
const BACKSLASH: u8 = 4;
const DOT: u8 = 8;
const COLON: u8 = 16;
const TRIGGERS: u8 = AT | BACKSLASH | DOT | COLON;
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = match c {
            b'@' => ITEM | AT,
            b'\\' => ITEM | BACKSLASH,
            b'.' => ITEM | DOT,
            b':' => ITEM | COLON,
            b'_' | b'%' | b'+' | b'-' | b'[' | b']' | b'$' => ITEM,
            _ if c.is_ascii_alphanumeric() => ITEM,
            _ => 0,
        };
        b += 1;
    }
    table
};

fn is_item_byte(b: u8) -> bool {
    CLASS[b as usize] != 0
}

/// Spans of CANDIDATES matches in `windows`: the same as `CANDIDATES.find_iter(text)` gives
/// wherever a match could be accepted, found faster. The text is cut into runs of item bytes (no
/// match crosses a run's edge, see CLASS), and the regex runs only on the runs that hold
/// what some kind needs: `@`, `\`, a dot before a letter or digit, or the colons of an IPv6
/// address (`::` or seven of them). Most of a log is words, times and punctuation, which this
/// skips at the speed of a table lookup per byte.
fn candidates<'t>(
    text: &'t str,
    windows: &'t [(usize, usize)],
) -> impl Iterator<Item = (Kind, usize, usize)> + 't {
    windows.iter().flat_map(move |&(start, end)| {
        CANDIDATES.find_iter(&text[start..end]).map(move |m| {
            (
                PATTERNS[m.pattern().as_usize()].0,
                start + m.start(),
                start + m.end(),
            )
        })
    })
}

/// The runs worth a regex search, as merged windows in text order.
fn windows(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let run_start_before = |mut i: usize| {
        while i > 0 && is_item_byte(bytes[i - 1]) {
            i -= 1;
        }
        i
    };
    let run_end_from = |mut i: usize| {
        while i < n && is_item_byte(bytes[i]) {
            i += 1;
        }
        i
    };
    let mut windows: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < n {
        if !is_item_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let mut start = i;
        // One table lookup per byte; the triggers seen are looked at closely only afterwards,
        // which most runs (words, numbers, dates) never need.
        let mut seen = 0;
        while i < n {
            let class = CLASS[bytes[i] as usize];
            if class == 0 {
                break;
            }
            seen |= class;
            i += 1;
        }
        let mut end = i;
        if seen & TRIGGERS == 0 || !worth_a_search(&bytes[start..end], seen) {
            continue;
        }
        if seen & BACKSLASH != 0 {
            // `NT AUTHORITY\SYSTEM` and `NT AUTHORITY\LOCAL SERVICE`: take in the words around.
            if text[..start].ends_with("NT ") {
                start = run_start_before(start - 1);
            }
            if [" SERVICE", " SYSTEM"]
                .iter()
                .any(|w| text[end..].starts_with(w))
            {
                end = run_end_from(end + 1);
            }
        }
        match windows.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => windows.push((start, end)),
        }
        i = i.max(end);
    }
    windows
}

/// Whether a run with the triggers `seen` holds what some kind needs: `@`, `\`, a dot before a
/// letter or digit, or the colons of an IPv6 address (`::` or seven of them).
fn worth_a_search(run: &[u8], seen: u8) -> bool {
    if seen & (AT | BACKSLASH) != 0 {
        return true;
    }
    if seen & DOT != 0
        && run
            .windows(2)
            .any(|pair| pair[0] == b'.' && pair[1].is_ascii_alphanumeric())
    {
        return true;
    }
    seen & COLON != 0
        && (run.windows(2).any(|pair| pair == b"::")
            || run.iter().filter(|&&b| b == b':').count() >= 7)
}

/// Literal occurrences of `values` in `text` that none of its `items` covers yet. Every value
/// holds a byte that makes a window (a dot before a letter or digit, `@`, `\`, `::` or seven
/// colons), so its occurrences lie in windows; an occurrence that overlaps no item lies in a gap
/// between items. Only those gaps are searched.
fn other_occurrences(
    text: &str,
    windows: &[(usize, usize)],
    items: &[Item<'_>],
    values: &HashMap<&str, (Kind, &str)>,
) -> Vec<Item<'static>> {
    // Leftmost-longest: `10.0.0.10` wins over `10.0.0.1` at the same position.
    let finder = Literals::new(values.keys().copied());
    let mut more = Vec::new();
    let mut search = |from: usize, to: usize| {
        if from >= to {
            return;
        }
        finder.find_all(&text[from..to], |start, end| {
            let (start, end) = (from + start, from + end);
            if let Some((kind, key)) = values.get(&text[start..end]) {
                more.push((start, end, *kind, Cow::Owned((*key).to_owned())));
            }
        });
    };
    let mut next_item = 0;
    for &(window_start, window_end) in windows {
        let mut gap_start = window_start;
        while let Some((start, end, ..)) = items.get(next_item).filter(|i| i.0 < window_end) {
            search(gap_start, *start);
            gap_start = *end;
            next_item += 1;
        }
        search(gap_start, window_end);
    }
    more
}

/// Validates one candidate: its kind, the span to replace, and the key pseudonyms are keyed on.
fn accept(
    text: &str,
    kind: Kind,
    start: usize,
    end: usize,
) -> Option<(Kind, usize, usize, Cow<'_, str>)> {
    let candidate = &text[start..end];
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    match kind {
        Kind::Email => {
            // Inside a longer token (`a@b.c@d`) it is not an address.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '@') {
                return None;
            }
            let (local, domain) = candidate.rsplit_once('@')?;
            if local.len() > 64 || local.ends_with('.') || !is_public_host(domain) {
                return None;
            }
            Some((Kind::Email, start, end, lowercase(candidate)))
        }
        Kind::DomainUser => domain_user(candidate, before)
            .map(|key| (Kind::DomainUser, start, end, Cow::Owned(key))),
        Kind::Ipv6 => ipv6(candidate, start, before, after),
        Kind::Ipv4 => {
            if before.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '-')
                || after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                return None;
            }
            // Strict form is canonical: the text is the key.
            strict_ipv4(candidate)?;
            Some((Kind::Ipv4, start, end, Cow::Borrowed(candidate)))
        }
        Kind::Fqdn => {
            fqdn(text, candidate, start, before, after).map(|key| (Kind::Fqdn, start, end, key))
        }
    }
}

/// Four decimal octets, each 0–255 without a sign or a leading zero beyond `0` itself.
fn strict_ipv4(candidate: &str) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut parts = candidate.split('.');
    for octet in &mut octets {
        let part = parts.next()?;
        if part.is_empty() || part.len() > 3 || (part.len() > 1 && part.starts_with('0')) {
            return None;
        }
        *octet = part.parse().ok()?;
    }
    parts.next().is_none().then_some(Ipv4Addr::from(octets))
}

/// Any form std::net accepts, with an optional zone id; in `[addr]:port` only the address is
/// replaced, the brackets and port stay.
fn ipv6(
    raw: &str,
    start: usize,
    before: Option<char>,
    after: Option<char>,
) -> Option<(Kind, usize, usize, Cow<'static, str>)> {
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
    let key = Cow::Owned(match zone {
        Some(zone) => format!("{parsed}%{zone}"),
        None => parsed.to_string(),
    });
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
    let account = user
        .trim_end_matches(" SERVICE")
        .trim_end_matches(" SYSTEM");
    if !(netbios || dns) || account.is_empty() || account.len() > 64 {
        return None;
    }
    Some(candidate.to_ascii_uppercase())
}

/// A host name: two labels or more, ending in a real public suffix, not a file name, not a
/// reverse-DNS identifier, not a version.
fn fqdn<'t>(
    text: &str,
    name: &'t str,
    start: usize,
    before: Option<char>,
    after: Option<char>,
) -> Option<Cow<'t, str>> {
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
    Some(lowercase(name))
}

/// ASCII lowercase, borrowed when there is nothing to change (most names and addresses).
fn lowercase(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// A name whose suffix is on the public-suffix list and that has a label before it, made of
/// labels of 1 to 63 letters, digits and inner hyphens, 253 bytes in all (RFC 1035).
fn is_public_host(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    if name.len() > 253
        || name.split('.').any(|label| {
            label.is_empty() || label.len() > 63 || label.starts_with('-') || label.ends_with('-')
        })
    {
        return false;
    }
    let name = name.as_bytes();
    // The list is lowercase; most names fit a stack buffer, which spares an allocation per
    // candidate.
    let mut buffer = [0u8; 256];
    let owned;
    let lower: &[u8] = if let Some(slot) = buffer.get_mut(..name.len()) {
        slot.copy_from_slice(name);
        slot.make_ascii_lowercase();
        slot
    } else {
        owned = name.to_ascii_lowercase();
        &owned
    };
    match psl::suffix(lower) {
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
            "NT ",
            "NT AUTHORITY\\LOCAL SERVICE",
            " SYSTEM",
            "1:2:3:4:5:6:7:8",
            "10:14:22",
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
            // The windowed search accepts exactly what a search of the whole text accepts.
            let whole: Vec<_> = CANDIDATES
                .find_iter(&text)
                .filter_map(|m| {
                    let kind = PATTERNS[m.pattern().as_usize()].0;
                    accept(&text, kind, m.start(), m.end())
                })
                .collect();
            let windowed: Vec<_> = candidates(&text, &windows(&text))
                .filter_map(|(kind, start, end)| accept(&text, kind, start, end))
                .collect();
            assert_eq!(windowed, whole, "{text:?}");
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
