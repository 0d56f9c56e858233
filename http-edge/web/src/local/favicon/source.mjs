// The image the icons are made from, read from the chosen file. Two kinds, drawn differently:
// - a bitmap (PNG, JPEG, WebP…) is decoded once, and kept with copies halved again and again,
//   so that a 600-pixel logo becomes a 16-pixel icon through 300, 150… (each step averages all
//   the pixels; one big reduction would skip most of them and alias);
// - an SVG is drawn from its text, re-sized at each icon's exact size (see svg-size.mjs), so the
//   browser renders the vectors at that size: crisp at 16 and at 512 pixels.
// Both give { kind, name, width, height, draw(context, x, y, width, height), dispose() }.
import { decodeImage, say, sniffImage } from "../common.mjs";
import { isSvgText, sizedSvg, svgSize } from "./svg-size.mjs";

// An SVG without any size is drawn at this one (the shape comes from the browser's <img>).
const SVG_DEFAULT_SIDE = 512;

function canvas(width, height) {
  const node = document.createElement("canvas");
  node.width = width;
  node.height = height;
  return node;
}

const notAnImage = (file) => new Error(say(
  `${file.name} is not an image: choose a PNG, JPEG, WebP or SVG file.`,
  `${file.name} n'est pas une image : choisissez un fichier PNG, JPEG, WebP ou SVG.`));

/// The source in `file`, or an error in words when it is not an image this page can use.
export async function loadSource(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (sniffImage(bytes)) return bitmapSource(file, await decodeImage(file));
  // Not a bitmap: an SVG is text whose first element is <svg>. A NUL byte means binary.
  if (bytes.length && !bytes.includes(0)) {
    const text = new TextDecoder().decode(bytes);
    if (isSvgText(text)) return svgSource(file, bytes, text);
  }
  throw notAnImage(file);
}

function bitmapSource(file, bitmap) {
  // levels[0] is the decoded image; each next one half as large, down to 16 pixels.
  const levels = [bitmap];
  for (let level = bitmap; Math.max(level.width, level.height) > 16 && Math.min(level.width, level.height) > 1;) {
    const half = canvas(Math.max(1, Math.round(level.width / 2)), Math.max(1, Math.round(level.height / 2)));
    const context = half.getContext("2d");
    context.imageSmoothingQuality = "high";
    context.drawImage(level, 0, 0, half.width, half.height);
    levels.push(half);
    level = half;
  }
  return {
    kind: "bitmap",
    name: file.name,
    width: bitmap.width,
    height: bitmap.height,
    async draw(context, x, y, width, height) {
      // The smallest copy still at least as large as the target: one last reduction of 2× at most.
      const from = levels.findLast((level) => level.width >= width && level.height >= height) ?? levels[0];
      context.imageSmoothingEnabled = true;
      context.imageSmoothingQuality = "high";
      context.drawImage(from, x, y, width, height);
    },
    dispose() {
      bitmap.close();
      for (const level of levels.slice(1)) level.width = level.height = 0;
    },
  };
}

/// The SVG `text` as a decoded <img>, through a blob: URL (the page's CSP allows blob: images;
/// an SVG in an <img> never loads anything else, so nothing reaches the network).
async function svgImage(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
    return image;
  } catch {
    throw new Error(say(`${name} is an SVG file this browser cannot draw.`, `${name} est un fichier SVG que ce navigateur ne sait pas dessiner.`));
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function svgSource(file, bytes, text) {
  // Its size: from its width/height/viewBox; else what the browser makes of it; else a square.
  let natural = svgSize(text);
  const probe = await svgImage(text, file.name);
  if (!natural && probe.naturalWidth > 0 && probe.naturalHeight > 0) natural = { width: probe.naturalWidth, height: probe.naturalHeight };
  const size = natural ?? { width: SVG_DEFAULT_SIDE, height: SVG_DEFAULT_SIDE };
  // One <img> per drawn size, kept: changing an option redraws the same sizes.
  const images = new Map();
  const at = (width, height) => {
    const key = `${width}x${height}`;
    if (!images.has(key)) images.set(key, svgImage(sizedSvg(text, width, height, size), file.name));
    return images.get(key);
  };
  await at(size.width, size.height); // fails now, in words, rather than at the first icon
  return {
    kind: "svg",
    name: file.name,
    bytes, // favicon.svg is the file as it came
    width: size.width,
    height: size.height,
    async draw(context, x, y, width, height) {
      const image = await at(width, height);
      context.drawImage(image, x, y, width, height);
    },
    dispose() {
      images.clear();
    },
  };
}
