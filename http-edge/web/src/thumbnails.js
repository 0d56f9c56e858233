// PDF pages drawn in the browser with pdf.js (served from /assets, loaded on first use): the
// toolbox's thumbnails. Nothing is uploaded for them. Organize's page grid builds the order
// field; merge's file list shows each file's first page; compare shows the two first pages
// side by side; remove-blank's preview marks the pages that would go (toolbox.js calls
// window.quirePages.blankPreview). sign.js imports openPdf and renderPage.
// An ES module: it uses app.js's helpers (element, say), which are global.

// Pages past this many are not drawn (the order field still takes them).
const MAX_PAGES = 200;
// Thumbnail width in CSS pixels; drawn at the screen's density, at most twice.
const THUMB_WIDTH = 120;

let library = null;
function pdfjs() {
  library ??= import("/assets/pdf.min.mjs").then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = "/assets/pdf.worker.min.mjs";
    return lib;
  });
  return library;
}

// A PDF chosen in the page, opened by pdf.js. No WebAssembly (the CSP allows none, and JPEG
// 2000 images are rare), no renderer worker (drawn on the page's thread), errors only in the
// console, no fonts fetched (pdf.js falls back to the system's for the standard 14).
export async function openPdf(file) {
  const lib = await pdfjs();
  const data = new Uint8Array(await file.arrayBuffer());
  return lib.getDocument({ data, useWasm: false, disableWorkerRendering: true, verbosity: 0, stopAtErrors: false }).promise;
}

// Page `number` (1-based) drawn `width` CSS pixels wide on a new canvas; its size in points
// as displayed (rotation applied) comes along.
export async function renderPage(doc, number, width) {
  const page = await doc.getPage(number);
  const natural = page.getViewport({ scale: 1 });
  const density = Math.min(window.devicePixelRatio || 1, 2);
  const viewport = page.getViewport({ scale: (width / natural.width) * density });
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.floor(viewport.width));
  canvas.height = Math.max(1, Math.floor(viewport.height));
  await page.render({ canvasContext: canvas.getContext("2d"), canvas, viewport, background: "#fff" }).promise;
  page.cleanup();
  return { canvas, width: natural.width, height: natural.height };
}

// One document's thumbnails as blob: image URLs, each page drawn once (organize shows a page
// as often as it is repeated), one at a time, when its tile comes near the screen. A page
// already drawn is shown at once, at its size: a grid drawn again does not move the page.
class Thumbnails {
  constructor(doc) {
    this.doc = doc;
    this.urls = new Map();
    this.ready = new Map();
    this.queue = Promise.resolve();
    this.observer = new IntersectionObserver((seen) => {
      for (const entry of seen) {
        if (!entry.isIntersecting) continue;
        this.observer.unobserve(entry.target);
        this.fill(entry.target);
      }
    }, { rootMargin: "300px" });
  }

  url(number) {
    if (!this.urls.has(number)) {
      const drawn = this.queue.then(() => renderPage(this.doc, number, THUMB_WIDTH))
        .then(({ canvas }) => new Promise((resolve) => canvas.toBlob((blob) => resolve({ src: URL.createObjectURL(blob), width: canvas.width, height: canvas.height }), "image/png")))
        .then((image) => {
          this.ready.set(number, image);
          return image;
        });
      this.queue = drawn.catch(() => null);
      this.urls.set(number, drawn);
    }
    return this.urls.get(number);
  }

  // An image that gets page `number` once it is about to be seen.
  image(number, alt) {
    const img = element("img", { alt, class: "thumb", "data-page": String(number) });
    const drawn = this.ready.get(number);
    if (drawn) Thumbnails.show(img, drawn);
    else this.observer.observe(img);
    return img;
  }

  static show(img, { src, width, height }) {
    img.width = width;
    img.height = height;
    img.src = src;
    img.classList.add("drawn");
  }

  async fill(img) {
    try {
      Thumbnails.show(img, await this.url(Number(img.dataset.page)));
    } catch {
      img.alt += ` (${say("no preview", "pas d'aperçu")})`;
    }
  }

