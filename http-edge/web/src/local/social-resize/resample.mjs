// Drawing a crop at an exact size with good quality. One drawImage from a 4000 px photo to a
// 400 px avatar skips most source pixels even with imageSmoothingQuality "high" in some
// browsers (moiré, jagged edges); halving in steps averages every pixel. `halvingSteps` is pure
// and unit-tested; `render` needs a DOM.

/// The intermediate sizes on the way from w × h to tw × th: halved while both sides stay at least
/// twice the target; the last draw then reduces by less than 2×, or enlarges.
export function halvingSteps(w, h, tw, th) {
  const steps = [];
  while (w >= 2 * tw && h >= 2 * th) {
    w = Math.ceil(w / 2);
    h = Math.ceil(h / 2);
    steps.push([w, h]);
  }
  return steps;
}

export function canvasOf(w, h) {
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  return canvas;
}

/// `source`'s region (sx, sy, sw, sh) drawn over the whole of `canvas`, smoothed at best quality.
export function drawScaled(canvas, source, sx, sy, sw, sh, background) {
  const context = canvas.getContext("2d");
  if (background) {
    context.fillStyle = background;
    context.fillRect(0, 0, canvas.width, canvas.height);
  } else {
    context.clearRect(0, 0, canvas.width, canvas.height);
  }
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = "high";
  context.drawImage(source, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
}

/// A new tw × th canvas holding `rect` ({x, y, w, h} of `source`: an ImageBitmap or a canvas).
/// `background` (a CSS colour) fills what the image leaves transparent: JPEG has no alpha, and
/// a transparent logo would otherwise come out on black.
export function render(source, rect, tw, th, background = null) {
  let from = source;
  let region = [rect.x, rect.y, rect.w, rect.h];
  for (const [w, h] of halvingSteps(rect.w, rect.h, tw, th)) {
    const step = canvasOf(w, h);
    drawScaled(step, from, ...region);
    if (from !== source) from.width = 0; // frees the previous step's pixels now, not at GC
    from = step;
    region = [0, 0, w, h];
  }
  const out = canvasOf(tw, th);
  drawScaled(out, from, ...region, background);
  if (from !== source) from.width = 0;
  return out;
}
