//! Ticket classification: scored keyword sets in French and English, matched in one
//! Aho-Corasick pass over the anonymized log and (weighted higher) over the ticket context.

use std::sync::LazyLock;

use super::words::Vocabulary;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    Authentication,
    Network,
    Performance,
    Storage,
    Email,
    Crash,
    Billing,
    Other,
}

impl Category {
    /// Every category that keywords can point to, in the order ties are broken.
    pub const SCORED: [Category; 7] = [
        Category::Authentication,
        Category::Network,
        Category::Email,
        Category::Storage,
        Category::Crash,
        Category::Billing,
        Category::Performance,
    ];

    /// Stable identifier, as written in summaries and logs.
    pub fn id(self) -> &'static str {
        match self {
            Category::Authentication => "authentication",
            Category::Network => "network",
            Category::Performance => "performance",
            Category::Storage => "storage",
            Category::Email => "email",
            Category::Crash => "crash",
            Category::Billing => "billing",
            Category::Other => "other",
        }
    }

    fn index(self) -> usize {
        Category::SCORED
            .iter()
            .position(|c| *c == self)
            .unwrap_or(Category::SCORED.len())
    }
}

/// Keywords per category with their weight: 3 for terms that name the problem on their own
/// ("mot de passe", "vpn", "invoice"), 2 for strong hints, 1 for words that also appear in
/// other kinds of tickets ("timeout", "slow"). Lowercase; matched ASCII-case-insensitively on
/// word boundaries, the longest keyword winning where several start at the same place.
const KEYWORDS: &[(Category, u32, &[&str])] = &[
    (
        Category::Authentication,
        3,
        &[
            "password",
            "mot de passe",
            "mots de passe",
            "login failed",
            "logon failure",
            "authentication failed",
            "échec d'authentification",
            "echec d'authentification",
            "invalid credentials",
            "identifiants invalides",
            "account locked",
            "account is locked",
            "compte verrouillé",
            "compte bloqué",
            "locked out",
            "mfa",
            "2fa",
            "otp",
            "two-factor",
            "double authentification",
            "kerberos",
            "invalid_grant",
            "bad credentials",
            "sign-in",
            "sign in",
            "se connecter",
            "connexion au compte",
        ],
    ),
    (
        Category::Authentication,
        2,
        &[
            "authentication",
            "authentification",
            "credentials",
            "identifiants",
            "unauthorized",
            "401",
            "sso",
            "saml",
            "oauth",
            "ldap",
            "active directory",
            "token expired",
            "jeton expiré",
            "access denied",
            "accès refusé",
            "acces refuse",
            "login",
            "logon",
            "account",
            "compte",
            "permission denied",
        ],
    ),
    (
        Category::Network,
        3,
        &[
            "vpn",
            "dns",
            "dhcp",
            "nxdomain",
            "servfail",
            "no route to host",
            "network is unreachable",
            "host unreachable",
            "connection refused",
            "connexion refusée",
            "connection reset",
            "econnrefused",
            "econnreset",
            "etimedout",
            "ehostunreach",
            "name resolution",
            "résolution de nom",
            "resolution de nom",
            "could not resolve",
            "packet loss",
            "perte de paquets",
            "tunnel",
            "ipsec",
            "wireguard",
            "openvpn",
            "anyconnect",
            "gateway",
            "passerelle",
        ],
    ),
    (
        Category::Network,
        2,
        &[
            "network",
            "réseau",
            "reseau",
            "proxy",
            "firewall",
            "pare-feu",
            "wifi",
            "wi-fi",
            "ethernet",
            "unreachable",
            "injoignable",
            "inaccessible",
            "ping",
            "latency",
            "tls handshake",
            "ssl handshake",
            "certificate",
            "certificat",
            "port",
        ],
    ),
    (
        Category::Network,
        1,
        &["timeout", "timed out", "délai d'attente"],
    ),
    (
        Category::Performance,
        3,
        &[
            "slow",
            "slowness",
            "lent",
            "lente",
            "lenteur",
            "lenteurs",
            "very slow",
            "response time",
            "temps de réponse",
            "high cpu",
            "cpu usage",
            "100% cpu",
            "high load",
            "load average",
            "out of memory",
            "memory leak",
            "fuite mémoire",
            "ralenti",
            "ralentissement",
            "rame",
            "freezes",
            "se fige",
            "figé",
        ],
    ),
    (
        Category::Performance,
        2,
        &[
            "performance",
            "performances",
            "latence",
            "cpu",
            "memory",
            "mémoire",
            "ram",
            "hang",
            "hangs",
            "bloqué",
            "takes minutes",
            "prend des minutes",
            "slow query",
            "requête lente",
            "degraded",
            "dégradé",
        ],
    ),
    (
        Category::Performance,
        1,
        &["seconds", "secondes", "minutes", "ms"],
    ),
    (
        Category::Storage,
        3,
        &[
            "disk full",
            "disque plein",
            "no space left",
            "plus d'espace",
            "espace disque",
            "disk space",
            "quota exceeded",
            "quota dépassé",
            "quota depasse",
            "enospc",
            "storage quota",
            "quota de stockage",
            "insufficient storage",
            "stockage plein",
            "file too large",
            "fichier trop volumineux",
            "413",
        ],
    ),
    (
        Category::Storage,
        2,
        &[
            "quota",
            "storage",
            "stockage",
            "disk",
            "disque",
            "volume",
            "partition",
            "onedrive",
            "sharepoint",
            "dropbox",
            "upload",
            "téléversement",
            "backup",
            "sauvegarde",
        ],
    ),
    (
        Category::Email,
        3,
        &[
            "e-mail",
            "e-mails",
            "email",
            "emails",
            "courriel",
            "courriels",
            "smtp",
            "imap",
            "pop3",
            "mailbox",
            "boîte mail",
            "boite mail",
            "boîte aux lettres",
            "boite aux lettres",
            "undeliverable",
            "non remis",
            "bounce",
            "bounced",
            "dkim",
            "spf",
            "dmarc",
            "relay access denied",
            "mail delivery",
            "550 5.",
        ],
    ),
    (
        Category::Email,
        2,
        &[
            "mail",
            "mails",
            "outlook",
            "thunderbird",
            "exchange",
            "spam",
            "inbox",
            "réception",
            "attachment",
            "pièce jointe",
            "mx",
        ],
    ),
    (
        Category::Crash,
        3,
        &[
            "crash",
            "crashes",
            "crashed",
            "plante",
            "plantage",
            "segfault",
            "segmentation fault",
            "core dumped",
            "stack trace",
            "stacktrace",
            "traceback",
            "panic",
            "panicked",
            "nullpointerexception",
            "unhandled exception",
            "exception non gérée",
            "fatal error",
            "erreur fatale",
            "stopped working",
            "cesse de fonctionner",
            "ne répond plus",
            "not responding",
            "bug",
            "internal server error",
            "erreur interne",
        ],
    ),
    (
        Category::Crash,
        2,
        &[
            "exception",
            "fatal",
            "abort",
            "aborted",
            "killed",
            "sigsegv",
            "sigabrt",
            "500",
            "unexpected error",
            "erreur inattendue",
            "ferme tout seul",
            "closes unexpectedly",
        ],
    ),
    (
        Category::Billing,
        3,
        &[
            "invoice",
            "invoices",
            "facture",
            "factures",
            "billing",
            "facturation",
            "refund",
            "remboursement",
            "rembourser",
            "charged twice",
            "prélevé",
            "prélevé deux fois",
            "prélèvement",
            "credit card",
            "carte bancaire",
            "payment failed",
            "paiement refusé",
            "subscription",
            "abonnement",
            "vat",
            "tva",
        ],
    ),
    (
        Category::Billing,
        2,
        &[
            "payment",
            "paiement",
            "charged",
            "price",
            "prix",
            "tarif",
            "receipt",
            "reçu",
            "plan",
            "upgrade",
            "downgrade",
            "renewal",
            "renouvellement",
            "pro plan",
        ],
    ),
];

