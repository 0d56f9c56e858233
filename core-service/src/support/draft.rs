//! The draft reply: polite, in the ticket's language, specific to the category and to what the
//! log shows, asking for exactly the information still missing. Built from anonymized text only.

use std::fmt::Write;

use super::{
    classify::Category,
    log_facts::{Level, LogFacts},
    missing::Need,
    phrases::{self, Locale},
};

pub fn write(category: Category, facts: &LogFacts, missing: &[Need], locale: Locale) -> String {
    let fr = locale == Locale::Fr;
    let mut out = String::new();
    out.push_str(if fr { "Bonjour,\n\n" } else { "Hello,\n\n" });
    out.push_str(opening(category, locale));
    out.push_str("\n\n");

    if let Some(facts_sentence) = what_the_log_shows(facts, locale) {
        out.push_str(&facts_sentence);
        out.push_str("\n\n");
    }
    out.push_str(next_step(category, locale));
    out.push_str("\n\n");

    if missing.is_empty() {
        out.push_str(if fr {
            "Nous avons toutes les informations nécessaires et revenons vers vous dès que possible."
        } else {
            "We have all the information we need and will get back to you as soon as possible."
        });
    } else {
        out.push_str(if fr {
            "Pour avancer, pourriez-vous nous indiquer :\n"
        } else {
            "To move forward, could you please tell us:\n"
        });
        for (i, need) in missing.iter().enumerate() {
            let question = phrases::question(*need, locale);
            let question = if i + 1 == missing.len() {
                // The last item of the list ends the sentence.
                format!("{}.", question.trim_end_matches([';', ' ']))
            } else {
                question.to_owned()
            };
            let _ = writeln!(out, "- {question}");
        }
        out.push_str(if fr {
            "\nNous revenons vers vous dès réception de ces éléments."
        } else {
            "\nWe will get back to you as soon as we have these details."
        });
    }
    out.push_str(if fr {
        "\n\nCordialement,\nL'équipe support"
    } else {
        "\n\nBest regards,\nThe support team"
    });
    out
}

fn opening(category: Category, locale: Locale) -> &'static str {
    use Category::*;
    match (category, locale) {
        (Authentication, Locale::Fr) => {
            "Merci pour votre message, et désolés pour ce problème d'accès à votre compte."
        }
        (Authentication, Locale::En) => {
            "Thank you for your message, and sorry for the trouble signing in to your account."
        }
        (Network, Locale::Fr) => {
            "Merci pour votre message, et désolés pour ces difficultés de connexion réseau."
        }
        (Network, Locale::En) => {
            "Thank you for your message, and sorry for the network connection trouble."
        }
        (Performance, Locale::Fr) => "Merci pour votre message, et désolés pour ces lenteurs.",
        (Performance, Locale::En) => {
            "Thank you for your message, and sorry for the slowness you are seeing."
        }
        (Storage, Locale::Fr) => {
            "Merci pour votre message, et désolés pour ce problème d'espace de stockage."
        }
        (Storage, Locale::En) => "Thank you for your message, and sorry for the storage problem.",
        (Email, Locale::Fr) => {
            "Merci pour votre message, et désolés pour ce problème de messagerie."
        }
        (Email, Locale::En) => "Thank you for your message, and sorry for the e-mail trouble.",
        (Crash, Locale::Fr) => "Merci pour votre message, et désolés pour ce plantage.",
        (Crash, Locale::En) => "Thank you for your message, and sorry for the crash.",
        (Billing, Locale::Fr) => "Merci pour votre message au sujet de votre facturation.",
        (Billing, Locale::En) => "Thank you for your message about your billing.",
        (Other, Locale::Fr) => "Merci pour votre message.",
        (Other, Locale::En) => "Thank you for your message.",
    }
}

fn next_step(category: Category, locale: Locale) -> &'static str {
    use Category::*;
    match (category, locale) {
        (Authentication, Locale::Fr) => {
            "Nous vérifions l'état du compte (verrouillage, expiration du mot de passe, double authentification). Ne nous envoyez jamais votre mot de passe."
        }
        (Authentication, Locale::En) => {
            "We are checking the account's state (lockout, password expiry, two-factor setup). Never send us your password."
        }
        (Network, Locale::Fr) => {
            "Nous vérifions de notre côté la passerelle, la résolution DNS et les règles de pare-feu concernées."
        }
        (Network, Locale::En) => {
            "We are checking the gateway, DNS resolution and the firewall rules involved on our side."
        }
        (Performance, Locale::Fr) => {
            "Nous examinons la charge des serveurs et les temps de réponse sur la période concernée."
        }
        (Performance, Locale::En) => {
            "We are looking at server load and response times over that period."
        }
        (Storage, Locale::Fr) => {
            "Nous vérifions l'espace utilisé et le quota de votre compte ; supprimer d'anciens fichiers libère de la place immédiatement."
        }
        (Storage, Locale::En) => {
            "We are checking your account's usage and quota; deleting old files frees space right away."
        }
        (Email, Locale::Fr) => {
            "Nous vérifions la distribution des messages et la configuration du domaine (MX, SPF, DKIM)."
        }
        (Email, Locale::En) => {
            "We are checking message delivery and the domain's configuration (MX, SPF, DKIM)."
        }
        (Crash, Locale::Fr) => {
            "Nous avons transmis ces éléments à l'équipe technique pour reproduire le problème."
        }
        (Crash, Locale::En) => {
            "We have passed this on to the engineering team to reproduce the problem."
        }
        (Billing, Locale::Fr) => {
            "Nous vérifions votre facturation et vous confirmons la correction éventuelle par écrit."
        }
        (Billing, Locale::En) => {
            "We are reviewing your billing and will confirm any correction in writing."
        }
        (Other, Locale::Fr) => "Nous étudions votre demande.",
        (Other, Locale::En) => "We are looking into your request.",
    }
}

/// One sentence on what failed, since when, how often, and the last error line.
fn what_the_log_shows(facts: &LogFacts, locale: Locale) -> Option<String> {
    let fr = locale == Locale::Fr;
    let top_error = facts.telling.iter().find(|l| l.level == Level::Error);
    if facts.service.is_none() && top_error.is_none() {
        return None;
    }
    let mut s = String::from(if fr {
        "D'après le journal transmis, "
    } else {
        "According to the log you sent, "
    });
    match &facts.service {
        Some(service) if fr => {
            let _ = write!(s, "le service {service} est en échec");
        }
        Some(service) => {
            let _ = write!(s, "the {service} service has been failing");
        }
        None if fr => s.push_str("des erreurs se produisent"),
        None => s.push_str("errors have been occurring"),
    }
    if let Some(since) = &facts.first_error {
        let _ = write!(s, " {} {}", if fr { "depuis" } else { "since" }, since.text);
    }
    if let Some(attempts) = facts.attempts {
        let attempts = phrases::attempts(attempts, locale);
        let _ = write!(s, " ({attempts})");
    }
    if let Some(line) = top_error {
        if fr {
            let _ = write!(s, ", avec l'erreur : « {} »", line.text);
        } else {
            let _ = write!(s, ", with the error: \"{}\"", line.text);
        }
    }
    s.push('.');
    Some(s)
}
