// The social-resize page (/local/social-resize): images in, a focal point dragged on the one
// being framed, formats ticked, live previews, then the files made in the browser and offered
// as one download. Nothing leaves the page: the images are decoded, cropped and encoded here.
import { bytes, decodeImage, downloadLink, element, fileDrop, say, stem } from "../common.mjs";
import { focusStage } from "./focus.mjs";
import { FORMATS } from "./formats.mjs";
import { makeOutputs, pack } from "./export.mjs";
import { previewGrid, sizeText, upscaledText } from "./previews.mjs";
import { render } from "./resample.mjs";

/// The longest side of the copy shown on the stage and drawn into the previews: sharp enough for
/// a wide screen, light enough to redraw eleven previews per frame.
const SHOWN = 1200;

export function mount(root) {
  /// [{ name, stem, bitmap (full size, EXIF orientation applied), shown (canvas), focus {x, y} % }]
  let items = [];
  let current = 0;
  const chosen = new Set(FORMATS.filter((f) => f.checked).map((f) => f.id));
  let frame = 0;
  let run = 0; // bumped by every change: a make started before it is not shown
  let loads = 0; // bumped by every choice of files: only the last one's images are kept

  const errors = element("div", { id: "social-error", class: "error", role: "alert" });
  const drop = fileDrop({
    id: "social-file", accept: "image/*", multiple: true, onFiles: load,
    label: say("Images to resize (JPEG, PNG, WebP…)", "Images à redimensionner (JPEG, PNG, WebP…)"),
  });

  // The image being framed, when there are several: each keeps its own focal point.
  const picker = element("select", { id: "social-current" });
  const pickerRow = element("p", { class: "social-picker", hidden: true },
    element("label", { for: "social-current" }, say("Image being framed", "Image en cours de cadrage")), " ", picker);
  picker.addEventListener("change", () => showItem(Number(picker.value)));

  const stage = focusStage({
    onChange(point) {
      if (!items[current]) return;
      items[current].focus = point;
      changed();
    },
  });
  const centre = element("button", { type: "button", id: "social-centre", class: "button secondary" }, say("Centre the point", "Recentrer le point"));
  centre.addEventListener("click", () => {
    if (!items[current]) return;
    items[current].focus = { x: 50, y: 50 };
    stage.set(items[current].focus);
    changed();
  });

  const previews = previewGrid();
  const boxes = FORMATS.map((format) => {
    const box = element("input", { type: "checkbox", id: `format-${format.id}`, value: format.id, checked: chosen.has(format.id) });
    box.addEventListener("change", () => {
      if (box.checked) chosen.add(format.id);
      else chosen.delete(format.id);
      formatsChanged();
    });
    return element("label", { class: "check social-format", for: box.id }, box, " ", say(format.en, format.fr), " ",
      element("small", {}, sizeText(format.w, format.h)));
  });
  const setAll = (on) => {
    for (const label of boxes) label.querySelector("input").checked = on;
    for (const format of FORMATS) {
      if (on) chosen.add(format.id);
      else chosen.delete(format.id);
    }
    formatsChanged();
  };
  const all = element("button", { type: "button", id: "social-all", class: "button secondary" }, say("All", "Tous"));
  const none = element("button", { type: "button", id: "social-none", class: "button secondary" }, say("None", "Aucun"));
  all.addEventListener("click", () => setAll(true));
  none.addEventListener("click", () => setAll(false));
  const formatsBox = element("fieldset", { id: "social-formats", class: "social-formats" },
    element("legend", {}, say("Formats", "Formats")), ...boxes, element("p", { class: "social-row" }, all, " ", none));

  const jpeg = element("input", { type: "radio", name: "social-type", id: "social-jpeg", value: "image/jpeg", checked: true });
  const png = element("input", { type: "radio", name: "social-type", id: "social-png", value: "image/png" });
  const quality = element("input", { type: "range", id: "social-quality", min: "0.5", max: "1", step: "0.05", value: "0.9" });
  const qualityShown = element("output", { id: "social-quality-value", for: "social-quality" }, "90 %");
  const output = element("fieldset", { class: "social-output" },
    element("legend", {}, say("Output", "Sortie")),
    element("label", { class: "check", for: "social-jpeg" }, jpeg, " JPEG"),
    element("label", { class: "check", for: "social-png" }, png, " PNG"),
    element("span", { class: "social-quality" },
      element("label", { for: "social-quality" }, say("JPEG quality", "Qualité JPEG")), " ", quality, " ", qualityShown));
  const type = () => (png.checked ? "image/png" : "image/jpeg");
  for (const radio of [jpeg, png]) radio.addEventListener("change", () => {
    quality.disabled = png.checked; // PNG is lossless: no quality to choose
    stale();
  });
  quality.addEventListener("input", () => {
    qualityShown.textContent = `${Math.round(Number(quality.value) * 100)} %`;
    stale();
  });

  const make = element("button", { type: "button", id: "social-make" }, say("Make the images", "Créer les images"));
  make.addEventListener("click", produce);
  const status = element("p", { id: "social-status", role: "status" });
  const result = element("div", { id: "social-result", class: "social-result" }, status);

  const editor = element("section", { id: "social-editor", hidden: true },
    element("div", { class: "columns social-columns" },
      element("div", {}, pickerRow, stage.node, element("p", {}, centre)),
      element("div", { class: "social-settings" }, formatsBox, output, element("p", {}, make))),
    element("h2", {}, say("Previews", "Aperçus")),
    previews.node,
    result);

  root.classList.add("social-resize");
  root.replaceChildren(
    element("p", { class: "hint" }, say(
      "Crop and resize images to each network's sizes. Everything happens in this browser: no image is uploaded.",
      "Recadrez et redimensionnez vos images aux tailles de chaque réseau. Tout se passe dans ce navigateur : aucune image n'est envoyée.")),
    drop, errors, editor);
  previews.setFormats(chosenFormats());

  function chosenFormats() {
    return FORMATS.filter((f) => chosen.has(f.id));
  }

  async function load(files) {
    const token = ++loads;
    errors.replaceChildren();
    stale();
    status.textContent = say("Reading the images…", "Lecture des images…");
    const loaded = [];
    const problems = [];
    for (const file of files) {
      try {
        const bitmap = await decodeImage(file);
        const scale = Math.min(1, SHOWN / Math.max(bitmap.width, bitmap.height));
        const [w, h] = [Math.max(1, Math.round(bitmap.width * scale)), Math.max(1, Math.round(bitmap.height * scale))];
        const shown = render(bitmap, { x: 0, y: 0, w: bitmap.width, h: bitmap.height }, w, h);
        loaded.push({ name: file.name, stem: stem(file.name), bitmap, shown, focus: { x: 50, y: 50 } });
      } catch (error) {
        problems.push(error.message);
      }
    }
    if (token !== loads) return loaded.forEach((item) => item.bitmap.close());
    status.textContent = "";
    for (const item of items) item.bitmap.close();
    items = loaded;
    errors.replaceChildren(...problems.map((text) => element("p", {}, text)));
    editor.hidden = !items.length;
    if (!items.length) return;
    picker.replaceChildren(...items.map((item, i) => element("option", { value: String(i) },
      `${item.name} (${sizeText(item.bitmap.width, item.bitmap.height)})`)));
    pickerRow.hidden = items.length < 2;
    showItem(0);
  }

  function showItem(index) {
    current = index;
    picker.value = String(index);
    const item = items[index];
    const { canvas } = stage;
    canvas.width = item.shown.width;
    canvas.height = item.shown.height;
    canvas.getContext("2d").drawImage(item.shown, 0, 0);
    canvas.dataset.name = item.name;
    canvas.setAttribute("aria-label", say(`${item.name}, ${sizeText(item.bitmap.width, item.bitmap.height)} pixels`,
      `${item.name}, ${sizeText(item.bitmap.width, item.bitmap.height)} pixels`));
    canvas.setAttribute("role", "img");
    stage.set(item.focus);
    redraw();
  }

  function formatsChanged() {
    previews.setFormats(chosenFormats());
    changed();
  }

  /// The previews follow the marker at most once a frame, however fast the pointer moves.
  function changed() {
    stale();
    if (!frame) frame = requestAnimationFrame(redraw);
  }
  function redraw() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    previews.draw(items[current]);
  }

  /// A change makes the last download wrong: it goes, and its object URL with it.
  function stale() {
    run++;
    for (const link of result.querySelectorAll("a[href^='blob:']")) URL.revokeObjectURL(link.href);
    result.replaceChildren(status);
    status.textContent = "";
    make.disabled = false;
  }

  async function produce() {
    const formats = chosenFormats();
    if (!items.length) return;
    if (!formats.length) {
      status.textContent = say("Tick at least one format.", "Cochez au moins un format.");
      return;
    }
    stale();
    const token = run;
    make.disabled = true;
    try {
      const outputs = await makeOutputs(items, formats, { type: type(), quality: Number(quality.value) }, (done, total) => {
        if (token === run) status.textContent = say(`Making ${done} / ${total}…`, `Création ${done} / ${total}…`);
      });
      if (token !== run) return;
      const { blob, name } = pack(outputs);
      status.textContent = outputs.length === 1
        ? say(`Ready: ${name} (${bytes(blob.size)}).`, `Prêt : ${name} (${bytes(blob.size)}).`)
        : say(`Ready: ${outputs.length} images in ${name} (${bytes(blob.size)}).`, `Prêt : ${outputs.length} images dans ${name} (${bytes(blob.size)}).`);
      result.append(
        element("p", {}, downloadLink(blob, name, say(`Download ${name}`, `Télécharger ${name}`), "social-download")),
        element("ul", { id: "social-outputs", class: "social-outputs" }, outputs.map((o) => element("li", { "data-name": o.name },
          o.name, " ", element("small", {}, bytes(o.bytes.length)),
          o.upscaled ? [" ", element("span", { class: "warning" }, upscaledText(o.rect))] : null))));
    } catch (error) {
      if (token === run) {
        status.textContent = "";
        errors.replaceChildren(element("p", {}, error.message));
      }
    } finally {
      if (token === run) make.disabled = false;
    }
  }
}
