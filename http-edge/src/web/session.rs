//! The browser session on the edge: the core's opaque token in an HttpOnly cookie, resolved by
//! the core on every page, and the checks every form goes through (same Origin, and the
//! session's anti-CSRF token).

use axum::{
    extract::{FromRequestParts, OptionalFromRequestParts},
    http::{HeaderMap, HeaderValue, header, request::Parts},
    response::{IntoResponse, Redirect, Response},
};
use quire_proto::{
    ErrorCode,
    metadata::AUTHORIZATION,
    v1::{Account, GetAccountRequest},
};

use crate::{EdgeState, problem::Problem};

pub const COOKIE: &str = "quire_session";

/// The value of cookie `name`, if the request carries it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

/// `Set-Cookie` for a new session: HttpOnly, SameSite=Lax, Secure when the page was served
/// over https.
pub fn set_cookie(token: &str, max_age: i64, secure: bool) -> (header::HeaderName, String) {
    let secure = if secure { "; Secure" } else { "" };
    (
        header::SET_COOKIE,
        format!("{COOKIE}={token}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"),
    )
}

pub fn clear_cookie() -> (header::HeaderName, String) {
    (
        header::SET_COOKIE,
        format!("{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"),
    )
}

/// Whether the form was posted from an https page of this site.
pub fn over_https(headers: &HeaderMap) -> bool {
    origin(headers).is_some_and(|o| o.starts_with("https://"))
}

fn origin(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .and_then(|v| v.to_str().ok())
}

/// A state-changing request must come from a page of this site: its Origin (or, from older
/// browsers, its Referer) names the host the request was sent to.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    origin(headers)
        .and_then(|o| o.split_once("://"))
        .map(|(_, rest)| rest.split('/').next().unwrap_or_default())
        .is_some_and(|origin_host| origin_host.eq_ignore_ascii_case(host))
}

/// A logged-in person: the session token, the account as the core sees it now, and the
/// session's anti-CSRF token.
pub struct LoggedIn {
    pub token: String,
    pub account: Account,
    pub csrf_token: String,
}

impl LoggedIn {
    /// A gRPC request on behalf of this session.
    pub fn request<T>(&self, message: T) -> tonic::Request<T> {
        session_request(&self.token, message)
    }

    /// 403 unless the form came from this site and carries this session's token.
    pub fn check_form(&self, headers: &HeaderMap, csrf: &str) -> Result<(), Problem> {
        if same_origin(headers) && constant_time_eq(csrf.as_bytes(), self.csrf_token.as_bytes()) {
            Ok(())
        } else {
            Err(csrf_refusal())
        }
    }
}

pub fn csrf_refusal() -> Problem {
    Problem::new(
        ErrorCode::CsrfRejected,
        "the form was not sent from this site's page, or its session token is stale: reload the page and try again",
    )
}

pub fn session_request<T>(token: &str, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Ok(value) = format!("Session {token}").parse() {
        request.metadata_mut().insert(AUTHORIZATION, value);
    }
    request
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Pages for logged-in people redirect everybody else to the log-in page, and back after.
pub struct LoginRedirect(String);

impl IntoResponse for LoginRedirect {
    fn into_response(self) -> Response {
        let mut response = Redirect::to(&format!("/login?next={}", self.0)).into_response();
        if let Ok(value) = HeaderValue::from_str(&clear_cookie().1) {
            response.headers_mut().insert(header::SET_COOKIE, value);
        }
        response
    }
}

impl FromRequestParts<EdgeState> for LoggedIn {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &EdgeState) -> Result<Self, Response> {
        let next: String = percent_encoding::utf8_percent_encode(
            parts.uri.path(),
            percent_encoding::NON_ALPHANUMERIC,
        )
        .to_string();
        let Some(token) = cookie(&parts.headers, COOKIE) else {
            return Err(LoginRedirect(next).into_response());
        };
        match LoggedIn::resolve(state, token).await {
            Ok(who) => Ok(who),
            Err(status) if status.code() == tonic::Code::Unauthenticated => {
                Err(LoginRedirect(next).into_response())
            }
            Err(status) => Err(Problem::from(status).into_response()),
        }
    }
}

/// `Option<LoggedIn>`: the session if the browser has a live one, for the pages anyone may
/// open (the browser-local tools), which show the logged-in navigation then. Any failure
/// (no cookie, an ended session, the core unreachable) is no session: those pages need
/// nothing from the core.
impl OptionalFromRequestParts<EdgeState> for LoggedIn {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &EdgeState,
    ) -> Result<Option<Self>, Self::Rejection> {
        let Some(token) = cookie(&parts.headers, COOKIE) else {
            return Ok(None);
        };
        Ok(LoggedIn::resolve(state, token).await.ok())
    }
}

impl LoggedIn {
    /// The session `token` as the core sees it now: its account and its anti-CSRF token.
    pub async fn resolve(state: &EdgeState, token: String) -> Result<LoggedIn, tonic::Status> {
        let response = state
            .core
            .accounts
            .clone()
            .get_account(session_request(&token, GetAccountRequest {}))
            .await?
            .into_inner();
        Ok(LoggedIn {
            token,
            account: response.account.unwrap_or_default(),
            csrf_token: response.csrf_token,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                header::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        map
    }

    #[test]
    fn cookies_are_found_by_name() {
        let h = headers(&[
            ("cookie", "a=1; quire_session=qs_abc; b=2"),
            ("cookie", "c=3"),
        ]);
        assert_eq!(cookie(&h, COOKIE).as_deref(), Some("qs_abc"));
        assert_eq!(cookie(&h, "c").as_deref(), Some("3"));
        assert_eq!(cookie(&h, "quire"), None);
    }

    #[test]
    fn forms_must_come_from_this_host() {
        let host = ("host", "quire.example:8080");
        assert!(same_origin(&headers(&[
            host,
            ("origin", "https://quire.example:8080")
        ])));
        assert!(same_origin(&headers(&[
            host,
            ("referer", "http://quire.example:8080/dashboard")
        ])));
        assert!(!same_origin(&headers(&[
            host,
            ("origin", "https://evil.example")
        ])));
        assert!(!same_origin(&headers(&[
            host,
            ("origin", "https://quire.example:8080.evil.example")
        ])));
        assert!(!same_origin(&headers(&[host])));
        assert!(!same_origin(&headers(&[(
            "origin",
            "https://quire.example:8080"
        )])));
    }

    #[test]
    fn session_cookies_are_http_only_and_secure_on_https() {
        let (_, plain) = set_cookie("qs_x", 60, false);
        assert_eq!(
            plain,
            "quire_session=qs_x; Path=/; Max-Age=60; HttpOnly; SameSite=Lax"
        );
        assert!(set_cookie("qs_x", 60, true).1.ends_with("; Secure"));
        assert!(over_https(&headers(&[("origin", "https://quire.example")])));
        assert!(!over_https(&headers(&[("origin", "http://quire.example")])));
    }
}
