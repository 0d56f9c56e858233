//! Where to go after logging in: the `next` a page or a link asked for, when it is a place on
//! this site that makes a valid `Location` header, else the dashboard.
//!
//! Browsers strip TAB and line breaks from URLs and read `\` as `/`, so `/\t/evil.example` and
//! `/\evil.example` are `//evil.example`, another site; a control character cannot be put in a
//! header at all (the log-in answered 500 for `/%01`). Only printable ASCII is let through, which
//! is what a path percent-encodes to.

/// Longest `next` kept: a path of this site is far shorter; a longer one is an attack or a
/// mistake, and it goes in a header.
const MAX_LEN: usize = 2048;

pub const FALLBACK: &str = "/dashboard";

/// `next` when it is a same-origin path that makes a valid header, else [`FALLBACK`].
pub fn safe_next(next: &str) -> &str {
    local_path(next).unwrap_or(FALLBACK)
}

/// `path` when it is a same-origin path that makes a valid header.
pub fn local_path(path: &str) -> Option<&str> {
    is_local_path(path).then_some(path)
}

fn is_local_path(next: &str) -> bool {
    let bytes = next.as_bytes();
    bytes.len() <= MAX_LEN
        && bytes.first() == Some(&b'/')
        // `//host` and `/\host` name another host; `\` anywhere is read as `/`.
        && bytes.get(1) != Some(&b'/')
        && !bytes.contains(&b'\\')
        // Printable ASCII only: no control character, TAB, space, DEL or raw non-ASCII byte.
        && bytes.iter().all(|b| (0x21..=0x7e).contains(b))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn paths_of_this_site_are_kept() {
        for next in [
            "/dashboard",
            "/dashboard/api-keys",
            "/tools/ocr?lang=fra",
            "/tools/compress-pdf#result",
            "/%2F%2Fevil.example",
            "/a/b//c",
        ] {
            assert_eq!(safe_next(next), next, "{next:?}");
        }
    }

    #[test]
    fn anything_else_goes_to_the_dashboard() {
        let long = format!("/{}", "a".repeat(MAX_LEN));
        for next in [
            "",
            "dashboard",
            "//evil.example",
            "/\\evil.example",
            "\\\\evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r\nset-cookie: x=y",
            "/\u{1}",
            "/\u{7f}",
            "/ spaced",
            "/caf\u{e9}",
            "https://evil.example/",
            "javascript:alert(1)",
            " /dashboard",
            long.as_str(),
        ] {
            assert_eq!(safe_next(next), FALLBACK, "{next:?}");
        }
    }

    #[test]
    fn every_byte_kept_makes_a_valid_header() {
        // Each single byte after `/`: what is kept must be a header value, the class that
        // answered 500 for `/%01`.
        for byte in 0u8..=255 {
            let Ok(next) = String::from_utf8(vec![b'/', b'x', byte]) else {
                continue;
            };
            let kept = safe_next(&next);
            assert!(HeaderValue::from_str(kept).is_ok(), "{next:?}");
        }
    }
}
