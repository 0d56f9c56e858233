//! The Convert group's forms: PDF to images, images to PDF, extract images, Office and HTML
//! or Markdown to PDF.

use maud::{Markup, html};

use super::inputs::{Say, check, files, number, pdf, radio};

/// What LibreOffice converts, as extensions and MIME types (browsers report either).
const OFFICE: &str = ".docx,.doc,.odt,.rtf,.xlsx,.xls,.ods,.pptx,.ppt,.odp,\
    application/vnd.openxmlformats-officedocument.wordprocessingml.document,\
    application/msword,application/vnd.oasis.opendocument.text,application/rtf,text/rtf,\
    application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,\
    application/vnd.ms-excel,application/vnd.oasis.opendocument.spreadsheet,\
    application/vnd.openxmlformats-officedocument.presentationml.presentation,\
    application/vnd.ms-powerpoint,application/vnd.oasis.opendocument.presentation";

const HTML: &str = ".html,.htm,.md,.markdown,.zip,text/html,text/markdown,application/zip";

pub fn fields(say: Say, slug: &str) -> Option<Markup> {
    let t = |en, french| say.t(en, french);
    Some(match slug {
        "pdfa" => html! {
            (pdf(say))
            fieldset {
                legend { (t("Level", "Niveau")) }
                (radio("level", "2b", t("PDF/A-2b (recommended: transparency and layers allowed)", "PDF/A-2b (conseillé : transparence et calques permis)"), true))
                (radio("level", "1b", t("PDF/A-1b (oldest readers; transparency removed)", "PDF/A-1b (lecteurs anciens ; transparence retirée)"), false))
                (radio("level", "3b", t("PDF/A-3b (keeps attached files)", "PDF/A-3b (garde les fichiers joints)"), false))
            }
        },
        "pdf-to-jpg" => html! {
            (pdf(say))
            label for="format" { "Format" }
            select #format name="format" { option value="jpeg" { "JPEG" } option value="webp" { "WebP" } }
            (number("dpi", "DPI (36–600)", "150", "36", "600", "1"))
            (number("quality", t("Quality (1–100)", "Qualité (1–100)"), "85", "1", "100", "1"))
        },
        "images-to-pdf" => html! {
            (files(say, "file", t("Images", "Images"), true, "image/jpeg,image/png,image/webp,image/tiff,image/bmp"))
            ol #file-order.file-order aria-label=(t("Page order", "Ordre des pages")) {}
            small { (t("Drag the images, or use the arrows, to set the page order.", "Glissez les images, ou utilisez les flèches, pour choisir l'ordre des pages.")) }
            label for="pageSize" { (t("Page size", "Format de page")) }
            select #pageSize name="pageSize" {
                option value="a4" { "A4" } option value="letter" { "Letter" }
                option value="fit" { (t("the image's own size", "la taille de l'image")) }
            }
            label for="orientation" { "Orientation" }
            select #orientation name="orientation" {
                option value="auto" { (t("automatic", "automatique")) }
                option value="portrait" { (t("portrait", "portrait")) }
                option value="landscape" { (t("landscape", "paysage")) }
            }
            (number("margin", t("Margins (pt)", "Marges (pt)"), "20", "0", "200", "1"))
        },
        "extract-images" => html! {
            (pdf(say))
            (number("minSide", t("Leave out images smaller than (px)", "Ignorer les images plus petites que (px)"), "16", "1", "", "1"))
            (check("includeMasks", t("Transparency masks as images too", "Les masques de transparence aussi"), false))
        },
        "office-to-pdf" => html! {
            (files(say, "file", t("Document, spreadsheet or presentation", "Document, classeur ou présentation"), false, OFFICE))
            small { "DOCX, DOC, ODT, RTF, XLSX, XLS, ODS, PPTX, PPT, ODP" }
        },
        "html-to-pdf" => html! {
            (files(say, "file", t("HTML, Markdown or ZIP file", "Fichier HTML, Markdown ou ZIP"), false, HTML))
            small { (t(
                "A ZIP holds a site: index.html with its CSS and images. Only the uploaded files are used: nothing is fetched from the internet.",
                "Un ZIP contient un site : index.html avec ses CSS et images. Seuls les fichiers envoyés sont utilisés : rien n'est chargé depuis internet.",
            )) }
            label for="paper" { (t("Paper", "Format")) }
            select #paper name="paper" {
                option value="a4" { "A4" } option value="letter" { "Letter" } option value="legal" { "Legal" }
                option value="a3" { "A3" } option value="a5" { "A5" }
            }
            (check("landscape", t("Landscape", "Paysage"), false))
            (number("margin", t("Margins (mm, 0–50)", "Marges (mm, 0–50)"), "10", "0", "50", "1"))
            (check("background", t("Print background colours and images", "Imprimer les couleurs et images d'arrière-plan"), false))
            (number("scale", t("Scale (0.1–2)", "Échelle (0,1–2)"), "1", "0.1", "2", "0.05"))
        },
        _ => return None,
    })
}
