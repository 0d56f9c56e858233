// Redact: the chosen PDF's pages drawn with pdf.js; a drag on a page marks an area (a click
// on a marked area removes it); Find runs the tool's `find` action and lists the hits, each
// accepted or rejected with its box, drawn on its page. The hidden fields the edge reads are
// kept in step: `areas` (drawn areas and accepted hits, in shares of the displayed page),
// `removedTerms` (the texts whose every hit is accepted: the result is checked to hold none),
// `terms` and `patterns` (the search, for "redact every hit without reviewing").
// An ES module using app.js's helpers (element, say, csrf, problemText).
import { openPdf, renderPage } from "/assets/thumbnails.js";

// Pages drawn; a longer document's later pages can still be redacted by search.
const MAX_PAGES = 100;
const PAGE_WIDTH = 560;
// A drag shorter than this (CSS pixels) is a click, not an area.
const MIN_DRAG = 4;

const $ = (id) => document.getElementById(id);
const clamp = (value) => Math.min(Math.max(value, 0), 1);
const lines = (text) => text.split("\n").map((line) => line.trim()).filter(Boolean);

const state = { drawn: [], hits: [], pages: new Map() };

function sync() {
  const accepted = state.hits.filter((hit) => hit.accepted);
  const areas = [...state.drawn, ...accepted.flatMap((hit) => hit.areas.map((area) => ({ page: hit.page, ...area })))];
  $("areas").value = JSON.stringify(areas.map(({ page, x, y, width, height }) => ({ page, x, y, width, height })));
  // A text is checked for only when none of its hits was rejected: a rejected hit stays.
  const texts = new Map();
  for (const hit of state.hits) {
    const key = hit.text.toLowerCase();
    texts.set(key, { text: hit.text, all: (texts.get(key)?.all ?? true) && hit.accepted });
  }
  $("removedTerms").value = JSON.stringify([...texts.values()].filter((t) => t.all).map((t) => t.text));
  $("terms").value = JSON.stringify(lines($("termsList").value));
  $("patterns").value = JSON.stringify(lines($("patternsList").value));
  for (const [number, page] of state.pages) {
    page.layer.replaceChildren();
    for (const area of state.drawn.filter((a) => a.page === number)) page.layer.append(box(area, "drawn", () => remove(area)));
    for (const hit of state.hits.filter((h) => h.page === number)) {
      for (const area of hit.areas) page.layer.append(box(area, hit.accepted ? "hit" : "hit rejected", () => toggle(hit)));
    }
  }
}

function box(area, kind, onClick) {
  const node = element("button", { type: "button", class: `redact-box ${kind}`, title: say("Click to remove or restore", "Cliquez pour retirer ou rétablir") });
  Object.assign(node.style, { left: `${area.x * 100}%`, top: `${area.y * 100}%`, width: `${area.width * 100}%`, height: `${area.height * 100}%` });
  node.addEventListener("pointerdown", (event) => event.stopPropagation());
  node.addEventListener("click", onClick);
  return node;
}

function remove(area) {
  state.drawn = state.drawn.filter((a) => a !== area);
  sync();
}

function toggle(hit) {
  hit.accepted = !hit.accepted;
  if (hit.checkbox) hit.checkbox.checked = hit.accepted;
  sync();
}

// A drag on a page draws an area; its place is kept in shares of the page as displayed.
function drawing(number, frame) {
  let start = null;
  let ghost = null;
  const point = (event) => {
    const rect = frame.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top, w: rect.width, h: rect.height };
  };
  frame.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    frame.setPointerCapture(event.pointerId);
    start = point(event);
    ghost = element("div", { class: "redact-box drawing" });
    frame.append(ghost);
  });
  frame.addEventListener("pointermove", (event) => {
    if (!start) return;
    const p = point(event);
    Object.assign(ghost.style, {
      left: `${Math.min(start.x, p.x)}px`, top: `${Math.min(start.y, p.y)}px`,
      width: `${Math.abs(p.x - start.x)}px`, height: `${Math.abs(p.y - start.y)}px`,
    });
  });
  const end = (event) => {
    if (!start) return;
    const p = point(event);
    ghost.remove();
    if (Math.abs(p.x - start.x) >= MIN_DRAG && Math.abs(p.y - start.y) >= MIN_DRAG) {
      const x = clamp(Math.min(start.x, p.x) / p.w);
      const y = clamp(Math.min(start.y, p.y) / p.h);
      state.drawn.push({ page: number, x, y, width: clamp(Math.max(start.x, p.x) / p.w) - x, height: clamp(Math.max(start.y, p.y) / p.h) - y });
      sync();
    }
    start = null;
  };
  frame.addEventListener("pointerup", end);
  frame.addEventListener("pointercancel", () => {
    ghost?.remove();
    start = null;
  });
}

