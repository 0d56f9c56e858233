//! The problem+json side of the document: one example per error code (built from the shared
//! table, so type, title and status cannot disagree with what the edge sends) and the error
//! responses the handlers' annotations name.

use quire_proto::ErrorCode;
use serde_json::json;
use utoipa::{
    ToResponse,
    openapi::{
        ContentBuilder, Ref, RefOr, ResponseBuilder,
        example::{Example, ExampleBuilder},
        response::Response,
    },
};

/// The media type of every error body (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An error the document shows an example of.
pub struct Case {
    pub code: &'static str,
    pub status: u16,
    pub title: &'static str,
    pub detail: &'static str,
}

/// Every code of the shared table, each with its example.
pub fn cases() -> impl Iterator<Item = Case> {
    ErrorCode::ALL.iter().map(|&code| Case {
        code: code.as_str(),
        status: code.http_status(),
        title: code.title(),
        detail: example_detail(code).unwrap_or(code.title()),
    })
}

/// `#/components/examples/<code>`: the problem body a client gets for that code.
pub fn example(case: &Case) -> RefOr<Example> {
    ExampleBuilder::new()
        .summary(case.title)
        .value(Some(json!({
            "type": format!("/problems/{}", case.code),
            "title": case.title,
            "status": case.status,
            "detail": case.detail,
            "code": case.code,
        })))
        .into()
}