/// How much more one keyword in the ticket context weighs than one in the log: the context is
/// the user's own description, the log repeats the same line many times.
const CONTEXT_WEIGHT: u32 = 4;
/// Occurrences of one keyword counted in the log at most, so a log that repeats one line a
/// thousand times does not outvote everything else.
const LOG_REPEAT_CAP: u32 = 3;
/// Below this score the ticket is `other`.
const MIN_SCORE: u32 = 3;

/// The keywords, and the (category, weight) of each by its index.
static MATCHER: LazyLock<(Vocabulary, Vec<(Category, u32)>)> = LazyLock::new(|| {
    Vocabulary::tagged(
        KEYWORDS
            .iter()
            .map(|(category, weight, words)| ((*category, *weight), *words)),
    )
});

/// The outcome: the category, its score and the keywords that decided it (most weight first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    pub category: Category,
    pub score: u32,
    pub keywords: Vec<String>,
}

/// Classifies a ticket from its anonymized log and context.
pub fn classify(log: &str, context: &str) -> Classification {
    let (keywords, info) = &*MATCHER;
    let mut per_keyword = vec![(0u32, 0u32); info.len()]; // (log hits, context hits)
    for (text, in_context) in [(log, false), (context, true)] {
        for (index, ..) in keywords.find_iter(text) {
            let hits = &mut per_keyword[index];
            if in_context {
                hits.1 += 1;
            } else {
                hits.0 += 1;
            }
        }
    }
    let mut scores = [0u32; Category::SCORED.len()];
    let mut in_context = [false; Category::SCORED.len()];
    for (index, (log_hits, context_hits)) in per_keyword.iter().enumerate() {
        let (category, weight) = info[index];
        let slot = category.index();
        scores[slot] += weight * (log_hits.min(&LOG_REPEAT_CAP) + CONTEXT_WEIGHT * context_hits);
        in_context[slot] |= *context_hits > 0;
    }
    // Highest score; on a tie the category the user named in the context, then the fixed order.
    let best = (0..scores.len()).max_by_key(|&i| (scores[i], in_context[i], usize::MAX - i));
    let (category, score) = match best {
        Some(i) if scores[i] >= MIN_SCORE => (Category::SCORED[i], scores[i]),
        _ => (Category::Other, 0),
    };
    Classification {
        category,
        score,
        keywords: deciding_keywords(category, &per_keyword),
    }
}

