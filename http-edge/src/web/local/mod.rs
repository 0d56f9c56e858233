//! The browser-local tools (`/local/{slug}`): pages whose script does all the work in the
//! browser, for anyone, logged in or not. Nothing dropped on them is sent anywhere: their CSP
//! allows no connection at all (`connect-src 'none'`, `form-action 'none'`), so the browser
//! itself refuses any request a script would make, and everything a tool needs is in its one
//! script, loaded with the page: the page keeps working with the network cut.

mod tools;

use axum::{
    extract::Path,
    http::{HeaderValue, header},
    response::Response,
};
use maud::html;

use super::{i18n::Lang, layout::Page, session::LoggedIn};
use crate::problem::Problem;
use tools::{LOCAL_TOOLS, LocalGroup};

/// The pages' CSP: the site's, with no connection and no form target at all.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
                   img-src 'self' blob: data:; connect-src 'none'; object-src 'none'; \
                   base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/// The same where a tool runs WebAssembly (an encoder compiled to it): only on those pages.
const CSP_WASM: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                        style-src 'self'; img-src 'self' blob: data:; connect-src 'none'; \
                        object-src 'none'; base-uri 'none'; form-action 'none'; \
                        frame-ancestors 'none'";

/// GET /local: the local tools, by group.
pub async fn index(lang: Lang, who: Option<LoggedIn>) -> Response {
    let title = title(lang);
    Page {
        lang,
        title,
        account: who.as_ref().map(|w| &w.account),
        csrf_token: who.as_ref().map(|w| w.csrf_token.as_str()),
        body: html! {
            h1 { (title) }
            p.lead { (badge(lang)) }
            (groups(lang))
        },
    }
    .render()
}

/// The local tools' groups, as `/local`, `/tools` and the landing page list them.
pub fn groups(lang: Lang) -> maud::Markup {
    html! {
        @for group in LocalGroup::ALL {
            section.local-group {
                h2 { (group.name(lang)) " " small.local-mark { (mark(lang)) } }
                ul.tool-cards {
                    @for tool in LOCAL_TOOLS.iter().filter(|t| t.group == group) {
                        li { a href={ "/local/" (tool.slug) } { (tool.name(lang)) } small { (tool.blurb(lang)) } }
                    }
                }
            }
        }
    }
}

/// The local tools' name as a whole, for `/local` and the landing page.
pub fn title(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "Outils dans votre navigateur",
        Lang::En => "Tools in your browser",
    }
}

fn mark(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "· s'exécute dans votre navigateur",
        Lang::En => "· runs in your browser",
    }
}

fn badge(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => {
            "S'exécute dans votre navigateur : rien de ce que vous déposez ici n'est envoyé, \
                     pas besoin de compte, et la page marche même hors ligne une fois chargée."
        }
        Lang::En => {
            "Runs in your browser: nothing you drop here is sent anywhere, no account \
                     needed, and the page keeps working offline once loaded."
        }
    }
}

/// GET /local/{slug}.
pub async fn page(
    lang: Lang,
    who: Option<LoggedIn>,
    Path(slug): Path<String>,
) -> Result<Response, Problem> {
    let Some(tool) = LOCAL_TOOLS.iter().find(|t| t.slug == slug) else {
        return Err(Problem::new(
            quire_proto::ErrorCode::NotFound,
            "no such tool: the browser tools are listed at /local",
        ));
    };
    let mut response = Page {
        lang,
        title: tool.name(lang),
        account: who.as_ref().map(|w| &w.account),
        csrf_token: who.as_ref().map(|w| w.csrf_token.as_str()),
        body: html! {
            h1 { (tool.name(lang)) }
            p.local-badge { (badge(lang)) }
            div #local-tool data-tool=(tool.slug) {}
            script src={ "/assets/local-" (tool.slug) ".js" } defer {}
        },
    }
    .render();
    response
        .headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, csp(tool.wasm));
    Ok(response)
}

/// The local pages' CSP, also given to their workers' scripts (a worker is bound by the policy
/// its script is served with, not by its page's).
pub fn csp(wasm: bool) -> HeaderValue {
    HeaderValue::from_static(if wasm { CSP_WASM } else { CSP })
}
