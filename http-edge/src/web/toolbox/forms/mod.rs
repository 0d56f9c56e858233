//! Each toolbox tool's form: its options, in French and English, one file per group of the
//! catalogue. Field names are those the edge reads (`toolbox::options`); the page's script
//! sends the fields first, then the files.

mod convert;
mod edit;
mod inputs;
mod pages;
mod review;
mod security;

use maud::{Markup, html};

use super::{super::i18n::Lang, Group, Tool};
use inputs::Say;

/// A toolbox tool's page body.
pub fn form(lang: Lang, tool: &Tool) -> Markup {
    let say = Say::new(lang);
    let fields = match tool.group {
        Group::Pages => pages::fields(say, tool.slug),
        Group::Edit => edit::fields(say, tool.slug),
        Group::Security => security::fields(say, tool.slug),
        Group::Convert => convert::fields(say, tool.slug),
        Group::Review => review::fields(say, tool.slug),
    };
    // A tool in the catalogue without a form of its own still gets its file input.
    let fields = fields.unwrap_or_else(|| inputs::pdf(say));
    html! {
        h1 { (tool.name(lang)) }
        p.lead { (tool.blurb(lang)) }
        form.stack.tool #tool data-endpoint={ "/tools/" (tool.slug) "/run" } data-result="file" data-tool=(tool.slug) {
            (fields)
            progress #progress max="100" value="0" hidden aria-label=(say.t("Upload", "Envoi")) {}
            button type="submit" { (say.t("Run", "Lancer")) }
        }
        p.error #error role="alert" hidden {}
        section #result aria-live="polite" hidden {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::toolbox::TOOLBOX;

    /// Every tool of the catalogue has a form of its own in its group's file (none falls back
    /// to the bare file input), with an input for every field the edge reads.
    #[test]
    fn every_tool_has_its_form() {
        for tool in TOOLBOX {
            let say = Say::new(Lang::En);
            let found = match tool.group {
                Group::Pages => pages::fields(say, tool.slug),
                Group::Edit => edit::fields(say, tool.slug),
                Group::Security => security::fields(say, tool.slug),
                Group::Convert => convert::fields(say, tool.slug),
                Group::Review => review::fields(say, tool.slug),
            };
            assert!(found.is_some(), "{} has no form in its group", tool.slug);
        }
        // Each field the edge reads has an input of that name on the page, in both languages.
        for tool in TOOLBOX {
            let Some(names) = crate::toolbox::options::fields(tool.slug) else {
                panic!("{} has no run route", tool.slug)
            };
            for lang in [Lang::En, Lang::Fr] {
                let page = form(lang, tool).into_string();
                for name in names {
                    assert!(
                        page.contains(&format!(r#"name="{name}""#)),
                        "{}: no input named {name}",
                        tool.slug
                    );
                }
            }
        }
    }
}
