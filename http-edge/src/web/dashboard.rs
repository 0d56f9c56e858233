//! The dashboard: plan and usage, API keys (create, shown once; revoke), files (delete) and
//! encrypted shares (revoke). Each page is one or two AccountService calls made with the
//! visitor's session.

use axum::{
    Form,
    extract::{Path, State},
    http::HeaderMap,
    response::{IntoResponse, Redirect, Response},
};
use maud::{Markup, html};
use quire_proto::{
    ErrorCode,
    v1::{
        Account, ApiKey, CreateApiKeyRequest, DeleteFileRequest, ListApiKeysRequest,
        ListFilesRequest, RevokeApiKeyRequest,
    },
};
use serde::Deserialize;

use super::{
    account_pages::CsrfForm,
    i18n::{Lang, Texts},
    layout::{Page, date, size},
    session::LoggedIn,
};
use crate::{EdgeState, problem::Problem};

fn page(lang: Lang, who: &LoggedIn, title: &str, body: Markup) -> Response {
    Page {
        lang,
        title,
        account: Some(&who.account),
        csrf_token: Some(&who.csrf_token),
        body,
    }
    .render()
}

/// A labelled bar: `used` of `limit`.
fn meter(label: &str, used: u64, limit: u64, text: String) -> Markup {
    let percent = used
        .saturating_mul(100)
        .checked_div(limit)
        .unwrap_or(0)
        .min(100);
    html! {
        div.meter {
            div.meter-label { span { (label) } span { (text) } }
            progress max="100" value=(percent) aria-label=(label) { (percent) "%" }
        }
    }
}

/// GET /dashboard: plan, calls today and what is left, storage against the quota.
pub async fn overview(lang: Lang, who: LoggedIn) -> Response {
    let t = lang.t();
    let Account {
        plan,
        calls_today,
        daily_limit,
        storage_used,
        storage_quota,
        ..
    } = &who.account;
    let body = html! {
        h1 { (t.dashboard) }
        div.cards {
            section.card {
                h2 { (t.plan) }
                p.big #plan { (plan.to_uppercase()) }
            }
            section.card {
                h2 { (t.calls_today) }
                @match daily_limit {
                    Some(limit) => {
                        (meter(t.calls_today, *calls_today, *limit, format!("{calls_today} / {limit}")))
                        p #calls-left { (limit.saturating_sub(*calls_today)) " " (t.calls_left) }
                    },
                    None => {
                        p.big { (calls_today) }
                        p #calls-left { (t.unlimited) }
                    },
                }
            }
            section.card {
                h2 { (t.storage) }
                (meter(t.storage, *storage_used, *storage_quota,
                    format!("{} {} {}", size(*storage_used), t.of, size(*storage_quota))))
            }
        }
        nav.tools aria-label=(t.tools) {
            h2 { (t.tools) }
            ul {
                @for (path, name) in super::tools::TOOLS.iter().zip(t.tool_names) { li { a href=(path) { (name) } } }
            }
        }
    };
    page(lang, &who, t.dashboard, body)
}

