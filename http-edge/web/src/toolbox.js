// The toolbox's parts of the tool pages (after app.js, whose helpers it uses): its results
// (a file, a JSON report, a ZIP of pages or a comparison, the tool's notes), the files a form
// sends and in which order, and the merge and images lists' order.
"use strict";

// The entries of a ZIP whose entries are stored (not compressed), as Quire writes them:
// walk the local headers, sizes from the central directory (the local ones may be in a data
// descriptor).
function storedZipEntries(buffer) {
  const view = new DataView(buffer);
  let end = buffer.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return [];
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = [];
  for (let i = 0; i < count && view.getUint32(at, true) === 0x02014b50; i++) {
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(new Uint8Array(buffer, at + 46, nameLength));
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    entries.push({ name, bytes: new Uint8Array(buffer, data, size) });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

// "Keep it in my files": the result goes through the same upload path as any file (scanned,
// counted in the storage quota) and comes back as a share link.
function keepButton(blob, name) {
  const area = element("div", { class: "stack", id: "keep" });
  const button = element("button", { type: "button", class: "button secondary", id: "keep-button" }, say("Keep it in my files", "Garder dans mes fichiers"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    const body = new FormData();
    body.append("file", new File([blob], name, { type: blob.type }));
    const response = await fetch("/api/upload", { method: "POST", body, headers: { "X-CSRF-Token": csrf() } });
    const json = await response.json();
    if (!response.ok) {
      button.disabled = false;
      area.append(element("p", { class: "error", role: "alert" }, `${json.title}: ${json.detail}`));
      return;
    }
    button.remove();
    area.append(copyable("kept-link", say("Share link", "Lien de partage"), json.url, false));
    copyButtons();
  });
  area.append(button);
  return area;
}

// A JSON report as HTML: objects as definition lists, lists of objects as tables.
function jsonView(value) {
  if (Array.isArray(value)) {
    if (value.length && typeof value[0] === "object") {
      const keys = Object.keys(value[0]);
      const table = element("table", {}, element("thead", {}, element("tr", {}, ...keys.map((k) => element("th", { scope: "col" }, k)))));
      const body = element("tbody");
      for (const row of value) body.append(element("tr", {}, ...keys.map((k) => element("td", {}, scalar(row[k])))));
      table.append(body);
      return element("div", { class: "table-wrap" }, table);
    }
    return document.createTextNode(value.map(scalar).join(", "));
  }
  if (value && typeof value === "object") {
    const list = element("dl");
    for (const [key, item] of Object.entries(value)) list.append(element("dt", {}, key), element("dd", {}, typeof item === "object" && item !== null ? jsonView(item) : scalar(item)));
    return list;
  }
  return document.createTextNode(scalar(value));
}

function scalar(value) {
  if (value === null || value === undefined) return "—";
  return typeof value === "number" ? String(Math.round(value * 1000) / 1000) : String(value);
}

// Images of a ZIP (pages as JPEG or WebP) as thumbnails.
function gallery(entries) {
  const box = element("div", { class: "thumbs", id: "thumbs" });
  for (const entry of entries) {
    const kind = entry.name.endsWith(".png") ? "image/png" : entry.name.endsWith(".webp") ? "image/webp" : entry.name.endsWith(".jpg") ? "image/jpeg" : "";
    if (!kind) continue;
    const url = URL.createObjectURL(new Blob([entry.bytes], { type: kind }));
    box.append(element("figure", {}, element("img", { src: url, alt: entry.name, loading: "lazy" }), element("figcaption", {}, entry.name)));
  }
  return box;
}

// Compare's report: each changed page's words (removed struck through, added underlined)
// and its side-by-side image.
function comparison(report, entries) {
  const box = element("div", { id: "comparison" });
  box.append(element("p", { id: "compare-stats" }, report.changedPages.length
    ? say(`Pages that differ: ${report.changedPages.join(", ")}`, `Pages qui diffèrent : ${report.changedPages.join(", ")}`)
    : say("The two PDFs show the same pages.", "Les deux PDF montrent les mêmes pages.")));
  for (const page of report.pages.filter((p) => p.status !== "same")) {
    const words = element("p", { class: "diff" });
    for (const part of page.diff || []) {
      words.append(part.op === "same" ? document.createTextNode(part.text) : element(part.op === "added" ? "ins" : "del", {}, part.text));
    }
    const section = element("section", { class: "card" }, element("h2", {}, `${say("Page", "Page")} ${page.page} (${page.status})`), words);
    const image = page.image && entries.find((e) => e.name === page.image);
    if (image) section.append(element("img", { src: URL.createObjectURL(new Blob([image.bytes], { type: "image/png" })), alt: `page ${page.page}`, class: "side-by-side" }));
    box.append(section);
  }
  return box;
}

// The notes the tools add to a result, named in words; a value of several lines (the URLs an
// HTML page asked for but was not given) is a list.
const NOTE_NAMES = {
  signer: ["Signed by", "Signé par"],
  issuer: ["Certificate issued by", "Certificat émis par"],
  "valid-until": ["Certificate valid until", "Certificat valable jusqu'au"],
  algorithm: ["Signature algorithm", "Algorithme de signature"],
  filled: ["Fields filled", "Champs remplis"],
  flattened: ["Flattened", "Aplati"],
  document: ["Document type", "Type de document"],
  "not-fetched": ["Not fetched (only the uploaded files are used)", "Non chargé (seuls les fichiers envoyés sont utilisés)"],
  missing: ["Named by the page but missing from the upload", "Cité par la page mais absent des fichiers envoyés"],
  areas: ["Areas redacted", "Zones caviardées"],
  "search hits redacted": ["Search hits redacted", "Résultats de recherche caviardés"],
  "characters removed": ["Characters removed", "Caractères retirés"],
  "images redacted": ["Images with pixels removed", "Images dont des pixels ont été retirés"],
  "paths removed": ["Drawings removed", "Tracés retirés"],
  "paths under a box": ["Drawings crossing an area, covered by its box", "Tracés traversant une zone, couverts par son cadre"],
  "annotations removed": ["Annotations and links removed", "Annotations et liens retirés"],
  "form fields cleared": ["Form fields cleared", "Champs de formulaire vidés"],
  "bookmarks cleaned": ["Bookmarks cleaned", "Signets nettoyés"],
  "metadata entries cleaned": ["Metadata entries cleaned", "Entrées de métadonnées nettoyées"],
  "attachments removed": ["Attachments removed", "Pièces jointes retirées"],
  "destinations renamed": ["Named destinations renamed", "Destinations nommées renommées"],
  "actions removed": ["Link and script actions removed", "Actions de liens et scripts retirées"],
  "field and font names cleaned": ["Field and font names cleaned", "Noms de champs et de polices nettoyés"],
  "check: text": ["Checked: text", "Vérifié : texte"],
  "check: bytes": ["Checked: file bytes", "Vérifié : octets du fichier"],
  "check: rendering": ["Checked: rendering", "Vérifié : rendu"],
  "left outside the pages": ["Left outside the pages", "Laissé hors des pages"],
  validation: ["Validation", "Validation"],
  changed: ["Changed", "Modifié"],
};

function notesList(notes) {
  const list = element("ul", { id: "tool-notes" });
  for (const note of notes) {
    const name = NOTE_NAMES[note.key] ? say(...NOTE_NAMES[note.key]) : note.key;
    const value = String(note.value);
    const item = element("li", { "data-key": note.key }, `${name}: `);
    if (value.includes("\n")) item.append(element("ul", {}, ...value.split("\n").filter(Boolean).map((line) => element("li", {}, element("code", {}, line)))));
    else item.append(value);
    list.append(item);
  }
  return list;
}

show.file = async (blob, headers, file) => {
  const name = dispositionName(headers, "result");
  const type = headers.get("Content-Type") || "";
  const pages = headers.get("X-Page-Count");
  const count = Number(headers.get("X-File-Count") || "1");
  const parts = [];
  if (type.includes("json")) {
    const report = JSON.parse(await blob.text());
    parts.push(element("div", { id: "tool-report" }, jsonView(report)));
    // Remove-blank's preview: the pages drawn with those that would go marked (thumbnails.js).
    if (Array.isArray(report.blank) && Array.isArray(report.pages) && file && window.quirePages) {
      const preview = element("div", { id: "blank-preview", class: "page-grid" });
      parts.splice(0, 0, preview);
      window.quirePages.blankPreview(preview, file, report.blank);
    }
  } else {
    parts.push(element("p", { id: "tool-stats" }, count > 1
      ? `${count} ${say("files", "fichiers")}, ${pages} page(s), ${blob.size} B`
      : `${pages} page(s), ${blob.size} B`));
  }
  const notes = headers.get("X-Tool-Notes");
  if (notes) parts.push(notesList(JSON.parse(decodeURIComponent(notes))));
  if (name.endsWith(".zip")) {
    const entries = storedZipEntries(await blob.arrayBuffer());
    const report = entries.find((e) => e.name === "report.json");
    // A comparison's page and file counts say nothing: its report replaces them.
    if (report) parts.splice(0, 1, comparison(JSON.parse(new TextDecoder().decode(report.bytes)), entries));
    else parts.push(gallery(entries));
  }
  parts.push(download(blob, name, say("Download ", "Télécharger ") + name));
  if (!type.includes("json")) parts.push(keepButton(blob, name));
  return parts;
};

// The files a form sends, in order: the list the user ordered (merge, images), else each
// input's file and what each `.file-source` element gives (sign's pad, whose fileSource()
// may throw an Error saying what is missing), in the order of the page; sections switched
// off (hidden, or a disabled fieldset) send nothing.
async function orderedFiles(form) {
  const list = form.querySelector("#file-order");
  const several = form.querySelector("input[type=file][multiple]");
  if (list && several) return Array.from(list.children, (item) => item.file);
  const files = [];
  for (const source of form.querySelectorAll("input[type=file], .file-source")) {
    if (source.closest("[hidden], fieldset[disabled]")) continue;
    const owner = source.parentElement?.closest(".file-source");
    if (owner) continue; // an input inside a source: the source says which file goes
    const chosen = source.classList.contains("file-source") ? await source.fileSource?.() : source.files[0];
    if (chosen) files.push(chosen);
  }
  return files;
}

// Merge's and images to PDF's file list: drag an entry (or use its arrows) to set the order.
// Each rendering says so with a `files-listed` event (thumbnails.js draws first pages then).
function fileOrder() {
  const list = document.getElementById("file-order");
  const input = document.querySelector("#tool input[type=file][multiple]");
  if (!list || !input) return;
  let dragged = null;
  const move = (item, offset) => {
    const target = offset < 0 ? item.previousElementSibling : item.nextElementSibling?.nextElementSibling;
    if (offset < 0 && !target) return;
    list.insertBefore(item, target || null);
  };
  const render = () => {
    list.replaceChildren();
    for (const file of input.files) {
      const up = element("button", { type: "button", class: "link", "aria-label": say("Move up", "Monter") }, "↑");
      const down = element("button", { type: "button", class: "link", "aria-label": say("Move down", "Descendre") }, "↓");
      const item = element("li", { draggable: "true" }, element("span", { class: "file-name" }, `${file.name} (${file.size} B) `), up, " ", down);
      item.file = file;
      up.addEventListener("click", () => move(item, -1));
      down.addEventListener("click", () => move(item, 1));
      item.addEventListener("dragstart", () => (dragged = item));
      item.addEventListener("dragover", (event) => event.preventDefault());
      item.addEventListener("drop", (event) => {
        event.preventDefault();
        event.stopPropagation();
        if (dragged && dragged !== item) list.insertBefore(dragged, item);
      });
      list.append(item);
    }
    list.dispatchEvent(new CustomEvent("files-listed"));
  };
  input.addEventListener("change", render);
  render();
}

document.addEventListener("DOMContentLoaded", fileOrder);
