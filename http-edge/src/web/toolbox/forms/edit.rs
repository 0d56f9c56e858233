//! The Edit group's forms: watermark, page numbers, metadata, flatten, fill a form.

use maud::{Markup, html};

use super::inputs::{Say, check, files, number, pdf, position, radio, text};

pub fn fields(say: Say, slug: &str) -> Option<Markup> {
    let t = |en, french| say.t(en, french);
    Some(match slug {
        "watermark" => html! {
            (pdf(say))
            (text("text", t("Text (or leave empty and add an image)", "Texte (ou laissez vide et ajoutez une image)"), "CONFIDENTIAL"))
            (files(say, "image", t("Image (PNG or JPEG, optional)", "Image (PNG ou JPEG, facultative)"), false, "image/png,image/jpeg"))
            (number("fontSize", t("Font size (pt)", "Taille (pt)"), "48", "1", "500", "1"))
            label for="color" { (t("Colour", "Couleur")) }
            input #color type="color" name="color" value="#808080";
            (number("opacity", t("Opacity (0 to 1)", "Opacité (0 à 1)"), "0.3", "0", "1", "0.05"))
            (number("rotation", t("Rotation (degrees)", "Rotation (degrés)"), "45", "-360", "360", "1"))
            (position(say, true, "center"))
            (text("pages", t("Pages (empty: all)", "Pages (vide : toutes)"), "1-3,5"))
            (number("imageWidth", t("Image mark width (share of the page width)", "Largeur d'une image (part de la largeur de page)"), "0.5", "0.05", "1", "0.05"))
            (check("behind", t("Behind the page's content", "Derrière le contenu de la page"), false))
        },
        "page-numbers" => html! {
            (pdf(say))
            (text("format", t("Format", "Format"), "{n} / {total}"))
            small { (t("{n} is the number, {total} the page count; ACME-{n:6} gives Bates numbers ACME-000001.", "{n} est le numéro, {total} le nombre de pages ; ACME-{n:6} donne des numéros Bates ACME-000001.")) }
            (position(say, false, "bottom-center"))
            (number("firstPage", t("First page numbered", "Première page numérotée"), "1", "1", "", "1"))
            (number("start", t("First number", "Premier numéro"), "1", "1", "", "1"))
            (number("fontSize", t("Font size (pt)", "Taille (pt)"), "11", "1", "500", "1"))
            (number("margin", t("Distance from the page edge (pt)", "Distance au bord de la page (pt)"), "28", "1", "200", "1"))
            label for="color" { (t("Colour", "Couleur")) }
            input #color type="color" name="color" value="#000000";
        },
        "metadata" => html! {
            (pdf(say))
            fieldset {
                legend { (t("Action", "Action")) }
                (radio("action", "read", t("show", "afficher"), true))
                (radio("action", "edit", t("edit", "modifier"), false))
                (radio("action", "strip", t("strip all", "tout retirer"), false))
            }
            small { (t("Edit: filled fields replace the document's; empty ones keep it.", "Modifier : les champs remplis remplacent ceux du document ; les champs vides le gardent.")) }
            @for (name, en, french) in [("title", "Title", "Titre"), ("author", "Author", "Auteur"), ("subject", "Subject", "Sujet"), ("keywords", "Keywords", "Mots-clés"), ("creator", "Creator", "Créateur"), ("producer", "Producer", "Producteur")] {
                (text(name, t(en, french), ""))
            }
        },
        "flatten" => html! {
            (pdf(say))
            fieldset {
                legend { (t("Keep", "Garder")) }
                (check("keepFields", t("form fields (fillable)", "les champs de formulaire (remplissables)"), false))
                (check("keepAnnotations", t("other annotations", "les autres annotations"), false))
            }
        },
        "fill-form" => fill_form(say),
        _ => return None,
    })
}

/// Choosing the PDF lists its fields (a `list` run, fill-form.js), which become the inputs
/// of `#pdf-fields`; they have no names of their own (a PDF field could be called `action`):
/// the script keeps `values` up to date as the JSON object the edge reads.
fn fill_form(say: Say) -> Markup {
    let t = |en, french| say.t(en, french);
    html! {
        (pdf(say))
        input type="hidden" name="action" value="fill";
        input #values type="hidden" name="values" value="{}";
        p #fields-status aria-live="polite" {
            (t("Choose a PDF: its form fields will appear here.", "Choisissez un PDF : ses champs de formulaire apparaîtront ici."))
        }
        div #pdf-fields.stack.pdf-fields hidden {}
        (check("flatten", t("Flatten: the filled fields become part of the page (no longer editable)", "Aplatir : les champs remplis sont fondus dans la page (plus modifiables)"), false))
    }
}
