//! The Pages group's forms: merge, split, organize, rotate, remove blank pages, crop.

use maud::{Markup, html};

use super::inputs::{Say, check, files, number, pdf, radio, text};

pub fn fields(say: Say, slug: &str) -> Option<Markup> {
    let t = |en, french| say.t(en, french);
    Some(match slug {
        "merge" => html! {
            (files(say, "file", t("PDF files", "Fichiers PDF"), true, "application/pdf"))
            ol #file-order.file-order aria-label=(t("File order", "Ordre des fichiers")) {}
            small { (t("Drag the files, or use the arrows, to set their order.", "Glissez les fichiers, ou utilisez les flèches, pour choisir leur ordre.")) }
        },
        "split" => html! {
            (pdf(say))
            fieldset {
                legend { (t("Split", "Découper")) }
                (radio("mode", "ranges", t("by ranges", "par plages"), true))
                (radio("mode", "every", t("every N pages", "toutes les N pages"), false))
                (radio("mode", "bookmarks", t("at each bookmark", "à chaque signet"), false))
            }
            (text("ranges", t("Ranges (one file per range)", "Plages (un fichier par plage)"), "1-3,5,8-"))
            label for="every" { "N" }
            input #every type="number" name="every" min="1" value="1" inputmode="numeric";
        },
        "rotate" => html! {
            (pdf(say))
            label for="degrees" { (t("Angle (clockwise)", "Angle (sens horaire)")) }
            select #degrees name="degrees" {
                option value="90" { "90°" } option value="180" { "180°" } option value="270" { "270°" }
            }
            (text("pages", t("Pages (empty: all)", "Pages (vide : toutes)"), "1-3,5"))
        },
        "organize" => html! {
            (pdf(say))
            // Filled by thumbnails.js with the pages drawn in the browser (nothing is sent for
            // them); the order field below is what the form sends, and stays usable without.
            div #page-grid.page-grid role="list" aria-label=(t("Pages", "Pages")) hidden {}
            div #page-grid-actions.actions hidden {
                button #add-blank.button.secondary type="button" { (t("Add a blank page", "Ajouter une page blanche")) }
                button #reset-order.button.secondary type="button" { (t("Start again", "Recommencer")) }
            }
            label for="order" { (t("New page order", "Nouvel ordre des pages")) }
            input #order type="text" name="order" required placeholder="3,1,2,blank,2";
            small { (t(
                "Page numbers separated by commas; a page left out is deleted, a page repeated is duplicated, “blank” inserts a blank page.",
                "Numéros de page séparés par des virgules ; un numéro absent supprime la page, répété il la duplique, « blank » insère une page blanche.",
            )) }
        },
        "remove-blank" => html! {
            (pdf(say))
            label for="threshold" { (t("Blank below this much ink (% of the page)", "Blanche sous cette part d'encre (% de la page)")) }
            input #threshold type="number" name="threshold" min="0" max="100" step="0.01" value="0.1" inputmode="decimal";
            (check("preview", t("Preview only: show each page's ink, remove nothing", "Aperçu seulement : l'encre de chaque page, rien n'est retiré"), false))
        },
        "crop" => html! {
            (pdf(say))
            fieldset {
                legend { (t("What to do", "Que faire")) }
                (radio("mode", "margins", t("crop margins", "rogner les marges"), true))
                (radio("mode", "auto", t("trim to the content", "rogner au contenu"), false))
                (radio("mode", "fit", t("fit to a paper size", "ajuster à un format"), false))
                (radio("mode", "n-up", t("pages per sheet", "pages par feuille"), false))
            }
            @for (name, en, french) in [("top", "Top (pt)", "Haut (pt)"), ("right", "Right (pt)", "Droite (pt)"), ("bottom", "Bottom (pt)", "Bas (pt)"), ("left", "Left (pt)", "Gauche (pt)")] {
                (number(name, t(en, french), "0", "0", "2000", "1"))
            }
            (text("pages", t("Pages (empty: all)", "Pages (vide : toutes)"), "1-3,5"))
            (number("padding", t("Space kept around the content (pt)", "Espace gardé autour du contenu (pt)"), "12", "0", "200", "1"))
            label for="paper" { (t("Paper", "Format")) }
            select #paper name="paper" { option value="a4" { "A4" } option value="letter" { "Letter" } }
            label for="perSheet" { (t("Pages per sheet", "Pages par feuille")) }
            select #perSheet name="perSheet" { option value="2" { "2" } option value="4" { "4" } }
        },
        _ => return None,
    })
}
