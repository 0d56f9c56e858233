// The browser-local tools whose output comes from the browser's own canvas and encoders, in
// Firefox ESR (Debian) driven by geckodriver through WebDriver (webdriver.mjs): browsers differ
// there (which formats the canvas writes, how it scales), so what Chromium proves
// (local.test.mjs) is checked again here. image-optimize: WebP, AVIF and JPEG within 800 px,
// each file's real type and pixels; social-resize: every format at its size; favicon: the ICO's
// three sizes. Run by tests/tests/web/local_tools.rs: QUIRE_WEB_BASE, QUIRE_WEB_FIXTURES,
// QUIRE_WEB_GECKODRIVER.
import assert from "node:assert/strict";
import { checkIco } from "./local-favicon.mjs";
import { fixture, imageSize, pngSize, unzip } from "./local-files.mjs";
import { near, realType } from "./local-image-optimize.mjs";
import { SIZES } from "./local-social-resize.mjs";
import { firefox } from "./webdriver.mjs";

const base = process.env.QUIRE_WEB_BASE;
const fixtures = process.env.QUIRE_WEB_FIXTURES;
const step = (name) => console.log(`firefox: ${name}`);

/// Keeps every blob the page makes a URL for, so that a download link's bytes can be read back:
/// the page's CSP (connect-src 'none') refuses fetch, even of its own blob URLs.
const CAPTURE = `if (!window.quireBlobs) {
  window.quireBlobs = new Map();
  const real = URL.createObjectURL;
  URL.createObjectURL = (blob) => { const url = real.call(URL, blob); window.quireBlobs.set(url, blob); return url; };
}`;
/// The bytes behind the link `arguments[0]` (a selector), base64.
const READ = `const link = document.querySelector(arguments[0]);
const blob = link && window.quireBlobs.get(link.href);
if (!blob) throw new Error("no captured blob behind " + arguments[0]);
return blob.arrayBuffer().then((buffer) => {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(text);
});`;
/// Image bytes (base64, type) decoded by Firefox: its size and the RGBA of the points asked for.
const DECODE = `const [base64, type, points] = arguments;
const raw = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const image = new Image();
image.src = URL.createObjectURL(new Blob([raw], { type }));
return image.decode().then(() => {
  const canvas = document.createElement("canvas");
  [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  return { width: canvas.width, height: canvas.height, pixels: points.map(([x, y]) => [...context.getImageData(x, y, 1, 1).data]) };
});`;

async function open(ff, slug) {
  await ff.goto(`${base}/local/${slug}`);
  await ff.until("const tool = document.getElementById('local-tool'); return tool && tool.childElementCount > 0 && !tool.dataset.loading;", `${slug} to load`);
  await ff.run(CAPTURE);
}

const download = async (ff, selector) => unzip(Buffer.from(await ff.run(READ, selector), "base64"), selector);

async function imageOptimize(ff) {
  step("image-optimize: a photo and a transparent logo as WebP, AVIF and JPEG, at most 800 px wide");
  await open(ff, "image-optimize");
  await ff.click("#optimize-jpeg");
  await ff.run("document.getElementById('optimize-max-width').value = '800';");
  await ff.choose("#optimize-files", fixture(fixtures, "landscape.jpg"), fixture(fixtures, "logo.png"));
  await ff.until("return document.querySelectorAll('.optimize-output').length === 6 && document.getElementById('optimize-progress').hidden;", "six outputs", 300_000);
  const rows = await ff.run("return [...document.querySelectorAll('.optimize-output')].map((tr) => ({ ...tr.dataset }));");
  console.log(`firefox: encoders: ${rows.map((r) => `${r.name} ${r.encoder}`).join(", ")}`);
  assert.deepEqual(rows.map((r) => r.name), ["landscape.webp", "landscape.avif", "landscape.jpg", "logo.webp", "logo.avif", "logo.jpg"]);
  // Firefox's canvas writes WebP and JPEG but gives PNG when asked for AVIF.
  assert.deepEqual(rows.map((r) => r.encoder), ["browser", "bundled", "browser", "browser", "bundled", "browser"]);
  const types = { webp: "image/webp", avif: "image/avif", jpg: "image/jpeg" };
  for (const [name, bytes] of await download(ff, "#optimize-zip")) {
    const type = types[name.split(".").pop()];
    assert.equal(realType(bytes), type, `${name} really is ${type}`);
    const landscape = name.startsWith("landscape");
    const seen = await ff.run(DECODE, bytes.toString("base64"), type, landscape ? [[400, 12]] : [[300, 300], [5, 5]]);
    if (landscape) {
      assert.deepEqual([seen.width, seen.height], [800, 450], name);
      near(seen.pixels[0], [128, 120, 127, 255], 28, `${name} at (400, 12)`);
    } else {
      assert.deepEqual([seen.width, seen.height], [600, 600], name);
      near(seen.pixels[0], [37, 83, 216, 255], 16, `${name}: the logo's centre`);
      if (type === "image/jpeg") near(seen.pixels[1], [255, 255, 255, 255], 8, `${name}: white corner`);
      else assert.equal(seen.pixels[1][3], 0, `${name}: the corner stays transparent`);
    }
  }
}

async function socialResize(ff) {
  step("social-resize: landscape.jpg in every format, each JPEG at its size");
  await open(ff, "social-resize");
  await ff.choose("#social-file", fixture(fixtures, "landscape.jpg"));
  await ff.until("return document.querySelector(\"#social-source[data-name='landscape.jpg']\");", "the photo");
  await ff.click("#social-all");
  await ff.click("#social-make");
  await ff.until("return document.getElementById('social-download');", "the ZIP", 180_000);
  const files = await download(ff, "#social-download");
  assert.equal(files.size, Object.keys(SIZES).length);
  for (const [name, bytes] of files) {
    const id = name.replace(/^landscape-/, "").replace(/-\d+x\d+\.jpg$/, "");
    assert.deepEqual(imageSize(bytes, name), SIZES[id], name);
  }
}

async function favicon(ff) {
  step("favicon: from a PNG, the ICO with 16, 32 and 48, the PNGs at their sizes");
  await open(ff, "favicon");
  await ff.choose("#favicon-file", fixture(fixtures, "logo.png"));
  const link = "#favicon-download[data-source='logo.png']";
  await ff.until(`return document.querySelector("${link}");`, "the favicon ZIP");
  const files = await download(ff, link);
  checkIco(files.get("favicon.ico"));
  for (const [name, size] of [["apple-touch-icon.png", 180], ["icon-192.png", 192], ["icon-512.png", 512]]) {
    assert.deepEqual(pngSize(files.get(name), name), [size, size], name);
  }
}

const ff = await firefox({ geckodriver: process.env.QUIRE_WEB_GECKODRIVER });
try {
  step(`Firefox ${ff.version}`);
  await imageOptimize(ff);
  await socialResize(ff);
  await favicon(ff);
  console.log("firefox: all passed");
} finally {
  await ff.quit();
}
