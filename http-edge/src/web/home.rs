//! The public pages: the landing page and the API overview.

use axum::response::Response;
use maud::html;

use super::{i18n::Lang, layout::Page};

/// GET /: what Quire does, with the ways in.
pub async fn landing(lang: Lang) -> Response {
    let t = lang.t();
    Page {
        lang,
        title: t.tagline,
        account: None,
        csrf_token: None,
        body: html! {
            section.hero {
                h1 { (t.tagline) }
                p.lead { (t.pitch) }
                p.actions {
                    a.button href="/signup" { (t.sign_up) }
                    a.button.secondary href="/login" { (t.log_in) }
                    a href="/docs" { (t.api_docs) }
                }
            }
            ul.features {
                @for feature in t.features { li { (feature) } }
            }
            section.local-tools {
                h2 { a href="/local" { (super::local::title(lang)) } }
                p { (if lang == Lang::Fr {
                    "Sans compte, et rien n'est envoyé : ils s'exécutent dans votre navigateur."
                } else {
                    "No account needed, and nothing is sent: they run in your browser."
                }) }
                (super::local::groups(lang))
            }
        },
    }
    .render()
}
