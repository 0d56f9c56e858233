//! The toolbox pages: `/tools` lists every tool by group with a search box, and each web-only
//! tool has its page at `/tools/{slug}` whose form posts to `/tools/{slug}/run` (the session
//! and its anti-CSRF token, never an API key).

mod forms;

use maud::{Markup, html};

use super::i18n::Lang;
pub use forms::form;

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
    Edit,
    Security,
    Convert,
    Review,
}

const GROUPS: [Group; 5] = [
    Group::Pages,
    Group::Edit,
    Group::Security,
    Group::Convert,
    Group::Review,
];

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
    Tool {
        slug: "remove-blank",
        group: Group::Pages,
        en: (
            "Remove blank pages",
            "Pages with less ink than a threshold you set, with a preview of what goes.",
        ),
        fr: (
            "Supprimer les pages blanches",
            "Les pages avec moins d'encre que le seuil choisi, avec un aperçu de ce qui part.",
        ),
    },
    Tool {
        slug: "watermark",
        group: Group::Edit,
        en: (
            "Watermark",
            "Text or image, size, colour, opacity, rotation, position or tiled, on chosen pages.",
        ),
        fr: (
            "Filigrane",
            "Texte ou image, taille, couleur, opacité, rotation, position ou mosaïque, sur les pages choisies.",
        ),
    },
    Tool {
        slug: "page-numbers",
        group: Group::Edit,
        en: (
            "Page numbers and Bates",
            "Position, format ({n}, {n} / {total}, prefix and zero-padded Bates numbers), first page and start.",
        ),
        fr: (
            "Numéros de page et Bates",
            "Position, format ({n}, {n} / {total}, préfixe et numéros Bates), première page et premier numéro.",
        ),
    },
    Tool {
        slug: "metadata",
        group: Group::Edit,
        en: (
            "Metadata",
            "Show, edit or strip the document information and XMP.",
        ),
        fr: (
            "Métadonnées",
            "Afficher, modifier ou retirer les informations du document et le XMP.",
        ),
    },
    Tool {
        slug: "protect",
        group: Group::Security,
        en: (
            "Protect",
            "AES-256 password to open, owner password and permissions (print, copy, modify).",
        ),
        fr: (
            "Protéger",
            "Mot de passe AES-256 à l'ouverture, mot de passe propriétaire et droits (imprimer, copier, modifier).",
        ),
    },
    Tool {
        slug: "unlock",
        group: Group::Security,
        en: (
            "Unlock",
            "Remove the password of a PDF whose password you know.",
        ),
        fr: (
            "Déverrouiller",
            "Retirer le mot de passe d'un PDF dont vous connaissez le mot de passe.",
        ),
    },
    Tool {
        slug: "sanitize",
        group: Group::Security,
        en: (
            "Sanitize",
            "Remove JavaScript, embedded files, external links, metadata and hidden layers; see what was removed.",
        ),
        fr: (
            "Assainir",
            "Retirer JavaScript, fichiers joints, liens externes, métadonnées et calques masqués ; voir ce qui a été retiré.",
        ),
    },
    Tool {
        slug: "sign",
        group: Group::Security,
        en: (
            "Sign a PDF",
            "Place a drawn, uploaded or typed signature on a page; add a digital signature with your certificate (.p12).",
        ),
        fr: (
            "Signer un PDF",
            "Placer une signature dessinée, importée ou tapée sur une page ; ajouter une signature numérique avec votre certificat (.p12).",
        ),
    },
    Tool {
        slug: "redact",
        group: Group::Security,
        en: (
            "Redact",
            "Remove text, images and marks under boxes you draw or words you search, verified before you get the file.",
        ),
        fr: (
            "Caviarder",
            "Retirer le texte, les images et les tracés sous les cadres dessinés ou les mots cherchés, vérifié avant remise du fichier.",
        ),
    },
    Tool {
        slug: "fill-form",
        group: Group::Edit,
        en: (
            "Fill a form",
            "The PDF's form fields as a web form: fill them in, optionally flatten the result.",
        ),
        fr: (
            "Remplir un formulaire",
            "Les champs du formulaire PDF en formulaire web : remplissez-les, aplatissez le résultat si vous voulez.",
        ),
    },
    Tool {
        slug: "office-to-pdf",
        group: Group::Convert,
        en: (
            "Office to PDF",
            "Word, Excel, PowerPoint and OpenDocument files (DOCX, DOC, ODT, RTF, XLSX, XLS, ODS, PPTX, PPT, ODP) as PDF.",
        ),
        fr: (
            "Office en PDF",
            "Fichiers Word, Excel, PowerPoint et OpenDocument (DOCX, DOC, ODT, RTF, XLSX, XLS, ODS, PPTX, PPT, ODP) en PDF.",
        ),
    },
    Tool {
        slug: "html-to-pdf",
        group: Group::Convert,
        en: (
            "HTML or Markdown to PDF",
            "An HTML or Markdown file, or a ZIP of a page with its CSS and images, printed to PDF; nothing is fetched from elsewhere.",
        ),
        fr: (
            "HTML ou Markdown en PDF",
            "Un fichier HTML ou Markdown, ou un ZIP d'une page avec ses CSS et images, imprimé en PDF ; rien n'est chargé d'ailleurs.",
        ),
    },
    Tool {
        slug: "pdfa",
        group: Group::Convert,
        en: (
            "PDF to PDF/A",
            "PDF/A-2b, 1b or 3b for archiving: fonts embedded, colours and metadata set, the result validated.",
        ),
        fr: (
            "PDF en PDF/A",
            "PDF/A-2b, 1b ou 3b pour l'archivage : polices incorporées, couleurs et métadonnées réglées, résultat validé.",
        ),
    },
    Tool {
        slug: "pdf-to-jpg",
        group: Group::Convert,
        en: (
            "PDF to JPEG or WebP",
            "Pages as JPEG or WebP images at a chosen resolution and quality, in a ZIP.",
        ),
        fr: (
            "PDF en JPEG ou WebP",
            "Les pages en images JPEG ou WebP, à la résolution et qualité choisies, dans un ZIP.",
        ),
    },
    Tool {
        slug: "compare",
        group: Group::Review,
        en: (
            "Compare",
            "Two PDFs: the words changed on each page and the pages that look different, side by side.",
        ),
        fr: (
            "Comparer",
            "Deux PDF : les mots changés sur chaque page et les pages qui diffèrent, côte à côte.",
        ),
    },
    Tool {
        slug: "images-to-pdf",
        group: Group::Convert,
        en: (
            "Images to PDF",
            "JPEG (kept as it is), PNG, WebP, TIFF (every frame) and BMP: one page each, page size, orientation, margins, order.",
        ),
        fr: (
            "Images en PDF",
            "JPEG (gardé tel quel), PNG, WebP, TIFF (chaque image) et BMP : une page chacune, format, orientation, marges, ordre.",
        ),
    },
    Tool {
        slug: "extract-images",
        group: Group::Convert,
        en: (
            "Extract images",
            "Every image of a PDF as stored (JPEG stays JPEG), once each, in a ZIP.",
        ),
        fr: (
            "Extraire les images",
            "Chaque image d'un PDF telle qu'elle est stockée (le JPEG reste JPEG), une fois chacune, dans un ZIP.",
        ),
    },
    Tool {
        slug: "crop",
        group: Group::Pages,
        en: (
            "Crop and page size",
            "Crop margins (by numbers or trimmed to the content), fit pages to A4 or Letter, 2 or 4 pages per sheet.",
        ),
        fr: (
            "Rogner et format",
            "Rogner les marges (par valeurs ou au contenu), ajuster les pages au A4 ou Letter, 2 ou 4 pages par feuille.",
        ),
    },
    Tool {
        slug: "flatten",
        group: Group::Edit,
        en: (
            "Flatten",
            "Form fields and annotations burnt into the page content.",
        ),
        fr: (
            "Aplatir",
            "Champs de formulaire et annotations fondus dans le contenu des pages.",
        ),
    },
    Tool {
        slug: "repair",
        group: Group::Review,
        en: (
            "Repair",
            "Rebuild a damaged PDF (broken cross-reference table, cut short) and see what was repaired.",
        ),
        fr: (
            "Réparer",
            "Reconstruire un PDF endommagé (table des références cassée, fichier tronqué) et voir ce qui a été réparé.",
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
        (Group::Pages, _) => "Pages",
        (Group::Edit, false) => "Edit",
        (Group::Edit, true) => "Modifier",
        (Group::Security, false) => "Security",
        (Group::Security, true) => "Sécurité",
        (Group::Convert, false) => "Convert",
        (Group::Convert, true) => "Convertir",
        (Group::Review, false) => "Review",
        (Group::Review, true) => "Relire",
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
            @for group in GROUPS {
                section {
                    h2 { (group_name(group)) }
                    ul.tool-cards {
                        @for tool in TOOLBOX.iter().filter(|t| t.group == group) {
                            li { a href={ "/tools/" (tool.slug) } { (tool.name(lang)) } small { (tool.blurb(lang)) } }
                        }
                    }
                }
            }
            (crate::web::local::groups(lang))
        }
    }
}
