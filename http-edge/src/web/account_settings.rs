//! /dashboard/account: who is logged in, and the password change. A change ends every session
//! of the account and gives this browser a new one (new token, new anti-CSRF token), as the
//! big services do: whoever else held a session is out, the person who changed it is not.

use axum::{
    Form,
    extract::{Query, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Redirect, Response},
};
use maud::html;
use quire_proto::{ErrorCode, v1::ChangePasswordRequest};
use serde::Deserialize;

use super::{
    account_pages::{ClientAddress, logged_in},
    i18n::{Lang, error_message, retry_message},
    layout::{Page, date},
    session::LoggedIn,
};
use crate::{EdgeState, problem::Problem};

/// A line above the form: a notice (200) or the refusal of a change (its status).
type Message = (StatusCode, String);

fn render(lang: Lang, who: &LoggedIn, message: Option<Message>) -> Response {
    let t = lang.t();
    let account = &who.account;
    let status = message.as_ref().map_or(StatusCode::OK, |(s, _)| *s);
    let body = html! {
        h1 { (t.account) }
        section.card {
            dl {
                dt { (t.email) } dd #account-email { (account.email) }
                dt { (t.plan) } dd { (account.plan.to_uppercase()) }
                dt { (t.created) } dd { (date(account.created_at.as_ref()).unwrap_or_default()) }
            }
        }
        section.card.narrow-card {
            h2 { (t.change_password) }
            @match &message {
                Some((StatusCode::OK, notice)) => p.notice role="status" { (notice) },
                Some((_, error)) => p.error role="alert" { (error) },
                None => {},
            }
            p { small { (t.sessions_end) } }
            form.stack #change-password method="post" action="/dashboard/account" {
                input type="hidden" name="csrf" value=(who.csrf_token);
                label for="current" { (t.current_password) }
                input #current type="password" name="current" required autocomplete="current-password";
                label for="new" { (t.new_password) }
                input #new type="password" name="new" required minlength="10" autocomplete="new-password" aria-describedby="new-hint";
                small #new-hint { (t.password_hint) }
                button type="submit" { (t.change_password) }
            }
        }
    };
    Page {
        lang,
        title: t.account,
        account: Some(account),
        csrf_token: Some(&who.csrf_token),
        body,
    }
    .render_with(status)
}

#[derive(Deserialize)]
pub struct Changed {
    /// Set after a password change, on the new session.
    changed: Option<String>,
}

/// GET /dashboard/account.
pub async fn page(
    lang: Lang,
    who: LoggedIn,
    Query(Changed { changed }): Query<Changed>,
) -> Response {
    let notice = changed.map(|_| (StatusCode::OK, lang.t().password_changed.to_owned()));
    render(lang, &who, notice)
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    current: String,
    #[serde(default)]
    new: String,
}

/// POST /dashboard/account: on success every session of the account is over and this browser
/// gets the new one the core opened.
pub async fn change_password(
    State(state): State<EdgeState>,
    lang: Lang,
    who: LoggedIn,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    Form(PasswordForm { csrf, current, new }): Form<PasswordForm>,
) -> Result<Response, Problem> {
    who.check_form(&headers, &csrf)?;
    let answer = state
        .core
        .accounts
        .clone()
        .change_password(who.request(ChangePasswordRequest {
            current_password: current,
            new_password: new,
            client_address: address,
        }))
        .await;
    match answer.map(|r| r.into_inner().session) {
        Ok(Some(session)) => Ok(logged_in(
            &state,
            &headers,
            &session.token,
            "/dashboard/account?changed=1",
        )),
        // The password changed and every session ended, but none came back: log in again.
        Ok(None) => Ok(Redirect::to("/login").into_response()),
        Err(status) => {
            let problem = Problem::from(status);
            let status =
                StatusCode::from_u16(problem.code.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
            let code = match problem.code {
                ErrorCode::InvalidCredentials => "wrong-current-password",
                ErrorCode::InvalidArgument => "weak-password",
                other => other.as_str(),
            };
            let retry = problem.headers.get("retry-after").cloned();
            let message = retry_message(lang, problem.code, retry.as_ref())
                .unwrap_or_else(|| error_message(lang, code, &problem.detail));
            let mut response = render(lang, &who, Some((status, message)));
            if let Some(retry) = retry {
                response.headers_mut().insert("retry-after", retry);
            }
            Ok(response)
        }
    }
}
