//! Which facts a support agent needs for a category, and which of them the ticket does not
//! give yet: the draft reply asks for exactly those.

use std::sync::LazyLock;

use regex::Regex;

use super::{
    classify::Category,
    log_facts::LogFacts,
    words::{Vocabulary, ascii_regex as regex},
};

/// One piece of information a reply may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// When the problem started.
    Since,
    /// The exact error message.
    ErrorMessage,
    /// The operating system or device.
    System,
    /// The version of the application or client.
    Version,
    /// Whether other people are affected.
    Scope,
    /// What the user did right before.
    Steps,
    /// Wi-Fi, cable, mobile; at home, at the office.
    Connection,
    /// The account concerned (its identifier, never its password).
    Account,
    /// The mail program (Outlook, Thunderbird, webmail, phone).
    MailClient,
    /// The bounce message with its code (`550 5.1.1`).
    Bounce,
    /// The invoice number.
    Invoice,
    /// The amount and date of the payment.
    Amount,
    /// The sizes involved (file, disk, quota).
    Sizes,
    /// How long the slow operations take.
    Durations,
}

/// What to ask for, per category, most useful first.
fn needs(category: Category) -> &'static [Need] {
    use Need::*;
    match category {
        Category::Authentication => &[Account, ErrorMessage, Since, Scope],
        Category::Network => &[Since, ErrorMessage, Connection, System, Scope],
        Category::Performance => &[Since, Durations, Scope, System],
        Category::Storage => &[ErrorMessage, Sizes, Since],
        Category::Email => &[Since, MailClient, Bounce, Scope],
        Category::Crash => &[ErrorMessage, Version, System, Steps],
        Category::Billing => &[Invoice, Amount, Account],
        Category::Other => &[ErrorMessage, Since, Steps],
    }
}

/// Everything the ticket says: the facts of the log and the anonymized texts.
pub struct Evidence<'a> {
    pub facts: &'a LogFacts,
    pub log: &'a str,
    pub context: &'a str,
}

impl Evidence<'_> {
    fn any(&self, vocabulary: &Vocabulary) -> bool {
        vocabulary.any_in(self.context) || vocabulary.any_in(self.log)
    }

    fn matches(&self, pattern: &Regex) -> bool {
        pattern.is_match(self.context) || pattern.is_match(self.log)
    }
}

/// The needs of `category` that the ticket leaves open, most useful first.
pub fn missing(category: Category, evidence: &Evidence<'_>) -> Vec<Need> {
    needs(category)
        .iter()
        .copied()
        .filter(|need| !given(*need, evidence))
        .collect()
}

fn given(need: Need, e: &Evidence<'_>) -> bool {
    match need {
        Need::Since => e.facts.first.is_some() || e.any(&SINCE_WORDS) || e.matches(&CLOCK_TIME),
        Need::ErrorMessage => e.facts.errors + e.facts.warnings > 0 || e.matches(&QUOTED),
        Need::System => e.any(&SYSTEMS),
        Need::Version => e.matches(&VERSION),
        Need::Scope => e.any(&SCOPE_WORDS),
        Need::Steps => e.any(&STEPS_WORDS),
        Need::Connection => e.any(&CONNECTION_WORDS),
        Need::Account => {
            ["[EMAIL_", "[DOMAIN_USER_"]
                .iter()
                .any(|p| e.context.contains(p) || e.log.contains(p))
                || e.any(&ACCOUNT_WORDS)
        }
        Need::MailClient => e.any(&MAIL_CLIENTS),
        Need::Bounce => e.matches(&BOUNCE_CODE) || e.any(&BOUNCE_WORDS),
        Need::Invoice => e.matches(&INVOICE_NUMBER),
        Need::Amount => e.matches(&AMOUNT),
        Need::Sizes => e.matches(&SIZE),
        Need::Durations => e.matches(&DURATION),
    }
}