fn keys_table(t: &Texts, csrf: &str, keys: &[ApiKey]) -> Markup {
    html! {
        @if keys.is_empty() {
            p { (t.no_keys) }
        } @else {
            div.table-wrap {
                table #keys {
                    thead { tr {
                        th scope="col" { (t.name) } th scope="col" { (t.prefix) } th scope="col" { (t.scopes) }
                        th scope="col" { (t.created) } th scope="col" { (t.last_used) } th scope="col" { (t.status) } th {}
                    } }
                    tbody {
                        @for key in keys {
                            tr data-key-id=(key.id) {
                                td { (key.name) }
                                td { code { (key.display_prefix) "…" } }
                                td { (key.scopes.join(", ")) }
                                td { (date(key.created_at.as_ref()).unwrap_or_default()) }
                                td { (date(key.last_used_at.as_ref()).unwrap_or_else(|| t.never.to_owned())) }
                                @if key.revoked_at.is_some() {
                                    td.revoked { (t.revoked) } td {}
                                } @else {
                                    td.active { (t.active) }
                                    td {
                                        form method="post" action=(format!("/dashboard/api-keys/{}/revoke", key.id)) data-confirm=(t.revoke_confirm) {
                                            input type="hidden" name="csrf" value=(csrf);
                                            button.danger type="submit" aria-label=(format!("{} {}", t.revoke, key.name)) { (t.revoke) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn create_form(t: &Texts, csrf: &str) -> Markup {
    html! {
        section.card {
            h2 { (t.create_key) }
            form.stack #create-key method="post" action="/dashboard/api-keys" {
                input type="hidden" name="csrf" value=(csrf);
                label for="key-name" { (t.name) }
                input #key-name type="text" name="name" required maxlength="100" placeholder="ci-pipeline";
                fieldset {
                    legend { (t.scopes) }
                    @for scope in ["upload", "read", "process"] {
                        label.check {
                            input type="checkbox" name=(format!("scope_{scope}")) value="on";
                            " " (scope)
                        }
                    }
                    small { (t.scope_help) }
                }
                button type="submit" { (t.create_key) }
            }
        }
    }
}

async fn keys_page(
    state: &EdgeState,
    lang: Lang,
    who: &LoggedIn,
    shown: Option<Markup>,
) -> Result<Response, Problem> {
    let t = lang.t();
    let keys = state
        .core
        .accounts
        .clone()
        .list_api_keys(who.request(ListApiKeysRequest {}))
        .await?
        .into_inner()
        .keys;
    let body = html! {
        h1 { (t.api_keys) }
        @if let Some(shown) = shown { (shown) }
        (create_form(t, &who.csrf_token))
        (keys_table(t, &who.csrf_token, &keys))
    };
    Ok(page(lang, who, t.api_keys, body))
}

/// GET /dashboard/api-keys.
pub async fn keys(
    State(state): State<EdgeState>,
    lang: Lang,
    who: LoggedIn,
) -> Result<Response, Problem> {
    keys_page(&state, lang, &who, None).await
}

#[derive(Deserialize)]
pub struct NewKeyForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    scope_upload: Option<String>,
    scope_read: Option<String>,
    scope_process: Option<String>,
}

/// POST /dashboard/api-keys: creates the key and shows it, this once.
pub async fn create_key(
    State(state): State<EdgeState>,
    lang: Lang,
    who: LoggedIn,
    headers: HeaderMap,
    Form(form): Form<NewKeyForm>,
) -> Result<Response, Problem> {
    let NewKeyForm {
        csrf,
        name,
        scope_upload,
        scope_read,
        scope_process,
    } = form;
    who.check_form(&headers, &csrf)?;
    let t = lang.t();
    let scopes: Vec<String> = [
        ("upload", scope_upload),
        ("read", scope_read),
        ("process", scope_process),
    ]
    .into_iter()
    .filter(|(_, on)| on.is_some())
    .map(|(scope, _)| scope.to_owned())
    .collect();
    let created = state
        .core
        .accounts
        .clone()
        .create_api_key(who.request(CreateApiKeyRequest { name, scopes }))
        .await;
    let shown = match created {
        Ok(created) => {
            let secret = created.into_inner().secret;
            html! {
                section.card.new-key role="status" {
                    h2 { (t.new_key_title) }
                    p.warning { (t.new_key_warning) }
                    div.copy-row {
                        input #new-key type="text" readonly value=(secret) aria-label=(t.new_key_title);
                        button type="button" data-copy="new-key" data-copied=(t.copied) { (t.copy) }
                    }
                }
            }
        }
        Err(status) => {
            let problem = Problem::from(status);
            let code = match problem.code {
                ErrorCode::InvalidArgument => "invalid-key-form",
                other => other.as_str(),
            };
            html! { p.error role="alert" { (super::i18n::error_message(lang, code, &problem.detail)) } }
        }
    };
    keys_page(&state, lang, &who, Some(shown)).await
}

/// POST /dashboard/api-keys/{id}/revoke.
pub async fn revoke_key(
    State(state): State<EdgeState>,
    who: LoggedIn,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(CsrfForm { csrf }): Form<CsrfForm>,
) -> Result<Response, Problem> {
    who.check_form(&headers, &csrf)?;
    state
        .core
        .accounts
        .clone()
        .revoke_api_key(who.request(RevokeApiKeyRequest { id }))
        .await?;
    Ok(Redirect::to("/dashboard/api-keys").into_response())
}

/// GET /dashboard/files.
pub async fn files(
    State(state): State<EdgeState>,
    lang: Lang,
    who: LoggedIn,
) -> Result<Response, Problem> {
    let t = lang.t();
    let s = super::share::texts(lang);
    let files = state
        .core
        .accounts
        .clone()
        .list_files(who.request(ListFilesRequest {}))
        .await?
        .into_inner()
        .files;
    let body = html! {
        h1 { (t.files) }
        @if files.is_empty() {
            p { (t.no_files) " " a href="/tools/upload" { (t.tools) } }
        } @else {
            div.table-wrap {
                table #files {
                    thead { tr {
                        th scope="col" { (t.name) } th scope="col" { (t.size) } th scope="col" { (t.kind) }
                        th scope="col" { (t.link) } th scope="col" { (t.expires) } th scope="col" { (t.downloads) } th {}
                    } }
                    tbody {
                        @for (i, file) in files.iter().enumerate() {
                            // An encrypted share: its name is sealed (the server holds a
                            // placeholder), and deleting it revokes its link.
                            @let (name, delete, confirm) = if file.encrypted {
                                (s.encrypted_share, s.revoke, s.revoke_confirm)
                            } else {
                                (file.filename.as_str(), t.delete, t.delete_confirm)
                            };
                            tr.encrypted[file.encrypted] {
                                td { @if file.encrypted { em { (name) } } @else { (name) } }
                                td { (size(file.size)) }
                                td { @if file.encrypted { "—" } @else { code { (file.mime_type) } } }
                                td.copy-row {
                                    input id=(format!("link-{i}")) type="text" readonly value=(file.url) aria-label=(format!("{} {}", t.link, name));
                                    button type="button" data-copy=(format!("link-{i}")) data-copied=(t.copied) { (t.copy) }
                                }
                                td { (date(file.expires_at.as_ref()).unwrap_or_else(|| "—".to_owned())) }
                                // A limited link: downloads made of those it allows; a share
                                // says what is left, which is what its sender watches.
                                td {
                                    @match (file.encrypted, file.downloads_left) {
                                        (true, Some(left)) => { (left) " " (s.left) },
                                        _ => { (file.downloads) @if let Some(max) = file.max_downloads { " / " (max) } },
                                    }
                                }
                                td {
                                    form method="post" action=(format!("/dashboard/files/{}/delete", file.token)) data-confirm=(confirm) {
                                        input type="hidden" name="csrf" value=(who.csrf_token);
                                        button.danger type="submit" aria-label=(format!("{delete} {name}")) { (delete) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            @if files.iter().any(|f| f.encrypted) { p { small { (s.no_key_kept) } } }
        }
        p { a.button.secondary href="/share" { (s.send_title) } }
    };
    Ok(page(lang, &who, t.files, body))
}

/// POST /dashboard/files/{token}/delete: frees the storage, the link stops working.
pub async fn delete_file(
    State(state): State<EdgeState>,
    who: LoggedIn,
    headers: HeaderMap,
    Path(token): Path<String>,
    Form(CsrfForm { csrf }): Form<CsrfForm>,
) -> Result<Response, Problem> {
    who.check_form(&headers, &csrf)?;
    state
        .core
        .files
        .clone()
        .delete_file(who.request(DeleteFileRequest { token }))
        .await?;
    Ok(Redirect::to("/dashboard/files").into_response())
}
