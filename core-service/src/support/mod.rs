//! Support-ticket workflow, as plain functions: anonymize the log and the context, classify the
//! ticket, read the facts of the log, then write a summary and a draft reply from the
//! anonymized text only, so no original sensitive value can reach them.

pub mod anonymize;
pub mod classify;
mod draft;
mod literals;
pub mod log_facts;
pub mod missing;
pub mod phrases;
mod summary;
mod words;

use anonymize::{Stats, anonymize_all};
pub use phrases::Locale;

/// A ticket as the caller sent it.
pub struct Ticket<'a> {
    pub raw_log: &'a str,
    pub context: &'a str,
    pub locale: Locale,
}

/// The workflow's answer (SPEC 2.3).
#[derive(Debug)]
pub struct Reply {
    pub anonymized: String,
    pub summary: String,
    pub draft_response: String,
    /// Items replaced in the log.
    pub stats: Stats,
}

/// Runs the whole workflow. CPU-bound and linear in the input: call it off the async runtime.
pub fn auto_reply(ticket: &Ticket<'_>) -> Reply {
    let [log, context]: [_; 2] = anonymize_all(&[ticket.raw_log, ticket.context])
        .try_into()
        .unwrap_or_default();
    let classification = classify::classify(&log.text, &context.text);
    let facts = log_facts::read(&log.text);
    let missing = missing::missing(
        classification.category,
        &missing::Evidence {
            facts: &facts,
            log: &log.text,
            context: &context.text,
        },
    );
    let summary = summary::write(
        &classification,
        &facts,
        &context.text,
        &log.stats,
        ticket.locale,
    );
    let draft_response = draft::write(classification.category, &facts, &missing, ticket.locale);
    Reply {
        anonymized: log.text,
        summary,
        draft_response,
        stats: log.stats,
    }
}
