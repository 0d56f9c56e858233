//! Requests as the tests send them (gRPC credentials, multipart forms, the EICAR file) and
//! the checks of what comes back (digests, problem+json bodies).

/// A gRPC request carrying `key` as its bearer credentials.
pub fn authed<T>(message: T, key: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {key}").parse().expect("ascii key"),
    );
    request
}

/// A gRPC request carrying a browser session's token, as the edge sends it from the cookie.
pub fn in_session<T>(message: T, session_token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Session {session_token}")
            .parse()
            .expect("ascii token"),
    );
    request
}

/// The QUIRE_EDGE_SECRET of every test stack ([`crate::test_config`]).
pub const EDGE_SECRET: &str = "test-edge-secret-0123456789abcdef0123456789";

/// A gRPC request as an edge sends it: with the edge secret, so the core takes the client
/// address it states.
pub fn as_edge<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        quire_proto::metadata::EDGE_SECRET,
        EDGE_SECRET.parse().expect("ascii secret"),
    );
    request
}

/// The `quire_session=<token>` pair a web answer sets (not one that clears it), for a `Cookie`
/// header.
pub fn session_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("quire_session=") && !v.starts_with("quire_session=;"))
        .and_then(|v| v.split(';').next())
        .map(str::to_owned)
}

/// The anti-CSRF token a logged-in page carries in its `csrf-token` meta element.
pub fn csrf_token(html: &str) -> Option<String> {
    html.split("name=\"csrf-token\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(str::to_owned)
}

/// A multipart form with one `file` part.
pub fn file_form(name: &str, bytes: Vec<u8>) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned()),
    )
}

/// What the core reports as a file's digest (and the share link serves as its ETag).
pub fn digest_of(bytes: &[u8]) -> String {
    format!("blake3:{}", blake3::hash(bytes).to_hex())
}

/// The EICAR test string, built at run time so no file in the repository trips a scanner.
pub fn eicar() -> Vec<u8> {
    [
        "X5O!P%@AP[4\\PZX54(P^)7CC)7}$",
        "EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*",
    ]
    .concat()
    .into_bytes()
}

/// Reads a problem+json body and checks its shape; returns it.
pub async fn problem(response: reqwest::Response, status: u16, code: &str) -> serde_json::Value {
    let got = response.status().as_u16();
    if got != status {
        panic!(
            "status {got}, expected {status}: {}",
            response.text().await.unwrap_or_default()
        );
    }
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert_eq!(content_type, "application/problem+json");
    let body: serde_json::Value = response.json().await.expect("json body");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["type"], format!("/problems/{code}"));
    assert!(
        body["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    assert!(
        body["detail"].as_str().is_some_and(|d| d.len() > 10),
        "{body}"
    );
    body
}
