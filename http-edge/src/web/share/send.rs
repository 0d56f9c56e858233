//! GET /share: the sender's page. A logged-in account only: encrypted content cannot be
//! scanned, so whoever sends it must be known. The script encrypts, uploads with tus under the
//! session, and shows the link (and the separate secret) with QR codes.

use axum::response::Response;
use maud::html;

use super::texts::{LIFETIMES, texts};
use crate::web::{i18n::Lang, layout::Page, session::LoggedIn};

pub async fn page(lang: Lang, who: LoggedIn) -> Response {
    let s = texts(lang);
    let body = html! {
        h1 { (s.send_title) }
        p.lead { (s.send_lead) }
        p.warning #trust { (s.send_trust) }
        form.stack #share-form novalidate {
            fieldset {
                legend { (s.what) }
                label.check { input type="radio" name="kind" value="file" checked; " " (s.a_file) }
                label.check { input type="radio" name="kind" value="text"; " " (s.a_text) }
            }
            div.drop #file-part data-drop="file" {
                label for="share-file" { (s.file) }
                input #share-file type="file" name="file";
                small { (s.drop) }
            }
            div.stack #text-part hidden {
                label for="share-text" { (s.text) }
                textarea #share-text name="text" rows="4" maxlength="100000" autocomplete="off" spellcheck="false" {}
            }
            label for="expiresIn" { (s.expires) }
            select #expiresIn name="expiresIn" {
                @for (seconds, label) in LIFETIMES.iter().zip(s.lifetimes) {
                    option value=(seconds) selected[*seconds == LIFETIMES[1]] { (label) }
                }
            }
            label for="maxDownloads" { (s.downloads) }
            input #maxDownloads type="number" name="maxDownloads" min="1" max="100" value="1" inputmode="numeric";
            small { (s.downloads_hint) }
            label for="share-password" { (s.password) }
            input #share-password type="password" name="password" autocomplete="new-password";
            small { (s.password_hint) }
            fieldset {
                legend { (s.delivery) }
                label.check { input type="radio" name="delivery" value="link" checked; " " strong { (s.in_link) } " — " (s.in_link_hint) }
                label.check { input type="radio" name="delivery" value="separate"; " " strong { (s.separate) } " — " (s.separate_hint) }
            }
            progress #share-progress max="100" value="0" hidden aria-label=(s.progress) {}
            p #share-status aria-live="polite" {}
            button type="submit" { (s.send) }
        }
        p.error #share-error role="alert" hidden {}
        section #share-result aria-live="polite" hidden {}
        script src="/assets/share-send.js" defer {}
    };
    Page {
        lang,
        title: s.nav,
        account: Some(&who.account),
        csrf_token: Some(&who.csrf_token),
        body,
    }
    .render()
}
