//! What an (already anonymized) log says: how many lines, errors and warnings, the time span,
//! the most telling lines, which service failed, since when and how many attempts were made.

use std::{collections::HashMap, sync::LazyLock};

use chrono::{NaiveDate, NaiveDateTime, TimeDelta};
use regex::Regex;

use super::words::{Vocabulary, ascii_regex};

/// Lines quoted in a summary at most.
const TELLING_LINES: usize = 5;
/// Characters of one quoted line at most.
const LINE_CHARS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Other,
}

/// A point in time as the log wrote it, and as far as it could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub text: String,
    at: NaiveDateTime,
}

/// One distinct message, with how often it came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TellingLine {
    pub level: Level,
    pub text: String,
    pub count: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogFacts {
    pub lines: usize,
    pub errors: usize,
    pub warnings: usize,
    pub first: Option<Stamp>,
    pub last: Option<Stamp>,
    /// When the first error line was written.
    pub first_error: Option<Stamp>,
    pub telling: Vec<TellingLine>,
    /// The service the error lines name most often.
    pub service: Option<String>,
    /// Attempts the log counts itself (`attempt 4/5`, `tentative 3`), or how often the most
    /// frequent error repeats.
    pub attempts: Option<u64>,
}

impl LogFacts {
    /// Time between the first and the last timestamp, when both were read.
    pub fn span(&self) -> Option<TimeDelta> {
        Some(self.last.as_ref()?.at - self.first.as_ref()?.at).filter(|d| *d >= TimeDelta::zero())
    }
}

/// Level words in the order they are looked for: the first one on a line decides (`INFO retry
/// after failed attempt` is not an error).
const LEVELS: &[(Level, &[&str])] = &[
    (
        Level::Error,
        &[
            "error",
            "err",
            "erreur",
            "fatal",
            "critical",
            "crit",
            "severe",
            "emerg",
            "alert",
            "panic",
            "failed",
            "failure",
            "échec",
            "echec",
            "exception",
            "traceback",
            "e/",
        ],
    ),
    (
        Level::Warning,
        &["warn", "warning", "avertissement", "attention", "w/"],
    ),
    (
        Level::Other,
        &[
            "info", "debug", "trace", "notice", "verbose", "i/", "d/", "v/",
        ],
    ),
];

static LEVEL_WORDS: LazyLock<(Vocabulary, Vec<Level>)> =
    LazyLock::new(|| Vocabulary::tagged(LEVELS.iter().copied()));

/// Services and components support tickets name, with the name a reply uses.
const SERVICES: &[(&str, &[&str])] = &[
    (
        "VPN",
        &[
            "vpn",
            "openvpn",
            "anyconnect",
            "wireguard",
            "globalprotect",
            "forticlient",
            "ipsec",
        ],
    ),
    (
        "DNS",
        &[
            "dns",
            "nxdomain",
            "servfail",
            "name resolution",
            "résolution de nom",
        ],
    ),
    ("DHCP", &["dhcp"]),
    (
        "LDAP / Active Directory",
        &["ldap", "active directory", "kerberos", "ntlm"],
    ),
    ("SSO", &["sso", "saml", "oauth", "oidc", "openid"]),
    ("SMTP", &["smtp"]),
    ("IMAP", &["imap", "pop3"]),
    ("Exchange / Outlook", &["exchange", "outlook"]),
    ("PostgreSQL", &["postgres", "postgresql", "psql"]),
    ("MySQL", &["mysql", "mariadb"]),
    ("SQL Server", &["sql server", "mssql"]),
    ("Redis", &["redis"]),
    ("MongoDB", &["mongodb", "mongo"]),
    ("Elasticsearch", &["elasticsearch"]),
    ("nginx", &["nginx"]),
    ("Apache", &["apache", "httpd"]),
    ("proxy", &["proxy"]),
    (
        "TLS",
        &["tls", "ssl", "certificate", "certificat", "handshake"],
    ),
    ("OneDrive / SharePoint", &["onedrive", "sharepoint"]),
    ("Teams", &["teams"]),
    ("backup", &["backup", "sauvegarde"]),
    ("printer", &["printer", "imprimante", "spooler"]),
    ("payment", &["payment", "paiement", "stripe", "paypal"]),
    ("database", &["database", "base de données", "db"]),
    ("API", &["api"]),
    ("disk", &["disk", "disque", "no space left", "enospc"]),
];

static SERVICE_WORDS: LazyLock<(Vocabulary, Vec<&'static str>)> =
    LazyLock::new(|| Vocabulary::tagged(SERVICES.iter().copied()));

/// `service=auth-api`, `component: billing`, `sshd.service`.
static NAMED_COMPONENT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r#"(?i)(?:\b(?:service|svc|component|module|unit|app)\s*[=:]\s*"?([A-Za-z][\w.-]{1,40})|\b([A-Za-z][\w-]{1,40})\.service\b)"#,
    )
});

