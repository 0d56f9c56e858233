//! Sign-up, log-in and log-out pages: forms posted to the same paths, translated into
//! AccountService calls; the session comes back as an HttpOnly cookie. Sign-up answers the same
//! for a new address and a known one (the log-in form, with a notice), so it tells nobody which
//! addresses have accounts; log-in always gives a new session and ends the one the browser had.

use std::net::{IpAddr, SocketAddr};

use axum::{
    Form,
    extract::{ConnectInfo, FromRequestParts, Query, State},
    http::{HeaderMap, StatusCode, request::Parts},
    response::{IntoResponse, Redirect, Response},
};
use maud::{Markup, html};
use quire_proto::{
    ErrorCode,
    v1::{LogInRequest, LogOutRequest, Session, SignUpRequest},
};
use serde::Deserialize;

use super::{
    i18n::{Lang, error_message, retry_message},
    layout::Page,
    next_path::safe_next,
    session::{self, LoggedIn},
};
use crate::{EdgeState, problem::Problem};

#[derive(Deserialize, Default)]
pub struct Credentials {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    next: String,
}

#[derive(Deserialize)]
pub struct Next {
    next: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    SignUp,
    LogIn,
}

/// `message`: an error (any status but 200) or a notice (200).
fn form(
    lang: Lang,
    kind: Kind,
    email: &str,
    next: &str,
    message: Option<(StatusCode, &str)>,
) -> Markup {
    let t = lang.t();
    let (title, action, autocomplete) = match kind {
        Kind::SignUp => (t.sign_up, "/signup", "new-password"),
        Kind::LogIn => (t.log_in, "/login", "current-password"),
    };
    html! {
        section.narrow {
            h1 { (title) }
            @match message {
                Some((StatusCode::OK, notice)) => p.notice role="status" { (notice) },
                Some((_, error)) => p.error role="alert" { (error) },
                None => {},
            }
            form.stack method="post" action=(action) {
                input type="hidden" name="next" value=(next);
                label for="email" { (t.email) }
                input #email type="email" name="email" value=(email) required autocomplete="email" autofocus;
                label for="password" { (t.password) }
                input #password type="password" name="password" required minlength=(if kind == Kind::SignUp { "10" } else { "1" }) autocomplete=(autocomplete) aria-describedby=(if kind == Kind::SignUp { "password-hint" } else { "" });
                @if kind == Kind::SignUp {
                    small #password-hint { (t.password_hint) }
                }
                button type="submit" { (title) }
            }
            p {
                @match kind {
                    Kind::SignUp => { (t.have_account) " " a href="/login" { (t.log_in) } },
                    Kind::LogIn => { (t.no_account) " " a href="/signup" { (t.sign_up) } },
                }
            }
        }
    }
}

fn page(
    lang: Lang,
    kind: Kind,
    email: &str,
    next: &str,
    error: Option<(StatusCode, String)>,
) -> Response {
    let t = lang.t();
    let status = error.as_ref().map_or(StatusCode::OK, |(s, _)| *s);
    Page {
        lang,
        title: if kind == Kind::SignUp {
            t.sign_up
        } else {
            t.log_in
        },
        account: None,
        csrf_token: None,
        body: form(
            lang,
            kind,
            email,
            next,
            error.as_ref().map(|(status, m)| (*status, m.as_str())),
        ),
    }
    .render_with(status)
}

pub async fn signup_form(lang: Lang) -> Response {
    page(lang, Kind::SignUp, "", "", None)
}

pub async fn login_form(lang: Lang, Query(Next { next }): Query<Next>) -> Response {
    page(lang, Kind::LogIn, "", &next.unwrap_or_default(), None)
}

/// The client's IP address, for the core's per-address log-in limits (empty when unknown): the
/// peer's, or behind a trusted reverse proxy the last address of `X-Forwarded-For`.
pub struct ClientAddress(pub String);

impl FromRequestParts<EdgeState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &EdgeState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        Ok(ClientAddress(client_address(
            peer,
            &parts.headers,
            &state.trusted_proxies,
        )))
    }
}

fn client_address(peer: Option<IpAddr>, headers: &HeaderMap, trusted: &[IpAddr]) -> String {
    let Some(peer) = peer else {
        return String::new();
    };
    if !trusted.contains(&peer) {
        return peer.to_string();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<IpAddr>().ok())
        .next_back()
        .unwrap_or(peer)
        .to_string()
}

