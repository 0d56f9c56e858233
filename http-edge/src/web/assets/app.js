// Quire's pages: copy buttons, confirmations, drag and drop, and the tool forms, which send
// the file to the REST API with the session cookie and the page's anti-CSRF token.
"use strict";

const fr = document.documentElement.lang === "fr";
const say = (en, french) => (fr ? french : en);
const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content || "";

function copyButtons() {
  for (const button of document.querySelectorAll("button[data-copy]:not([data-bound])")) {
    button.dataset.bound = "1";
    button.addEventListener("click", async () => {
      const field = document.getElementById(button.dataset.copy);
      const text = field.value ?? field.textContent;
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        field.select?.();
        document.execCommand("copy");
      }
      const label = button.textContent;
      button.textContent = button.dataset.copied || "✓";
      setTimeout(() => (button.textContent = label), 2000);
    });
  }
}

function confirmations() {
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
}

function dropZones() {
  for (const zone of document.querySelectorAll("[data-drop]")) {
    const input = zone.querySelector("input[type=file]");
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("over");
      if (event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        input.dispatchEvent(new Event("change"));
      }
    });
  }
}

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

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function copyable(id, label, value, multiline) {
  const field = multiline
    ? element("textarea", { id, rows: "10", readonly: "", "aria-label": label })
    : element("input", { id, type: "text", readonly: "", "aria-label": label });
  field.value = value;
  const button = element("button", { type: "button", "data-copy": id, "data-copied": say("Copied", "Copié") }, say("Copy", "Copier"));
  return element("div", { class: multiline ? "copy-block" : "copy-row" }, field, button);
}

function download(blob, name, label) {
  return element("a", { class: "button", href: URL.createObjectURL(blob), download: name }, label);
}

// The file name a response's Content-Disposition gives (RFC 6266, UTF-8 form first).
function dispositionName(headers, fallback) {
  const value = headers.get("Content-Disposition") || "";
  const star = /filename\*=UTF-8''([^;]+)/i.exec(value);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]+)"/i.exec(value);
  return plain ? plain[1] : fallback;
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

const show = {
  async file(blob, headers) {
    const name = dispositionName(headers, "result");
    const type = headers.get("Content-Type") || "";
    const pages = headers.get("X-Page-Count");
    const count = Number(headers.get("X-File-Count") || "1");
    const parts = [];
    if (type.includes("json")) {
      parts.push(element("div", { id: "tool-report" }, jsonView(JSON.parse(await blob.text()))));
    } else {
      parts.push(element("p", { id: "tool-stats" }, count > 1
        ? `${count} ${say("files", "fichiers")}, ${pages} page(s), ${blob.size} B`
        : `${pages} page(s), ${blob.size} B`));
    }
    const notes = headers.get("X-Tool-Notes");
    if (notes) {
      const list = element("ul", { id: "tool-notes" });
      for (const note of JSON.parse(decodeURIComponent(notes))) list.append(element("li", {}, `${note.key}: ${note.value}`));
      parts.push(list);
    }
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
  },
  upload(json) {
    return [element("p", {}, say("Stored: ", "Enregistré : ") + `${json.filename} (${json.size} B, ${json.mimeType})`),
      copyable("share-link", say("Share link", "Lien de partage"), json.url, false)];
  },
  ocr(json) {
    return [element("p", { id: "ocr-stats" }, `${json.pages} page(s), ${json.chars} ${say("characters", "caractères")}, lang ${json.lang}`),
      copyable("ocr-text", say("Extracted text", "Texte extrait"), json.text, true)];
  },
  compress(blob, headers, file) {
    const original = Number(headers.get("X-Original-Size"));
    const compressed = Number(headers.get("X-Compressed-Size"));
    const savings = headers.get("X-Savings-Percent");
    return [element("p", { id: "compress-stats" }, `${original} B → ${compressed} B (−${savings} %)`),
      download(blob, file.name.replace(/\.pdf$/i, "") + "-compressed.pdf", say("Download the PDF", "Télécharger le PDF"))];
  },
  async images(blob, headers, file) {
    const gallery = element("div", { class: "thumbs", id: "thumbs" });
    for (const entry of storedZipEntries(await blob.arrayBuffer())) {
      const url = URL.createObjectURL(new Blob([entry.bytes], { type: "image/png" }));
      gallery.append(element("figure", {}, element("img", { src: url, alt: entry.name, loading: "lazy" }), element("figcaption", {}, entry.name)));
    }
    return [element("p", { id: "pages-stats" }, `${headers.get("X-Page-Count")} page(s), ${headers.get("X-DPI")} dpi`),
      download(blob, file.name.replace(/\.pdf$/i, "") + "-pages.zip", say("Download the ZIP", "Télécharger le ZIP")), gallery];
  },
  support(json) {
    const r = json.result;
    const column = (id, title, text) => element("section", { class: "column" }, element("h2", {}, title), copyable(id, title, text, true));
    return [element("p", { id: "support-stats" }, `${r.stats.total} ${say("items replaced", "éléments remplacés")}`),
      element("div", { class: "columns" },
        column("anonymized", say("Anonymized log", "Journal anonymisé"), r.anonymized),
        column("summary", say("Summary", "Résumé"), r.summary),
        column("draft", say("Draft reply", "Brouillon de réponse"), r.draftResponse))];
  },
};

