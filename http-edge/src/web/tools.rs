//! One page per tool, with the API's options. The page's script sends the file to the same
//! REST endpoint scripts use, authenticated by the session cookie plus the session's anti-CSRF
//! token in a header (see `api_session`), so web calls count against the same daily quota.

use axum::{extract::Path, response::Response};
use maud::{Markup, html};

use super::{i18n::Lang, layout::Page, session::LoggedIn, toolbox};
use crate::problem::Problem;

/// The tool pages, in the order of `Texts::tool_names`.
pub const TOOLS: [&str; 5] = [
    "/tools/upload",
    "/tools/ocr",
    "/tools/compress-pdf",
    "/tools/pdf-to-images",
    "/tools/support",
];

fn file_input(lang: Lang, accept: &str) -> Markup {
    let (label, drop) = match lang {
        Lang::Fr => ("Fichier", "ou déposez-le ici"),
        Lang::En => ("File", "or drop it here"),
    };
    html! {
        div.drop data-drop="file" {
            label for="file" { (label) }
            input #file type="file" name="file" required accept=(accept);
            small { (drop) }
        }
    }
}

fn select(id: &str, label: &str, options: &[(&str, &str)], selected: &str) -> Markup {
    html! {
        label for=(id) { (label) }
        select id=(id) name=(id) {
            @for (value, text) in options {
                option value=(value) selected[*value == selected] { (text) }
            }
        }
    }
}

/// GET /tools: every tool, the API's and the toolbox's.
pub async fn index(lang: Lang, who: LoggedIn) -> Response {
    let t = lang.t();
    let api_tools: Vec<(&str, &str)> = TOOLS.iter().copied().zip(t.tool_names).collect();
    Page {
        lang,
        title: t.tools,
        account: Some(&who.account),
        csrf_token: Some(&who.csrf_token),
        body: toolbox::index(lang, &api_tools),
    }
    .render()
}

/// GET /tools/{tool}.
pub async fn page(
    lang: Lang,
    who: LoggedIn,
    Path(tool): Path<String>,
) -> Result<Response, Problem> {
    let t = lang.t();
    let fr = lang == Lang::Fr;
    let path = format!("/tools/{tool}");
    let Some(name) = TOOLS
        .iter()
        .position(|p| *p == path)
        .map(|i| t.tool_names[i])
    else {
        let Some(tool) = toolbox::find(&tool) else {
            return Err(Problem::new(
                quire_proto::ErrorCode::NotFound,
                "no such tool",
            ));
        };
        return Ok(Page {
            lang,
            title: tool.name(lang),
            account: Some(&who.account),
            csrf_token: Some(&who.csrf_token),
            body: toolbox::form(lang, tool),
        }
        .render());
    };
    let run = if fr { "Lancer" } else { "Run" };
    let (endpoint, fields, result) = match tool.as_str() {
        "upload" => (
            "/api/upload",
            html! {
                (file_input(lang, ""))
                label for="expiresIn" { (if fr { "Expire après (secondes, facultatif)" } else { "Expires after (seconds, optional)" }) }
                input #expiresIn type="number" name="expiresIn" min="1" inputmode="numeric";
                label for="maxDownloads" { (if fr { "Téléchargements permis (facultatif ; le fichier est supprimé après le dernier)" } else { "Downloads allowed (optional; the file is deleted after the last)" }) }
                input #maxDownloads type="number" name="maxDownloads" min="1" max="1000000" inputmode="numeric";
            },
            "upload",
        ),
        "ocr" => (
            "/api/v1/process/ocr",
            html! {
                (file_input(lang, "image/png,image/jpeg,image/tiff,image/webp,image/bmp,application/pdf"))
                (select("lang", if fr { "Langue du texte" } else { "Text language" },
                    &[("fra+eng", "fra+eng"), ("fra", "fra"), ("eng", "eng")], "fra+eng"))
            },
            "ocr",
        ),
        "compress-pdf" => (
            "/api/v1/process/compress-pdf",
            html! {
                (file_input(lang, "application/pdf"))
                (select("quality", if fr { "Qualité" } else { "Quality" },
                    &[("screen", "screen (72 dpi)"), ("ebook", "ebook (150 dpi)"), ("printer", "printer (300 dpi)"), ("prepress", "prepress (300 dpi)")], "ebook"))
            },
            "compress",
        ),
        "pdf-to-images" => (
            "/api/v1/process/pdf-to-images",
            html! {
                (file_input(lang, "application/pdf"))
                label for="dpi" { "DPI (72–300)" }
                input #dpi type="number" name="dpi" min="72" max="300" value="150" inputmode="numeric";
            },
            "images",
        ),
        _ => (
            "/api/workflows/support/auto",
            html! {
                label for="rawLog" { (if fr { "Journal" } else { "Log" }) }
                textarea #rawLog name="rawLog" rows="10" required {}
                label for="ticketContext" { (if fr { "Contexte du ticket (facultatif)" } else { "Ticket context (optional)" }) }
                textarea #ticketContext name="ticketContext" rows="3" {}
                (select("locale", if fr { "Langue de la réponse" } else { "Reply language" }, &[("fr", "français"), ("en", "English")], lang.code()))
            },
            "support",
        ),
    };
    let body = html! {
        h1 { (name) }
        form.stack.tool #tool data-endpoint=(endpoint) data-result=(result) {
            (fields)
            progress #progress max="100" value="0" hidden aria-label=(if fr { "Envoi" } else { "Upload" }) {}
            button type="submit" { (run) }
        }
        p.error #error role="alert" hidden {}
        section #result aria-live="polite" hidden {}
        @if result == "support" {
            script src="/assets/support-desk.js" defer {}
        }
    };
    Ok(Page {
        lang,
        title: name,
        account: Some(&who.account),
        csrf_token: Some(&who.csrf_token),
        body,
    }
    .render())
}