pub async fn signup(
    State(state): State<EdgeState>,
    lang: Lang,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Form(Credentials {
        email, password, ..
    }): Form<Credentials>,
) -> Response {
    if !session::same_origin(&headers) {
        return refused(lang, Kind::SignUp, &email, "", session::csrf_refusal());
    }
    let answer = state
        .core
        .accounts
        .clone()
        .sign_up(SignUpRequest {
            email: email.clone(),
            password,
            client_address: address,
        })
        .await;
    match answer {
        // The same page whether the address was new or not: log in next.
        Ok(_) => {
            let notice = (StatusCode::OK, lang.t().signed_up.to_owned());
            page(lang, Kind::LogIn, &email, "", Some(notice))
        }
        Err(status) => refused(lang, Kind::SignUp, &email, "", Problem::from(status)),
    }
}

pub async fn login(
    State(state): State<EdgeState>,
    lang: Lang,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Form(Credentials {
        email,
        password,
        next,
    }): Form<Credentials>,
) -> Response {
    if !session::same_origin(&headers) {
        return refused(lang, Kind::LogIn, &email, &next, session::csrf_refusal());
    }
    let answer = state
        .core
        .accounts
        .clone()
        .log_in(LogInRequest {
            email: email.clone(),
            password,
            client_address: address,
        })
        .await
        .map(|r| r.into_inner().session);
    if let (Ok(Some(_)), Some(previous)) = (&answer, session::cookie(&headers, session::COOKIE)) {
        end_previous(&state, previous).await;
    }
    let attempt = Attempt {
        lang,
        kind: Kind::LogIn,
        email: &email,
        next: &next,
    };
    attempt.answer(&state, &headers, answer, safe_next(&next))
}

/// Ends the session the browser held before logging in (another account's, or its own): the
/// new cookie replaces it, so no old token stays alive. Already ended or unknown is fine.
async fn end_previous(state: &EdgeState, token: String) {
    let result = state
        .core
        .accounts
        .clone()
        .log_out(session::session_request(&token, LogOutRequest {}))
        .await;
    if let Err(status) = result
        && status.code() != tonic::Code::Unauthenticated
    {
        tracing::warn!(error = %status.message(), "could not end the previous session");
    }
}

/// A log-in form as it was posted, to answer the core's reply to it.
struct Attempt<'a> {
    lang: Lang,
    kind: Kind,
    email: &'a str,
    next: &'a str,
}

impl Attempt<'_> {
    /// A new session goes into the cookie and on to `go_to`; a refusal shows the form again.
    fn answer(
        &self,
        state: &EdgeState,
        headers: &HeaderMap,
        answer: Result<Option<Session>, tonic::Status>,
        go_to: &str,
    ) -> Response {
        match answer {
            Ok(Some(session)) => logged_in(state, headers, &session.token, go_to),
            Ok(None) => {
                Problem::new(ErrorCode::Internal, "the core opened no session").into_response()
            }
            Err(status) => refused(
                self.lang,
                self.kind,
                self.email,
                self.next,
                Problem::from(status),
            ),
        }
    }
}

pub(super) fn logged_in(
    state: &EdgeState,
    headers: &HeaderMap,
    token: &str,
    next: &str,
) -> Response {
    let max_age = 7 * 24 * 3600;
    let secure = state.secure_cookies || session::over_https(headers);
    (
        [session::set_cookie(token, max_age, secure)],
        Redirect::to(next),
    )
        .into_response()
}

/// The form again, with the error in words and the status of the error.
fn refused(lang: Lang, kind: Kind, email: &str, next: &str, problem: Problem) -> Response {
    let status =
        StatusCode::from_u16(problem.code.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
    let retry = problem.headers.get("retry-after").cloned();
    let message = retry_message(lang, problem.code, retry.as_ref())
        .unwrap_or_else(|| error_message(lang, problem.code.as_str(), &problem.detail));
    let mut response = page(lang, kind, email, next, Some((status, message)));
    if let Some(retry) = retry {
        response.headers_mut().insert("retry-after", retry);
    }
    response
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}

/// POST /logout: ends the session in the core and clears the cookie.
pub async fn logout(
    State(state): State<EdgeState>,
    who: LoggedIn,
    headers: HeaderMap,
    Form(CsrfForm { csrf }): Form<CsrfForm>,
) -> Result<Response, Problem> {
    who.check_form(&headers, &csrf)?;
    let mut accounts = state.core.accounts.clone();
    accounts.log_out(who.request(LogOutRequest {})).await?;
    Ok(([session::clear_cookie()], Redirect::to("/")).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            "203.0.113.7, 198.51.100.4".parse().unwrap(),
        );
        assert_eq!(
            client_address(Some(proxy), &headers, &[proxy]),
            "198.51.100.4"
        );
        assert_eq!(client_address(Some(proxy), &headers, &[]), "10.0.0.2");
        assert_eq!(
            client_address(Some(proxy), &HeaderMap::new(), &[proxy]),
            "10.0.0.2"
        );
        assert_eq!(client_address(None, &headers, &[proxy]), "");
    }
}
