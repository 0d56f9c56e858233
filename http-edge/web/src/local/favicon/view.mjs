// The favicon tool's page: choose an image, set the options, see every icon, download the ZIP
// and copy the <head> tags. Everything happens here in the browser: the image is never sent.
import { bytes, downloadLink, element, fileDrop, say, stem, zip } from "../common.mjs";
import { makeIconSet } from "./icon-set.mjs";
import { optionsForm } from "./options.mjs";
import { showPreviews } from "./previews.mjs";
import { loadSource } from "./source.mjs";

// Below this side, the 512-pixel icons are enlarged from fewer pixels: said, not refused.
const SHARP_SIDE = 512;
// Options change continuously while a slider moves: redraw once it rests.
const SETTLE_MS = 150;

/// Copies `text`; the clipboard API needs a secure context, else the old way on the textarea.
async function copyText(text, textarea) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    textarea.select();
    if (!document.execCommand("copy")) throw new Error("copy refused");
  }
}

export function mount(root) {
  let source = null;
  let run = 0; // each new run makes the older, still running ones drop their result
  let timer = null;
  let freePreviews = () => {};

  const error = element("p", { id: "favicon-error", class: "error", role: "alert", hidden: true });
  const about = element("p", { id: "favicon-source", class: "hint", hidden: true });
  const status = element("p", { id: "favicon-status", class: "hint", "aria-live": "polite" },
    say("Choose an image to see its icons here.", "Choisissez une image pour voir ses icônes ici."));
  const list = element("ul", { id: "favicon-previews", class: "favicon-previews" });
  const result = element("div", { id: "favicon-result", class: "favicon-result" });
  const head = element("textarea", { id: "favicon-head", readonly: true, rows: "4", spellcheck: "false", wrap: "off" });
  const copy = element("button", { type: "button", id: "favicon-copy", class: "secondary", disabled: true }, say("Copy the tags", "Copier les balises"));
  const copied = element("span", { id: "favicon-copied", class: "hint", "aria-live": "polite" });
  const options = optionsForm(() => {
    clearTimeout(timer);
    timer = setTimeout(refresh, SETTLE_MS);
  });

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  function clearResult() {
    freePreviews();
    freePreviews = () => {};
    list.replaceChildren();
    const link = result.querySelector("a[href^='blob:']");
    if (link) URL.revokeObjectURL(link.href);
    result.replaceChildren();
  }

  async function refresh() {
    const mine = ++run;
    if (!source) return;
    const chosen = options.read();
    status.textContent = say("Drawing the icons…", "Dessin des icônes…");
    try {
      const set = await makeIconSet(source, chosen);
      if (mine !== run) return;
      clearResult();
      freePreviews = showPreviews(list, set.previews);
      const archive = zip(set.files);
      const link = downloadLink(archive, `${stem(source.name)}-favicons.zip`,
        say(`Download the ZIP (${bytes(archive.size)})`, `Télécharger le ZIP (${bytes(archive.size)})`), "favicon-download");
      // What the ZIP was made from, for whoever waits for it (the browser test does).
      link.dataset.source = source.name;
      link.dataset.maskable = chosen.maskable ? "yes" : "no";
      result.replaceChildren(link,
        element("p", { class: "hint" }, say(`Files: ${set.files.map((f) => f.name).join(", ")}. Put them at your site's root.`,
          `Fichiers : ${set.files.map((f) => f.name).join(", ")}. Placez-les à la racine de votre site.`)));
      head.value = set.head;
      copy.disabled = false;
      status.textContent = say(`${set.files.length} files ready.`, `${set.files.length} fichiers prêts.`);
    } catch (problem) {
      if (mine !== run) return;
      status.textContent = "";
      fail(problem.message);
    }
  }

  async function choose(file) {
    run++;
    clearTimeout(timer);
    error.hidden = true;
    about.hidden = true;
    clearResult();
    head.value = "";
    copy.disabled = true;
    source?.dispose();
    source = null;
    status.textContent = say(`Reading ${file.name}…`, `Lecture de ${file.name}…`);
    const mine = run;
    let loaded;
    try {
      loaded = await loadSource(file);
    } catch (problem) {
      if (mine !== run) return;
      status.textContent = "";
      fail(problem.message);
      return;
    }
    if (mine !== run) return loaded.dispose();
    source = loaded;
    const side = (n) => Math.round(n);
    const small = source.kind === "bitmap" && Math.min(source.width, source.height) < SHARP_SIDE;
    about.textContent = source.kind === "svg"
      ? say(`${file.name}: SVG, drawn as vectors at each size; also kept as favicon.svg.`,
        `${file.name} : SVG, dessiné en vectoriel à chaque taille ; gardé aussi en favicon.svg.`)
      : say(`${file.name}: ${side(source.width)} × ${side(source.height)} pixels.`, `${file.name} : ${side(source.width)} × ${side(source.height)} pixels.`)
        + (small ? say(` Smaller than ${SHARP_SIDE} pixels: the large icons will be blurry; an SVG or a larger image gives sharp ones.`,
          ` Moins de ${SHARP_SIDE} pixels : les grandes icônes seront floues ; un SVG ou une image plus grande les rend nettes.`) : "");
    about.hidden = false;
    await refresh();
  }

  copy.addEventListener("click", async () => {
    try {
      await copyText(head.value, head);
      copied.textContent = say("Copied.", "Copié.");
    } catch {
      copied.textContent = say("Copy refused by the browser: select the text and copy it.", "Copie refusée par le navigateur : sélectionnez le texte et copiez-le.");
    }
  });

  root.replaceChildren(
    element("p", { class: "hint" }, say(
      "From one image (PNG, JPEG, WebP) or SVG, make favicon.ico, the Apple and Android icons, the web app manifest and the tags for your page's <head>. Nothing is uploaded.",
      "À partir d'une image (PNG, JPEG, WebP) ou d'un SVG, créez favicon.ico, les icônes Apple et Android, le manifeste d'application web et les balises pour le <head> de votre page. Rien n'est envoyé.")),
    element("div", { class: "columns favicon-columns" },
      element("div", { class: "stack" },
        fileDrop({ id: "favicon-file", label: say("Image or SVG", "Image ou SVG"), accept: "image/png,image/jpeg,image/webp,image/svg+xml,.svg", onFiles: ([file]) => choose(file) }),
        error, about, options.node),
      element("section", { class: "stack", "aria-labelledby": "favicon-preview-title" },
        element("h2", { id: "favicon-preview-title" }, say("Icons", "Icônes")),
        status, list, result,
        element("div", { class: "copy-block" },
          element("label", { for: "favicon-head" }, say("Tags for your page's <head>", "Balises pour le <head> de votre page")),
          head,
          element("div", { class: "favicon-copy-row" }, copy, copied)))));
}