/// `attempt 3`, `attempt 3/5`, `retry #4`, `tentative 2 sur 5`, `essai n°3`.
static ATTEMPT: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(
        r"(?i)\b(?:attempt|attempts|try|retry|retrying|tentative|essai)\s*(?:#|n°|no\.?|number)?\s*(\d{1,4})\b",
    )
});

/// ISO 8601 and its common relatives, day-first dates with a time, syslog's `Mar 12 10:14:22`,
/// and a bare time at the start of a line.
static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    ascii_regex(concat!(
        r"(?:(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[T ](?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?)",
        r"|(?:(?P<d2>\d{2})/(?P<mo2>\d{2})/(?P<y2>\d{4})[ ,T]+(?P<h2>\d{2}):(?P<mi2>\d{2})(?::(?P<s2>\d{2}))?)",
        r"|(?:\b(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +(?P<d3>\d{1,2}) (?P<h3>\d{2}):(?P<mi3>\d{2}):(?P<s3>\d{2}))",
        r"|(?:^\[?(?P<h4>\d{2}):(?P<mi4>\d{2}):(?P<s4>\d{2}))",
    ))
});

/// Reads the facts of an anonymized log in one pass over its lines.
pub fn read(log: &str) -> LogFacts {
    let mut facts = LogFacts::default();
    // Distinct messages: normalized key → (index in `messages`).
    let mut distinct: HashMap<String, usize> = HashMap::new();
    let mut messages: Vec<(Level, String, usize, usize)> = Vec::new(); // level, text, count, order
    let mut services: HashMap<String, (usize, usize)> = HashMap::new(); // count, first
    let mut most_attempts: Option<u64> = None;

    for line in log.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        facts.lines += 1;
        let caps = TIMESTAMP.captures(line);
        let stamp = caps.as_ref().and_then(timestamp);
        if let Some(stamp) = &stamp {
            if facts.first.is_none() {
                facts.first = Some(stamp.clone());
            }
            facts.last = Some(stamp.clone());
        }
        let level = level(line);
        match level {
            Level::Error => facts.errors += 1,
            Level::Warning => facts.warnings += 1,
            Level::Other => continue,
        }
        if level == Level::Error && facts.first_error.is_none() {
            facts.first_error = stamp.or_else(|| facts.last.clone());
        }
        // Two lines are the same message whatever time they were written at.
        let message = match caps.as_ref().and_then(|c| c.get(0)) {
            Some(m) if m.start() < 4 => &line[m.end()..],
            _ => line,
        };
        let key = message_key(message);
        let order = messages.len();
        let index = *distinct.entry(key).or_insert_with(|| {
            messages.push((level, quote(line), 0, order));
            order
        });
        messages[index].2 += 1;
        if level == Level::Error {
            for name in services_named(line) {
                let seen = services.len();
                services.entry(name).or_insert((0, seen)).0 += 1;
            }
            for caps in ATTEMPT.captures_iter(line) {
                let n = caps[1].parse::<u64>().unwrap_or(0);
                most_attempts = Some(most_attempts.unwrap_or(0).max(n));
            }
        }
    }

    // Errors first, the most repeated first, then in order of appearance.
    messages.sort_by_key(|(level, _, count, order)| {
        (*level != Level::Error, usize::MAX - count, *order)
    });
    let top_repeats = messages
        .first()
        .filter(|m| m.0 == Level::Error && m.2 > 1)
        .map(|m| m.2 as u64);
    facts.attempts = most_attempts.or(top_repeats);
    facts.telling = messages
        .into_iter()
        .take(TELLING_LINES)
        .map(|(level, text, count, _)| TellingLine { level, text, count })
        .collect();
    facts.service = services
        .into_iter()
        .max_by_key(|(_, (count, first))| (*count, usize::MAX - first))
        .map(|(name, _)| name);
    facts
}

fn level(line: &str) -> Level {
    let (words, levels) = &*LEVEL_WORDS;
    words
        .find_iter(line)
        .next()
        .map_or(Level::Other, |(index, ..)| levels[index])
}

/// Services a line names: the one it names explicitly (`service=billing-api`), else the known
/// ones its words mention.
fn services_named(line: &str) -> Vec<String> {
    if let Some(caps) = NAMED_COMPONENT.captures(line)
        && let Some(name) = caps.get(1).or_else(|| caps.get(2))
    {
        return vec![name.as_str().to_ascii_lowercase()];
    }
    let (words, names) = &*SERVICE_WORDS;
    let mut found: Vec<String> = words
        .find_iter(line)
        .map(|(i, ..)| names[i].to_owned())
        .collect();
    found.dedup();
    found
}

