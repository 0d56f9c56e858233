// The whole favicon set from one source and the page's options: every file of the ZIP, and the
// images to preview. Sizes as browsers and platforms ask for them today: the ICO's 16/32/48
// for tabs, bookmarks and Windows; 180 for iOS home screens; 192 and 512 for the manifest.
import { canvasBlob, say } from "../common.mjs";
import { headTags } from "./head-tags.mjs";
import { writeIco } from "./ico.mjs";
import { fitBox } from "./layout.mjs";
import { manifestText } from "./manifest.mjs";

export const ICO_SIZES = [16, 32, 48];

/// One square icon as a PNG. `background`: a colour to fill first, or null for transparency.
async function png(source, size, { padding, background, maskable = false }) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size;
  const context = canvas.getContext("2d");
  if (background) {
    context.fillStyle = background;
    context.fillRect(0, 0, size, size);
  }
  const box = fitBox(size, source.width, source.height, { padding, maskable });
  await source.draw(context, box.x, box.y, box.width, box.height);
  let blob;
  try {
    blob = await canvasBlob(canvas, "image/png");
  } catch {
    // An SVG with embedded HTML (foreignObject) "taints" the canvas: the browser will not export it.
    throw new Error(say(`The browser refuses to export ${source.name} as PNG (an SVG with embedded HTML?).`,
      `Le navigateur refuse d'exporter ${source.name} en PNG (un SVG avec du HTML intégré ?).`));
  }
  canvas.width = canvas.height = 0;
  return { blob, bytes: new Uint8Array(await blob.arrayBuffer()) };
}

/// `options`: { padding (percent), background ("#rrggbb"), transparent (no background on the
/// ICO and the 192/512 icons), maskable, name, themeColour }.
/// Gives { files: [{ name, bytes }], previews: [{ size, label, blob, masked }], head }.
export async function makeIconSet(source, options) {
  const { padding, background, transparent, maskable } = options;
  const free = { padding, background: transparent ? null : background };
  const filled = { padding, background };
  const files = [];
  const previews = [];
  const text = (name, content) => files.push({ name, bytes: new TextEncoder().encode(content) });

  const small = [];
  for (const size of ICO_SIZES) {
    const image = await png(source, size, free);
    small.push({ size, png: image.bytes });
    previews.push({ size, label: `favicon.ico · ${size}×${size}`, blob: image.blob });
  }
  files.push({ name: "favicon.ico", bytes: writeIco(small) });
  if (source.kind === "svg") files.push({ name: "favicon.svg", bytes: source.bytes });

  // iOS shows a transparent touch icon on black: this one is always filled.
  const plain = [
    ["apple-touch-icon.png", 180, filled],
    ["icon-192.png", 192, free],
    ["icon-512.png", 512, free],
  ];
  if (maskable) {
    plain.push(["icon-maskable-192.png", 192, { ...filled, maskable: true }], ["icon-maskable-512.png", 512, { ...filled, maskable: true }]);
  }
  for (const [name, size, look] of plain) {
    const image = await png(source, size, look);
    files.push({ name, bytes: image.bytes });
    previews.push({ size, label: `${name} · ${size}×${size}`, blob: image.blob, masked: Boolean(look.maskable) });
  }

  text("site.webmanifest", manifestText({
    name: options.name,
    fallbackName: say("My site", "Mon site"),
    themeColour: options.themeColour,
    backgroundColour: background,
    maskable,
  }));
  const head = headTags({ svg: source.kind === "svg" });
  text("head.html", head);
  return { files, previews, head };
}
