// The minifiers' options as the page shows them: one group per language, each box labelled,
// the defaults those of minifiers.mjs (what is safe for any page or script). Builds the
// fields and reads them back; view.mjs runs the minifiers with what is read.
import { element, say } from "../common.mjs";
import { DEFAULTS } from "./defaults.mjs";
import { moduleFromName } from "./detect.mjs";

function box(id, checked, label, hint = null) {
  return element("div", { class: "min-option" },
    element("label", { class: "check", for: id }, element("input", { type: "checkbox", id, name: id, checked }), " ", label),
    hint && element("small", { id: `${id}-hint` }, hint));
}

const group = (id, legend, ...fields) => element("fieldset", { id, class: "min-group" }, element("legend", {}, legend), ...fields);

export function buildOptions() {
  const { js, css, html } = DEFAULTS;
  const moduleChoice = element("div", { class: "min-option min-field" },
    element("label", { for: "min-js-module" }, say("ES module", "Module ES")),
    element("select", { id: "min-js-module", name: "min-js-module" },
      element("option", { value: "auto", selected: true },
        say("Automatic (.mjs, import or export)", "Automatique (.mjs, import ou export)")),
      element("option", { value: "yes" }, say("Yes: top-level names may be renamed", "Oui : les noms globaux peuvent être renommés")),
      element("option", { value: "no" }, say("No: a classic script", "Non : un script classique"))));
  return element("div", { class: "min-options" },
    group("min-js-options", "JavaScript",
      box("min-js-mangle", js.mangle, say("Shorten variable names", "Raccourcir les noms de variables")),
      box("min-js-console", js.keepConsole, say("Keep console.log and the like", "Garder console.log et les autres")),
      moduleChoice),
    group("min-css-options", "CSS",
      box("min-css-restructure", css.restructure, say("Merge rules and declarations (restructure)", "Fusionner règles et déclarations (restructurer)"),
        say("Off: each rule is only shortened where it stands.", "Désactivé : chaque règle est seulement raccourcie sur place."))),
    group("min-html-options", "HTML",
      box("min-html-whitespace", html.collapseWhitespace, say("Collapse whitespace", "Réduire les espaces"),
        say("A run of spaces becomes one; <pre> and <textarea> stay as they are.", "Une suite d'espaces devient une seule ; <pre> et <textarea> restent tels quels.")),
      box("min-html-comments", html.removeComments, say("Remove comments", "Retirer les commentaires")),
      box("min-html-inline", html.minifyInline, say("Minify inline CSS and JavaScript", "Minifier le CSS et le JavaScript intégrés")),
      box("min-html-attributes", html.removeRedundant, say("Remove redundant attributes", "Retirer les attributs superflus"),
        say("Default values such as type=\"text\" or method=\"get\": a CSS rule that selects [type=text] would no longer match.",
          "Valeurs par défaut comme type=\"text\" ou method=\"get\" : une règle CSS qui sélectionne [type=text] ne s'appliquerait plus."))));
}

const checked = (id) => document.getElementById(id).checked;

/// The options as minifiers.mjs takes them, for a file called `name` (null for pasted text):
/// on "automatic", a .mjs name says module and a .cjs one says script.
export function readOptions(name = null) {
  const module = document.getElementById("min-js-module").value;
  return {
    js: {
      mangle: checked("min-js-mangle"),
      keepConsole: checked("min-js-console"),
      module: module === "yes" ? true : module === "no" ? false : name ? moduleFromName(name) : null,
    },
    css: { restructure: checked("min-css-restructure") },
    html: {
      collapseWhitespace: checked("min-html-whitespace"),
      removeComments: checked("min-html-comments"),
      minifyInline: checked("min-html-inline"),
      removeRedundant: checked("min-html-attributes"),
    },
  };
}