/// The time a TIMESTAMP match stands for, when it is a real date and time.
fn timestamp(caps: &regex::Captures<'_>) -> Option<Stamp> {
    let num = |name: &str| caps.name(name).and_then(|m| m.as_str().parse::<u32>().ok());
    let text = caps.get(0)?.as_str().trim_start_matches('[').to_owned();
    let date_time = |y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32| {
        NaiveDate::from_ymd_opt(y, mo, d)?.and_hms_opt(h, mi, s)
    };
    let at = if let Some(y) = num("y") {
        date_time(
            y as i32,
            num("mo")?,
            num("d")?,
            num("h")?,
            num("mi")?,
            num("s").unwrap_or(0),
        )
    } else if let Some(y) = num("y2") {
        // Day first as in France, unless that cannot be a date (US month first).
        let (a, b) = (num("d2")?, num("mo2")?);
        let (d, mo) = if b <= 12 { (a, b) } else { (b, a) };
        date_time(
            y as i32,
            mo,
            d,
            num("h2")?,
            num("mi2")?,
            num("s2").unwrap_or(0),
        )
    } else if let Some(mon) = caps.name("mon") {
        // Syslog has no year: a leap year keeps Feb 29 valid; spans stay right within a year.
        let month = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ]
        .iter()
        .position(|m| *m == mon.as_str())? as u32
            + 1;
        date_time(2000, month, num("d3")?, num("h3")?, num("mi3")?, num("s3")?)
    } else {
        date_time(2000, 1, 1, num("h4")?, num("mi4")?, num("s4")?)
    }?;
    Some(Stamp { text, at })
}

/// What makes two lines "the same message": the line (without its timestamp), digits folded,
/// so `retry 3` and `retry 4` of one failure count as one message seen twice.
fn message_key(rest: &str) -> String {
    let mut key = String::with_capacity(rest.len());
    let mut in_digits = false;
    for c in rest.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                key.push('#');
            }
            in_digits = true;
        } else {
            in_digits = false;
            key.push(c.to_ascii_lowercase());
        }
    }
    key
}

/// A line as a summary quotes it: at most LINE_CHARS characters.
fn quote(line: &str) -> String {
    match line.char_indices().nth(LINE_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
2024-03-12 10:14:22 INFO vpn client starting
2024-03-12 10:14:23 ERROR vpn: auth failed for [DOMAIN_USER_1] from [IPV4_1] (attempt 1/5)
2024-03-12 10:15:23 ERROR vpn: auth failed for [DOMAIN_USER_1] from [IPV4_1] (attempt 2/5)
2024-03-12 10:16:23 WARN dns: slow answer from [IPV4_2]
2024-03-12 10:17:23 ERROR vpn: auth failed for [DOMAIN_USER_1] from [IPV4_1] (attempt 3/5)
2024-03-12 11:02:10 INFO retry after failed attempt scheduled
";

    #[test]
    fn counts_levels_span_and_attempts() {
        let facts = read(LOG);
        assert_eq!((facts.lines, facts.errors, facts.warnings), (6, 3, 1));
        assert_eq!(facts.first.as_ref().unwrap().text, "2024-03-12 10:14:22");
        assert_eq!(
            facts.first_error.as_ref().unwrap().text,
            "2024-03-12 10:14:23"
        );
        assert_eq!(facts.span(), Some(TimeDelta::seconds(47 * 60 + 48)));
        assert_eq!(facts.service.as_deref(), Some("VPN"));
        assert_eq!(facts.attempts, Some(3));
    }

    #[test]
    fn telling_lines_are_errors_first_and_deduplicated() {
        let facts = read(LOG);
        assert_eq!(facts.telling.len(), 2);
        assert_eq!(facts.telling[0].level, Level::Error);
        assert_eq!(facts.telling[0].count, 3);
        assert!(facts.telling[0].text.contains("auth failed"));
        assert_eq!(facts.telling[1].level, Level::Warning);
    }

    #[test]
    fn reads_other_timestamp_shapes() {
        for (line, text) in [
            ("12/03/2024 10:14:22 erreur", "12/03/2024 10:14:22"),
            ("Mar 12 10:14:22 host sshd[1]: error", "Mar 12 10:14:22"),
            ("[10:14:22] E/app: boom", "10:14:22"),
            (
                "{\"ts\":\"2024-03-12T10:14:22Z\",\"level\":\"error\"}",
                "2024-03-12T10:14:22",
            ),
        ] {
            let facts = read(line);
            assert_eq!(facts.first.map(|s| s.text).as_deref(), Some(text), "{line}");
            assert_eq!(facts.errors, 1, "{line}");
        }
    }

    #[test]
    fn repeats_stand_in_for_attempts_and_named_components_count() {
        let log = "ERROR service=billing-api timeout\nERROR service=billing-api timeout\n";
        let facts = read(log);
        assert_eq!(facts.attempts, Some(2));
        assert_eq!(facts.service.as_deref(), Some("billing-api"));
    }
}
