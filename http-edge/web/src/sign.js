// Sign a PDF: the chosen page drawn with pdf.js, on which a click or a drag places the
// signature box (the x, y and width fields follow, and stay the keyboard's way); the signature
// pad, whose drawing is sent as a transparent PNG; the sections that do not apply switched
// off. An ES module using app.js's helpers (element, say).
import { openPdf, renderPage } from "/assets/thumbnails.js";

// Widest the page is drawn, in CSS pixels.
const PAGE_WIDTH = 560;
// Default box width as a share of the page width (the edge's, for width 0).
const DEFAULT_WIDTH = 0.3;

const $ = (id) => document.getElementById(id);
const clamp = (value, low, high) => Math.min(Math.max(value, low), high);
const round = (value) => String(Math.round(value * 1000) / 1000);

// A section that does not apply: hidden, and disabled so its inputs are neither required nor
// sent (app.js leaves out disabled fields, toolbox.js the files of hidden sections).
function switchSection(section, on) {
  section.hidden = !on;
  section.disabled = !on;
}

function sections() {
  const radios = document.querySelectorAll("#tool input[name=appearance]");
  const apply = () => {
    const chosen = document.querySelector("#tool input[name=appearance]:checked")?.value;
    for (const section of document.querySelectorAll("#tool fieldset[data-appearance]")) switchSection(section, section.dataset.appearance === chosen);
    placement.update();
  };
  for (const radio of radios) radio.addEventListener("change", apply);
  const certificate = $("certificate");
  certificate.addEventListener("change", () => switchSection($("sign-certificate"), certificate.checked));
  apply();
}

// The signature pad: strokes drawn with any pointer; the PNG sent is the drawing's own
// rectangle (plus a margin), on a transparent background.
const pad = {
  init() {
    this.canvas = $("signature-canvas");
    this.context = this.canvas.getContext("2d");
    this.bounds = null;
    this.ratio = 3;
    let last = null;
    const point = (event) => {
      const box = this.canvas.getBoundingClientRect();
      return { x: ((event.clientX - box.left) / box.width) * this.canvas.width, y: ((event.clientY - box.top) / box.height) * this.canvas.height };
    };
    this.canvas.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      this.canvas.setPointerCapture(event.pointerId);
      last = point(event);
      this.stroke(last, last);
    });
    this.canvas.addEventListener("pointermove", (event) => {
      if (!last) return;
      const next = point(event);
      this.stroke(last, next);
      last = next;
    });
    const end = () => {
      if (!last) return;
      last = null;
      placement.update();
    };
    this.canvas.addEventListener("pointerup", end);
    this.canvas.addEventListener("pointercancel", end);
    $("signature-clear").addEventListener("click", () => {
      this.context.clearRect(0, 0, this.canvas.width, this.canvas.height);
      this.bounds = null;
      placement.update();
    });
    const upload = $("signatureImage");
    upload.addEventListener("change", async () => {
      const file = upload.files[0];
      this.imageRatio = null;
      if (file) {
        try {
          const bitmap = await createImageBitmap(file);
          this.imageRatio = bitmap.width / bitmap.height;
          bitmap.close();
        } catch {
          // not an image the browser reads: the edge says so when the form is sent
        }
      }
      placement.update();
    });
    // What toolbox.js's orderedFiles sends for this section.
    $("signature-pad").fileSource = () => this.file();
  },

  stroke(from, to) {
    const c = this.context;
    c.lineWidth = 3;
    c.lineCap = c.lineJoin = "round";
    c.strokeStyle = "#10183a";
    c.beginPath();
    c.moveTo(from.x, from.y);
    c.lineTo(to.x, to.y);
    c.stroke();
    const b = this.bounds ?? { left: from.x, top: from.y, right: from.x, bottom: from.y };
    for (const p of [from, to]) {
      b.left = Math.min(b.left, p.x);
      b.top = Math.min(b.top, p.y);
      b.right = Math.max(b.right, p.x);
      b.bottom = Math.max(b.bottom, p.y);
    }
    this.bounds = b;
  },

  // The drawing's rectangle on the canvas, a few pixels of margin around the strokes.
  area() {
    const b = this.bounds;
    if (!b) return null;
    const margin = 6;
    const left = Math.max(0, Math.floor(b.left - margin));
    const top = Math.max(0, Math.floor(b.top - margin));
    const right = Math.min(this.canvas.width, Math.ceil(b.right + margin));
    const bottom = Math.min(this.canvas.height, Math.ceil(b.bottom + margin));
    return { left, top, width: right - left, height: bottom - top };
  },

  // Width over height of the signature that will be placed, for the box drawn on the page.
  aspect() {
    if ($("signatureImage").files[0] && this.imageRatio) return this.imageRatio;
    const area = this.area();
    return area ? area.width / area.height : 3;
  },

  async file() {
    const uploaded = $("signatureImage").files[0];
    if (uploaded) return uploaded;
    const area = this.area();
    if (!area) throw new Error(say("Draw your signature, or choose an image of it.", "Dessinez votre signature, ou choisissez-en une image."));
    const out = document.createElement("canvas");
    out.width = area.width;
    out.height = area.height;
    out.getContext("2d").drawImage(this.canvas, area.left, area.top, area.width, area.height, 0, 0, area.width, area.height);
    const blob = await new Promise((resolve) => out.toBlob(resolve, "image/png"));
    return new File([blob], "signature.png", { type: "image/png" });
  },
};

