//! The words of summaries and replies, in French and English.

use chrono::TimeDelta;

use super::{classify::Category, missing::Need};

/// The language of the summary and the reply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Locale {
    #[default]
    Fr,
    En,
}

impl Locale {
    pub const NAMES: [&'static str; 2] = ["fr", "en"];

    /// `fr`, `en`, or empty for the default (`fr`).
    pub fn parse(value: &str) -> Option<Locale> {
        match value {
            "" | "fr" => Some(Locale::Fr),
            "en" => Some(Locale::En),
            _ => None,
        }
    }
}

pub fn category(category: Category, locale: Locale) -> &'static str {
    use Category::*;
    match (category, locale) {
        (Authentication, Locale::Fr) => "authentification / compte",
        (Authentication, Locale::En) => "authentication / account",
        (Network, Locale::Fr) => "réseau / VPN / DNS",
        (Network, Locale::En) => "network / VPN / DNS",
        (Performance, _) => "performance",
        (Storage, Locale::Fr) => "stockage / quota",
        (Storage, Locale::En) => "storage / quota",
        (Email, Locale::Fr) => "messagerie (e-mail)",
        (Email, Locale::En) => "e-mail",
        (Crash, Locale::Fr) => "plantage / bug",
        (Crash, Locale::En) => "crash / bug",
        (Billing, Locale::Fr) => "facturation",
        (Billing, Locale::En) => "billing",
        (Other, Locale::Fr) => "autre",
        (Other, Locale::En) => "other",
    }
}

/// The question a reply asks for a missing piece of information.
pub fn question(need: Need, locale: Locale) -> &'static str {
    use Need::*;
    match (need, locale) {
        (Since, Locale::Fr) => {
            "depuis quand le problème se produit (date et heure approximatives) ;"
        }
        (Since, Locale::En) => {
            "since when the problem has been happening (approximate date and time);"
        }
        (ErrorMessage, Locale::Fr) => {
            "le message d'erreur exact affiché (une capture d'écran convient) ;"
        }
        (ErrorMessage, Locale::En) => "the exact error message shown (a screenshot is fine);",
        (System, Locale::Fr) => {
            "le système utilisé (Windows, macOS, Linux, iOS, Android) et sa version ;"
        }
        (System, Locale::En) => {
            "the system you use (Windows, macOS, Linux, iOS, Android) and its version;"
        }
        (Version, Locale::Fr) => "la version de l'application concernée ;",
        (Version, Locale::En) => "the version of the application concerned;",
        (Scope, Locale::Fr) => "si d'autres personnes rencontrent le même problème ;",
        (Scope, Locale::En) => "whether other people have the same problem;",
        (Steps, Locale::Fr) => "les étapes qui mènent au problème, dans l'ordre ;",
        (Steps, Locale::En) => "the steps that lead to the problem, in order;",
        (Connection, Locale::Fr) => {
            "votre type de connexion (Wi-Fi, câble, 4G) et le lieu (bureau, domicile) ;"
        }
        (Connection, Locale::En) => {
            "how you are connected (Wi-Fi, cable, mobile) and where (office, home);"
        }
        (Account, Locale::Fr) => "l'identifiant du compte concerné (jamais le mot de passe) ;",
        (Account, Locale::En) => "the identifier of the account concerned (never its password);",
        (MailClient, Locale::Fr) => {
            "le logiciel de messagerie utilisé (Outlook, Thunderbird, webmail, téléphone) ;"
        }
        (MailClient, Locale::En) => {
            "the mail program you use (Outlook, Thunderbird, webmail, phone);"
        }
        (Bounce, Locale::Fr) => {
            "le message de non-remise reçu, avec son code (par exemple 550 5.1.1) ;"
        }
        (Bounce, Locale::En) => {
            "the bounce message you received, with its code (for example 550 5.1.1);"
        }
        (Invoice, Locale::Fr) => "le numéro de la facture concernée ;",
        (Invoice, Locale::En) => "the number of the invoice concerned;",
        (Amount, Locale::Fr) => "le montant et la date du paiement ;",
        (Amount, Locale::En) => "the amount and date of the payment;",
        (Sizes, Locale::Fr) => {
            "la taille des fichiers concernés et l'espace affiché comme utilisé ;"
        }
        (Sizes, Locale::En) => "the size of the files concerned and the space shown as used;",
        (Durations, Locale::Fr) => {
            "combien de temps prennent les opérations lentes, et lesquelles ;"
        }
        (Durations, Locale::En) => "how long the slow operations take, and which ones;",
    }
}

/// `48 min`, `2 h 05 min`, `3 j 4 h` / `3 d 4 h`, `12 s`.
pub fn duration(span: TimeDelta, locale: Locale) -> String {
    let seconds = span.num_seconds().max(0);
    let (days, hours, minutes) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60);
    let day = if locale == Locale::Fr { "j" } else { "d" };
    if days > 0 {
        format!("{days} {day} {hours} h")
    } else if hours > 0 {
        format!("{hours} h {minutes:02} min")
    } else if minutes > 0 {
        format!("{minutes} min")
    } else {
        format!("{seconds} s")
    }
}

/// `0 erreur`, `3 erreurs` / `0 errors`, `1 error`: the noun agrees with the count, the
/// French way (0 and 1 singular) or the English way.
pub fn count(n: impl Into<u64>, locale: Locale, singular: &str, plural: &str) -> String {
    let n = n.into();
    let one = n == 1 || (n == 0 && locale == Locale::Fr);
    format!("{n} {}", if one { singular } else { plural })
}

/// `3 tentatives` / `3 attempts`.
pub fn attempts(n: u64, locale: Locale) -> String {
    match locale {
        Locale::Fr => count(n, locale, "tentative", "tentatives"),
        Locale::En => count(n, locale, "attempt", "attempts"),
    }
}
