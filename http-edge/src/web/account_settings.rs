//! /dashboard/account: who is logged in, and the password change (which ends every session of
//! the account, this one included).

use axum::{
    Form,
    extract::State,
    http::HeaderMap,
    response::{IntoResponse, Redirect, Response},
};
use maud::html;
use quire_proto::{ErrorCode, v1::ChangePasswordRequest};
use serde::Deserialize;

use super::{
    i18n::{Lang, error_message},
    layout::{Page, date},
    session::{LoggedIn, clear_cookie},
};
use crate::{EdgeState, problem::Problem};

fn render(lang: Lang, who: &LoggedIn, error: Option<String>) -> Response {
    let t = lang.t();
    let account = &who.account;
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
            @if let Some(error) = error { p.error role="alert" { (error) } }
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
    .render()
}

/// GET /dashboard/account.
pub async fn page(lang: Lang, who: LoggedIn) -> Response {
    render(lang, &who, None)
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

/// POST /dashboard/account: on success every session is over; log in again.
pub async fn change_password(
    State(state): State<EdgeState>,
    lang: Lang,
    who: LoggedIn,
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
        }))
        .await;
    match answer {
        Ok(_) => Ok(([clear_cookie()], Redirect::to("/login?changed=1")).into_response()),
        Err(status) => {
            let problem = Problem::from(status);
            let code = match problem.code {
                ErrorCode::InvalidCredentials => "wrong-current-password",
                ErrorCode::InvalidArgument => "weak-password",
                other => other.as_str(),
            };
            Ok(render(
                lang,
                &who,
                Some(error_message(lang, code, &problem.detail)),
            ))
        }
    }
}