  destroy() {
    this.observer.disconnect();
    for (const url of this.urls.values()) url.then((image) => URL.revokeObjectURL(image.src)).catch(() => {});
    this.doc.destroy();
  }
}

async function thumbnailsOf(file) {
  try {
    const doc = await openPdf(file);
    return new Thumbnails(doc);
  } catch {
    return null; // not a PDF pdf.js can read (or one with a password): no preview, no error
  }
}

const pageLabel = (number) => `${say("Page", "Page")} ${number}`;

// Organize: every page as a tile; drag a tile, or use its buttons, to move, duplicate or
// delete it; blank pages can be added. The order field follows (and is followed: typing in it
// redraws the grid).
function organize() {
  const grid = document.getElementById("page-grid");
  const input = document.querySelector("#tool #file");
  const order = document.getElementById("order");
  if (!grid || !input || !order) return;
  const actions = document.getElementById("page-grid-actions");
  let thumbs = null;
  let count = 0;
  let slots = [];
  let dragged = null;
  const write = () => (order.value = slots.map((s) => (s === "blank" ? "blank" : String(s))).join(","));
  const button = (label, text, action) => {
    const b = element("button", { type: "button", class: "link", "aria-label": label, title: label }, text);
    b.addEventListener("click", action);
    return b;
  };
  const change = (edit) => {
    edit();
    write();
    draw();
  };
  const draw = () => {
    grid.replaceChildren(...slots.map((slot, at) => {
      const name = slot === "blank" ? say("Blank page", "Page blanche") : pageLabel(slot);
      const picture = slot === "blank" ? element("div", { class: "thumb blank-page", role: "img", "aria-label": name }) : thumbs.image(slot, name);
      const tile = element("div", { class: "page-tile", role: "listitem", draggable: "true", "data-slot": String(slot) },
        picture, element("span", { class: "caption" }, `${at + 1}. ${name}`),
        element("span", { class: "tile-actions" },
          button(say(`Move ${name} earlier`, `Avancer ${name}`), "←", () => at > 0 && change(() => slots.splice(at - 1, 0, ...slots.splice(at, 1)))),
          button(say(`Move ${name} later`, `Reculer ${name}`), "→", () => at < slots.length - 1 && change(() => slots.splice(at + 1, 0, ...slots.splice(at, 1)))),
          button(say(`Duplicate ${name}`, `Dupliquer ${name}`), "+", () => change(() => slots.splice(at + 1, 0, slot))),
          button(say(`Delete ${name}`, `Supprimer ${name}`), "✕", () => change(() => slots.splice(at, 1)))));
      tile.addEventListener("dragstart", () => (dragged = at));
      tile.addEventListener("dragover", (event) => event.preventDefault());
      tile.addEventListener("drop", (event) => {
        event.preventDefault();
        if (dragged === null || dragged === at) return;
        const from = dragged;
        dragged = null;
        change(() => slots.splice(at, 0, ...slots.splice(from, 1)));
      });
      return tile;
    }));
  };
  // The order field as typed: page numbers within the document and "blank"; null for anything
  // else, which leaves the grid as it was (the edge explains the mistake when the form is sent).
  const typedOrder = () => {
    const typed = order.value.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean)
      .map((s) => (s === "blank" ? "blank" : Number(s)));
    const valid = typed.length > 0 && typed.every((s) => s === "blank" || (Number.isInteger(s) && s >= 1 && s <= count));
    return valid ? typed : null;
  };
  order.addEventListener("change", () => {
    if (!thumbs) return;
    const typed = typedOrder();
    const same = typed && typed.length === slots.length && typed.every((s, i) => s === slots[i]);
    if (typed && !same) {
      slots = typed;
      draw();
    }
  });
  document.getElementById("add-blank")?.addEventListener("click", () => change(() => slots.push("blank")));
  document.getElementById("reset-order")?.addEventListener("click", () => change(() => (slots = Array.from({ length: count }, (_, i) => i + 1))));
  input.addEventListener("change", async () => {
    thumbs?.destroy();
    thumbs = null;
    grid.hidden = actions.hidden = true;
    // The previous file's order goes: what is in the field once this one opens was typed for it.
    order.value = "";
    const file = input.files[0];
    if (!file) return;
    const opened = await thumbnailsOf(file);
    if (!opened || opened.doc.numPages > MAX_PAGES) {
      opened?.destroy();
      return;
    }
    thumbs = opened;
    count = opened.doc.numPages;
    // An order typed while the document was opening is kept, not replaced by 1..n; and a field
    // being typed in is not written to (the caret would jump to its end: "1,2" then "2,1"
    // typed became "1,22,1"); its change event redraws the grid once it is left.
    slots = typedOrder() ?? Array.from({ length: count }, (_, i) => i + 1);
    if (document.activeElement !== order) write();
    draw();
    grid.hidden = actions.hidden = false;
  });
  // Left empty after the document opened (focused, nothing typed): the grid's order.
  order.addEventListener("blur", () => {
    if (thumbs && order.value.trim() === "") write();
  });
}

