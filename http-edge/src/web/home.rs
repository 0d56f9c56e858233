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
        },
    }
    .render()
}

/// The REST endpoints, each with a curl line (SPEC section 4).
const ENDPOINTS: [(&str, &str, &str); 5] = [
    (
        "POST",
        "/api/upload",
        "curl -H \"Authorization: Bearer $QUIRE_KEY\" -F file=@report.pdf https://quire.example/api/upload",
    ),
    (
        "POST",
        "/api/v1/process/ocr",
        "curl -H \"Authorization: Bearer $QUIRE_KEY\" -F file=@scan.png -F lang=fra+eng https://quire.example/api/v1/process/ocr",
    ),
    (
        "POST",
        "/api/v1/process/compress-pdf",
        "curl -H \"Authorization: Bearer $QUIRE_KEY\" -F file=@big.pdf -F quality=ebook -o small.pdf https://quire.example/api/v1/process/compress-pdf",
    ),
    (
        "POST",
        "/api/v1/process/pdf-to-images",
        "curl -H \"Authorization: Bearer $QUIRE_KEY\" -F file=@doc.pdf -F dpi=150 -o pages.zip https://quire.example/api/v1/process/pdf-to-images",
    ),
    (
        "POST",
        "/api/workflows/support/auto",
        "curl -H \"Authorization: Bearer $QUIRE_KEY\" -H 'Content-Type: application/json' -d '{\"rawLog\":\"...\",\"locale\":\"en\"}' https://quire.example/api/workflows/support/auto",
    ),
];

/// GET /docs: the endpoints at a glance; the README holds the full reference.
pub async fn docs(lang: Lang) -> Response {
    let t = lang.t();
    let intro = match lang {
        Lang::Fr => {
            "Chaque appel porte une clé d'API : Authorization: Bearer <clé>. Créez-la depuis le tableau de bord. Les erreurs sont en application/problem+json avec un code stable."
        }
        Lang::En => {
            "Every call carries an API key: Authorization: Bearer <key>. Create one from the dashboard. Errors are application/problem+json with a stable code."
        }
    };
    Page {
        lang,
        title: t.api_docs,
        account: None,
        csrf_token: None,
        body: html! {
            h1 { (t.api_docs) }
            p { (intro) }
            @for (method, path, example) in ENDPOINTS {
                section.endpoint {
                    h2 { code { (method) " " (path) } }
                    pre { code { (example) } }
                }
            }
        },
    }
    .render()
}
