// Where each format's crop falls in the source image. Pure functions, unit-tested
// (test/local-social-resize.test.mjs): the view, the previews and the export all call them, so
// what is previewed is exactly what is exported.

const clamp01 = (f) => (Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0.5);

/// The crop's start on one axis: centred on the focal point, then pushed back inside the image.
function place(size, span, focus) {
  return Math.min(size - span, Math.max(0, Math.round(clamp01(focus) * size - span / 2)));
}

/// The largest rectangle of the target's aspect ratio inside an imageW × imageH image, placed so
/// that the focal point (focusX, focusY: fractions of the width and height, 0..1) is as near its
/// centre as the image's edges allow. Integer pixels: { x, y, w, h }, always inside the image and
/// at least 1 × 1. The source may be smaller than the target: the crop is then upscaled on export
/// (see `upscaled`).
export function crop(imageW, imageH, targetW, targetH, focusX = 0.5, focusY = 0.5) {
  const W = Math.max(1, Math.round(imageW));
  const H = Math.max(1, Math.round(imageH));
  let w;
  let h;
  // Compared as integer products: no rounding error decides which side is the limiting one.
  if (W * targetH >= H * targetW) {
    h = H;
    w = Math.min(W, Math.max(1, Math.round((H * targetW) / targetH)));
  } else {
    w = W;
    h = Math.min(H, Math.max(1, Math.round((W * targetH) / targetW)));
  }
  return { x: place(W, w, focusX), y: place(H, h, focusY), w, h };
}

/// Whether making a targetW × targetH image from `rect` enlarges it (the page then says
/// "upscaled from W×H": the networks take it, but it will look soft).
export const upscaled = (rect, targetW, targetH) => rect.w < targetW || rect.h < targetH;
