// The text-on-image tool in Chromium (http-edge/web/src/local/text-on-image/), offline: the
// bundled fonts registered and really drawn (each differs from the fallback, Bebas Neue from
// Inter); an Instagram square as PNG read back at 1080 × 1080 and named after the title; the
// file identical with the guides shown or hidden while the preview is not; the title's pixels
// where the layout says and nowhere else; a warning for text past the safe area;
// landscape.jpg under a story as JPEG at 1080 × 1920 with the text above the story's
// controls; the editor on a phone's screen.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";

const TITLE = "Fête à Noël : ça ü ß";
/// The faces the page must have registered (independent of its table on purpose).
const FACES = ["Bebas Neue 400", "Caveat 400", "Caveat 700", "Inter 400", "Inter 700", "Playfair Display 400", "Playfair Display 700"];

/// A fixture as setInputFiles takes it: `fixtures` is the fixtures' folder, or an object of
/// paths or buffers by name.
function fixture(fixtures, name) {
  const value = typeof fixtures === "string" ? path.join(fixtures, name) : fixtures[name];
  assert.ok(value, `fixture ${name}`);
  if (typeof value === "string") return value;
  const buffer = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer ?? value);
  return { name, mimeType: name.endsWith(".png") ? "image/png" : "image/jpeg", buffer };
}

/// [width, height] of a PNG (its IHDR) or a JPEG (its SOF0/SOF1/SOF2 marker).
function dimensions(bytes, name) {
  if (bytes[0] === 0x89 && bytes.subarray(1, 4).toString() === "PNG") {
    assert.equal(bytes.subarray(12, 16).toString(), "IHDR", name);
    return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
  }
  assert.ok(bytes[0] === 0xff && bytes[1] === 0xd8, `${name} is a PNG or a JPEG`);
  let at = 2;
  while (at + 4 < bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`${name}: no marker at ${at}`);
    const marker = bytes[at + 1];
    if (marker === 0xff) { at++; continue; } // fill byte
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) { at += 2; continue; } // no length
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) return [bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5)];
    if (marker === 0xda || marker === 0xd9) break; // the scan before any frame header: broken
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error(`${name}: no SOF marker`);
}

/// The preview redraws at the next animation frame: two frames later it shows the settings.
const settled = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/// The file the download link gives: [suggested name, bytes].
async function download(page) {
  await page.click("#toi-make");
  const link = page.locator("#toi-download");
  await link.waitFor({ timeout: 60_000 });
  const [saved] = await Promise.all([page.waitForEvent("download"), link.click()]);
  assert.equal(saved.suggestedFilename(), await link.getAttribute("download"));
  return [saved.suggestedFilename(), await readFile(await saved.path())];
}

/// A box the preview reports ("x y w h", in the exported image's pixels), or null.
async function box(page, which) {
  const text = await page.getAttribute("#toi-preview", `data-${which}-box`);
  if (!text) return null;
  const [x, y, w, h] = text.split(" ").map(Number);
  return { x, y, w, h };
}

/// Two images decoded in the page and compared pixel by pixel: how many pixels differ (any
/// channel by more than `tolerance`) inside `rect`, and outside it grown by `margin`.
const compare = (page, a, b, rect, { margin = 0, tolerance = 0 } = {}) => page.evaluate(async ({ a, b, rect, margin, tolerance }) => {
  const decode = async (base64) => {
    const raw = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([raw]));
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [bitmap.width, bitmap.height];
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(bitmap, 0, 0);
    bitmap.close();
    return context.getImageData(0, 0, canvas.width, canvas.height);
  };
  const [one, two] = await Promise.all([decode(a), decode(b)]);
  if (one.width !== two.width || one.height !== two.height) return { sizes: false };
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < one.height; y++) {
    for (let x = 0; x < one.width; x++) {
      const i = (y * one.width + x) * 4;
      let differs = false;
      for (let c = 0; c < 4; c++) if (Math.abs(one.data[i + c] - two.data[i + c]) > tolerance) differs = true;
      if (!differs) continue;
      if (x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h) inside++;
      else if (x < rect.x - margin || x >= rect.x + rect.w + margin || y < rect.y - margin || y >= rect.y + rect.h + margin) outside++;
    }
  }
  return { sizes: true, inside, outside, area: rect.w * rect.h };
}, { a: a.toString("base64"), b: b.toString("base64"), rect, margin, tolerance });

