//! Every way a command fails, each with its exit code and its one-line message
//! (`quire: <title>: <detail>`).

use std::{io, path::PathBuf};

use serde_json::json;

use crate::{exit::Exit, problem::Problem};

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The server answered with an error (after the retries it allowed).
    #[error("http {status}")]
    Answer {
        status: u16,
        problem: Problem,
        retries: u32,
    },
    /// No answer at all: refused, unresolvable, TLS, or cut before the headers.
    #[error("cannot reach the server")]
    Unreachable {
        url: String,
        source: reqwest::Error,
        retries: u32,
    },
    /// The answer started and then broke off.
    #[error("the answer was cut off")]
    Interrupted { source: reqwest::Error },
    /// A 2xx answer this client cannot read.
    #[error("unexpected answer")]
    Unexpected(String),
    #[error("no api key")]
    MissingKey,
    #[error("invalid usage")]
    Usage(String),
    #[error("cannot read {}", path.display())]
    Input { path: PathBuf, source: io::Error },
    #[error("cannot write {}", path.display())]
    Output { path: PathBuf, source: io::Error },
}

impl CliError {
    pub fn input(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::Input { path, source }
    }

    pub fn output(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::Output { path, source }
    }

    pub fn exit(&self) -> Exit {
        match self {
            CliError::Answer {
                status, problem, ..
            } => Exit::of_answer(*status, problem.code.as_deref()),
            CliError::Unreachable { .. } | CliError::Interrupted { .. } => Exit::Unavailable,
            CliError::Unexpected(_) | CliError::Output { .. } => Exit::Internal,
            CliError::MissingKey => Exit::Auth,
            CliError::Usage(_) | CliError::Input { .. } => Exit::Usage,
        }
    }

    /// The two halves of the message: what happened, and the particulars.
    pub fn title_and_detail(&self) -> (String, String) {
        match self {
            CliError::Answer {
                status,
                problem,
                retries,
            } => {
                let title = problem
                    .title
                    .as_deref()
                    .map_or_else(|| format!("http {status}"), lowercase_first);
                let mut detail = problem.detail.clone().unwrap_or_default();
                if *retries > 0 {
                    detail = with_note(detail, &gave_up(*retries));
                }
                (title, detail)
            }
            CliError::Unreachable {
                url,
                source,
                retries,
            } => {
                let mut detail = format!("{url}: {}", causes(source));
                if *retries > 0 {
                    detail = with_note(detail, &gave_up(*retries));
                }
                (self.to_string(), detail)
            }
            CliError::Interrupted { source } => (self.to_string(), causes(source)),
            CliError::Unexpected(detail) | CliError::Usage(detail) => {
                (self.to_string(), detail.clone())
            }
            CliError::MissingKey => (
                self.to_string(),
                "set QUIRE_API_KEY to a key with the scope the command needs".to_owned(),
            ),
            CliError::Input { source, .. } | CliError::Output { source, .. } => {
                (self.to_string(), source.to_string())
            }
        }
    }

    /// The message on stderr.
    pub fn message(&self) -> String {
        match self.title_and_detail() {
            (title, detail) if detail.is_empty() => format!("quire: {title}"),
            (title, detail) => format!("quire: {title}: {detail}"),
        }
    }

    /// With `--json`, the failure on stdout too, shaped as a problem plus the exit code.
    pub fn to_json(&self) -> serde_json::Value {
        let (title, detail) = self.title_and_detail();
        let (status, code) = match self {
            CliError::Answer {
                status, problem, ..
            } => (Some(*status), problem.code.clone()),
            _ => (None, None),
        };
        json!({
            "title": title,
            "detail": detail,
            "status": status,
            "code": code,
            "exitCode": self.exit() as u8,
        })
    }
}

/// Error texts start in lowercase; an acronym ("PDF ...") stays as it is.
fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if !second.is_uppercase() => first
            .to_lowercase()
            .chain(text[first.len_utf8()..].chars())
            .collect(),
        _ => text.to_owned(),
    }
}

fn gave_up(retries: u32) -> String {
    let plural = if retries == 1 { "retry" } else { "retries" };
    format!("gave up after {retries} {plural}")
}

fn with_note(detail: String, note: &str) -> String {
    if detail.is_empty() {
        note.to_owned()
    } else {
        format!("{detail} ({note})")
    }
}

/// An error and its causes, without the URL reqwest repeats in each.
fn causes(error: &reqwest::Error) -> String {
    let mut parts = Vec::new();
    let mut next: Option<&dyn std::error::Error> = Some(error);
    while let Some(error) = next {
        let text = error.to_string();
        if !parts.iter().any(|p: &String| p.contains(&text)) {
            parts.push(text);
        }
        next = error.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, title: &str, detail: &str, code: &str, retries: u32) -> CliError {
        CliError::Answer {
            status,
            problem: Problem {
                title: Some(title.to_owned()),
                detail: Some(detail.to_owned()),
                code: Some(code.to_owned()),
            },
            retries,
        }
    }

    #[test]
    fn messages_are_lowercase_title_then_detail() {
        let virus = answer(
            422,
            "File rejected by the antivirus",
            "clamd found Eicar-Test-Signature",
            "virus-found",
            0,
        );
        assert_eq!(
            virus.message(),
            "quire: file rejected by the antivirus: clamd found Eicar-Test-Signature"
        );
        assert_eq!(virus.exit(), Exit::Rejected);
        let pdf = answer(400, "PDF needs a password", "", "encrypted-pdf", 0);
        assert_eq!(pdf.message(), "quire: PDF needs a password");
        let busy = answer(
            503,
            "Processing queue full",
            "retry later",
            "processing-busy",
            4,
        );
        assert_eq!(
            busy.message(),
            "quire: processing queue full: retry later (gave up after 4 retries)"
        );
        assert_eq!(busy.exit(), Exit::Unavailable);
    }

    #[test]
    fn json_failures_carry_the_code_and_the_exit_code() {
        let quota = answer(
            429,
            "Daily quota exceeded",
            "come back",
            "daily-quota-exceeded",
            0,
        );
        let json = quota.to_json();
        assert_eq!(json["code"], "daily-quota-exceeded");
        assert_eq!(json["status"], 429);
        assert_eq!(json["exitCode"], 4);
        assert_eq!(json["title"], "daily quota exceeded");
        assert_eq!(CliError::MissingKey.to_json()["exitCode"], 3);
    }
}
