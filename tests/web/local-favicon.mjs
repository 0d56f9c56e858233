// The favicon tool (/local/favicon, http-edge/web/src/local/favicon/) in Chromium, offline: a
// file that is not an image refused in words; then from a PNG and from an SVG with only a
// viewBox, the ZIP downloaded and read here: favicon.ico with exactly 16/32/48 PNGs, each PNG
// at its size, the Apple icon without a transparent pixel, the manifest, the <head> tags, and
// favicon.svg only for the SVG.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fixture, pagePixels, pngSize, saveDownload, unzip } from "./local-files.mjs";

const BASE_FILES = ["favicon.ico", "apple-touch-icon.png", "icon-192.png", "icon-512.png", "site.webmanifest", "head.html"];
const MASKABLE_FILES = ["icon-maskable-192.png", "icon-maskable-512.png"];

/// The ICO's header and its entries, checked field by field: exactly 16, 32 and 48, each a PNG
/// of that size, stored one after the other.
export function checkIco(ico) {
  assert.deepEqual([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)], [0, 1, 3], "ICO: reserved 0, type 1, three images");
  let expected = 6 + 16 * 3;
  [16, 32, 48].forEach((size, i) => {
    const at = 6 + 16 * i;
    const entry = { width: ico[at], height: ico[at + 1], colours: ico[at + 2], reserved: ico[at + 3], planes: ico.readUInt16LE(at + 4), bits: ico.readUInt16LE(at + 6) };
    assert.deepEqual(entry, { width: size, height: size, colours: 0, reserved: 0, planes: 1, bits: 32 }, `ICO entry ${i}`);
    const [length, offset] = [ico.readUInt32LE(at + 8), ico.readUInt32LE(at + 12)];
    assert.equal(offset, expected, `ICO entry ${i}: its image follows the previous one`);
    assert.deepEqual(pngSize(ico.subarray(offset, offset + length), `ICO image ${size}`), [size, size]);
    expected += length;
  });
  assert.equal(expected, ico.length, "ICO: nothing after the last image");
}

/// How many pixels of a PNG, as the browser decodes it, are transparent (alpha < 255) and opaque.
async function alphaCounts(page, png) {
  const { data } = await pagePixels(page, png, { type: "image/png" });
  let transparent = 0;
  let opaque = 0;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] < 255) transparent++;
    if (data[i] === 255) opaque++;
  }
  return { transparent, opaque };
}

/// Downloads the ZIP the page offers for `source` and checks it; gives its files.
async function downloadAndCheck(page, source, { svg, maskable }) {
  const link = `#favicon-download[data-source="${source}"][data-maskable="${maskable ? "yes" : "no"}"]`;
  await page.waitForSelector(link);
  assert.ok(await page.isHidden("#favicon-error"), await page.textContent("#favicon-error"));
  const download = await saveDownload(page, link);
  assert.match(download.name, /-favicons\.zip$/);
  const files = unzip(download.bytes);
  const expected = [...BASE_FILES, ...(svg ? ["favicon.svg"] : []), ...(maskable ? MASKABLE_FILES : [])];
  assert.deepEqual([...files.keys()].sort(), expected.sort(), `${source}: the files of the ZIP`);

  checkIco(files.get("favicon.ico"));
  for (const [name, size] of [["apple-touch-icon.png", 180], ["icon-192.png", 192], ["icon-512.png", 512], ["icon-maskable-192.png", 192], ["icon-maskable-512.png", 512]]) {
    if (files.has(name)) assert.deepEqual(pngSize(files.get(name), name), [size, size], `${source}: ${name}`);
  }
  // iOS shows transparency as black: the Apple icon is filled; so are maskable ones.
  for (const name of ["apple-touch-icon.png", ...(maskable ? MASKABLE_FILES : [])]) {
    const seen = await alphaCounts(page, files.get(name));
    assert.equal(seen.transparent, 0, `${source}: ${name} has no transparent pixel`);
  }
  // The image was drawn at all (an SVG that failed to draw would leave it empty).
  assert.ok((await alphaCounts(page, files.get("icon-512.png"))).opaque > 1000, `${source}: icon-512.png shows the image`);

  const manifest = JSON.parse(files.get("site.webmanifest").toString("utf8"));
  assert.equal(manifest.display, "standalone");
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
  assert.equal(manifest.background_color, "#ffffff");
  assert.ok(manifest.name && manifest.short_name, "the manifest has a name");
  const icons = manifest.icons.map((i) => `${i.src} ${i.sizes} ${i.purpose}`);
  assert.deepEqual(icons.filter((i) => i.endsWith(" any")), ["/icon-192.png 192x192 any", "/icon-512.png 512x512 any"]);
  assert.equal(icons.filter((i) => i.endsWith(" maskable")).length, maskable ? 2 : 0);

  const head = files.get("head.html").toString("utf8");
  assert.match(head, /<link rel="icon" href="\/favicon\.ico" sizes="32x32">/);
  assert.match(head, /<link rel="apple-touch-icon" href="\/apple-touch-icon\.png">/);
  assert.match(head, /<link rel="manifest" href="\/site\.webmanifest">/);
  assert.equal(head.includes('<link rel="icon" href="/favicon.svg" type="image/svg+xml">'), svg);
  assert.equal(await page.inputValue("#favicon-head"), head, "the page shows the tags of the ZIP");
  return files;
}

export async function check(page, { fixtures, step, shot }) {
  step("local favicon: a file that is not an image, refused in words");
  await page.waitForSelector("#favicon-file");
  await page.setInputFiles("#favicon-file", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture\n") });
  await page.waitForSelector("#favicon-error:not([hidden])");
  assert.match(await page.textContent("#favicon-error"), /notes\.txt (is not an image|n'est pas une image)/);
  assert.equal(await page.locator("#favicon-download").count(), 0);

  step("local favicon: from a PNG, the ICO, the PNGs, the manifest and the tags");
  await page.setInputFiles("#favicon-file", fixture(fixtures, "logo.png"));
  await downloadAndCheck(page, "logo.png", { svg: false, maskable: false });
  // Every size previewed; the ICO's small ones also enlarged with square pixels.
  assert.deepEqual(await page.$$eval("#favicon-previews li", (items) => items.map((li) => li.dataset.size)), ["16", "32", "48", "180", "192", "512"]);
  assert.equal(await page.locator("#favicon-previews img.favicon-pixelated").count(), 3);
  assert.ok(await page.$$eval("#favicon-previews img", (images) => images.every((img) => img.complete && img.naturalWidth > 0)), "the previews are drawn");
  await page.click("#favicon-copy");
  await page.waitForFunction(() => document.querySelector("#favicon-copied")?.textContent !== "");
  await shot(page, "png");

  step("local favicon: from an SVG with only a viewBox, maskable icons too, favicon.svg kept");
  await page.check("#favicon-maskable");
  const svg = fixture(fixtures, "logo.svg");
  await page.setInputFiles("#favicon-file", svg);
  const files = await downloadAndCheck(page, "logo.svg", { svg: true, maskable: true });
  assert.ok(files.get("favicon.svg").equals(await readFile(svg)), "favicon.svg is the file as it came");
  assert.equal(await page.locator("#favicon-previews img.favicon-masked").count(), 2);

  step("local favicon: fits a phone's width");
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, "no horizontal scrolling at 390 px");
  await shot(page, "svg");
}
