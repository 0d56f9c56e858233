//! Every request the page makes stops at `Fetch.requestPaused` and is answered here: requests to
//! the document's origin are served from the unpacked upload, every other one is failed. So
//! nothing outside the uploaded files is ever fetched, whatever the HTML or its scripts ask for
//! (no server-side request forgery); the browser's network is also dead underneath (a proxy on
//! a closed port, a resolver that finds no name, and the worker's network namespace where the
//! machine allows one).

use std::fs;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use percent_encoding::percent_decode_str;
use serde_json::{Value, json};

use super::cdp::Cdp;
use crate::site::Site;

/// The document's origin: `.invalid` is reserved (RFC 2606) and never resolves, so nothing but
/// this interceptor can ever answer for it. HTTPS so the page is a secure context, as a page
/// opened from a real server would be.
pub const ORIGIN: &str = "https://document.invalid";

/// How many refused or missing URLs a job reports.
const REPORTED: usize = 20;

/// What the page asked for that it did not get.
#[derive(Debug, Default)]
pub struct Refusals {
    /// URLs refused: outside the upload, or navigations of the top frame away from the
    /// document.
    pub blocked: Vec<String>,
    /// Paths inside the upload's origin that are not in it.
    pub missing: Vec<String>,
    /// When the last request was answered, served or refused.
    pub last_answer: Option<std::time::Instant>,
}

impl Refusals {
    pub fn note_blocked(&mut self, url: String) {
        Refusals::note(&mut self.blocked, url);
    }

    fn note(list: &mut Vec<String>, item: String) {
        if list.len() < REPORTED && !list.contains(&item) {
            list.push(item);
        }
    }
}

/// The URL of the page `entry` (a relative path in the site) at the document's origin.
pub fn entry_url(entry: &str) -> String {
    let encoded: Vec<String> = entry
        .split('/')
        .map(|part| percent_encoding::utf8_percent_encode(part, PATH_SEGMENT).to_string())
        .collect();
    format!("{ORIGIN}/{}", encoded.join("/"))
}

const PATH_SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Answers one `Fetch.requestPaused` of the page's session.
pub fn answer(cdp: &mut Cdp, session: &str, site: &Site, params: &Value, refusals: &mut Refusals) {
    let Some(request_id) = params.get("requestId").and_then(Value::as_str) else {
        return;
    };
    let url = params
        .pointer("/request/url")
        .and_then(Value::as_str)
        .unwrap_or("");
    refusals.last_answer = Some(std::time::Instant::now());
    // Sends whose answers are not awaited: a failure here means the browser is gone, which
    // the job notices on its next wait.
    let Some(path) = url
        .strip_prefix(ORIGIN)
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    else {
        Refusals::note(&mut refusals.blocked, url.to_string());
        let _ = cdp.send(
            "Fetch.failRequest",
            json!({ "requestId": request_id, "errorReason": "BlockedByClient" }),
            Some(session),
        );
        return;
    };
    let relative = url_path(path);
    match resolve(&site.root, &relative)
        .and_then(|file| fs::read(&file).ok().map(|body| (file, body)))
    {
        Some((file, body)) => {
            let headers = json!([{ "name": "Content-Type", "value": content_type(&file, &body) }]);
            let _ = cdp.send(
                "Fetch.fulfillRequest",
                json!({ "requestId": request_id, "responseCode": 200, "responseHeaders": headers,
                        "body": BASE64.encode(&body) }),
                Some(session),
            );
        }
        None => {
            // The browser asks for a favicon on its own; only what the document asked for counts.
            if relative != "favicon.ico" {
                Refusals::note(&mut refusals.missing, relative);
            }
            let headers = json!([{ "name": "Content-Type", "value": "text/plain" }]);
            let _ = cdp.send(
                "Fetch.fulfillRequest",
                json!({ "requestId": request_id, "responseCode": 404, "responseHeaders": headers, "body": "" }),
                Some(session),
            );
        }
    }
}

