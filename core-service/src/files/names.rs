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

/// Characters that change how the text around them is shown without being seen: every
/// bidirectional control (embeddings, overrides, isolates, marks: `invoice\u{202e}fdp.exe` shows
/// as `invoiceexe.pdf`), line and paragraph separators, and zero-width spaces and the BOM.
/// Zero-width joiners stay: emoji and several scripts need them.
pub fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200b}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// `raw` without [`is_hidden_control`] characters: a name as it is shown.
pub fn visible_text(raw: &str) -> String {
    raw.chars().filter(|&c| !is_hidden_control(c)).collect()
}

/// Keeps the last path component, drops control and bidirectional characters and quotes, caps
/// the length. What remains is safe to store and to show; the edge still encodes it for headers.
pub fn sanitize_filename(raw: &str) -> String {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = visible_text(base).replace('"', "");
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

    #[test]
    fn filenames_lose_every_bidirectional_control() {
        let hidden = [
            '\u{061c}', '\u{200b}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{202b}', '\u{202c}',
            '\u{202d}', '\u{202e}', '\u{2028}', '\u{2029}', '\u{2066}', '\u{2067}', '\u{2068}',
            '\u{2069}', '\u{feff}',
        ];
        for c in hidden {
            assert_eq!(
                sanitize_filename(&format!("invoice{c}fdp.exe")),
                "invoicefdp.exe",
                "{c:?}"
            );
        }
        // Joiners are part of emoji and of several scripts.
        assert_eq!(sanitize_filename("👩\u{200d}💻.png"), "👩\u{200d}💻.png");
        assert_eq!(sanitize_filename("مرحبا.pdf"), "مرحبا.pdf");
    }
}
