// The options form: padding, colours, transparency, maskable icons, the app's name. Every input
// has its label; `onChange` is called on each change so the icons follow as one sets them.
import { element, say } from "../common.mjs";

const field = (id, label, input, ...after) => element("div", { class: "favicon-field" }, element("label", { for: id }, label), input, ...after);

const check = (id, label, checked) => element("label", { class: "check", for: id },
  element("input", { id, type: "checkbox", checked }), " ", label);

/// { node, read() } where read() gives the options as icon-set.mjs takes them.
export function optionsForm(onChange) {
  const padding = element("input", { id: "favicon-padding", type: "range", min: "0", max: "20", step: "1", value: "0" });
  const paddingShown = element("output", { for: "favicon-padding", id: "favicon-padding-value" }, "0 %");
  const background = element("input", { id: "favicon-background", type: "color", value: "#ffffff" });
  const theme = element("input", { id: "favicon-theme", type: "color", value: "#ffffff" });
  const name = element("input", { id: "favicon-name", type: "text", maxlength: "80", autocomplete: "off", placeholder: say("My site", "Mon site") });

  const node = element("fieldset", { class: "stack favicon-options", id: "favicon-options" },
    element("legend", {}, say("Options", "Options")),
    field("favicon-padding", say("Padding around the image", "Marge autour de l'image"), padding, paddingShown),
    field("favicon-background", say("Background colour", "Couleur de fond"), background),
    check("favicon-transparent", say("Transparent background for favicon.ico and the 192/512 icons (the Apple icon is always filled: iOS shows transparency as black)",
      "Fond transparent pour favicon.ico et les icônes 192/512 (l'icône Apple est toujours remplie : iOS affiche la transparence en noir)"), true),
    check("favicon-maskable", say("Add padding for maskable icons (Android crops them to a circle or a rounded square)",
      "Ajouter une marge pour les icônes « maskable » (Android les découpe en cercle ou en carré arrondi)"), false),
    field("favicon-name", say("App name (for the manifest)", "Nom de l'application (pour le manifeste)"), name),
    field("favicon-theme", say("Theme colour (the browser's bar, in the manifest)", "Couleur du thème (barre du navigateur, dans le manifeste)"), theme));

  const transparent = node.querySelector("#favicon-transparent");
  const maskable = node.querySelector("#favicon-maskable");
  padding.addEventListener("input", () => {
    paddingShown.textContent = `${padding.value} %`;
    padding.setAttribute("aria-valuetext", `${padding.value} %`);
  });
  node.addEventListener("input", onChange);
  node.addEventListener("change", onChange);

  const read = () => ({
    padding: Number(padding.value),
    background: background.value || "#ffffff",
    transparent: transparent.checked,
    maskable: maskable.checked,
    name: name.value,
    themeColour: theme.value || "#ffffff",
  });
  return { node, read };
}
