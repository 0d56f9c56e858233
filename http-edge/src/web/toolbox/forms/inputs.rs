//! The inputs the tool forms are made of, labelled in the page's language.

use maud::{Markup, html};

use crate::web::i18n::Lang;

/// The page's language as a chooser between an English and a French text.
#[derive(Clone, Copy)]
pub struct Say(bool);

impl Say {
    pub fn new(lang: Lang) -> Say {
        Say(lang == Lang::Fr)
    }

    pub fn t(self, en: &'static str, french: &'static str) -> &'static str {
        if self.0 { french } else { en }
    }
}

/// A file input with its drop zone; every file input of a form is sent as a `file` part, in
/// the order of the page.
pub fn files(say: Say, id: &str, label: &str, several: bool, accept: &str) -> Markup {
    let drop = if several {
        say.t("or drop them here", "ou déposez-les ici")
    } else {
        say.t("or drop it here", "ou déposez-le ici")
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

/// The one PDF most tools take.
pub fn pdf(say: Say) -> Markup {
    files(
        say,
        "file",
        say.t("PDF file", "Fichier PDF"),
        false,
        "application/pdf",
    )
}

pub fn text(name: &str, label: &str, placeholder: &str) -> Markup {
    html! {
        label for=(name) { (label) }
        input id=(name) type="text" name=(name) placeholder=(placeholder);
    }
}

pub fn number(name: &str, label: &str, value: &str, min: &str, max: &str, step: &str) -> Markup {
    html! {
        label for=(name) { (label) }
        input id=(name) type="number" name=(name) value=(value) min=(min) max=[(!max.is_empty()).then_some(max)] step=(step) inputmode="decimal";
    }
}

pub fn radio(name: &str, value: &str, label: &str, checked: bool) -> Markup {
    html! {
        label.check { input type="radio" name=(name) value=(value) checked[checked]; " " (label) }
    }
}

pub fn check(name: &str, label: &str, checked: bool) -> Markup {
    html! {
        label.check { input id=(name) type="checkbox" name=(name) value="on" checked[checked]; " " (label) }
    }
}

pub fn position(say: Say, tiled: bool, selected: &str) -> Markup {
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
                option value=(value) selected[value == selected] { (say.t(en, french)) }
            }
        }
    }
}
