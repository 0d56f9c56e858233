//! The tus 1.0 headers: what every request must carry and every answer says.

use axum::http::{HeaderMap, HeaderName, HeaderValue};
use base64::Engine;
use quire_proto::ErrorCode;

use crate::problem::Problem;

pub const VERSION: &str = "1.0.0";
pub const EXTENSIONS: &str = "creation,termination,expiration";
pub const TUS_RESUMABLE: HeaderName = HeaderName::from_static("tus-resumable");
pub const TUS_VERSION: HeaderName = HeaderName::from_static("tus-version");
pub const TUS_EXTENSION: HeaderName = HeaderName::from_static("tus-extension");
pub const UPLOAD_LENGTH: HeaderName = HeaderName::from_static("upload-length");
pub const UPLOAD_OFFSET: HeaderName = HeaderName::from_static("upload-offset");
pub const UPLOAD_METADATA: HeaderName = HeaderName::from_static("upload-metadata");
pub const UPLOAD_EXPIRES: HeaderName = HeaderName::from_static("upload-expires");
pub const UPLOAD_DEFER_LENGTH: HeaderName = HeaderName::from_static("upload-defer-length");
/// The body type of a PATCH.
pub const OFFSET_OCTET_STREAM: &str = "application/offset+octet-stream";

/// Every request but OPTIONS names the protocol version; an unknown one is 412 with the
/// versions this server speaks.
pub fn check_version(headers: &HeaderMap) -> Result<(), Problem> {
    match headers.get(&TUS_RESUMABLE).map(HeaderValue::as_bytes) {
        Some(b"1.0.0") => Ok(()),
        got => {
            let got = got.map_or("none".to_owned(), |v| {
                String::from_utf8_lossy(v).into_owned()
            });
            let mut problem = Problem::new(
                ErrorCode::TusVersionUnsupported,
                format!(
                    "Tus-Resumable is {got}: this server speaks tus {VERSION}; send Tus-Resumable: {VERSION}"
                ),
            );
            problem
                .headers
                .insert(TUS_VERSION, HeaderValue::from_static(VERSION));
            Err(problem)
        }
    }
}

/// A whole number of bytes in `name`.
pub fn number(headers: &HeaderMap, name: &HeaderName) -> Result<Option<u64>, Problem> {
    let Some(value) = headers.get(name) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Some)
        .ok_or_else(|| {
            Problem::new(
                ErrorCode::InvalidArgument,
                format!("{name} must be a whole number of bytes, got {value:?}"),
            )
        })
}

/// What Upload-Metadata says: the file name (`filename`, or `name` as Uppy sends it), the
/// stored file's lifetime (`expiresIn`, in seconds), its link's download limit
/// (`maxDownloads`), and for an encrypted share made by the `/share` page the seal's raw bytes
/// (`shareProofKey`, `shareMetadata`, `sharePassword`). Other keys are ignored.
#[derive(Debug, Default, PartialEq)]
pub struct Metadata {
    pub filename: String,
    pub expires_in: Option<u64>,
    pub max_downloads: Option<u64>,
    pub share_proof_key: Option<Vec<u8>>,
    pub share_metadata: Option<Vec<u8>>,
    pub share_password: bool,
}

/// `key base64,key base64,key` (tus 1.0 "creation").
pub fn metadata(headers: &HeaderMap) -> Result<Metadata, Problem> {
    let Some(value) = headers.get(&UPLOAD_METADATA) else {
        return Ok(Metadata::default());
    };
    let invalid = |why: String| {
        Problem::new(
            ErrorCode::InvalidArgument,
            format!("Upload-Metadata {why}: send comma-separated `key base64(value)` pairs"),
        )
    };
    let text = value.to_str().map_err(|_| invalid("is not ASCII".into()))?;
    let mut metadata = Metadata::default();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, encoded) = pair.split_once(' ').unwrap_or((pair, ""));
        let raw = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .map_err(|_| invalid(format!("has a value for {key:?} that is not base64")))?;
        match key {
            "shareProofKey" => {
                metadata.share_proof_key = Some(raw);
                continue;
            }
            "shareMetadata" => {
                metadata.share_metadata = Some(raw);
                continue;
            }
            "sharePassword" => {
                metadata.share_password = raw == b"1";
                continue;
            }
            _ => {}
        }
        let decoded = String::from_utf8(raw)
            .map_err(|_| invalid(format!("has a value for {key:?} that is not UTF-8")))?;
        match key {
            "filename" | "name" => metadata.filename = decoded,
            "expiresIn" => {
                let secs = decoded.trim().parse().map_err(|_| {
                    invalid(format!(
                        "expiresIn is {decoded:?}, not a whole number of seconds"
                    ))
                })?;
                metadata.expires_in = Some(secs);
            }
            "maxDownloads" => {
                let downloads = decoded.trim().parse().map_err(|_| {
                    invalid(format!(
                        "maxDownloads is {decoded:?}, not a whole number of downloads"
                    ))
                })?;
                metadata.max_downloads = Some(downloads);
            }
            _ => {}
        }
    }
    Ok(metadata)
}

/// An RFC 9110 date, as Upload-Expires has it.
pub fn http_date(seconds: i64) -> HeaderValue {
    let date = chrono::DateTime::from_timestamp(seconds, 0).unwrap_or_default();
    HeaderValue::from_str(&date.format("%a, %d %b %Y %H:%M:%S GMT").to_string())
        .unwrap_or(HeaderValue::from_static("Thu, 01 Jan 1970 00:00:00 GMT"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: HeaderName, value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn reads_upload_metadata() {
        // filename "report.pdf", expiresIn "3600", and a key with no value.
        let headers = with(
            UPLOAD_METADATA,
            "filename cmVwb3J0LnBkZg==,is_confidential,expiresIn MzYwMA==,maxDownloads Mg==",
        );
        let metadata = metadata(&headers).unwrap();
        assert_eq!(metadata.filename, "report.pdf");
        assert_eq!(metadata.expires_in, Some(3600));
        assert_eq!(metadata.max_downloads, Some(2));
        assert!(super::metadata(&with(UPLOAD_METADATA, "filename !!!")).is_err());
    }

    #[test]
    fn reads_a_shares_seal_as_raw_bytes() {
        // shareProofKey: bytes 0xff 0x00 (not UTF-8), shareMetadata "abc", sharePassword "1".
        let headers = with(
            UPLOAD_METADATA,
            "shareProofKey /wA=,shareMetadata YWJj,sharePassword MQ==,maxDownloads MQ==",
        );
        let metadata = metadata(&headers).unwrap();
        assert_eq!(metadata.share_proof_key, Some(vec![0xff, 0]));
        assert_eq!(metadata.share_metadata, Some(b"abc".to_vec()));
        assert!(metadata.share_password);
        assert_eq!(metadata.max_downloads, Some(1));
    }

    #[test]
    fn wants_version_1_0_0() {
        assert!(check_version(&with(TUS_RESUMABLE, "1.0.0")).is_ok());
        let refused = check_version(&with(TUS_RESUMABLE, "0.2.2")).unwrap_err();
        assert_eq!(refused.code, ErrorCode::TusVersionUnsupported);
        assert_eq!(refused.headers[&TUS_VERSION], "1.0.0");
        assert!(check_version(&HeaderMap::new()).is_err());
    }

    #[test]
    fn writes_http_dates() {
        assert_eq!(http_date(1_416_614_400), "Sat, 22 Nov 2014 00:00:00 GMT");
    }
}
