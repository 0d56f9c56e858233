// The link preview page: the form, the cards as five networks would show them, the warnings,
// and the <meta> tags to paste, all updated as one types. The image chosen stays in the browser
// (an object URL); nothing is fetched or sent.
import { decodeImage, element, say } from "../common.mjs";
import { buildCards } from "./cards.mjs";
import { checks, DESCRIPTION_MAX, TITLE_MAX } from "./checks.mjs";
import { buildForm, readForm } from "./form.mjs";
import { clean, metaTags } from "./meta.mjs";
import { warningText } from "./wording.mjs";

/// The text to the clipboard; where the page may not write it, the field selected for Ctrl+C.
async function copy(field) {
  try {
    await navigator.clipboard.writeText(field.value);
    return say("Copied.", "Copié.");
  } catch {
    field.focus();
    field.select();
    return document.execCommand("copy") ? say("Copied.", "Copié.")
      : say("Selected: press Ctrl+C (⌘C) to copy.", "Sélectionné : faites Ctrl+C (⌘C) pour copier.");
  }
}

export function mount(root) {
  root.classList.add("og-tool");
  let image = null; // { src (object URL), width, height, name } of the local file
  const form = buildForm(chooseImage);
  const cards = buildCards();
  const warnings = element("ul", { id: "og-warnings", class: "og-warnings", "aria-live": "polite" });
  const tags = element("textarea", { id: "og-tags", class: "og-tags", rows: "12", readonly: true, spellcheck: "false" });
  const copyButton = element("button", { type: "button", id: "og-copy" }, say("Copy the tags", "Copier les balises"));
  const copyStatus = element("span", { id: "og-copy-status", role: "status" });
  root.append(
    element("div", { class: "columns og-layout" },
      form,
      element("section", { class: "og-previews", "aria-labelledby": "og-previews-title" },
        element("h2", { id: "og-previews-title" }, say("Previews", "Aperçus")),
        element("p", { class: "hint" }, say(
          "Approximate: each network changes its cards now and then, and cuts long texts by width.",
          "Approximatif : chaque réseau change ses cartes de temps en temps, et coupe les textes longs selon la largeur.")),
        warnings, cards.node)),
    element("section", { class: "og-output", "aria-labelledby": "og-tags-title" },
      element("h2", { id: "og-tags-title" }, element("label", { for: "og-tags" }, say("Tags for the page's <head>", "Balises pour le <head> de la page"))),
      element("div", { class: "copy-block" }, tags, element("div", { class: "og-copy-row" }, copyButton, copyStatus))));

  const count = (id, text, max) => {
    const n = [...clean(text)].length;
    const node = document.getElementById(id);
    node.textContent = `${n} / ${max}`;
    node.classList.toggle("warning", n > max);
  };

  function render() {
    const fields = readForm();
    count("og-title-count", fields.title, TITLE_MAX);
    count("og-description-count", fields.description, DESCRIPTION_MAX);
    cards.update(fields, image, fields.imageUrl.trim() !== "");
    warnings.replaceChildren(...checks(fields, image).map((w) =>
      element("li", { class: "warning", "data-warning": w.id }, warningText(w))));
    tags.value = metaTags(fields);
    copyStatus.textContent = "";
  }

  const info = document.getElementById("og-image-info");
  const error = document.getElementById("og-image-error");
  const clear = document.getElementById("og-image-clear");
  function setImage(next) {
    if (image) URL.revokeObjectURL(image.src);
    image = next;
    info.textContent = image ? `${image.name}: ${image.width} × ${image.height} px` : "";
    clear.hidden = !image;
    render();
  }
  // The file is decoded first, so a file that is not an image says so instead of a broken card.
  async function chooseImage(file) {
    error.hidden = true;
    try {
      const bitmap = await decodeImage(file);
      const { width, height } = bitmap;
      bitmap.close();
      setImage({ src: URL.createObjectURL(file), width, height, name: file.name });
    } catch (caught) {
      error.textContent = caught.message;
      error.hidden = false;
    }
  }
  clear.addEventListener("click", () => {
    document.getElementById("og-image-file").value = "";
    setImage(null);
    document.getElementById("og-image-file").focus();
  });
  copyButton.addEventListener("click", async () => {
    copyStatus.textContent = await copy(tags);
  });
  form.addEventListener("input", render);
  render();
}
