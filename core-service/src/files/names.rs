//! Share tokens and stored file names.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;

/// 96 random bits as 16 URL-safe characters: short to paste, infeasible to guess.
pub fn new_token() -> String {
    let mut bytes = [0u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn is_token(candidate: &str) -> bool {
    candidate.len() == 16
        && candidate
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Keeps the last path component, drops control characters and quotes, caps the length.
/// What remains is safe to store and to show; the edge still encodes it for headers.
pub fn sanitize_filename(raw: &str) -> String {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = base
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '"' | '\u{202e}' | '\u{202d}'))
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').trim();
    let mut out = String::new();
    for c in cleaned.chars() {
        if out.len() + c.len_utf8() > 255 {
            break;
        }
        out.push(c);
    }
    if out.is_empty() {
        "file".to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_url_safe_and_recognised() {
        let token = new_token();
        assert!(is_token(&token), "{token}");
        assert_ne!(token, new_token());
        assert!(!is_token("../../etc/passwd"));
    }

    #[test]
    fn filenames_lose_paths_and_control_characters() {
        assert_eq!(sanitize_filename("../../etc/passwd"), "passwd");
        assert_eq!(sanitize_filename("C:\\Users\\x\\report.pdf"), "report.pdf");
        assert_eq!(sanitize_filename("a\r\nb\".txt"), "ab.txt");
        assert_eq!(sanitize_filename("..."), "file");
        assert_eq!(sanitize_filename("résumé été.pdf"), "résumé été.pdf");
        assert!(sanitize_filename(&"é".repeat(300)).len() <= 255);
    }
}
