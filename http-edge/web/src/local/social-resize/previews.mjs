// The live previews: one small canvas per chosen format, redrawn from the shown copy of the
// source (at most 1200 px, see view.mjs) as the focal point moves. The crop is computed on the
// full-size image with the same `crop` the export uses, then scaled: what is seen is what is
// made.
import { element, say } from "../common.mjs";
import { crop, upscaled } from "./crop.mjs";
import { drawScaled } from "./resample.mjs";

/// The largest side of a preview, in CSS pixels: two fit side by side on a 390 px phone.
const BOX = 160;

export const sizeText = (w, h) => `${w}×${h}`;
export const upscaledText = (rect) => say(`upscaled from ${sizeText(rect.w, rect.h)}`, `agrandie depuis ${sizeText(rect.w, rect.h)}`);

function figure(format) {
  const scale = Math.min(BOX / format.w, BOX / format.h);
  const [w, h] = [Math.max(1, Math.round(format.w * scale)), Math.max(1, Math.round(format.h * scale))];
  const ratio = Math.min(2, window.devicePixelRatio || 1);
  const canvas = element("canvas", { class: format.round ? "round" : null, width: Math.round(w * ratio), height: Math.round(h * ratio) });
  canvas.style.width = `${w}px`; // CSSOM, allowed by the CSP (a style attribute is not)
  const warning = element("span", { class: "warning upscaled", hidden: true });
  const label = say(format.en, format.fr);
  return {
    format,
    canvas,
    warning,
    node: element("figure", { class: "social-preview", "data-format": format.id },
      canvas,
      element("figcaption", {}, element("strong", {}, label), " ", element("span", { class: "size" }, sizeText(format.w, format.h)), " ", warning)),
  };
}

/// { node, setFormats(formats), draw(item) }: `item` as view.mjs keeps it ({ bitmap, shown,
/// focus }), or null to clear.
export function previewGrid() {
  const node = element("div", { id: "social-previews", class: "social-previews" });
  let figures = [];
  return {
    node,
    setFormats(formats) {
      figures = formats.map(figure);
      node.replaceChildren(...figures.map((f) => f.node));
      if (!formats.length) node.append(element("p", { class: "hint" }, say("Tick at least one format.", "Cochez au moins un format.")));
    },
    draw(item) {
      if (!item) return;
      const { bitmap, shown, focus } = item;
      const [sx, sy] = [shown.width / bitmap.width, shown.height / bitmap.height];
      for (const { format, canvas, warning } of figures) {
        const rect = crop(bitmap.width, bitmap.height, format.w, format.h, focus.x / 100, focus.y / 100);
        drawScaled(canvas, shown, rect.x * sx, rect.y * sy, rect.w * sx, rect.h * sy);
        const small = upscaled(rect, format.w, format.h);
        warning.hidden = !small;
        warning.textContent = small ? upscaledText(rect) : "";
      }
    },
  };
}
