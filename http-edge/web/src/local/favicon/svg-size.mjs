// The size of an SVG file, read from its root element's width, height and viewBox, and the same
// file rewritten to an exact size. Why: an <img> of an SVG with only a viewBox has no natural
// size (0 in some browsers, 300×150 in others), and Firefox refuses to draw such an image on a
// canvas. Giving the root an explicit width and height at the size it will be drawn at makes
// every browser render the vectors at that size: crisp, no bitmap rescaling. Pure text work, no
// DOM, so the node tests check it.

// The root start tag, with quoted attribute values that may hold ">".
const ROOT = /<svg(?=[\s/>])(?:[^>"']|"[^"]*"|'[^']*')*>/i;
// What may precede the root: BOM, blanks, the XML declaration, comments, a doctype.
const PROLOG = /^\uFEFF?(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*/i;
// CSS pixels per unit; em, ex and % depend on a context an image does not have.
const UNITS = { "": 1, px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/// Whether `text` is an SVG document: its first element is <svg>.
export function isSvgText(text) {
  const rest = text.replace(PROLOG, "");
  return /^<svg[\s/>]/i.test(rest);
}

function attribute(tag, name) {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match ? (match[2] ?? match[3] ?? match[4]) : null;
}

/// A length attribute in CSS pixels, or null when absent, relative (%, em) or not positive.
export function svgLength(value) {
  const match = /^\s*([+]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? "");
  if (!match) return null;
  const unit = UNITS[match[2].toLowerCase()];
  const pixels = unit === undefined ? NaN : Number(match[1]) * unit;
  return pixels > 0 && Number.isFinite(pixels) ? pixels : null;
}

/// The root's width, height (CSS pixels or null) and viewBox ({ x, y, width, height } or null).
export function svgRoot(text) {
  const tag = ROOT.exec(text)?.[0];
  if (!tag) return null;
  const numbers = (attribute(tag, "viewBox") ?? "").trim().split(/[\s,]+/).map(Number);
  const viewBox = numbers.length === 4 && numbers.every(Number.isFinite) && numbers[2] > 0 && numbers[3] > 0
    ? { x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3] } : null;
  return { width: svgLength(attribute(tag, "width")), height: svgLength(attribute(tag, "height")), viewBox };
}

/// The size the SVG says it has ({ width, height }), or null when it says nothing usable: both
/// lengths; one length and the viewBox's proportions; or the viewBox's own size.
export function svgSize(text) {
  const root = svgRoot(text);
  if (!root) return null;
  const { width, height, viewBox } = root;
  if (width && height) return { width, height };
  if (viewBox && width) return { width, height: (width * viewBox.height) / viewBox.width };
  if (viewBox && height) return { width: (height * viewBox.width) / viewBox.height, height };
  if (viewBox) return { width: viewBox.width, height: viewBox.height };
  return null;
}

const number = (n) => String(Math.round(n * 1000) / 1000);

/// The SVG with its root set to `width` × `height`. Without a viewBox, one is added from the
/// size it had (`natural`, from svgSize or the browser's <img>), so the drawing scales to the
/// new size instead of being cropped.
export function sizedSvg(text, width, height, natural = svgSize(text)) {
  return text.replace(ROOT, (tag) => {
    let rest = tag.slice(4).replace(/\s(?:width|height)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, "");
    const added = [`width="${number(width)}"`, `height="${number(height)}"`];
    if (!attribute(tag, "viewBox") && natural) added.push(`viewBox="0 0 ${number(natural.width)} ${number(natural.height)}"`);
    if (!/^[\s/>]/.test(rest)) rest = ` ${rest}`;
    return `<svg ${added.join(" ")}${rest}`;
  });
}
