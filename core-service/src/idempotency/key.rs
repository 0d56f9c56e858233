//! The `Idempotency-Key` a request carries, and the fingerprint of what it asked for.

use prost::Message;
use quire_proto::{ErrorCode, metadata::IDEMPOTENCY_KEY};
use tonic::metadata::MetadataMap;

use crate::error::{ApiError, ApiResult};

/// Longest key accepted; UUIDs (36) and Stripe-style keys fit with room to spare.
pub const MAX_KEY_LEN: usize = 255;

/// The request's key, if it sent one. The draft makes it a Structured Field string
/// (`"8e03978e-…"`); the bare form most clients send (Stripe's) is accepted too.
pub fn from_metadata(metadata: &MetadataMap) -> ApiResult<Option<String>> {
    let Some(value) = metadata.get(IDEMPOTENCY_KEY) else {
        return Ok(None);
    };
    let raw = value
        .to_str()
        .map_err(|_| invalid("it is not ASCII text"))?;
    parse(raw).map(Some)
}

fn parse(raw: &str) -> ApiResult<String> {
    let raw = raw.trim();
    let key = match raw.strip_prefix('"') {
        Some(quoted) => unquote(quoted)?,
        None => raw.to_owned(),
    };
    if key.is_empty() {
        return Err(invalid("it is empty"));
    }
    if key.len() > MAX_KEY_LEN {
        return Err(invalid(&format!(
            "it is {} characters long and at most {MAX_KEY_LEN} are accepted",
            key.len()
        )));
    }
    if !key.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(invalid("it holds control characters"));
    }
    Ok(key)
}

/// The rest of a Structured Field string after its opening quote (RFC 8941 3.3.3).
fn unquote(rest: &str) -> ApiResult<String> {
    let mut key = String::with_capacity(rest.len());
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped @ ('"' | '\\')) => key.push(escaped),
                _ => return Err(invalid("a backslash escapes only \" or \\ in a quoted key")),
            },
            '"' if chars.as_str().is_empty() => return Ok(key),
            '"' => return Err(invalid("text follows the closing quote")),
            c => key.push(c),
        }
    }
    Err(invalid("the quoted key has no closing quote"))
}

fn invalid(why: &str) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidIdempotencyKey,
        format!(
            "the Idempotency-Key header is not valid: {why}; send a unique string per request, \
             e.g. a UUID, of 1 to {MAX_KEY_LEN} printable ASCII characters"
        ),
    )
}

/// What a request asked for, as the core understood it: the method, its options and the
/// content of its file. Chunk boundaries do not count, so the same request sent again in other
/// pieces has the same fingerprint.
pub struct Fingerprint(blake3::Hasher);

impl Fingerprint {
    pub fn new(rpc: &str) -> Self {
        let mut fingerprint = Fingerprint(blake3::Hasher::new());
        fingerprint.field(rpc.as_bytes());
        fingerprint
    }

    /// A field, length-prefixed so no two sequences of fields hash alike.
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update(&(bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// A protobuf message. prost writes fields in tag order, and no message hashed here has a
    /// map, so the encoding is the same for the same message.
    pub fn message(&mut self, message: &impl Message) -> &mut Self {
        self.field(&message.encode_to_vec())
    }

    pub fn finish(&self) -> String {
        self.0.finalize().to_hex().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_structured_and_bare_keys() {
        assert_eq!(parse("\"8e03978e-40d5\"").unwrap(), "8e03978e-40d5");
        assert_eq!(parse("abc-123").unwrap(), "abc-123");
        assert_eq!(parse(r#""a\"b\\c""#).unwrap(), r#"a"b\c"#);
        assert_eq!(parse("  spaced  ").unwrap(), "spaced");
    }

    #[test]
    fn refuses_bad_keys() {
        for bad in ["", "\"\"", "\"open", "\"a\"b", r#""a\nb""#, "tab\there"] {
            let err = parse(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidIdempotencyKey, "{bad:?}");
        }
        assert!(parse(&"k".repeat(MAX_KEY_LEN)).is_ok());
        assert!(parse(&"k".repeat(MAX_KEY_LEN + 1)).is_err());
    }

    #[test]
    fn fingerprints_tell_fields_apart() {
        let of = |fields: &[&[u8]]| {
            let mut f = Fingerprint::new("ocr");
            for field in fields {
                f.field(field);
            }
            f.finish()
        };
        assert_eq!(of(&[b"ab", b"c"]), of(&[b"ab", b"c"]));
        assert_ne!(of(&[b"ab", b"c"]), of(&[b"a", b"bc"]));
        assert_ne!(
            Fingerprint::new("ocr").finish(),
            Fingerprint::new("upload").finish()
        );
    }
}
