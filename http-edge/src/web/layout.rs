//! The page shell every page shares (header with navigation and the language switch, main,
//! footer) and the security headers every page is sent with.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use maud::{DOCTYPE, Markup, html};
use quire_proto::v1::Account;

use super::i18n::Lang;

/// Scripts and styles come only from this site (no inline code), images also from blob: URLs
/// (PDF page thumbnails made in the browser), nothing may frame the pages.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

pub struct Page<'a> {
    pub lang: Lang,
    pub title: &'a str,
    /// The logged-in account, for the navigation.
    pub account: Option<&'a Account>,
    /// The session's anti-CSRF token, for the log-out form and the scripts.
    pub csrf_token: Option<&'a str>,
    pub body: Markup,
}

impl Page<'_> {
    pub fn render(self) -> Response {
        self.render_with(StatusCode::OK)
    }

    pub fn render_with(self, status: StatusCode) -> Response {
        let Page {
            lang,
            title,
            account,
            csrf_token,
            body,
        } = self;
        let t = lang.t();
        let markup = html! {
            (DOCTYPE)
            html lang=(lang.code()) {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    @if let Some(csrf) = csrf_token {
                        meta name="csrf-token" content=(csrf);
                    }
                    title { (title) " · Quire" }
                    link rel="stylesheet" href="/assets/style.css";
                    link rel="icon" href="/assets/favicon.svg" type="image/svg+xml";
                    script src="/assets/app.js" defer {}
                    // The toolbox's scripts; thumbnails.js loads pdf.js only when a page needs it.
                    script src="/assets/toolbox.js" defer {}
                    script src="/assets/fill-form.js" defer {}
                    script type="module" src="/assets/thumbnails.js" {}
                    script type="module" src="/assets/sign.js" {}
                    script type="module" src="/assets/redact.js" {}
                }
                body {
                    a.skip href="#main" { (t.skip) }
                    header.top {
                        a.brand href=(if account.is_some() { "/dashboard" } else { "/" }) { "Quire" }
                        nav aria-label=(t.dashboard) {
                            @if account.is_some() {
                                a href="/dashboard" { (t.dashboard) }
                                a href="/dashboard/api-keys" { (t.api_keys) }
                                a href="/dashboard/files" { (t.files) }
                                a href="/tools" { (t.tools) }
                                a href="/share" { (super::share::texts(lang).nav) }
                                a href="/dashboard/account" { (t.account) }
                            } @else {
                                a href="/docs" { (t.api_docs) }
                                a href="/login" { (t.log_in) }
                                a.button href="/signup" { (t.sign_up) }
                            }
                        }
                        div.end {
                            span.switch aria-label=(t.language) {
                                @if lang == Lang::Fr { strong { "FR" } } @else { a href="/lang/fr" lang="fr" { "FR" } }
                                " · "
                                @if lang == Lang::En { strong { "EN" } } @else { a href="/lang/en" lang="en" { "EN" } }
                            }
                            @if let (Some(account), Some(csrf)) = (account, csrf_token) {
                                span.who { (account.email) }
                                form.inline method="post" action="/logout" {
                                    input type="hidden" name="csrf" value=(csrf);
                                    button.link type="submit" { (t.log_out) }
                                }
                            }
                        }
                    }
                    main #main { (body) }
                    footer { "Quire · " a href="/docs" { (t.api_docs) } }
                }
            }
        };
        let mut response = (status, markup).into_response();
        secure(&mut response);
        response
    }
}

/// The headers every page and asset is sent with.
pub fn secure(response: &mut Response) {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// Bytes in binary units (KiB, MiB, GiB), as quotas are set.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A timestamp as `2026-11-21 14:03 UTC`.
pub fn date(ts: Option<&prost_types::Timestamp>) -> Option<String> {
    let ts = ts?;
    chrono::DateTime::from_timestamp(ts.seconds, 0)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_the_quotas() {
        assert_eq!(size(0), "0 B");
        assert_eq!(size(1023), "1023 B");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(1 << 30), "1.0 GiB");
        assert_eq!(size(100 << 30), "100.0 GiB");
    }
}
