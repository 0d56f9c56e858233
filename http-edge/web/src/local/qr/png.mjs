// The QR code drawn on a canvas exactly `size` px wide for the PNG export. A module rarely
// spans a whole number of pixels at the size asked for: each one's edges are rounded to pixels
// (some modules one pixel wider than others), which keeps every edge sharp, unlike a scaled
// drawing whose blurred edges readers cope with less well.
import { canvasBlob } from "../common.mjs";

/// Pixel edges of `cells` cells across `size` pixels: edges[i] is where cell i starts.
export function edges(cells, size) {
  return Array.from({ length: cells + 1 }, (_, i) => Math.round((i * size) / cells));
}

export function qrCanvas(dark, { size, margin }) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size, size);
  context.fillStyle = "#000";
  const at = edges(dark.length + 2 * margin, size);
  dark.forEach((row, y) => row.forEach((on, x) => {
    if (!on) return;
    const left = at[x + margin], top = at[y + margin];
    context.fillRect(left, top, at[x + margin + 1] - left, at[y + margin + 1] - top);
  }));
  return canvas;
}

export const qrPng = (dark, options) => canvasBlob(qrCanvas(dark, options), "image/png");
