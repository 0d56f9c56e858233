// The QR tool's page: the form, a live preview, the exact text encoded, and the SVG and PNG
// saved from the same module matrix. Everything happens here in the page, with no network.
import { downloadLink, element, say } from "../common.mjs";
import { buildForm, readForm, showKind } from "./form.mjs";
import { qrMatrix, TooLong } from "./matrix.mjs";
import { hasScheme, ready, urlPayload, vcardPayload, wifiPayload } from "./payload.mjs";
import { qrPng } from "./png.mjs";
import { qrSvg } from "./svg.mjs";

const FILE_STEMS = { url: "qr-link", wifi: "qr-wifi", vcard: "qr-contact" };

export function textFor(state) {
  if (state.kind === "wifi") return wifiPayload(state.wifi);
  if (state.kind === "vcard") return vcardPayload(state.vcard);
  return urlPayload(state.url.url);
}

/// Advice that does not stop the code from being made, as [id, text] pairs.
function warnings(state, count) {
  const list = [];
  if (state.kind === "url" && !hasScheme(state.url.url)) {
    list.push(["no-scheme", say("No https:// at the start: phones may read it as plain text, not a link.",
      "Pas de https:// au début : les téléphones risquent d'y lire du texte, pas un lien.")]);
  }
  if (state.size / (count + 2 * state.margin) < 2) {
    list.push(["small", say("Under 2 px per module at this size: the PNG will be hard to scan. Make it larger.",
      "Moins de 2 px par module à cette taille : le PNG sera difficile à lire. Agrandissez-le.")]);
  }
  if (state.margin < 2) {
    list.push(["margin", say("A margin under 2 modules makes the code hard to read on a dark background.",
      "Une marge de moins de 2 modules rend le code difficile à lire sur un fond sombre.")]);
  }
  return list;
}

export function mount(root) {
  root.classList.add("qr-tool");
  const form = buildForm();
  const preview = element("img", { id: "qr-preview", class: "qr-preview", alt: "" });
  const info = element("p", { id: "qr-info", "aria-live": "polite" });
  const error = element("p", { id: "qr-error", class: "error", role: "alert", hidden: true });
  const advice = element("ul", { id: "qr-warnings", class: "qr-warnings" });
  const text = element("pre", { id: "qr-text", class: "qr-text", tabindex: "0", "aria-labelledby": "qr-text-label" });
  const saveSvg = element("button", { type: "button", id: "qr-save-svg" }, say("Save as SVG", "Enregistrer en SVG"));
  const savePng = element("button", { type: "button", id: "qr-save-png", class: "button secondary" }, say("Save as PNG", "Enregistrer en PNG"));
  const empty = element("p", { id: "qr-empty", class: "hint" },
    say("Fill in the form: the code appears here as you type.", "Remplissez le formulaire : le code apparaît ici à mesure."));
  const result = element("section", { class: "qr-result", "aria-label": say("QR code", "Code QR") },
    empty, error,
    element("figure", { id: "qr-figure", class: "qr-figure" }, preview, element("figcaption", {}, info)),
    advice,
    element("div", { class: "actions" }, saveSvg, savePng),
    element("h2", { id: "qr-text-label", class: "qr-text-label" }, say("Encoded text", "Texte encodé")),
    text);
  root.append(element("div", { class: "columns qr-layout" }, form, result));

  let current = null; // { state, matrix } of what the preview shows
  let previewUrl = null;
  let savedUrl = null;

  function render() {
    const state = readForm();
    showKind(state.kind);
    const payload = textFor(state);
    const fields = state[state.kind];
    let matrix = null;
    error.hidden = true;
    if (ready(state.kind, fields)) {
      try {
        matrix = qrMatrix(payload, state.level);
      } catch (caught) {
        if (!(caught instanceof TooLong)) throw caught;
        error.textContent = say("Too much text for a QR code at this error correction: shorten it or choose a lower level.",
          "Trop de texte pour un code QR à ce niveau de correction : raccourcissez-le ou choisissez un niveau plus bas.");
        error.hidden = false;
      }
    }
    current = matrix && { state, matrix, payload };
    empty.hidden = Boolean(matrix) || !error.hidden;
    document.getElementById("qr-figure").hidden = !matrix;
    saveSvg.disabled = savePng.disabled = !matrix;
    text.textContent = matrix ? payload : "";
    advice.replaceChildren(...(matrix ? warnings(state, matrix.count) : []).map(([id, words]) =>
      element("li", { class: "warning", "data-warning": id }, words)));
    if (!matrix) return;
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = URL.createObjectURL(new Blob([qrSvg(matrix.dark, state)], { type: "image/svg+xml" }));
    preview.src = previewUrl;
    preview.width = preview.height = state.size; // shown at the size saved, down to the screen's width
    preview.alt = say(`QR code: ${payload}`, `Code QR : ${payload}`);
    preview.dataset.modules = String(matrix.count);
    info.textContent = say(
      `Version ${matrix.version}, ${matrix.count} × ${matrix.count} modules, level ${state.level}, ${new TextEncoder().encode(payload).length} bytes.`,
      `Version ${matrix.version}, ${matrix.count} × ${matrix.count} modules, niveau ${state.level}, ${new TextEncoder().encode(payload).length} octets.`);
  }

  // A saved file is the code on screen now; the previous download's object URL is let go.
  function save(blob, kind, extension) {
    const link = downloadLink(blob, `${FILE_STEMS[kind]}.${extension}`, "");
    if (savedUrl) URL.revokeObjectURL(savedUrl);
    savedUrl = link.href;
    link.click();
  }
  saveSvg.addEventListener("click", () => {
    render();
    if (current) save(new Blob([qrSvg(current.matrix.dark, current.state)], { type: "image/svg+xml" }), current.state.kind, "svg");
  });
  savePng.addEventListener("click", async () => {
    render();
    if (!current) return;
    const { matrix, state } = current;
    save(await qrPng(matrix.dark, state), state.kind, "png");
  });

  form.addEventListener("input", render);
  form.addEventListener("change", render);
  render();
}
