// exif-strip (/local/exif-strip) in Chromium, offline: a photo with GPS shows its camera, its
// position and its comment, and comes back without them and still decodes at its size; two
// photos and a GIF at once give a refusal for the GIF and a ZIP of the two, each clean. The
// runner opens the page, cuts the network and checks afterwards that nothing was requested.
import assert from "node:assert/strict";
import fs from "node:fs";
import { fixture, pageImageSize, saveDownload, unzip } from "./local-files.mjs";

const has = (bytes, text) => Buffer.from(bytes).includes(Buffer.from(text, "latin1"));

/// A JPEG's segment markers before its first scan, checked to hold no metadata.
function assertCleanJpeg(bytes) {
  assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xd8]);
  const seen = [];
  for (let pos = 2; pos + 4 <= bytes.length;) {
    while (bytes[pos + 1] === 0xff) pos++;
    const marker = bytes[pos + 1];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      pos += 2;
      continue;
    }
    const length = bytes.readUInt16BE(pos + 2);
    seen.push(marker.toString(16));
    // The only APP1 allowed is the 34-byte one that holds only the orientation.
    if (marker === 0xe1) assert.equal(length, 34, "an APP1 other than the orientation-only EXIF");
    if (marker === 0xda) break;
    pos += 2 + length;
  }
  for (const marker of ["fe", "ed", "ec", "e3"]) assert.ok(!seen.includes(marker), `marker ${marker} left: ${seen}`);
  assert.ok(seen.includes("da"), `no scan: ${seen}`);
  for (const text of ["secret comment", "QuireCam", "2026:11:28", "http://ns.adobe.com"]) assert.ok(!has(bytes, text), text);
  if (has(bytes, "Exif\0\0")) assert.ok(seen.includes("e1"));
}

function assertCleanPng(bytes) {
  assert.equal(bytes.subarray(0, 8).toString("latin1"), "\x89PNG\r\n\x1a\n");
  const types = [];
  for (let pos = 8; pos + 12 <= bytes.length;) {
    types.push(bytes.subarray(pos + 4, pos + 8).toString("latin1"));
    pos += 12 + bytes.readUInt32BE(pos);
  }
  assert.equal(types.at(-1), "IEND");
  for (const type of ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]) assert.ok(!types.includes(type), `${type} left: ${types}`);
  assert.ok(!has(bytes, "Alice Example"));
}

export async function check(page, { fixtures, step, shot }) {
  step("local exif-strip: a photo's camera, GPS position and comment shown");
  await page.waitForSelector("#exif-files");
  await page.setInputFiles("#exif-files", fixture(fixtures, "photo-gps.jpg"));
  await page.waitForSelector("#exif-download-link");
  const card = page.locator("#exif-results .exif-file");
  assert.equal(await card.count(), 1);
  const text = await card.textContent();
  assert.match(text, /QuireCam Q1/);
  assert.match(text, /2026-11-28 10:00:00/);
  assert.match(text, /secret comment/);
  const position = await page.textContent("#exif-results .exif-gps .exif-position");
  const where = /([\d.]+)° ([NS]), ([\d.]+)° ([EWO])/.exec(position);
  assert.ok(where, position);
  assert.deepEqual([Number(where[1]).toFixed(4), where[2], Number(where[3]).toFixed(4), where[4]], ["48.8584", "N", "2.2945", "E"]);
  assert.equal(await page.locator("#exif-results .exif-clean").count(), 1, "the output was checked clean");
  await shot(page, "one");

  step("local exif-strip: the clean JPEG has no EXIF, GPS nor comment, and still decodes");
  const one = await saveDownload(page, "#exif-download-link");
  assert.equal(one.name, "photo-gps-clean.jpg");
  assertCleanJpeg(one.bytes);
  assert.deepEqual(await pageImageSize(page, one.bytes, "image/jpeg"), [1200, 800]);

  step("local exif-strip: two photos and a GIF at once: the GIF refused, a ZIP of two clean photos");
  const gif = { name: "anim.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1") };
  // Playwright takes paths or buffers, not both: the fixtures as buffers, with the GIF.
  const file = (name, mimeType) => ({ name, mimeType, buffer: fs.readFileSync(fixture(fixtures, name)) });
  await page.setInputFiles("#exif-files", [file("photo-gps.jpg", "image/jpeg"), file("photo-text.png", "image/png"), gif]);
  await page.waitForFunction(() => document.querySelectorAll("#exif-results .exif-file").length === 3
    && document.querySelector("#exif-download-link")?.getAttribute("download")?.endsWith(".zip"));
  const cards = await page.locator("#exif-results .exif-file").allTextContents();
  assert.match(cards[1], /Author: Alice Example/);
  assert.match(cards[2], /GIF/);
  assert.equal(await page.locator("#exif-results .exif-file.refused .error").count(), 1);
  assert.equal(await page.locator("#exif-results .exif-clean").count(), 2);
  await shot(page, "batch");
  const batch = await saveDownload(page, "#exif-download-link");
  const entries = unzip(batch.bytes);
  assert.deepEqual([...entries.keys()], ["photo-gps-clean.jpg", "photo-text-clean.png"]);
  assertCleanJpeg(entries.get("photo-gps-clean.jpg"));
  assertCleanPng(entries.get("photo-text-clean.png"));
  assert.deepEqual(await pageImageSize(page, entries.get("photo-text-clean.png"), "image/png"), [900, 600]);

  step("local exif-strip: on a 390 px phone nothing sticks out");
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const [scroll, width] = await page.evaluate(() => {
    const tool = document.getElementById("local-tool");
    return [tool.scrollWidth, tool.clientWidth];
  });
  assert.ok(scroll <= width + 1, `the tool is ${scroll} px wide in ${width} px`);
  await shot(page, "phone");
  if (viewport) await page.setViewportSize(viewport);
}
