//! The toolbox pages: `/tools` lists every tool by group with a search box, and each web-only
//! tool has its page at `/tools/{slug}` whose form posts to `/tools/{slug}/run` (the session
//! and its anti-CSRF token, never an API key).

use maud::{Markup, html};

use super::i18n::Lang;

/// A web-only tool: its slug, group and names.
pub struct Tool {
    pub slug: &'static str,
    group: Group,
    en: (&'static str, &'static str),
    fr: (&'static str, &'static str),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Pages,
}

impl Tool {
    pub fn name(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en.0,
            Lang::Fr => self.fr.0,
        }
    }

    fn blurb(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en.1,
            Lang::Fr => self.fr.1,
        }
    }
}

pub const TOOLBOX: &[Tool] = &[
    Tool {
        slug: "merge",
        group: Group::Pages,
        en: (
            "Merge PDFs",
            "Several PDFs into one, in the order you set; bookmarks and links kept.",
        ),
        fr: (
            "Fusionner des PDF",
            "Plusieurs PDF en un seul, dans l'ordre choisi ; signets et liens gardés.",
        ),
    },
    Tool {
        slug: "split",
        group: Group::Pages,
        en: (
            "Split a PDF",
            "By page ranges, every N pages or at each bookmark: a ZIP of PDFs.",
        ),
        fr: (
            "Découper un PDF",
            "Par plages de pages, toutes les N pages ou à chaque signet : un ZIP de PDF.",
        ),
    },
    Tool {
        slug: "organize",
        group: Group::Pages,
        en: (
            "Organize pages",
            "Reorder, delete, duplicate pages and insert blank ones.",
        ),
        fr: (
            "Organiser les pages",
            "Réordonner, supprimer, dupliquer des pages, insérer des pages blanches.",
        ),
    },
    Tool {
        slug: "rotate",
        group: Group::Pages,
        en: (
            "Rotate pages",
            "All or chosen pages by 90, 180 or 270 degrees.",
        ),
        fr: (
            "Faire pivoter des pages",
            "Toutes les pages ou certaines, de 90, 180 ou 270 degrés.",
        ),
    },
];

pub fn find(slug: &str) -> Option<&'static Tool> {
    TOOLBOX.iter().find(|t| t.slug == slug)
}

/// The `/tools` page's body: the API tools, then the toolbox by group, filtered as one types.
pub fn index(lang: Lang, api_tools: &[(&str, &str)]) -> Markup {
    let fr = lang == Lang::Fr;
    let group_name = |group: Group| match (group, fr) {
        (Group::Pages, false) => "Pages",
        (Group::Pages, true) => "Pages",
    };
    html! {
        h1 { (if fr { "Outils" } else { "Tools" }) }
        label for="tool-search" { (if fr { "Chercher un outil" } else { "Find a tool" }) }
        input #tool-search type="search" data-filter="#tool-list li" autocomplete="off";
        div #tool-list {
            section {
                h2 { (if fr { "Fichiers, OCR et support" } else { "Files, OCR and support" }) }
                ul.tool-cards {
                    @for (path, name) in api_tools {
                        li { a href=(path) { (name) } }
                    }
                }
            }
            @for group in [Group::Pages] {
                section {
                    h2 { (group_name(group)) }
                    ul.tool-cards {
                        @for tool in TOOLBOX.iter().filter(|t| t.group == group) {
                            li { a href={ "/tools/" (tool.slug) } { (tool.name(lang)) } small { (tool.blurb(lang)) } }
                        }
                    }
                }
            }
        }
    }
}

/// A toolbox tool's form.
pub fn form(lang: Lang, tool: &Tool) -> Markup {
    let fr = lang == Lang::Fr;
    let fields = match tool.slug {
        "merge" => html! {
            (files(lang, true))
            ol #file-order.file-order aria-label=(if fr { "Ordre des fichiers" } else { "File order" }) {}
            small { (if fr { "Glissez les fichiers pour changer leur ordre." } else { "Drag the files to change their order." }) }
        },
        "split" => html! {
            (files(lang, false))
            fieldset {
                legend { (if fr { "Découper" } else { "Split" }) }
                label.check { input type="radio" name="mode" value="ranges" checked; " " (if fr { "par plages" } else { "by ranges" }) }
                label.check { input type="radio" name="mode" value="every"; " " (if fr { "toutes les N pages" } else { "every N pages" }) }
                label.check { input type="radio" name="mode" value="bookmarks"; " " (if fr { "à chaque signet" } else { "at each bookmark" }) }
            }
            label for="ranges" { (if fr { "Plages (un fichier par plage)" } else { "Ranges (one file per range)" }) }
            input #ranges type="text" name="ranges" placeholder="1-3,5,8-";
            label for="every" { "N" }
            input #every type="number" name="every" min="1" value="1" inputmode="numeric";
        },
        "rotate" => html! {
            (files(lang, false))
            label for="degrees" { (if fr { "Angle (sens horaire)" } else { "Angle (clockwise)" }) }
            select #degrees name="degrees" {
                option value="90" { "90°" } option value="180" { "180°" } option value="270" { "270°" }
            }
            label for="pages" { (if fr { "Pages (vide : toutes)" } else { "Pages (empty: all)" }) }
            input #pages type="text" name="pages" placeholder="1-3,5";
        },
        _ => html! {
            (files(lang, false))
            label for="order" { (if fr { "Nouvel ordre des pages" } else { "New page order" }) }
            input #order type="text" name="order" required placeholder="3,1,2,blank,2";
            small { (if fr {
                "Numéros de page séparés par des virgules ; un numéro absent supprime la page, répété il la duplique, « blank » insère une page blanche."
            } else {
                "Page numbers separated by commas; a page left out is deleted, a page repeated is duplicated, “blank” inserts a blank page."
            }) }
        },
    };
    html! {
        h1 { (tool.name(lang)) }
        p.lead { (tool.blurb(lang)) }
        form.stack.tool #tool data-endpoint={ "/tools/" (tool.slug) "/run" } data-result="file" {
            (fields)
            progress #progress max="100" value="0" hidden aria-label=(if fr { "Envoi" } else { "Upload" }) {}
            button type="submit" { (if fr { "Lancer" } else { "Run" }) }
        }
        p.error #error role="alert" hidden {}
        section #result aria-live="polite" hidden {}
    }
}

fn files(lang: Lang, several: bool) -> Markup {
    let fr = lang == Lang::Fr;
    let (label, drop) = match (several, fr) {
        (true, true) => ("Fichiers PDF", "ou déposez-les ici"),
        (true, false) => ("PDF files", "or drop them here"),
        (false, true) => ("Fichier PDF", "ou déposez-le ici"),
        (false, false) => ("PDF file", "or drop it here"),
    };
    html! {
        div.drop data-drop="file" {
            label for="file" { (label) }
            input #file type="file" name="file" required accept="application/pdf" multiple[several];
            small { (drop) }
        }
    }
}
