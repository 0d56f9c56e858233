//! GET /s/{token}: the recipient's page. It changes nothing and looks nothing up, so that a
//! link previewer fetching it cannot use the share up; the script reads the facts
//! (`/s/{token}/info`), takes the key from the fragment or the typed secret, and claims a
//! download only when asked.

use axum::{extract::Path, response::Response};
use maud::html;

use super::texts::texts;
use crate::web::{i18n::Lang, layout::Page};

pub async fn page(lang: Lang, Path(token): Path<String>) -> Response {
    let s = texts(lang);
    let body = html! {
        h1 { (s.receive_title) }
        p.lead { (s.receive_lead) }
        p.warning #trust { (s.receive_trust) }
        noscript { p.error { (s.needs_script) } }
        section #share data-token=(token) {
            p #share-facts aria-live="polite" {}
            p.error #share-error role="alert" hidden {}
            form.stack #unlock hidden {
                div.stack #code-part hidden {
                    label for="share-code" { (s.secret) }
                    input #share-code type="text" name="secret" autocomplete="off" autocapitalize="characters"
                        spellcheck="false" placeholder="XXXX-XXXX-XXXX-XXXX-XXXX";
                    small { (s.secret_hint) }
                }
                div.stack #password-part hidden {
                    label for="share-password" { (lang.t().password) }
                    input #share-password type="password" name="password" autocomplete="off";
                }
                button type="submit" { (s.open) }
            }
            div.card #opened hidden {
                p.big #share-name {}
                button #download type="button" { (s.download) }
                progress #download-progress max="100" value="0" hidden aria-label=(s.download) {}
                p #download-status aria-live="polite" {}
                p.notice #memory-notice hidden { (s.memory_notice) }
            }
            section #share-text-result hidden {}
        }
        script src="/assets/share-receive.js" defer {}
    };
    Page {
        lang,
        title: s.receive_title,
        account: None,
        csrf_token: None,
        body,
    }
    .render()
}
