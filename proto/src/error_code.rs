//! The one table of stable error codes: each gives the gRPC code, the HTTP status and a title.
//!
//! The core puts the code in `google.rpc.ErrorInfo.reason` (domain [`DOMAIN`]); the edge reads it
//! back to pick the HTTP status, so a Python or Go client can tell errors apart exactly as a REST
//! client does. Codes are part of the public contract: add new ones, never rename.

use tonic::{Code, Status, metadata::MetadataMap};
use tonic_types::{ErrorDetails, StatusExt};

/// `ErrorInfo.domain` of every Quire error.
pub const DOMAIN: &str = "quire";

macro_rules! error_codes {
    ($($variant:ident => ($code:literal, $grpc:ident, $http:literal, $title:literal),)+) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($variant,)+
        }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)+];

            /// Stable kebab-case code, as found in `ErrorInfo.reason` and the problem `code`.
            pub const fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $code,)+ }
            }

            pub const fn grpc_code(self) -> Code {
                match self { $(ErrorCode::$variant => Code::$grpc,)+ }
            }

            pub const fn http_status(self) -> u16 {
                match self { $(ErrorCode::$variant => $http,)+ }
            }

            /// Short summary that does not change from one occurrence to the next.
            pub const fn title(self) -> &'static str {
                match self { $(ErrorCode::$variant => $title,)+ }
            }

            pub fn from_reason(reason: &str) -> Option<ErrorCode> {
                match reason { $($code => Some(ErrorCode::$variant),)+ _ => None }
            }
        }
    };
}

error_codes! {
    InvalidArgument => ("invalid-argument", InvalidArgument, 400, "Invalid request"),
    MissingFile => ("missing-file", InvalidArgument, 400, "Missing file"),
    EmptyFile => ("empty-file", InvalidArgument, 400, "Empty file"),
    InvalidMultipart => ("invalid-multipart", InvalidArgument, 400, "Malformed multipart body"),
    SizeMismatch => ("size-mismatch", InvalidArgument, 400, "Declared size does not match"),
    InvalidIdempotencyKey => ("invalid-idempotency-key", InvalidArgument, 400, "Invalid Idempotency-Key"),
    MissingApiKey => ("missing-api-key", Unauthenticated, 401, "Missing API key"),
    InvalidApiKey => ("invalid-api-key", Unauthenticated, 401, "Invalid API key"),
    RevokedApiKey => ("revoked-api-key", Unauthenticated, 401, "Revoked API key"),
    InvalidCredentials => ("invalid-credentials", Unauthenticated, 401, "Wrong e-mail or password"),
    InvalidSession => ("invalid-session", Unauthenticated, 401, "Not logged in"),
    MissingScope => ("missing-scope", PermissionDenied, 403, "Missing scope"),
    CsrfRejected => ("csrf-rejected", PermissionDenied, 403, "Form refused"),
    WebOnlyTool => ("web-only-tool", PermissionDenied, 403, "Web interface only"),
    NotFound => ("not-found", NotFound, 404, "Not found"),
    FileNotFound => ("file-not-found", NotFound, 404, "File not found"),
    FileGone => ("file-gone", NotFound, 410, "File no longer available"),
    UploadNotFound => ("upload-not-found", NotFound, 404, "Upload not found"),
    ShareSecretWrong => ("share-secret-wrong", PermissionDenied, 403, "Wrong secret or password"),
    ShareChallengeStale => ("share-challenge-stale", FailedPrecondition, 409, "Challenge expired or used"),
    MethodNotAllowed => ("method-not-allowed", Unimplemented, 405, "Method not allowed"),
    EmailTaken => ("email-taken", AlreadyExists, 409, "E-mail already registered"),
    IdempotencyKeyInUse => ("idempotency-key-in-use", Aborted, 409, "Request with this Idempotency-Key still running"),
    UploadOffsetMismatch => ("upload-offset-mismatch", Aborted, 409, "Upload offset mismatch"),
    UploadIncomplete => ("upload-incomplete", FailedPrecondition, 409, "Upload not finished"),
    TusVersionUnsupported => ("tus-version-unsupported", FailedPrecondition, 412, "Unsupported tus version"),
    FileTooLarge => ("file-too-large", ResourceExhausted, 413, "File too large"),
    TicketTooLarge => ("ticket-too-large", ResourceExhausted, 413, "Ticket too large"),
    StorageQuotaExceeded => ("storage-quota-exceeded", ResourceExhausted, 413, "Storage quota exceeded"),
    InvalidFile => ("invalid-file", InvalidArgument, 400, "Unreadable file"),
    UnsupportedFileType => ("unsupported-file-type", InvalidArgument, 400, "Unsupported file type"),
    EncryptedPdf => ("encrypted-pdf", InvalidArgument, 400, "Password-protected PDF"),
    WrongPassword => ("wrong-password", InvalidArgument, 400, "Wrong password"),
    TooManyPages => ("too-many-pages", InvalidArgument, 400, "Too many pages"),
    TooManyPixels => ("too-many-pixels", InvalidArgument, 400, "Image too large"),
    UnsupportedMediaType => ("unsupported-media-type", InvalidArgument, 415, "Unsupported media type"),
    RangeNotSatisfiable => ("range-not-satisfiable", OutOfRange, 416, "Range not satisfiable"),
    MisdirectedRequest => ("misdirected-request", InvalidArgument, 421, "Host not served"),
    VirusFound => ("virus-found", InvalidArgument, 422, "File rejected by the antivirus"),
    IdempotencyKeyReused => ("idempotency-key-reused", FailedPrecondition, 422, "Idempotency-Key reused for another request"),
    UnprocessableFile => ("unprocessable-file", FailedPrecondition, 422, "File could not be processed"),
    DailyQuotaExceeded => ("daily-quota-exceeded", ResourceExhausted, 429, "Daily quota exceeded"),
    TooManyLoginAttempts => ("too-many-login-attempts", ResourceExhausted, 429, "Too many login attempts"),
    TooManySignUps => ("too-many-sign-ups", ResourceExhausted, 429, "Too many sign-ups"),
    TooManyOpenUploads => ("too-many-open-uploads", ResourceExhausted, 429, "Too many unfinished uploads"),
    Internal => ("internal", Internal, 500, "Internal error"),
    ProcessingFailed => ("processing-failed", Internal, 500, "Processing failed"),
    NotImplemented => ("not-implemented", Unimplemented, 501, "Not implemented yet"),
    ScannerUnavailable => ("scanner-unavailable", Unavailable, 503, "Antivirus unavailable"),
    ProcessingBusy => ("processing-busy", Unavailable, 503, "Processing queue full"),
    CoreUnavailable => ("core-unavailable", Unavailable, 503, "Service unavailable"),
}