/// A detail as the service writes it. A code without one fails the tests, not the build: the
/// table gains codes while their endpoints are being written.
pub fn example_detail(code: ErrorCode) -> Option<&'static str> {
    Some(match code {
        ErrorCode::InvalidArgument => "dpi must be a whole number from 72 to 300, got \"high\"",
        ErrorCode::MissingFile => {
            "the form has no part named `file`: send the file as `file` (with curl: -F file=@path/to/file)"
        }
        ErrorCode::EmptyFile => "the file is empty: send a file with at least one byte",
        ErrorCode::InvalidMultipart => {
            "the body must be multipart/form-data with a part named `file` (got Content-Type \"application/json\"); with curl: -F file=@path/to/file"
        }
        ErrorCode::SizeMismatch => "the upload declared 2048 bytes and sent 1024",
        ErrorCode::MissingApiKey => "no API key: send Authorization: Bearer <key>",
        ErrorCode::InvalidApiKey => {
            "unknown API key: check that the whole key was copied, or create a new one"
        }
        ErrorCode::RevokedApiKey => "this API key (qk_0qgN…) was revoked: create a new key",
        ErrorCode::InvalidCredentials => "wrong e-mail or password",
        ErrorCode::InvalidSession => "the session ended: log in again",
        ErrorCode::MissingScope => {
            "this API key has scope(s) [read] but this call needs upload: create a key with that scope"
        }
        ErrorCode::CsrfRejected => {
            "the request did not come from this site's pages: reload the page and try again"
        }
        ErrorCode::WrongPassword => "this password does not open the PDF: check it and try again",
        ErrorCode::WebOnlyTool => {
            "the toolbox is part of the web interface: log in and use it at /tools; API keys reach the /api endpoints only"
        }
        ErrorCode::NotFound => "no such endpoint: see the API documentation",
        ErrorCode::FileNotFound => {
            "no file with this token: the link is wrong, or the file expired or was deleted"
        }
        ErrorCode::FileGone => {
            "this link was used up: its 3 downloads were made and the file was deleted"
        }
        ErrorCode::ShareSecretWrong => {
            "the secret or the password is wrong: check them and try again (4 tries left before the share is deleted)"
        }
        ErrorCode::ShareChallengeStale => {
            "this challenge expired (60 s) or was already answered: ask for a new one and answer it"
        }
        ErrorCode::MethodNotAllowed => "this endpoint does not take that method",
        ErrorCode::EmailTaken => "an account already uses this e-mail address",
        ErrorCode::FileTooLarge => {
            "the file is larger than the maximum upload size of 536870912 bytes: send a smaller file"
        }
        ErrorCode::TicketTooLarge => {
            "the JSON body is larger than 10485760 bytes: send the relevant part of the log"
        }
        ErrorCode::StorageQuotaExceeded => {
            "storing 48213 more bytes would exceed this account's storage quota of 1073741824 bytes: delete files you no longer need or upgrade to Pro"
        }
        ErrorCode::InvalidFile => "the PDF could not be read: it is corrupt or truncated",
        ErrorCode::UnsupportedFileType => "received a ZIP archive: this endpoint takes a PDF",
        ErrorCode::EncryptedPdf => "the PDF needs a password to open: send it unprotected",
        ErrorCode::TooManyPages => {
            "the file has 42 pages and OCR takes at most 30: split it and send the parts"
        }
        ErrorCode::TooManyPixels => {
            "page 1 is 20000×20000 pixels at this resolution, over the limit of 100000000"
        }
        ErrorCode::MisdirectedRequest => {
            "this server does not answer for the host \"rebind.example:8080\": use its address (files.example.com), or add the host to QUIRE_ALLOWED_HOSTS"
        }
        ErrorCode::RangeNotSatisfiable => {
            "the requested range is outside the file, which has 48213 bytes"
        }
        ErrorCode::VirusFound => {
            "the antivirus found Eicar-Signature in this file; it was not stored: upload a clean file"
        }
        ErrorCode::UnprocessableFile => {
            "the worker overran its time limit: the file is too complex to process; simplify or split it"
        }
        ErrorCode::DailyQuotaExceeded => {
            "the Free plan allows 100 calls per UTC day and today's are used up: retry after 44921 s (next UTC midnight) or upgrade to Pro"
        }
        ErrorCode::TooManyLoginAttempts => "too many failed log-ins: retry in 15 minutes",
        ErrorCode::TooManySignUps => "too many sign-ups from this address: retry later",
        ErrorCode::TooManyOpenUploads => {
            "this account has 10 unfinished resumable uploads and the Free plan allows 10 at once: finish them (PATCH their remaining bytes) or terminate those you no longer need (DELETE /api/tus/<id>); unfinished uploads also expire 86400 s after their creation"
        }
        ErrorCode::Internal => "an unexpected error occurred; it was logged with the request id",
        ErrorCode::ProcessingFailed => {
            "the processing worker stopped during the job; retry the request"
        }
        ErrorCode::NotImplemented => "this server does not offer this feature",
        ErrorCode::ScannerUnavailable => {
            "the antivirus could not scan this file, so it was not stored: retry in a few seconds"
        }
        ErrorCode::ProcessingBusy => "the processing queue is full: retry in a few seconds",
        ErrorCode::CoreUnavailable => {
            "the service is temporarily unavailable: retry in a few seconds"
        }
        ErrorCode::InvalidIdempotencyKey => {
            "the Idempotency-Key header is not valid: it is empty; send a unique string per request, e.g. a UUID, of 1 to 255 printable ASCII characters"
        }
        ErrorCode::IdempotencyKeyInUse => {
            "a request with this Idempotency-Key is still running: retry once it has finished to get its answer"
        }
        ErrorCode::IdempotencyKeyReused => {
            "this Idempotency-Key was used for a different request (another endpoint, file or options): send a new key with each new request"
        }
        ErrorCode::UploadNotFound => "no upload in progress at this address: start a new one",
        ErrorCode::UploadOffsetMismatch => {
            "the upload is at offset 1048576, not 0: send the bytes from there"
        }
        ErrorCode::UploadIncomplete => "the upload has 1048576 of its 4194304 bytes: send the rest",
        ErrorCode::TusVersionUnsupported => {
            "this server speaks tus 1.0.0: send Tus-Resumable: 1.0.0"
        }
        ErrorCode::UnsupportedMediaType => {
            "send the ticket as JSON with Content-Type: application/json (got \"text/plain\")"
        }
        // Reached by codes added to the table after this list was written.
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

/// A problem response whose examples are the given codes' (component references).
fn response(description: &str, codes: &[&str]) -> Response {
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("Problem")))
        .examples_from_iter(codes.iter().map(|code| {
            (
                *code,
                RefOr::Ref(Ref::new(format!("#/components/examples/{code}"))),
            )
        }))
        .build();
    ResponseBuilder::new()
        .description(description)
        .content(PROBLEM_JSON, content)
        .build()
}

/// One type per error response of the handlers' annotations (`response = inline(Name)`): the
/// description and the codes a client can meet there.
macro_rules! problem_responses {
    ($($name:ident: $description:literal => [$($code:expr),+ $(,)?];)+) => {
        $(
            pub struct $name;

            impl<'r> ToResponse<'r> for $name {
                fn response() -> (&'r str, RefOr<Response>) {
                    (stringify!($name), response($description, &[$($code),+]).into())
                }
            }
        )+

        /// Every response type's codes, for the tests.
        #[cfg(test)]
        pub fn listed_codes() -> Vec<&'static str> {
            vec![$($($code,)+)+]
        }
    };
}

const fn code(code: ErrorCode) -> &'static str {
    code.as_str()
}

const IN_USE: &str = code(ErrorCode::IdempotencyKeyInUse);
const REUSED: &str = code(ErrorCode::IdempotencyKeyReused);
const BAD_KEY: &str = code(ErrorCode::InvalidIdempotencyKey);

