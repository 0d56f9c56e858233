//! Media type sniffed from the first bytes, never taken from the client.

/// Bytes looked at; enough for every magic number `infer` knows and for markup detection.
pub const SNIFF_LEN: usize = 8192;

pub fn sniff(head: &[u8]) -> String {
    // infer also guesses some text formats (text/xml for an SVG); markup is told apart below.
    if let Some(kind) = infer::get(head)
        && kind.matcher_type() != infer::MatcherType::Text
    {
        return kind.mime_type().to_owned();
    }
    let Ok(text) = std::str::from_utf8(trim_incomplete_utf8(head)) else {
        return "application/octet-stream".to_owned();
    };
    if text.contains('\0') {
        return "application/octet-stream".to_owned();
    }
    let start = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .to_ascii_lowercase();
    let markup = |tag: &str| start.contains(tag);
    if (start.starts_with("<svg") || start.starts_with("<?xml")) && markup("<svg") {
        "image/svg+xml".to_owned()
    } else if start.starts_with("<!doctype html")
        || start.starts_with("<html")
        || markup("<script")
        || markup("<body")
    {
        "text/html".to_owned()
    } else if start.starts_with("<?xml") {
        "application/xml".to_owned()
    } else {
        "text/plain; charset=utf-8".to_owned()
    }
}

/// The sniff window may cut a multi-byte character in two; that must not make text look binary.
fn trim_incomplete_utf8(bytes: &[u8]) -> &[u8] {
    match std::str::from_utf8(bytes) {
        Ok(_) => bytes,
        Err(err) if err.error_len().is_none() => &bytes[..err.valid_up_to()],
        Err(_) => bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_binary_formats_markup_and_text() {
        assert_eq!(sniff(b"%PDF-1.7\n"), "application/pdf");
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), "image/png");
        assert_eq!(sniff(b"<!DOCTYPE html><html>"), "text/html");
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?><svg xmlns="),
            "image/svg+xml"
        );
        assert_eq!(
            sniff(b"<svg xmlns=\"x\"><script>1</script></svg>"),
            "image/svg+xml"
        );
        assert_eq!(sniff(b"hello world\n"), "text/plain; charset=utf-8");
        assert_eq!(sniff("été".as_bytes()), "text/plain; charset=utf-8");
        assert_eq!(sniff(&"é".as_bytes()[..1]), "text/plain; charset=utf-8");
        assert_eq!(sniff(b"\x00\x01\x02\xff"), "application/octet-stream");
    }
}
