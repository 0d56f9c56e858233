// Where the image goes on a square icon: centred and whole ("contain"), inside the padding, and
// for a maskable icon inside the safe zone too. Pure, for the node tests.

/// Share of a maskable icon that Android never crops away: the central 80 % (W3C manifest spec,
/// "safe zone"). The rest is drawn on the background colour so any mask shape looks full.
export const SAFE_ZONE = 0.8;

/// The rectangle { x, y, width, height } in whole pixels where a `sourceWidth` × `sourceHeight`
/// image is drawn on a `size` × `size` icon. `padding`: percent of the side left free on each
/// side (0–20); `maskable`: fit inside the safe zone first. Whole pixels keep a 16-pixel icon's
/// edges sharp instead of smeared over two pixels.
export function fitBox(size, sourceWidth, sourceHeight, { padding = 0, maskable = false } = {}) {
  const share = Math.min(Math.max(Number(padding) || 0, 0), 20) / 100;
  const box = size * (maskable ? SAFE_ZONE : 1) * (1 - 2 * share);
  const scale = Math.min(box / sourceWidth, box / sourceHeight);
  const width = Math.max(1, Math.round(sourceWidth * scale));
  const height = Math.max(1, Math.round(sourceHeight * scale));
  return { x: Math.round((size - width) / 2), y: Math.round((size - height) / 2), width, height };
}
