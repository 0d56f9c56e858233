//! The exit codes a pipeline branches on, and which answer of the server gives which.
//!
//! The problem+json `code` decides when the server sent one (it is stable and finer than the
//! status: a 413 is a file too large, a rejected file, or a full storage, a quota); the status
//! decides otherwise (a reverse proxy's own error page, an old server).

use std::process::ExitCode;

/// What went wrong, as a pipeline needs to know it. The numbers are public: never renumber.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything worked.
    Ok = 0,
    /// Anything else: a bug, an answer the client did not expect, an output it could not write.
    Internal = 1,
    /// The command line is wrong (clap's own code), an input file cannot be read, or the server
    /// refused an option's value.
    Usage = 2,
    /// The key is missing, invalid or revoked, or lacks the scope.
    Auth = 3,
    /// The Free plan's calls for today are used up, or the account's storage is full.
    Quota = 4,
    /// The server refused the file itself: a virus, a type the endpoint does not take, a
    /// corrupt or password-protected PDF, too many pages or pixels, too large.
    Rejected = 5,
    /// The server cannot be reached or cannot serve now (5xx), also after every retry.
    Unavailable = 6,
}

impl Exit {
    /// The exit class of an error answer: by its problem `code` when it is one this client
    /// knows, by its HTTP status otherwise.
    pub fn of_answer(status: u16, code: Option<&str>) -> Exit {
        code.and_then(Exit::of_code)
            .unwrap_or_else(|| Exit::of_status(status))
    }

    /// Every code of the server's error table (README "Errors").
    pub fn of_code(code: &str) -> Option<Exit> {
        Some(match code {
            "missing-api-key"
            | "invalid-api-key"
            | "revoked-api-key"
            | "invalid-credentials"
            | "invalid-session"
            | "missing-scope"
            | "csrf-rejected"
            | "web-only-tool" => Exit::Auth,
            "daily-quota-exceeded"
            | "storage-quota-exceeded"
            | "too-many-login-attempts"
            | "too-many-sign-ups"
            | "too-many-open-uploads" => Exit::Quota,
            "virus-found"
            | "empty-file"
            | "file-too-large"
            | "ticket-too-large"
            | "invalid-file"
            | "unsupported-file-type"
            | "encrypted-pdf"
            | "wrong-password"
            | "too-many-pages"
            | "too-many-pixels"
            | "unprocessable-file" => Exit::Rejected,
            // An option's value (a language, a lifetime) the server does not take; a QUIRE_URL
            // whose host the server does not answer for.
            "invalid-argument" | "misdirected-request" => Exit::Usage,
            // `idempotency-key-in-use`: this call's first attempt still runs on the server.
            "internal"
            | "processing-failed"
            | "not-implemented"
            | "scanner-unavailable"
            | "processing-busy"
            | "core-unavailable"
            | "idempotency-key-in-use" => Exit::Unavailable,
            // The client builds the request: these would be its own bug, or a URL that points
            // at something else than a Quire server.
            "missing-file"
            | "invalid-multipart"
            | "size-mismatch"
            | "not-found"
            | "file-not-found"
            | "file-gone"
            | "method-not-allowed"
            | "email-taken"
            | "range-not-satisfiable"
            | "invalid-idempotency-key"
            | "idempotency-key-reused"
            | "unsupported-media-type" => Exit::Internal,
            // Resumable (tus) uploads, which this client does not use.
            "upload-not-found"
            | "upload-offset-mismatch"
            | "upload-incomplete"
            | "tus-version-unsupported" => Exit::Internal,
            // Encrypted shares are the web interface's: this client never reads one.
            "share-secret-wrong" | "share-challenge-stale" => Exit::Internal,
            _ => return None,
        })
    }

    pub fn of_status(status: u16) -> Exit {
        match status {
            401 | 403 => Exit::Auth,
            429 => Exit::Quota,
            // A proxy's body limit, or a file the server could not take.
            413 | 422 => Exit::Rejected,
            500..=599 => Exit::Unavailable,
            _ => Exit::Internal,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_the_server_can_send_has_an_exit_class() {
        for code in quire_proto::ErrorCode::ALL {
            assert!(
                Exit::of_code(code.as_str()).is_some(),
                "{code} has no exit class: add it to Exit::of_code"
            );
        }
    }

    #[test]
    fn the_code_decides_over_the_status() {
        // Both are 413: one is the file, the other the account.
        assert_eq!(Exit::of_answer(413, Some("file-too-large")), Exit::Rejected);
        assert_eq!(
            Exit::of_answer(413, Some("storage-quota-exceeded")),
            Exit::Quota
        );
        // Both are 400: one is the file, the other an option.
        assert_eq!(Exit::of_answer(400, Some("encrypted-pdf")), Exit::Rejected);
        assert_eq!(Exit::of_answer(400, Some("invalid-argument")), Exit::Usage);
        assert_eq!(Exit::of_answer(422, Some("virus-found")), Exit::Rejected);
        assert_eq!(
            Exit::of_answer(429, Some("daily-quota-exceeded")),
            Exit::Quota
        );
        assert_eq!(Exit::of_answer(401, Some("revoked-api-key")), Exit::Auth);
        assert_eq!(Exit::of_answer(403, Some("missing-scope")), Exit::Auth);
        assert_eq!(
            Exit::of_answer(503, Some("scanner-unavailable")),
            Exit::Unavailable
        );
        assert_eq!(
            Exit::of_answer(500, Some("processing-failed")),
            Exit::Unavailable
        );
    }

    #[test]
    fn without_a_known_code_the_status_decides() {
        assert_eq!(Exit::of_answer(401, None), Exit::Auth);
        assert_eq!(Exit::of_answer(403, Some("some-future-code")), Exit::Auth);
        assert_eq!(Exit::of_answer(429, None), Exit::Quota);
        assert_eq!(Exit::of_answer(413, None), Exit::Rejected);
        assert_eq!(Exit::of_answer(422, None), Exit::Rejected);
        assert_eq!(Exit::of_answer(502, None), Exit::Unavailable);
        assert_eq!(Exit::of_answer(503, None), Exit::Unavailable);
        assert_eq!(Exit::of_answer(404, None), Exit::Internal);
        assert_eq!(Exit::of_answer(400, None), Exit::Internal);
    }

    #[test]
    fn the_numbers_are_the_documented_ones() {
        let numbers = [
            Exit::Ok,
            Exit::Internal,
            Exit::Usage,
            Exit::Auth,
            Exit::Quota,
            Exit::Rejected,
            Exit::Unavailable,
        ]
        .map(|e| e as u8);
        assert_eq!(numbers, [0, 1, 2, 3, 4, 5, 6]);
    }
}