/// Up to five keywords of `category` that were found, heaviest and most frequent first.
fn deciding_keywords(category: Category, per_keyword: &[(u32, u32)]) -> Vec<String> {
    let patterns = KEYWORDS
        .iter()
        .flat_map(|(_, _, words)| words.iter().copied());
    let mut found: Vec<(u32, &str)> = patterns
        .zip(per_keyword)
        .zip(MATCHER.1.iter())
        .filter(|((_, hits), (c, _))| *c == category && hits.0 + hits.1 > 0)
        .map(|((word, hits), (_, weight))| {
            (
                weight * (hits.0.min(LOG_REPEAT_CAP) + CONTEXT_WEIGHT * hits.1),
                word,
            )
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    found
        .into_iter()
        .take(5)
        .map(|(_, word)| word.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn category(log: &str, context: &str) -> Category {
        classify(log, context).category
    }

    #[test]
    fn each_category_in_english_and_french() {
        let cases = [
            (
                "",
                "I forgot my password and my account is locked",
                Category::Authentication,
            ),
            (
                "",
                "Mot de passe refusé, compte verrouillé depuis ce matin",
                Category::Authentication,
            ),
            (
                "ERROR vpn tunnel down: connection refused",
                "",
                Category::Network,
            ),
            (
                "",
                "Le VPN ne se connecte plus, erreur DNS",
                Category::Network,
            ),
            (
                "",
                "The app is very slow, response time over 30 seconds",
                Category::Performance,
            ),
            (
                "",
                "Lenteurs importantes, l'application rame",
                Category::Performance,
            ),
            (
                "ERROR write failed: No space left on device",
                "",
                Category::Storage,
            ),
            (
                "",
                "Quota de stockage dépassé, impossible d'envoyer",
                Category::Storage,
            ),
            (
                "",
                "My e-mails bounce with 550 5.1.1 undeliverable",
                Category::Email,
            ),
            (
                "",
                "Je ne reçois plus de courriels dans Outlook",
                Category::Email,
            ),
            (
                "Traceback (most recent call last):\nValueError",
                "",
                Category::Crash,
            ),
            ("", "L'application plante au démarrage", Category::Crash),
            (
                "",
                "I was charged twice on my last invoice",
                Category::Billing,
            ),
            (
                "",
                "Ma facture est fausse, je demande un remboursement",
                Category::Billing,
            ),
            ("INFO all good", "Bonjour, une question", Category::Other),
        ];
        for (log, context, expected) in cases {
            assert_eq!(category(log, context), expected, "{log:?} / {context:?}");
        }
    }

    #[test]
    fn keywords_match_whole_words_only() {
        // "rame" inside "parametres", "ms" inside "items", "spf" nowhere.
        assert_eq!(category("parametres items", ""), Category::Other);
    }

    #[test]
    fn the_context_outweighs_a_repeated_log_line() {
        let log = "WARN cpu usage high\n".repeat(1000);
        let c = classify(&log, "mon VPN se déconnecte");
        assert_eq!(c.category, Category::Network);
        assert_eq!(c.keywords, vec!["vpn".to_owned()]);
    }
}