// Merge and images to PDF: each listed file's first page (or the image itself) beside its name.
function fileList() {
  const list = document.getElementById("file-order");
  if (!list) return;
  const opened = [];
  let listing = 0; // a newer list stops the drawing of an older one
  list.addEventListener("files-listed", async () => {
    const current = ++listing;
    for (const thumbs of opened.splice(0)) thumbs.destroy();
    for (const item of Array.from(list.children)) {
      if (current !== listing) return;
      const file = item.file;
      if (/^image\/(jpeg|png|webp|bmp|gif)$/.test(file.type)) {
        item.prepend(element("img", { class: "thumb small", alt: "", src: URL.createObjectURL(file) }));
      } else if (file.type === "application/pdf" || /\.pdf$/i.test(file.name)) {
        const thumbs = await thumbnailsOf(file);
        if (!thumbs) continue;
        if (current !== listing) return thumbs.destroy();
        opened.push(thumbs);
        const img = thumbs.image(1, `${file.name}, ${pageLabel(1)}`);
        img.classList.add("small");
        item.prepend(img);
      }
    }
  });
}

// Compare: the two files' first pages side by side before anything is sent.
function compare() {
  const box = document.getElementById("compare-preview");
  if (!box) return;
  const inputs = [document.getElementById("file"), document.getElementById("changed")];
  const captions = [say("Original", "Original"), say("Changed", "Modifié")];
  const opened = [null, null];
  const figures = captions.map((caption) => element("figure", {}, element("figcaption", {}, caption)));
  box.replaceChildren(...figures);
  inputs.forEach((input, side) => input?.addEventListener("change", async () => {
    opened[side]?.destroy();
    opened[side] = null;
    figures[side].querySelector("img")?.remove();
    const file = input.files[0];
    const thumbs = file && (await thumbnailsOf(file));
    if (thumbs) {
      opened[side] = thumbs;
      figures[side].prepend(thumbs.image(1, `${captions[side]}, ${pageLabel(1)}`));
    }
    box.hidden = !opened.some(Boolean);
  }));
}

// Remove-blank's preview: every page, those under the threshold marked as going.
async function blankPreview(container, file, blank) {
  const thumbs = await thumbnailsOf(file);
  if (!thumbs) return;
  const goes = new Set(blank);
  const count = Math.min(thumbs.doc.numPages, MAX_PAGES);
  for (let number = 1; number <= count; number++) {
    const going = goes.has(number);
    const caption = `${pageLabel(number)}${going ? say(" — would go", " — serait retirée") : ""}`;
    container.append(element("figure", { class: going ? "page-tile goes" : "page-tile" },
      thumbs.image(number, caption), element("figcaption", {}, caption)));
  }
}

window.quirePages = { blankPreview };

function start() {
  organize();
  fileList();
  compare();
}

// A module runs once the page is parsed, before DOMContentLoaded; toolbox.js's list rendering
// (fileOrder) is bound at DOMContentLoaded and says when it has drawn.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