problem_responses! {
    Unauthorized: "The API key is missing, malformed, unknown or revoked (or, from the web \
        interface, the session ended)." => [
        code(ErrorCode::MissingApiKey),
        code(ErrorCode::InvalidApiKey),
        code(ErrorCode::RevokedApiKey),
        code(ErrorCode::InvalidSession),
    ];
    Forbidden: "The key lacks the scope this endpoint needs (or a web-interface call came \
        without this site's Origin and anti-CSRF token)." => [
        code(ErrorCode::MissingScope),
        code(ErrorCode::CsrfRejected),
    ];
    UploadBadRequest: "No `file` part, an empty file, a body that is not multipart or is \
        malformed or cut off, an unknown form field, a bad `expiresIn` or `Idempotency-Key`." => [
        code(ErrorCode::MissingFile),
        code(ErrorCode::EmptyFile),
        code(ErrorCode::InvalidMultipart),
        code(ErrorCode::InvalidArgument),
        BAD_KEY,
    ];
    ProcessBadRequest: "The form is wrong (no `file` part, empty file, not multipart, unknown \
        field, bad option, bad `Idempotency-Key`) or the file cannot be taken: unreadable, of a type the endpoint \
        does not take, password-protected, over 30 pages or over the pixel limit." => [
        code(ErrorCode::InvalidArgument),
        code(ErrorCode::MissingFile),
        code(ErrorCode::EmptyFile),
        code(ErrorCode::InvalidMultipart),
        code(ErrorCode::InvalidFile),
        code(ErrorCode::UnsupportedFileType),
        code(ErrorCode::EncryptedPdf),
        code(ErrorCode::TooManyPages),
        code(ErrorCode::TooManyPixels),
        BAD_KEY,
    ];
    SupportBadRequest: "Not JSON, malformed JSON, trailing data, a wrong type, a missing \
        `rawLog`, an unknown field or locale (`detail` names the field), or a bad \
        `Idempotency-Key`." => [
        code(ErrorCode::InvalidArgument),
        BAD_KEY,
    ];
    UploadTooLarge: "The file is over the server's maximum upload size, or storing it would \
        exceed the account's storage quota." => [
        code(ErrorCode::FileTooLarge),
        code(ErrorCode::StorageQuotaExceeded),
    ];
    ProcessTooLarge: "The file is over the server's maximum upload size." => [
        code(ErrorCode::FileTooLarge),
    ];
    TicketTooLarge: "The JSON body, or `rawLog` plus `ticketContext`, is over the server's \
        ticket size limit (10 MiB by default)." => [
        code(ErrorCode::TicketTooLarge),
    ];
    UploadUnprocessable: "The antivirus found a threat (nothing was stored), or the \
        `Idempotency-Key` was used before with a different request." => [
        code(ErrorCode::VirusFound),
        REUSED,
    ];
    ProcessUnprocessable: "The file crashed an engine or overran a worker's time or memory \
        limit, or the `Idempotency-Key` was used before with a different request." => [
        code(ErrorCode::UnprocessableFile),
        REUSED,
    ];
    KeyReused: "The `Idempotency-Key` was used before with a different request." => [
        REUSED,
    ];
    KeyInUse: "A request with this `Idempotency-Key` is still running: retry once it has \
        finished to get its answer." => [
        IN_USE,
    ];
    QuotaExceeded: "The Free plan's calls for today are used up; `Retry-After` gives the \
        seconds until the next UTC midnight." => [
        code(ErrorCode::DailyQuotaExceeded),
    ];
    ProcessingFailed: "A worker was lost for a reason not due to the file: retry." => [
        code(ErrorCode::ProcessingFailed),
    ];
    UploadUnavailable: "The antivirus is unreachable (nothing was stored), or the service \
        is: retry after `Retry-After` seconds." => [
        code(ErrorCode::ScannerUnavailable),
        code(ErrorCode::CoreUnavailable),
    ];
    ProcessUnavailable: "The processing queue is full, or the service is unreachable: retry \
        after `Retry-After` seconds." => [
        code(ErrorCode::ProcessingBusy),
        code(ErrorCode::CoreUnavailable),
    ];
    Unavailable: "The service is temporarily unreachable: retry after `Retry-After` \
        seconds." => [
        code(ErrorCode::CoreUnavailable),
    ];
    FileNotFound: "No file has this token: the link is wrong, or the file expired or was \
        deleted." => [
        code(ErrorCode::FileNotFound),
    ];
    FileGone: "The link was used up (its `maxDownloads` full downloads were made) or it \
        expired: the file was deleted." => [
        code(ErrorCode::FileGone),
    ];
    RangeNotSatisfiable: "The byte range is outside the file; `Content-Range` gives its \
        size (`bytes */48213`)." => [
        code(ErrorCode::RangeNotSatisfiable),
    ];
    UnknownCode: "No error code has this name." => [
        code(ErrorCode::NotFound),
    ];
}
