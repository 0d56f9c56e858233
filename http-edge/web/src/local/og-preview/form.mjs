// The link preview's fields: title and description with their counts, the image (a local file
// for the preview, its future URL for the tags), the page's URL and the site's name.
import { element, fileDrop, say } from "../common.mjs";
import { DESCRIPTION_MAX, TITLE_MAX } from "./checks.mjs";

function field(id, label, control, note) {
  if (note) control.setAttribute("aria-describedby", `${id}-note`);
  return element("div", { class: "field" }, element("label", { for: id }, label), control,
    note && element("small", { id: `${id}-note` }, note));
}

const input = (id, attributes = {}) =>
  element("input", { id, name: id, type: "text", autocomplete: "off", ...attributes });

/// The form; `onImage(file)` when an image file is chosen or dropped.
export function buildForm(onImage) {
  const image = element("div", { class: "field" },
    fileDrop({ id: "og-image-file", label: say("Image for the preview (stays on this device)", "Image pour l'aperçu (reste sur cet appareil)"),
      accept: "image/*", onFiles: ([file]) => onImage(file) }),
    element("p", { id: "og-image-info", class: "hint", "aria-live": "polite" }),
    element("p", { id: "og-image-error", class: "error", role: "alert", hidden: true }),
    element("button", { type: "button", id: "og-image-clear", class: "button secondary", hidden: true }, say("Remove the image", "Retirer l'image")));
  const form = element("form", { id: "og-form", class: "stack og-form", novalidate: true },
    field("og-title", say("Title", "Titre"), input("og-title", { maxlength: "300" }),
      element("span", { id: "og-title-count" }, `0 / ${TITLE_MAX}`)),
    field("og-description", say("Description", "Description"),
      element("textarea", { id: "og-description", name: "og-description", rows: "3", maxlength: "1000" }),
      element("span", { id: "og-description-count" }, `0 / ${DESCRIPTION_MAX}`)),
    image,
    field("og-image-url", say("Image URL (where it will be online)", "Adresse de l'image (où elle sera en ligne)"),
      input("og-image-url", { type: "url", inputmode: "url", placeholder: "https://example.com/card.jpg" }),
      say("Goes into the tags only. This page loads nothing from other sites (it works offline and sends nothing), so an image at a URL cannot be shown here: choose the same image as a file above to see it in the cards.",
        "Va seulement dans les balises. Cette page ne charge rien d'autres sites (elle marche hors ligne et n'envoie rien) : une image désignée par une adresse ne peut pas s'afficher ici. Choisissez la même image comme fichier ci-dessus pour la voir dans les cartes.")),
    field("og-url", say("Page URL", "Adresse de la page"),
      input("og-url", { type: "url", inputmode: "url", placeholder: "https://example.com/article" })),
    field("og-site", say("Site name", "Nom du site"), input("og-site")));
  // Enter in a field must not submit (and reload) the page: everything updates as one types.
  form.addEventListener("submit", (event) => event.preventDefault());
  return form;
}

const value = (id) => document.getElementById(id).value;

export const readForm = () => ({
  title: value("og-title"),
  description: value("og-description"),
  imageUrl: value("og-image-url"),
  url: value("og-url"),
  siteName: value("og-site"),
});