/// The preview's pixels, as a data: URL (to tell two states of it apart).
const previewPixels = (page) => page.evaluate(() => document.getElementById("toi-preview").toDataURL("image/png"));

export async function check(page, { fixtures, step, shot }) {
  step("local text-on-image: the bundled fonts are registered and drawn");
  await page.waitForSelector("#toi-preview[data-ready='yes']", { timeout: 30_000 });
  const fonts = await page.evaluate(() => ({
    inter: document.fonts.check("700 40px Inter"),
    // "normal" and "bold" as numbers, whichever way the browser gives them back.
    faces: [...document.fonts].filter((f) => f.status === "loaded")
      .map((f) => `${f.family.replace(/"/g, "")} ${({ normal: "400", bold: "700" })[f.weight] ?? f.weight}`).sort(),
  }));
  assert.equal(fonts.inter, true, "document.fonts.check('700 40px Inter')");
  assert.deepEqual(fonts.faces, FACES);
  // A face that did not load would silently fall back: each family must draw other pixels
  // than the fallback, and Bebas Neue other pixels than Inter.
  const drawn = await page.evaluate((faces) => {
    const ink = (font) => {
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [900, 80];
      const context = canvas.getContext("2d", { willReadFrequently: true });
      context.font = font;
      context.fillText("Hamburgefonstiv ÉÀÇÜß 0123", 10, 60);
      return Array.from(context.getImageData(0, 0, 900, 80).data).join(",");
    };
    const fallback = ink("40px monospace");
    return {
      likeFallback: faces.filter((face) => {
        const [, family, weight] = face.match(/^(.*) (\d+)$/);
        return ink(`${weight} 40px "${family}", monospace`) === fallback;
      }),
      bebasIsInter: ink('40px "Bebas Neue"') === ink("40px Inter"),
    };
  }, FACES);
  assert.deepEqual(drawn.likeFallback, [], "faces drawn in the fallback font");
  assert.equal(drawn.bebasIsInter, false, "Bebas Neue and Inter draw the same pixels");

  step("local text-on-image: an Instagram square as PNG, 1080 × 1080, named after the title");
  assert.equal(await page.inputValue("#toi-preset"), "instagram-square");
  await page.fill("#toi-title", TITLE);
  await page.fill("#toi-subtitle", "");
  assert.ok(await page.isChecked("#toi-type-png"));
  assert.ok(await page.isDisabled("#toi-quality"), "PNG has no quality to set");
  assert.ok(await page.isChecked("#toi-guides"), "the guides are shown by default");
  await settled(page);
  const title = await box(page, "title");
  assert.ok(title && title.w > 100 && title.h > 50, `the title's box: ${JSON.stringify(title)}`);
  // Inside the square's safe area (the profile grid's middle 3:4: x 135 to 945).
  assert.ok(title.x >= 135 && title.x + title.w <= 945, `the title within the 3:4 middle: ${JSON.stringify(title)}`);
  assert.equal(await page.textContent("#toi-warning"), "");
  const inter = await previewPixels(page);
  let [name, guided] = await download(page);
  assert.equal(name, "fete-a-noel-ca-u-ss-1080x1080.png");
  assert.deepEqual(dimensions(guided, name), [1080, 1080]);
  await shot(page, "square-guides");

  step("local text-on-image: the guides are on the preview, never in the file");
  await page.uncheck("#toi-guides");
  await settled(page);
  assert.notEqual(await previewPixels(page), inter, "the preview changes without its guides");
  const [, plain] = await download(page);
  const same = await compare(page, guided, plain, title);
  assert.deepEqual([same.sizes, same.inside, same.outside], [true, 0, 0], "the file with the guides shown equals the one without");

  step("local text-on-image: the title's pixels are where the layout put it, and only there");
  await page.fill("#toi-title", "");
  await settled(page);
  assert.equal(await box(page, "title"), null);
  const [, empty] = await download(page);
  // The shadow and the accents may pass the line boxes by a little: 60 px is left to them.
  const text = await compare(page, plain, empty, title, { margin: 60 });
  assert.ok(text.sizes && text.inside > text.area * 0.05, `text pixels in the title's box: ${text.inside} of ${text.area}`);
  assert.equal(text.outside, 0, "no pixel changed away from the title");

  step("local text-on-image: the same title in Bebas Neue is other pixels");
  await page.fill("#toi-title", TITLE);
  await page.selectOption("#toi-title-font", "Bebas Neue");
  assert.ok(await page.isHidden("#toi-title-weight"), "Bebas Neue has one weight: no choice offered");
  await settled(page);
  const bebasBox = await box(page, "title");
  const [, bebas] = await download(page);
  const fontsDiffer = await compare(page, plain, bebas, { x: 0, y: 0, w: 1080, h: 1080 });
  assert.ok(fontsDiffer.inside > 1000, `Bebas Neue vs Inter: ${fontsDiffer.inside} pixels differ`);
  assert.notDeepEqual(bebasBox, title, "Bebas Neue is measured with its own widths");
  await page.selectOption("#toi-title-font", "Inter");
  assert.ok(await page.isVisible("#toi-title-weight"));

  step("local text-on-image: text past the safe area is warned about");
  const size = await page.inputValue("#toi-title-size");
  await page.fill("#toi-title-size", "400");
  await settled(page);
  assert.match(await page.textContent("#toi-warning"), /outside the safe area|sort de la zone sûre/);
  await page.fill("#toi-title-size", size);
  await settled(page);
  assert.equal(await page.textContent("#toi-warning"), "");

  step("local text-on-image: landscape.jpg under a story, as JPEG at 1080 × 1920");
  await page.setInputFiles("#toi-file", fixture(fixtures, "landscape.jpg"));
  await page.waitForSelector("#toi-image[data-name='landscape.jpg']");
  assert.equal(await page.textContent("#toi-error"), "");
  await page.selectOption("#toi-preset", "story");
  await page.check("#toi-type-jpeg");
  assert.ok(await page.isEnabled("#toi-quality"));
  await page.fill("#toi-subtitle", "Samedi 20 décembre, place du marché");
  await page.check("#toi-valign-bottom");
  await settled(page);
  // 1920 × 1080 covers 1080 × 1920 from its middle 608 × 1080: said.
  assert.match(await page.textContent("#toi-soft"), /608 × 1080/);
  const all = await page.evaluate(() => document.getElementById("toi-preview").dataset);
  assert.deepEqual([all.width, all.height], ["1080", "1920"]);
  const story = [await box(page, "title"), await box(page, "subtitle")];
  for (const part of story) {
    assert.ok(part && part.y >= 250 && part.y + part.h <= 1920 - 340, `above the story's controls: ${JSON.stringify(part)}`);
  }
  assert.ok(story[1].y + story[1].h > 1400, "at the bottom of the safe area");
  assert.equal(await page.textContent("#toi-warning"), "");
  await shot(page, "story");
  const [storyName, jpeg] = await download(page);
  assert.equal(storyName, "fete-a-noel-ca-u-ss-1080x1920.jpg");
  assert.deepEqual(dimensions(jpeg, storyName), [1080, 1920]);
  // The photo is in it: its stripes and lines, not one colour, at the top (away from the text).
  const spread = await page.evaluate(async (base64) => {
    const raw = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([raw]));
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = [bitmap.width, bitmap.height];
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(bitmap, 0, 0);
    const row = context.getImageData(0, 100, canvas.width, 1).data;
    const reds = [];
    for (let i = 0; i < row.length; i += 4) reds.push(row[i]);
    return Math.max(...reds) - Math.min(...reds);
  }, jpeg.toString("base64"));
  assert.ok(spread > 30, `the photo's stripes show in the story (red spread ${spread})`);

  step("local text-on-image: the image removed, and the editor on a phone's screen");
  await page.click("#toi-clear-image");
  await settled(page);
  assert.equal(await page.textContent("#toi-soft"), "");
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the editor is ${width}px wide on a 390px screen`);
  await shot(page, "phone");
  if (viewport) await page.setViewportSize(viewport);
}
