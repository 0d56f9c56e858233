// The image-optimize tool (/local/image-optimize, http-edge/web/src/local/image-optimize/) in
// Chromium, offline: a file that is not an image refused in words; a photo and a transparent
// logo written as WebP, AVIF and JPEG within 800 px wide, the ZIP read here and every file's
// real type checked from its bytes and decoded by the browser (size, pixels, transparency);
// AVIF, which Chromium's canvas cannot write, by the bundled encoder; a canvas that gives PNG
// when asked for WebP (as an older Safari does) caught, and the bundled encoder used instead;
// the before/after slider moved with the keyboard; settings refused in words.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fixture, pagePixel, pagePixels, saveDownload, unzip } from "./local-files.mjs";

const TYPES = { webp: "image/webp", avif: "image/avif", jpg: "image/jpeg" };

/// The type image bytes really are, from their signature.
export function realType(bytes) {
  const ascii = (at, text) => bytes.toString("latin1", at, at + text.length) === text;
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(4, "ftyp") && (ascii(8, "avif") || ascii(8, "avis"))) return "image/avif";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(1, "PNG")) return "image/png";
  return "unknown";
}

export const near = (seen, want, tolerance, what) =>
  assert.ok(seen.every((v, i) => Math.abs(v - want[i]) <= tolerance), `${what}: ${seen} is not within ${tolerance} of ${want}`);

/// The rows the page shows: { name, format, encoder, bytes }.
const rows = (page) => page.$$eval(".optimize-output", (trs) => trs.map((tr) => ({ ...tr.dataset })));

async function run(page, files, outputs) {
  await page.setInputFiles("#optimize-files", files);
  await page.waitForFunction((n) => document.querySelectorAll(".optimize-output").length === n
    && document.getElementById("optimize-progress").hidden, outputs, { timeout: 180_000 });
}

export async function check(page, { fixtures, step, shot }) {
  step("image-optimize: not an image is refused");
  await page.setInputFiles("#optimize-files", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
  await page.waitForSelector(".optimize-file.refused");
  assert.match(await page.textContent(".optimize-file.refused .error"), /notes\.txt is not an image/);

  step("image-optimize: a photo and a transparent logo as WebP, AVIF and JPEG, at most 800 px wide");
  await page.check("#optimize-jpeg");
  await page.fill("#optimize-max-width", "800");
  const landscape = fixture(fixtures, "landscape.jpg");
  const logo = fixture(fixtures, "logo.png");
  await run(page, [landscape, logo], 6);
  const shown = await rows(page);
  assert.deepEqual(shown.map((r) => `${r.name} ${r.encoder}`), [
    "landscape.webp browser", "landscape.avif bundled", "landscape.jpg browser",
    "logo.webp browser", "logo.avif bundled", "logo.jpg browser"], "Chromium writes WebP and JPEG itself, AVIF needs the bundled encoder");
  assert.match(await page.textContent("#optimize-totals"), /WebP: .* → .* \(−\d+ %\)/);
  await shot(page, "results");

  const archive = await saveDownload(page, "#optimize-zip");
  assert.equal(archive.name, "optimized-images.zip");
  const files = unzip(archive.bytes);
  assert.deepEqual([...files.keys()], shown.map((r) => r.name));
  const original = await readOriginalPixel(page, landscape);
  for (const [name, bytes] of files) {
    const type = TYPES[name.split(".").pop()];
    assert.equal(realType(bytes), type, `${name} really is ${type}`);
    assert.equal(String(bytes.length), shown.find((r) => r.name === name).bytes, `${name}: the size the page shows`);
    const { width, height } = await pagePixels(page, bytes, { type, region: { x: 0, y: 0, width: 1, height: 1 } });
    if (name.startsWith("landscape")) {
      assert.deepEqual([width, height], [800, 450], `${name}: fitted to 800 px wide, proportions kept`);
      // Above the ellipse, between two white lines: the stripe's colour, as in the original.
      near(await pagePixel(page, bytes, 400, 12), original, 24, `${name} at (400, 12)`);
    } else {
      assert.deepEqual([width, height], [600, 600], `${name}: not enlarged`);
      near(await pagePixel(page, bytes, 300, 300), [37, 83, 216, 255], 16, `${name}: the logo's centre`);
      const corner = await pagePixel(page, bytes, 5, 5);
      if (type === "image/jpeg") near(corner, [255, 255, 255, 255], 8, `${name}: JPEG has no alpha, so white`);
      else assert.equal(corner[3], 0, `${name}: the corner stays transparent`);
    }
  }

  step("image-optimize: the before/after slider, with the keyboard");
  assert.equal(await page.getAttribute("#optimize-compare", "data-name"), "landscape.webp");
  await page.focus("#optimize-slider");
  await page.keyboard.press("End");
  assert.match(await page.$eval(".compare-after", (img) => img.style.clipPath), /inset\(0(px)? 0(px)? 0(px)? 100%\)/);
  await page.keyboard.press("Home");
  assert.match(await page.$eval(".compare-after", (img) => img.style.clipPath), /inset\(0(px)? 0(px)? 0(px)? 0%\)/);
  await page.click(".optimize-output[data-name='logo.avif'] .optimize-compare-button");
  assert.equal(await page.getAttribute("#optimize-compare", "data-name"), "logo.avif");
  await page.check("#optimize-actual");
  assert.equal(await page.$eval(".compare-frame", (f) => f.style.width), "600px");
  assert.ok(await page.$eval(".compare-after", (img) => img.complete && img.naturalWidth === 600), "the AVIF shows in the page");

  step("image-optimize: a canvas that gives PNG for WebP is caught, the bundled encoder used");
  await page.evaluate(() => {
    const real = HTMLCanvasElement.prototype.toBlob;
    HTMLCanvasElement.prototype.toBlob = function (done, type, quality) {
      return real.call(this, done, type === "image/webp" ? "image/png" : type, quality);
    };
  });
  await page.uncheck("#optimize-avif");
  await page.uncheck("#optimize-jpeg");
  await page.fill("#optimize-webp-quality", "60");
  await run(page, [landscape], 1);
  const [fallback] = await rows(page);
  assert.equal(fallback.encoder, "bundled");
  const single = await saveDownload(page, ".optimize-output a[download]");
  assert.equal(single.name, "landscape.webp");
  assert.equal(realType(single.bytes), "image/webp");
  const decoded = await pagePixels(page, single.bytes, { type: "image/webp", region: { x: 0, y: 0, width: 1, height: 1 } });
  assert.deepEqual([decoded.width, decoded.height], [800, 450]);
  near(await pagePixel(page, single.bytes, 400, 12), original, 24, "the bundled WebP at (400, 12)");

  step("image-optimize: settings refused in words");
  await page.fill("#optimize-webp-quality", "0");
  await page.click("#optimize-apply");
  assert.match(await page.textContent("#optimize-error"), /WebP: the quality is a whole number from 1 to 100/);
  await page.fill("#optimize-webp-quality", "75");
  await page.uncheck("#optimize-webp");
  await page.click("#optimize-apply");
  assert.match(await page.textContent("#optimize-error"), /Choose at least one format/);
  await page.check("#optimize-webp");
  await page.fill("#optimize-max-width", "99999");
  await page.click("#optimize-apply");
  assert.match(await page.textContent("#optimize-error"), /size limit is a whole number of pixels/);
}

/// The landscape fixture's pixel under the output's (400, 12), at 1920 × 1080: (960, 29).
async function readOriginalPixel(page, file) {
  return pagePixel(page, await readFile(file), 960, 29);
}
