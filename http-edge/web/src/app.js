// Quire's pages: copy buttons, confirmations, drag and drop, and the tool forms, which send
// the file to the REST API with the session cookie and the page's anti-CSRF token. The
// toolbox's own parts (its results, the order of its files) are in toolbox.js, loaded on
// every page after this one; sign.js, fill-form.js and thumbnails.js drive single tools.
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

// Logging out forgets what pages kept in this browser for the session: the support desk's work
// (support/store.mjs, which also drops another session's desk when it next loads).
function forgetOnLogOut() {
  for (const form of document.querySelectorAll('form[action="/logout"]')) {
    form.addEventListener("submit", () => {
      for (const key of Object.keys(localStorage)) if (key.startsWith("quire-support-desk:")) localStorage.removeItem(key);
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

const show = {
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
  // The support page's desk (support-desk.js): the comparison, the corrections, the wording.
  support: (json) => window.quireSupportDesk.show(json),
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

// A refused request in words: the problem's title and detail, led in French by FRENCH_ERRORS.
async function problemText(status, type, blob) {
  if (!type.includes("json")) return say("The request failed", "La requête a échoué") + ` (${status}).`;
  const problem = JSON.parse(await blob.text());
  const french = fr && FRENCH_ERRORS[problem.code];
  return french ? `${french} (${problem.detail})` : `${problem.title}: ${problem.detail}`;
}

// The form's option fields; left out: those of sections switched off (disabled), and those
// only the page's scripts read (`data-local`: fill-form's inputs for the PDF's own fields).
function optionFields(form, body) {
  for (const field of form.querySelectorAll("input:not([type=file]), select")) {
    if (field.matches(":disabled, [data-local]") || ((field.type === "radio" || field.type === "checkbox") && !field.checked)) continue;
    if (field.name && field.value !== "") body.append(field.name, field.value);
  }
}

function toolForm() {
  const form = document.getElementById("tool");
  if (!form) return;
  const progress = document.getElementById("progress");
  const error = document.getElementById("error");
  const result = document.getElementById("result");
  const fail = (text) => {
    error.textContent = text;
    error.hidden = false;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    result.hidden = true;
    const kind = form.dataset.result;
    const file = form.querySelector("input[type=file]")?.files[0];
    let body;
    const json = kind === "support";
    if (json) {
      const context = form.ticketContext.value;
      body = JSON.stringify({ rawLog: form.rawLog.value, locale: form.locale.value, ...(context ? { ticketContext: context } : {}) });
    } else {
      body = new FormData();
      optionFields(form, body);
      // Option fields first, then the files (the toolbox reads them in this order); a file
      // made in the page (sign's pad) may say what is missing instead.
      try {
        for (const chosen of await orderedFiles(form)) body.append("file", chosen);
      } catch (missing) {
        fail(missing.message);
        return;
      }
    }
    const request = new XMLHttpRequest();
    request.open("POST", form.dataset.endpoint);
    request.setRequestHeader("X-CSRF-Token", csrf());
    if (json) request.setRequestHeader("Content-Type", "application/json");
    request.responseType = "blob";
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
        fail(await problemText(request.status, type, blob));
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
      fail(say("The connection was lost: try again.", "La connexion a été perdue : réessayez."));
    });
    request.send(body);
  });
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
  forgetOnLogOut();
  dropZones();
  filters();
  toolForm();
});