/// Refuses one `Fetch.requestPaused` of the page's session: a navigation of the top frame away
/// from the entry. `Aborted`, not `BlockedByClient`: an aborted navigation leaves the document
/// in place, a blocked one would replace it with the browser's error page.
pub fn refuse_navigation(cdp: &mut Cdp, session: &str, params: &Value, refusals: &mut Refusals) {
    let Some(request_id) = params.get("requestId").and_then(Value::as_str) else {
        return;
    };
    let url = params
        .pointer("/request/url")
        .and_then(Value::as_str)
        .unwrap_or("");
    refusals.last_answer = Some(std::time::Instant::now());
    refusals.note_blocked(url.to_string());
    let _ = cdp.send(
        "Fetch.failRequest",
        json!({ "requestId": request_id, "errorReason": "Aborted" }),
        Some(session),
    );
}

/// The decoded path of a URL at the origin, without its query and fragment, relative to the
/// site (no leading `/`).
fn url_path(path: &str) -> String {
    let end = path.find(['?', '#']).unwrap_or(path.len());
    let decoded = percent_decode_str(&path[..end]).decode_utf8_lossy();
    decoded.trim_start_matches('/').to_string()
}

/// The file a relative path names inside the site, never outside it: `..` is refused (the
/// browser has normalised it away already; an encoded one is refused here), and the real path
/// must stay under the root (no link out of it). A folder stands for its index.html.
fn resolve(root: &Path, relative: &str) -> Option<PathBuf> {
    let mut path = root.to_path_buf();
    for part in relative.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => return None,
            part if part.contains('\0') => return None,
            part => path.push(part),
        }
    }
    if path.is_dir() {
        path.push("index.html");
    }
    let real = path.canonicalize().ok()?;
    let real_root = root.canonicalize().ok()?;
    (real.starts_with(&real_root) && real.is_file()).then_some(real)
}

/// The Content-Type for a served file, by its extension. Text that is valid UTF-8 and names no
/// charset of its own is declared UTF-8 (a browser would otherwise read it as Windows-1252); a
/// page that names its charset in a `<meta>` keeps it.
fn content_type(file: &Path, body: &[u8]) -> String {
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    let essence = mime.essence_str().to_string();
    let textual = mime.type_() == mime_guess::mime::TEXT || essence == "application/javascript";
    if textual && std::str::from_utf8(body).is_ok() {
        let head = &body[..body.len().min(1024)];
        let names_charset = head.windows(7).any(|w| w.eq_ignore_ascii_case(b"charset"));
        if !names_charset {
            return format!("{essence}; charset=utf-8");
        }
    }
    essence
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_site() {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir(dir.path().join("img")).expect("mkdir");
        fs::write(dir.path().join("img/a b.png"), b"png").expect("write");
        fs::write(dir.path().join("index.html"), b"<p>").expect("write");
        let root = dir.path();
        assert!(resolve(root, &url_path("/img/a%20b.png?x=1#y")).is_some());
        assert!(resolve(root, &url_path("/")).is_some_and(|p| p.ends_with("index.html")));
        assert!(resolve(root, &url_path("/img/%2e%2e/%2e%2e/etc/passwd")).is_none());
        assert!(resolve(root, &url_path("/..%2f..%2fetc/passwd")).is_none());
        assert!(resolve(root, "img/missing.png").is_none());
    }

    #[test]
    fn entry_urls_are_encoded() {
        assert_eq!(
            entry_url("my site/index.html"),
            "https://document.invalid/my%20site/index.html"
        );
    }

    #[test]
    fn utf8_text_without_a_charset_is_declared_utf8() {
        assert_eq!(
            content_type(Path::new("a.html"), "<p>é".as_bytes()),
            "text/html; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("a.html"), b"<meta charset=latin1><p>\xe9"),
            "text/html"
        );
        assert_eq!(content_type(Path::new("a.png"), b"\x89PNG"), "image/png");
    }
}