async function open(file) {
  const pages = $("redact-pages");
  state.drawn = [];
  state.hits = [];
  state.pages.clear();
  pages.replaceChildren();
  $("redact-hits").replaceChildren();
  sync();
  if (!file) {
    pages.hidden = true;
    return;
  }
  const status = $("redact-status");
  let doc;
  try {
    doc = await openPdf(file);
  } catch {
    status.textContent = say("The browser cannot draw this PDF's pages; you can still redact by search.", "Le navigateur ne peut pas afficher les pages de ce PDF ; vous pouvez caviarder par recherche.");
    return;
  }
  pages.hidden = false;
  const count = Math.min(doc.numPages, MAX_PAGES);
  status.textContent = doc.numPages > MAX_PAGES
    ? say(`The first ${MAX_PAGES} of ${doc.numPages} pages are shown; drag on a page to mark an area.`, `Les ${MAX_PAGES} premières pages sur ${doc.numPages} sont affichées ; faites glisser sur une page pour marquer une zone.`)
    : say("Drag on a page to mark an area; click an area to remove it.", "Faites glisser sur une page pour marquer une zone ; cliquez sur une zone pour la retirer.");
  for (let number = 1; number <= count; number++) {
    const { canvas } = await renderPage(doc, number, PAGE_WIDTH);
    const layer = element("div", { class: "redact-layer" });
    const frame = element("div", { class: "redact-page", "data-page": String(number) }, canvas, layer);
    pages.append(element("figure", {}, frame, element("figcaption", {}, `${say("Page", "Page")} ${number}`)));
    state.pages.set(number, { frame, layer });
    drawing(number, frame);
  }
  sync();
}

async function find(form) {
  const file = form.querySelector("#file").files[0];
  const hitsBox = $("redact-hits");
  if (!file) {
    hitsBox.replaceChildren(element("p", { class: "error" }, say("Choose a PDF first.", "Choisissez d'abord un PDF.")));
    return;
  }
  sync();
  const body = new FormData();
  body.append("action", "find");
  for (const name of ["terms", "patterns"]) body.append(name, $(name).value);
  for (const name of ["presetEmail", "presetIp", "presetAccount", "presetHost"]) if ($(name).checked) body.append(name, "on");
  body.append("file", file);
  hitsBox.replaceChildren(element("p", {}, say("Searching…", "Recherche…")));
  let response;
  try {
    response = await fetch(form.dataset.endpoint, { method: "POST", body, headers: { "X-CSRF-Token": csrf() } });
  } catch {
    hitsBox.replaceChildren(element("p", { class: "error" }, say("The connection was lost: try again.", "La connexion a été perdue : réessayez.")));
    return;
  }
  const type = response.headers.get("Content-Type") || "";
  const blob = await response.blob();
  if (!response.ok || !type.includes("json")) {
    hitsBox.replaceChildren(element("p", { class: "error", role: "alert" }, await problemText(response.status, type, blob)));
    return;
  }
  const report = JSON.parse(await blob.text());
  state.hits = report.hits.map((hit) => ({ ...hit, accepted: true }));
  hitsBox.replaceChildren(hitList());
  sync();
}

// The hits, each with its checkbox: unchecked, the hit stays in the document.
function hitList() {
  if (!state.hits.length) return element("p", { id: "redact-no-hits" }, say("Nothing found.", "Rien trouvé."));
  const list = element("ul", { id: "redact-hit-list", class: "redact-hit-list" });
  state.hits.forEach((hit, index) => {
    const checkbox = element("input", { type: "checkbox", id: `hit-${index}`, "data-local": "" });
    checkbox.checked = true;
    checkbox.addEventListener("change", () => {
      hit.accepted = checkbox.checked;
      sync();
    });
    hit.checkbox = checkbox;
    list.append(element("li", {}, element("label", { class: "check", for: `hit-${index}` }, checkbox, ` ${say("page", "page")} ${hit.page}: `, element("mark", {}, hit.text), ` (${hit.by})`)));
  });
  const all = (on) => () => {
    for (const hit of state.hits) {
      hit.accepted = on;
      hit.checkbox.checked = on;
    }
    sync();
  };
  const accept = element("button", { type: "button", class: "button secondary" }, say("Accept all", "Tout accepter"));
  const reject = element("button", { type: "button", class: "button secondary" }, say("Reject all", "Tout rejeter"));
  accept.addEventListener("click", all(true));
  reject.addEventListener("click", all(false));
  return element("div", { class: "stack" }, element("p", {}, say(`${state.hits.length} hit(s): uncheck those to keep.`, `${state.hits.length} résultat(s) : décochez ceux à garder.`)), element("div", { class: "actions" }, accept, reject), list);
}

function init() {
  const form = $("tool");
  if (form?.dataset.tool !== "redact") return;
  const input = form.querySelector("#file");
  input.addEventListener("change", () => open(input.files[0]));
  $("redact-find").addEventListener("click", () => find(form));
  for (const id of ["termsList", "patternsList"]) $(id).addEventListener("input", sync);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