// The page and the box on it; the fields hold shares of the page from its top-left corner.
const placement = {
  init() {
    this.place = $("sign-place");
    this.page = $("sign-page");
    this.box = $("sign-box");
    this.fields = { page: $("page"), x: $("x"), y: $("y"), width: $("width") };
    this.doc = null;
    this.size = null;
    const input = document.querySelector("#tool #file");
    input.addEventListener("change", () => this.open(input.files[0]));
    this.fields.page.addEventListener("change", () => this.draw());
    for (const name of ["x", "y", "width"]) this.fields[name].addEventListener("input", () => this.update());
    this.pointer();
    this.keys();
  },

  async open(file) {
    this.doc?.destroy();
    this.doc = null;
    this.place.hidden = true;
    if (!file) return;
    try {
      this.doc = await openPdf(file);
    } catch {
      return; // no preview (a PDF with a password, or not a PDF): the numbers still work
    }
    await this.draw();
  },

  async draw() {
    if (!this.doc) return;
    const count = this.doc.numPages;
    const asked = Math.trunc(Number(this.fields.page.value) || 0);
    const number = asked <= 0 || asked > count ? count : asked;
    this.fields.page.max = String(count);
    const width = Math.min(PAGE_WIDTH, this.place.parentElement.clientWidth || PAGE_WIDTH);
    const drawn = await renderPage(this.doc, number, width);
    drawn.canvas.classList.add("sign-canvas");
    drawn.canvas.style.width = `${width}px`; // drawn at the screen's density, shown at this size
    drawn.canvas.setAttribute("role", "img");
    drawn.canvas.setAttribute("aria-label", `${say("Page", "Page")} ${number}`);
    this.size = drawn;
    this.page.querySelector("canvas")?.remove();
    this.page.prepend(drawn.canvas);
    this.place.hidden = false;
    this.update();
  },

  value(name) {
    const v = Number(this.fields[name].value);
    return Number.isFinite(v) ? v : 0;
  },

  // Height of the box as a share of the page height, from the signature's proportions.
  heightShare(width) {
    if (!this.size) return 0.1;
    const appearance = document.querySelector("#tool input[name=appearance]:checked")?.value;
    const typed = $("text").value.trim() || "Ada Lovelace";
    const aspect = appearance === "text" ? Math.max(2, typed.length * 0.5) : pad.aspect();
    return (width * this.size.width) / aspect / this.size.height;
  },

  update() {
    if (!this.box) return;
    const width = this.value("width") || DEFAULT_WIDTH;
    const s = this.box.style;
    s.left = `${this.value("x") * 100}%`;
    s.top = `${this.value("y") * 100}%`;
    s.width = `${width * 100}%`;
    s.height = `${this.heightShare(width) * 100}%`;
  },

  set(x, y, width) {
    const height = this.heightShare(width);
    this.fields.width.value = round(width);
    this.fields.x.value = round(clamp(x, 0, 1 - width));
    this.fields.y.value = round(clamp(y, 0, Math.max(0, 1 - height)));
    this.update();
  },

  // A click centres the box on the point; a drag draws it from corner to corner.
  pointer() {
    let start = null;
    const share = (event) => {
      const r = this.page.getBoundingClientRect();
      return { x: clamp((event.clientX - r.left) / r.width, 0, 1), y: clamp((event.clientY - r.top) / r.height, 0, 1) };
    };
    this.page.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      this.page.setPointerCapture(event.pointerId);
      start = share(event);
    });
    this.page.addEventListener("pointermove", (event) => {
      if (!start) return;
      const now = share(event);
      const width = Math.abs(now.x - start.x);
      if (width > 0.02) this.set(Math.min(start.x, now.x), Math.min(start.y, now.y), width);
    });
    this.page.addEventListener("pointerup", (event) => {
      if (!start) return;
      const now = share(event);
      if (Math.abs(now.x - start.x) <= 0.02) {
        const width = this.value("width") || DEFAULT_WIDTH;
        this.set(now.x - width / 2, now.y - this.heightShare(width) / 2, width);
      }
      start = null;
    });
    this.page.addEventListener("pointercancel", () => (start = null));
  },

  // The box itself: arrows move it (a larger step with Shift), + and - resize it.
  keys() {
    this.box.addEventListener("keydown", (event) => {
      const step = event.shiftKey ? 0.05 : 0.01;
      const [x, y, width] = [this.value("x"), this.value("y"), this.value("width") || DEFAULT_WIDTH];
      const moves = {
        ArrowLeft: [x - step, y, width], ArrowRight: [x + step, y, width],
        ArrowUp: [x, y - step, width], ArrowDown: [x, y + step, width],
        "+": [x, y, Math.min(1, width + step)], "-": [x, y, Math.max(0.02, width - step)],
      };
      if (!moves[event.key]) return;
      event.preventDefault();
      this.set(...moves[event.key]);
    });
  },
};

if ($("signature-pad") && $("sign-place")) {
  pad.init();
  placement.init();
  sections();
  $("text").addEventListener("input", () => placement.update());
}