impl ErrorCode {
    /// A `Status` carrying this code as `ErrorInfo.reason`, with `metadata` as response metadata
    /// (rate-limit figures, `retry-after`, ...).
    pub fn to_status(self, message: impl Into<String>, metadata: MetadataMap) -> Status {
        let details = ErrorDetails::with_error_info(
            self.as_str(),
            DOMAIN,
            std::collections::HashMap::<String, String>::new(),
        );
        Status::with_error_details_and_metadata(self.grpc_code(), message, details, metadata)
    }

    /// Reads the code back from a `Status`; falls back on the gRPC code for statuses that did
    /// not come from Quire's core (transport failures, limits enforced by tonic itself).
    pub fn from_status(status: &Status) -> ErrorCode {
        if let Some(info) = status.get_details_error_info()
            && info.domain == DOMAIN
            && let Some(code) = ErrorCode::from_reason(&info.reason)
        {
            return code;
        }
        match status.code() {
            Code::InvalidArgument | Code::FailedPrecondition => ErrorCode::InvalidArgument,
            Code::Unauthenticated => ErrorCode::InvalidApiKey,
            Code::PermissionDenied => ErrorCode::MissingScope,
            Code::NotFound => ErrorCode::NotFound,
            Code::OutOfRange => ErrorCode::RangeNotSatisfiable,
            Code::ResourceExhausted => ErrorCode::FileTooLarge,
            Code::Unimplemented => ErrorCode::NotImplemented,
            Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => {
                ErrorCode::CoreUnavailable
            }
            _ => ErrorCode::Internal,
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_through_a_status() {
        for &code in ErrorCode::ALL {
            let status = code.to_status("x", MetadataMap::new());
            assert_eq!(status.code(), code.grpc_code());
            assert_eq!(ErrorCode::from_status(&status), code);
        }
    }

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for &code in ErrorCode::ALL {
            let s = code.as_str();
            assert!(s.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{s}");
            assert!(seen.insert(s), "duplicate {s}");
        }
    }
}
