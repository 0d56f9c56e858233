//! Each toolbox tool's form: its options, in French and English. Field names are those the
//! edge reads (`toolbox::options`); the page's script sends the fields first, then the files.

use maud::{Markup, html};

use super::{super::i18n::Lang, Tool};

/// A toolbox tool's page body.
pub fn form(lang: Lang, tool: &Tool) -> Markup {
    let fr = lang == Lang::Fr;
    let t = |en: &'static str, french: &'static str| if fr { french } else { en };
    let pdf = || {
        files(
            lang,
            "file",
            t("PDF file", "Fichier PDF"),
            false,
            "application/pdf",
        )
    };
    let fields = match tool.slug {
        "merge" => html! {
            (files(lang, "file", t("PDF files", "Fichiers PDF"), true, "application/pdf"))
            ol #file-order.file-order aria-label=(t("File order", "Ordre des fichiers")) {}
            small { (t("Drag the files, or use the arrows, to set their order.", "Glissez les fichiers, ou utilisez les flèches, pour choisir leur ordre.")) }
        },
        "split" => html! {
            (pdf())
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
            (pdf())
            label for="degrees" { (t("Angle (clockwise)", "Angle (sens horaire)")) }
            select #degrees name="degrees" {
                option value="90" { "90°" } option value="180" { "180°" } option value="270" { "270°" }
            }
            (text("pages", t("Pages (empty: all)", "Pages (vide : toutes)"), "1-3,5"))
        },
        "organize" => html! {
            (pdf())
            label for="order" { (t("New page order", "Nouvel ordre des pages")) }
            input #order type="text" name="order" required placeholder="3,1,2,blank,2";
            small { (t(
                "Page numbers separated by commas; a page left out is deleted, a page repeated is duplicated, “blank” inserts a blank page.",
                "Numéros de page séparés par des virgules ; un numéro absent supprime la page, répété il la duplique, « blank » insère une page blanche.",
            )) }
        },
        "remove-blank" => html! {
            (pdf())
            label for="threshold" { (t("Blank below this much ink (% of the page)", "Blanche sous cette part d'encre (% de la page)")) }
            input #threshold type="number" name="threshold" min="0" max="100" step="0.01" value="0.1" inputmode="decimal";
            (check("preview", t("Preview only: show each page's ink, remove nothing", "Aperçu seulement : l'encre de chaque page, rien n'est retiré"), false))
        },
        "watermark" => html! {
            (pdf())
            (text("text", t("Text (or leave empty and add an image)", "Texte (ou laissez vide et ajoutez une image)"), "CONFIDENTIAL"))
            (files(lang, "image", t("Image (PNG or JPEG, optional)", "Image (PNG ou JPEG, facultative)"), false, "image/png,image/jpeg"))
            (number("fontSize", t("Font size (pt)", "Taille (pt)"), "48", "1", "500", "1"))
            label for="color" { (t("Colour", "Couleur")) }
            input #color type="color" name="color" value="#808080";
            (number("opacity", t("Opacity (0 to 1)", "Opacité (0 à 1)"), "0.3", "0", "1", "0.05"))
            (number("rotation", t("Rotation (degrees)", "Rotation (degrés)"), "45", "-360", "360", "1"))
            (position(lang, true, "center"))
            (text("pages", t("Pages (empty: all)", "Pages (vide : toutes)"), "1-3,5"))
            (check("behind", t("Behind the page's content", "Derrière le contenu de la page"), false))
        },
        "page-numbers" => html! {
            (pdf())
            (text("format", t("Format", "Format"), "{n} / {total}"))
            small { (t("{n} is the number, {total} the page count; ACME-{n:6} gives Bates numbers ACME-000001.", "{n} est le numéro, {total} le nombre de pages ; ACME-{n:6} donne des numéros Bates ACME-000001.")) }
            (position(lang, false, "bottom-center"))
            (number("firstPage", t("First page numbered", "Première page numérotée"), "1", "1", "", "1"))
            (number("start", t("First number", "Premier numéro"), "1", "1", "", "1"))
            (number("fontSize", t("Font size (pt)", "Taille (pt)"), "11", "1", "500", "1"))
            label for="color" { (t("Colour", "Couleur")) }
            input #color type="color" name="color" value="#000000";
        },
        "metadata" => html! {
            (pdf())
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
        "protect" => html! {
            (pdf())
            label for="userPassword" { (t("Password to open", "Mot de passe d'ouverture")) }
            input #userPassword type="password" name="userPassword" autocomplete="new-password";
            label for="ownerPassword" { (t("Owner password (to change the permissions)", "Mot de passe propriétaire (pour changer les droits)")) }
            input #ownerPassword type="password" name="ownerPassword" autocomplete="new-password";
            fieldset {
                legend { (t("Allowed", "Autorisé")) }
                (check("allowPrint", t("print", "imprimer"), true))
                (check("allowCopy", t("copy text", "copier le texte"), false))
                (check("allowModify", t("modify", "modifier"), false))
            }
        },
        "unlock" => html! {
            (pdf())
            label for="password" { (t("The PDF's password", "Le mot de passe du PDF")) }
            input #password type="password" name="password" required autocomplete="off";
        },
        "sanitize" => html! {
            (pdf())
            fieldset {
                legend { (t("Keep", "Garder")) }
                (check("keepJavascript", "JavaScript", false))
                (check("keepEmbeddedFiles", t("embedded files", "fichiers joints"), false))
                (check("keepLinks", t("external links", "liens externes"), false))
                (check("keepMetadata", t("metadata", "métadonnées"), false))
                (check("keepHiddenLayers", t("hidden layers", "calques masqués"), false))
            }
        },
        "pdf-to-jpg" => html! {
            (pdf())
            label for="format" { "Format" }
            select #format name="format" { option value="jpeg" { "JPEG" } option value="webp" { "WebP" } }
            (number("dpi", "DPI (36–600)", "150", "36", "600", "1"))
            (number("quality", t("Quality (1–100)", "Qualité (1–100)"), "85", "1", "100", "1"))
        },
        "images-to-pdf" => html! {
            (files(lang, "file", t("Images", "Images"), true, "image/jpeg,image/png,image/webp,image/tiff,image/bmp"))
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
        "flatten" => html! {
            (pdf())
            fieldset {
                legend { (t("Keep", "Garder")) }
                (check("keepFields", t("form fields (fillable)", "les champs de formulaire (remplissables)"), false))
                (check("keepAnnotations", t("other annotations", "les autres annotations"), false))
            }
        },
        "repair" => html! {
            (pdf())
        },
        "crop" => html! {
            (pdf())
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
        "extract-images" => html! {
            (pdf())
            (number("minSide", t("Leave out images smaller than (px)", "Ignorer les images plus petites que (px)"), "16", "1", "", "1"))
            (check("includeMasks", t("Transparency masks as images too", "Les masques de transparence aussi"), false))
        },
        _ => html! {
            (files(lang, "file", t("Original PDF", "PDF d'origine"), false, "application/pdf"))
            (files(lang, "changed", t("Changed PDF", "PDF modifié"), false, "application/pdf"))
        },
    };
    html! {
        h1 { (tool.name(lang)) }
        p.lead { (tool.blurb(lang)) }
        form.stack.tool #tool data-endpoint={ "/tools/" (tool.slug) "/run" } data-result="file" {
            (fields)
            progress #progress max="100" value="0" hidden aria-label=(t("Upload", "Envoi")) {}
            button type="submit" { (t("Run", "Lancer")) }
        }
        p.error #error role="alert" hidden {}
        section #result aria-live="polite" hidden {}
    }
}

/// A file input with its drop zone; every file input of a form is sent as a `file` part, in
/// the order of the page.
fn files(lang: Lang, id: &str, label: &str, several: bool, accept: &str) -> Markup {
    let drop = match (several, lang == Lang::Fr) {
        (true, true) => "ou déposez-les ici",
        (true, false) => "or drop them here",
        (false, true) => "ou déposez-le ici",
        (false, false) => "or drop it here",
    };
    // The first input is the one the tool needs; later ones (an image mark) may stay empty.
    let required = id != "image";
    html! {
        div.drop data-drop="file" {
            label for=(id) { (label) }
            input id=(id) type="file" name="file" required[required] accept=(accept) multiple[several];
            small { (drop) }
        }
    }
}

fn text(name: &str, label: &str, placeholder: &str) -> Markup {
    html! {
        label for=(name) { (label) }
        input id=(name) type="text" name=(name) placeholder=(placeholder);
    }
}

fn number(name: &str, label: &str, value: &str, min: &str, max: &str, step: &str) -> Markup {
    html! {
        label for=(name) { (label) }
        input id=(name) type="number" name=(name) value=(value) min=(min) max=[(!max.is_empty()).then_some(max)] step=(step) inputmode="decimal";
    }
}

fn radio(name: &str, value: &str, label: &str, checked: bool) -> Markup {
    html! {
        label.check { input type="radio" name=(name) value=(value) checked[checked]; " " (label) }
    }
}

fn check(name: &str, label: &str, checked: bool) -> Markup {
    html! {
        label.check { input id=(name) type="checkbox" name=(name) value="on" checked[checked]; " " (label) }
    }
}

fn position(lang: Lang, tiled: bool, selected: &str) -> Markup {
    let fr = lang == Lang::Fr;
    let mut options = vec![
        ("top-left", "top left", "en haut à gauche"),
        ("top-center", "top centre", "en haut au centre"),
        ("top-right", "top right", "en haut à droite"),
        ("middle-left", "middle left", "au milieu à gauche"),
        ("center", "centre", "au centre"),
        ("middle-right", "middle right", "au milieu à droite"),
        ("bottom-left", "bottom left", "en bas à gauche"),
        ("bottom-center", "bottom centre", "en bas au centre"),
        ("bottom-right", "bottom right", "en bas à droite"),
    ];
    if tiled {
        options.push(("tiled", "tiled over the page", "en mosaïque sur la page"));
    }
    html! {
        label for="position" { "Position" }
        select #position name="position" {
            @for (value, en, french) in options {
                option value=(value) selected[value == selected] { (if fr { french } else { en }) }
            }
        }
    }
}
