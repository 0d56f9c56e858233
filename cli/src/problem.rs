//! An error answer, read as the RFC 9457 problem the server sends, or made up from the status
//! when something else answered (a reverse proxy's HTML page, a load balancer).

use serde::Deserialize;

/// The fields of a problem this client uses; others are ignored.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Problem {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub detail: Option<String>,
    #[serde(default)]
    pub code: Option<String>,
}

/// The body of an error answer, whatever it holds. Only the first bytes of a body that is not
/// a problem are kept, for the message.
pub fn read(status: u16, body: &[u8]) -> Problem {
    match serde_json::from_slice::<Problem>(body) {
        Ok(problem) if problem.title.is_some() || problem.code.is_some() => problem,
        _ => Problem {
            title: None,
            detail: text_excerpt(body),
            code: None,
        }
        .with_status_title(status),
    }
}

impl Problem {
    fn with_status_title(mut self, status: u16) -> Problem {
        let reason = reqwest::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("error");
        self.title = Some(format!("http {status} {reason}"));
        self
    }
}

/// The first line of a plain-text body, when it looks like words rather than markup.
fn text_excerpt(body: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if line.starts_with('<') {
        return None;
    }
    Some(line.chars().take(200).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_read_as_sent() {
        let body = br#"{"type":"/problems/virus-found","title":"File rejected by the antivirus",
            "status":422,"detail":"clamd found Eicar-Signature","code":"virus-found"}"#;
        let problem = read(422, body);
        assert_eq!(problem.code.as_deref(), Some("virus-found"));
        assert_eq!(
            problem.title.as_deref(),
            Some("File rejected by the antivirus")
        );
        assert_eq!(
            problem.detail.as_deref(),
            Some("clamd found Eicar-Signature")
        );
    }

    #[test]
    fn another_body_gives_the_status_and_its_first_words() {
        let html = read(502, b"<html><body><h1>502 Bad Gateway</h1></body></html>");
        assert_eq!(html.title.as_deref(), Some("http 502 Bad Gateway"));
        assert_eq!(html.detail, None);
        assert_eq!(html.code, None);
        let text = read(503, b"\n  upstream connect error  \nmore");
        assert_eq!(text.title.as_deref(), Some("http 503 Service Unavailable"));
        assert_eq!(text.detail.as_deref(), Some("upstream connect error"));
        let json = read(500, br#"{"error":"boom"}"#);
        assert_eq!(
            json.title.as_deref(),
            Some("http 500 Internal Server Error")
        );
    }
}