static SINCE_WORDS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "since",
        "depuis",
        "yesterday",
        "hier",
        "this morning",
        "ce matin",
        "today",
        "aujourd'hui",
        "tonight",
        "ce soir",
        "last week",
        "la semaine dernière",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "lundi",
        "mardi",
        "mercredi",
        "jeudi",
        "vendredi",
        "samedi",
        "dimanche",
        "started",
        "a commencé",
    ])
});
static CLOCK_TIME: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"\b\d{1,2}(?:h\d{0,2}|:\d{2})\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
});
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| regex(r#"(?i)(?:error|erreur|message)\s*:?\s*(?:"|«|“|')"#));
static SYSTEMS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "windows",
        "win10",
        "win11",
        "macos",
        "mac os",
        "os x",
        "linux",
        "ubuntu",
        "debian",
        "fedora",
        "red hat",
        "rhel",
        "centos",
        "ios",
        "ipados",
        "android",
        "iphone",
        "ipad",
        "chromeos",
        "chromebook",
        "macbook",
    ])
});
static VERSION: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\b(?:version|vers\.|v|build|release)\s*:?\s*\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)+\b")
});
static SCOPE_WORDS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "all users",
        "every user",
        "everyone",
        "nobody else",
        "only me",
        "just me",
        "colleagues",
        "colleague",
        "whole team",
        "other users",
        "several users",
        "tous les utilisateurs",
        "tout le monde",
        "personne d'autre",
        "seulement moi",
        "que moi",
        "collègues",
        "collègue",
        "toute l'équipe",
        "autres utilisateurs",
        "plusieurs utilisateurs",
        "tout le service",
    ])
});
static STEPS_WORDS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "steps",
        "to reproduce",
        "when i",
        "after i",
        "after clicking",
        "every time i",
        "étapes",
        "reproduire",
        "quand je",
        "lorsque je",
        "après avoir",
        "en cliquant",
        "à chaque fois que je",
        "chaque fois que je",
    ])
});
static CONNECTION_WORDS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "wifi",
        "wi-fi",
        "ethernet",
        "cable",
        "câble",
        "4g",
        "5g",
        "lte",
        "tethering",
        "partage de connexion",
        "home",
        "at home",
        "domicile",
        "télétravail",
        "office",
        "bureau",
        "hotel",
        "hôtel",
        "fibre",
        "fiber",
        "box",
    ])
});
static ACCOUNT_WORDS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "username",
        "user name",
        "login",
        "identifiant",
        "nom d'utilisateur",
    ])
});
static MAIL_CLIENTS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "outlook",
        "thunderbird",
        "apple mail",
        "mail app",
        "gmail",
        "webmail",
        "owa",
        "roundcube",
        "k-9",
        "evolution",
        "mailspring",
        "spark",
    ])
});
static BOUNCE_CODE: LazyLock<Regex> =
    LazyLock::new(|| regex(r"\b[45]\d\d[ -][45]\.\d{1,3}\.\d{1,3}\b"));
static BOUNCE_WORDS: LazyLock<Vocabulary> = LazyLock::new(|| {
    Vocabulary::new([
        "undeliverable",
        "non remis",
        "delivery status notification",
        "ndr",
    ])
});
static INVOICE_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b(?:invoice|facture|inv|order|commande)\s*(?:#|n°|no\.?|number|numéro)?\s*:?\s*[A-Z0-9-]*\d{3,}",
    )
});
static AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    regex(r"(?i)\d+(?:[.,]\d{1,2})?\s?(?:€|eur\b|euros?\b|\$|usd\b|£|gbp\b|chf\b)|(?:€|\$|£)\s?\d")
});
static SIZE: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b\d+(?:[.,]\d+)?\s?(?:[kmgt]i?b|[kmgt]o|bytes|octets|%)(?:\b|$)|\b\d+(?:[.,]\d+)?\s?%",
    )
});
static DURATION: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"(?i)\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|secs|seconds|secondes|min|mins|minutes|h|hours|heures)\b",
    )
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::support::log_facts;

    fn open(category: Category, log: &str, context: &str) -> Vec<Need> {
        let facts = log_facts::read(log);
        missing(
            category,
            &Evidence {
                facts: &facts,
                log,
                context,
            },
        )
    }

    #[test]
    fn asks_only_for_what_is_missing() {
        use Need::*;
        assert_eq!(
            open(Category::Network, "", "Le VPN ne marche plus"),
            vec![Since, ErrorMessage, Connection, System, Scope]
        );
        assert_eq!(
            open(
                Category::Network,
                "2024-03-12 10:14:22 ERROR vpn down",
                "Depuis ce matin, en télétravail sur Windows 11, mes collègues aussi"
            ),
            Vec::<Need>::new()
        );
        assert_eq!(
            open(
                Category::Billing,
                "",
                "Invoice INV-2024-0042 charged 49.90 € twice, account [EMAIL_1]"
            ),
            Vec::<Need>::new()
        );
        assert_eq!(
            open(
                Category::Crash,
                "Traceback: boom",
                "It crashes on macOS with version 2.3.1"
            ),
            vec![Steps]
        );
    }
}
