//! The summary an agent reads first: category, time span, error and warning counts, the most
//! telling lines, what the user said, and what was masked. Built from anonymized text only.

use std::fmt::Write;

use super::{
    anonymize::Stats,
    classify::Classification,
    log_facts::{Level, LogFacts},
    phrases::{self, Locale},
};

/// Characters of the ticket context quoted at most.
const CONTEXT_CHARS: usize = 500;

pub fn write(
    classification: &Classification,
    facts: &LogFacts,
    context: &str,
    stats: &Stats,
    locale: Locale,
) -> String {
    let fr = locale == Locale::Fr;
    let mut out = String::new();
    let label = phrases::category(classification.category, locale);
    let _ = write!(
        out,
        "{} {label}",
        if fr { "Catégorie :" } else { "Category:" }
    );
    if !classification.keywords.is_empty() {
        let _ = write!(
            out,
            " ({} {})",
            if fr { "mots-clés :" } else { "keywords:" },
            classification.keywords.join(", ")
        );
    }
    out.push('\n');

    let lines = phrases::count(
        facts.lines as u64,
        locale,
        if fr { "ligne" } else { "line" },
        if fr { "lignes" } else { "lines" },
    );
    let errors = phrases::count(
        facts.errors as u64,
        locale,
        if fr { "erreur" } else { "error" },
        if fr { "erreurs" } else { "errors" },
    );
    let warnings = phrases::count(
        facts.warnings as u64,
        locale,
        if fr { "avertissement" } else { "warning" },
        if fr { "avertissements" } else { "warnings" },
    );
    let _ = write!(out, "{} {lines}", if fr { "Journal :" } else { "Log:" });
    match (&facts.first, &facts.last, facts.span()) {
        (Some(first), Some(last), Some(span)) if span > chrono::TimeDelta::zero() => {
            let span = phrases::duration(span, locale);
            if fr {
                let _ = write!(out, ", du {} au {} ({span})", first.text, last.text);
            } else {
                let _ = write!(out, ", from {} to {} ({span})", first.text, last.text);
            }
        }
        (Some(first), ..) => {
            let _ = write!(out, ", {} {}", if fr { "à" } else { "at" }, first.text);
        }
        _ => out.push_str(if fr {
            ", sans horodatage"
        } else {
            ", no timestamps"
        }),
    }
    let _ = writeln!(out, "{} {errors}, {warnings}.", if fr { " ;" } else { ";" });

    if let Some(service) = &facts.service {
        let _ = write!(
            out,
            "{} {service}",
            if fr {
                "Service en échec :"
            } else {
                "Failing service:"
            }
        );
        if let Some(attempts) = facts.attempts {
            let attempts = phrases::attempts(attempts, locale);
            let _ = write!(out, ", {attempts}");
        }
        if let Some(since) = &facts.first_error {
            let _ = write!(
                out,
                " {} {}",
                if fr { "depuis" } else { "since" },
                since.text
            );
        }
        out.push_str(".\n");
    }

    if !facts.telling.is_empty() {
        out.push_str(if fr {
            "Lignes significatives :\n"
        } else {
            "Most telling lines:\n"
        });
        for line in &facts.telling {
            let level = match (line.level, locale) {
                (Level::Error, Locale::Fr) => "erreur",
                (Level::Error, Locale::En) => "error",
                (_, Locale::Fr) => "avertissement",
                (_, Locale::En) => "warning",
            };
            let _ = write!(out, "- [{level}");
            if line.count > 1 {
                let _ = write!(out, " ×{}", line.count);
            }
            let _ = writeln!(out, "] {}", line.text);
        }
    }

    let context = one_line(context);
    let _ = writeln!(
        out,
        "{} {}",
        if fr { "Contexte :" } else { "Context:" },
        if context.is_empty() {
            if fr { "aucun." } else { "none given." }.to_owned()
        } else {
            context
        }
    );

    let masked = masked(stats, locale);
    let _ = write!(
        out,
        "{} {masked}.",
        if fr {
            "Données masquées :"
        } else {
            "Masked data:"
        }
    );
    out
}

/// `3 IPv4, 1 e-mail (4 in all)`, or `none`.
fn masked(stats: &Stats, locale: Locale) -> String {
    let fr = locale == Locale::Fr;
    let parts: Vec<String> = [
        (stats.ipv4, "IPv4", "IPv4"),
        (stats.ipv6, "IPv6", "IPv6"),
        (stats.email, "e-mail", "e-mails"),
        (
            stats.domain_user,
            if fr {
                "compte DOMAINE\\utilisateur"
            } else {
                "DOMAIN\\user name"
            },
            if fr {
                "comptes DOMAINE\\utilisateur"
            } else {
                "DOMAIN\\user names"
            },
        ),
        (
            stats.fqdn,
            if fr { "nom d'hôte" } else { "host name" },
            if fr { "noms d'hôte" } else { "host names" },
        ),
    ]
    .into_iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, singular, plural)| phrases::count(n, locale, singular, plural))
    .collect();
    if parts.is_empty() {
        return if fr { "aucune" } else { "none" }.to_owned();
    }
    let total = stats.total();
    format!(
        "{} ({total} {})",
        parts.join(", "),
        if fr { "au total" } else { "in all" }
    )
}

/// The context on one line, whitespace collapsed, at most CONTEXT_CHARS characters.
fn one_line(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match collapsed.char_indices().nth(CONTEXT_CHARS) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    }
}