// The API's details are in English; French pages lead with these.
const FRENCH_ERRORS = {
  "invalid-file": "Le fichier est illisible (corrompu ou tronqué).",
  "unsupported-file-type": "Cet outil n'accepte pas ce type de fichier.",
  "encrypted-pdf": "Le PDF est protégé par un mot de passe : retirez-le et réessayez.",
  "too-many-pages": "Le PDF a trop de pages (30 au plus).",
  "too-many-pixels": "L'image ou la page est trop grande.",
  "unprocessable-file": "Ce fichier n'a pas pu être traité.",
  "empty-file": "Le fichier est vide.",
  "invalid-argument": "Une option n'est pas valable.",
  "daily-quota-exceeded": "Les appels du jour de votre offre sont épuisés.",
  "file-too-large": "Le fichier dépasse la taille maximale.",
  "storage-quota-exceeded": "Votre espace de stockage est plein : supprimez des fichiers.",
  "ticket-too-large": "Le journal est trop long.",
  "virus-found": "L'antivirus a trouvé une menace : le fichier n'a pas été gardé.",
  "scanner-unavailable": "L'antivirus est indisponible : réessayez dans un instant.",
  "processing-busy": "Le service est très chargé : réessayez dans un instant.",
  "csrf-rejected": "La page a expiré : rechargez-la et réessayez.",
  "missing-file": "Ajoutez le fichier à traiter.",
  "web-only-tool": "Cet outil ne s'utilise que depuis l'interface web.",
  "wrong-password": "Ce mot de passe n'ouvre pas le PDF.",
};

function toolForm() {
  const form = document.getElementById("tool");
  if (!form) return;
  const progress = document.getElementById("progress");
  const error = document.getElementById("error");
  const result = document.getElementById("result");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    error.hidden = true;
    result.hidden = true;
    const kind = form.dataset.result;
    const file = form.querySelector("input[type=file]")?.files[0];
    const request = new XMLHttpRequest();
    request.open("POST", form.dataset.endpoint);
    request.setRequestHeader("X-CSRF-Token", csrf());
    request.responseType = "blob";
    let body;
    if (kind === "support") {
      const context = form.ticketContext.value;
      body = JSON.stringify({ rawLog: form.rawLog.value, locale: form.locale.value, ...(context ? { ticketContext: context } : {}) });
      request.setRequestHeader("Content-Type", "application/json");
    } else {
      body = new FormData();
      for (const field of form.querySelectorAll("input:not([type=file]), select")) {
        if ((field.type === "radio" || field.type === "checkbox") && !field.checked) continue;
        if (field.name && field.value !== "") body.append(field.name, field.value);
      }
      // Option fields first, then the files (the toolbox reads them in this order).
      for (const chosen of orderedFiles(form)) body.append("file", chosen);
    }
    // One run at a time; the button says the file is being worked on once it is sent.
    const button = form.querySelector("button[type=submit]");
    const label = button.textContent;
    button.disabled = true;
    const done = () => {
      button.disabled = false;
      button.textContent = label;
    };
    progress.hidden = false;
    progress.value = 0;
    request.upload.addEventListener("load", () => (button.textContent = say("Working…", "Traitement…")));
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) progress.value = Math.round((e.loaded / e.total) * 100);
    });
    request.addEventListener("load", async () => {
      progress.hidden = true;
      done();
      const blob = request.response;
      const type = request.getResponseHeader("Content-Type") || "";
      if (request.status >= 400) {
        let detail = say("The request failed", "La requête a échoué") + ` (${request.status}).`;
        if (type.includes("json")) {
          const problem = JSON.parse(await blob.text());
          const french = fr && FRENCH_ERRORS[problem.code];
          detail = french ? `${french} (${problem.detail})` : `${problem.title}: ${problem.detail}`;
        }
        error.textContent = detail;
        error.hidden = false;
        return;
      }
      const headers = { get: (name) => request.getResponseHeader(name) };
      // The toolbox's results are files, a JSON report among them; the API tools answer JSON.
      const parts = type.includes("json") && kind !== "file" ? await show[kind](JSON.parse(await blob.text())) : await show[kind](blob, headers, file);
      result.replaceChildren(...parts);
      result.hidden = false;
      copyButtons();
    });
    request.addEventListener("error", () => {
      progress.hidden = true;
      done();
      error.textContent = say("The connection was lost: try again.", "La connexion a été perdue : réessayez.");
      error.hidden = false;
    });
    request.send(body);
  });
}

// The files of a form, in the order the user set in its list (merge), else as chosen.
function orderedFiles(form) {
  const input = form.querySelector("input[type=file]");
  if (!input) return [];
  const list = form.querySelector("#file-order");
  // One file per input otherwise, in the order of the page (a PDF, then an image mark or a
  // second PDF).
  if (!list || !input.multiple) return Array.from(form.querySelectorAll("input[type=file]")).map((i) => i.files[0]).filter(Boolean);
  return Array.from(list.children).map((item) => item.file);
}

// Merge's file list: drag an entry (or use its arrows) to set the order.
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
      const item = element("li", { draggable: "true" }, element("span", {}, `${file.name} (${file.size} B) `), up, " ", down);
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
  };
  input.addEventListener("change", render);
  render();
}

// The tool list's search box: hides the entries whose text does not contain what is typed.
function filters() {
  for (const box of document.querySelectorAll("input[data-filter]")) {
    box.addEventListener("input", () => {
      const query = box.value.trim().toLowerCase();
      for (const item of document.querySelectorAll(box.dataset.filter)) {
        item.hidden = query !== "" && !item.textContent.toLowerCase().includes(query);
      }
      // A group with nothing left to show goes too, heading and all.
      for (const group of document.querySelectorAll(`${box.dataset.filter.split(" ")[0]} section`)) {
        group.hidden = !group.querySelector("li:not([hidden])");
      }
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  copyButtons();
  confirmations();
  dropZones();
  fileOrder();
  filters();
  toolForm();
});
