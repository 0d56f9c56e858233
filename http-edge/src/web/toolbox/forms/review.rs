//! The Review group's forms: compare two PDFs, repair one.

use maud::{Markup, html};

use super::inputs::{Say, files, pdf};

pub fn fields(say: Say, slug: &str) -> Option<Markup> {
    let t = |en, french| say.t(en, french);
    Some(match slug {
        "compare" => html! {
            (files(say, "file", t("Original PDF", "PDF d'origine"), false, "application/pdf"))
            (files(say, "changed", t("Changed PDF", "PDF modifié"), false, "application/pdf"))
            // The two first pages side by side, drawn in the browser before anything is sent.
            div #compare-preview.compare-preview hidden {}
        },
        "repair" => html! {
            (pdf(say))
        },
        _ => return None,
    })
}
