// The toolbox pages that work in the browser before anything is sent: thumbnails drawn with
// pdf.js (organize, remove-blank's preview; merge's and compare's are in web.test.mjs), sign's
// placement and pad; and every tool page under the CSP with no error logged. The form filler
// and the conversion forms are in toolbox-forms.mjs.
// Called by web.test.mjs with a logged-in page; `errors` is watch.mjs's reader.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { formPdf, pagesPdf } from "./pdf-fixtures.mjs";
import { recordSends, sentParts } from "./watch.mjs";

// Engine runs (LibreOffice, Chromium, the signer) get longer than playwright's 30 s.
export const RUN = { timeout: 180_000 };

export function writeFixtures(fixtures) {
  fs.writeFileSync(path.join(fixtures, "three-pages.pdf"), pagesPdf(3));
  fs.writeFileSync(path.join(fixtures, "with-blank.pdf"), pagesPdf(3, [2]));
  fs.writeFileSync(path.join(fixtures, "form.pdf"), formPdf());
  fs.writeFileSync(path.join(fixtures, "page.html"),
    "<!doctype html><title>t</title><h1>HTML to PDF</h1><p>From the browser test.</p><img src=\"https://example.com/x.png\" alt=\"\">\n");
  fs.writeFileSync(path.join(fixtures, "letter.rtf"), "{\\rtf1\\ansi Quire office test\\par}\n");
}


// The run's answer in the page: a result, or the error it shows (which fails the check with
// its words, rather than a wait for a result that never comes).
export async function ran(page) {
  await page.waitForSelector("#tool-stats, #tool-report, #error:not([hidden])", RUN);
  assert.equal(await page.isVisible("#error"), false, await page.textContent("#error"));
}

// Ink in an image element: the share of its pixels that are not near white.
const inkOf = (locator) => locator.evaluate(async (img) => {
  await img.decode();
  const canvas = new OffscreenCanvas(img.naturalWidth, img.naturalHeight);
  const context = canvas.getContext("2d");
  context.drawImage(img, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 600) dark++;
  return dark / (data.length / 4);
});

// Every tool linked from /tools, at the page's width: no error logged, no CSP violation, and
// on a phone no page wider than the screen.
export async function walkTools(t, width) {
  const { page, base, errors } = t;
  await page.goto(`${base}/tools`);
  const routes = await page.locator("#tool-list a[href^='/tools/']").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  for (const slug of ["sign", "fill-form", "office-to-pdf", "html-to-pdf", "redact", "pdfa"]) assert.ok(routes.includes(`/tools/${slug}`), `/tools lists ${slug}`);
  assert.ok(routes.length >= 29, `${routes.length} tools listed`);
  for (const route of routes) {
    await page.goto(`${base}${route}`, { waitUntil: "networkidle" });
    assert.equal(await page.locator("h1").count(), 1, route);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    // What sticks out, named, when something does.
    const wide = scroll <= width ? [] : await page.evaluate((limit) => Array.from(document.querySelectorAll("main *"))
      .filter((e) => e.getBoundingClientRect().right > limit).slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${e.getBoundingClientRect().right}`), width);
    assert.ok(scroll <= width, `${route} is ${scroll}px wide on a ${width}px screen: ${wide.join("; ")}`);
    assert.deepEqual(errors.take(), [], `${route} at ${width}px logged errors`);
  }
  return routes.length;
}

export async function organizeThumbnails(t) {
  const { page, base, fixtures, shot } = t;
  await page.goto(`${base}/tools/organize`);
  // A field being typed in while the document opens is not written to: the caret stays.
  await page.focus("#order");
  await page.setInputFiles("#file", path.join(fixtures, "three-pages.pdf"));
  await page.waitForSelector("#page-grid:not([hidden]) .page-tile");
  assert.equal(await page.locator("#page-grid .page-tile").count(), 3);
  await page.keyboard.type("3,1");
  assert.equal(await page.inputValue("#order"), "3,1");
  await page.keyboard.press("Tab");
  assert.equal(await page.locator("#page-grid .page-tile").count(), 2);
  await page.click("#reset-order");
  assert.equal(await page.locator("#page-grid .page-tile").count(), 3);
  await page.waitForFunction(() => document.querySelectorAll("#page-grid img.thumb.drawn").length === 3);
  assert.equal(await page.inputValue("#order"), "1,2,3");
  // pdf.js parses in its own worker, which the CSP lets start from this site.
  assert.ok(page.workers().some((w) => w.url().endsWith("/assets/pdf.worker.min.mjs")), "pdf.js runs in a worker");
  const ink = await inkOf(page.locator("#page-grid img.thumb").first());
  assert.ok(ink > 0.01 && ink < 0.5, `page 1's thumbnail has ink (${ink})`);
  // Buttons: delete page 2, duplicate page 1, move page 3 first, add a blank page.
  await page.click("#page-grid .page-tile:nth-child(2) button[aria-label='Delete Page 2']");
  assert.equal(await page.inputValue("#order"), "1,3");
  await page.click("#page-grid .page-tile:nth-child(1) button[aria-label='Duplicate Page 1']");
  assert.equal(await page.inputValue("#order"), "1,1,3");
  await page.click("#page-grid .page-tile:nth-child(3) button[aria-label='Move Page 3 earlier']");
  assert.equal(await page.inputValue("#order"), "1,3,1");
  await page.click("#add-blank");
  assert.equal(await page.inputValue("#order"), "1,3,1,blank");
  assert.equal(await page.locator("#page-grid .blank-page").count(), 1);
  // Drag and drop: the blank page dropped on the first tile goes first.
  await page.dragAndDrop("#page-grid .page-tile:nth-child(4)", "#page-grid .page-tile:nth-child(1)");
  assert.equal(await page.inputValue("#order"), "blank,1,3,1");
  // The field typed by hand redraws the grid.
  await page.fill("#order", "3,2");
  await page.dispatchEvent("#order", "change");
  assert.equal(await page.locator("#page-grid .page-tile").count(), 2);
  await shot(page, "17a-organize-thumbnails");
  await page.click("#tool button[type=submit]");
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^2 page/);
}

export async function removeBlankPreview(t) {
  const { page, base, fixtures, shot } = t;
  await page.goto(`${base}/tools/remove-blank`);
  await page.setInputFiles("#file", path.join(fixtures, "with-blank.pdf"));
  await page.check("#preview");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#blank-preview .page-tile");
  await page.waitForFunction(() => document.querySelectorAll("#blank-preview img.drawn").length === 3);
  assert.equal(await page.locator("#blank-preview .page-tile.goes").count(), 1);
  assert.match(await page.textContent("#blank-preview .page-tile.goes"), /Page 2/);
  await shot(page, "17b-remove-blank-preview");
}

export async function signPage(t) {
  const { page, base, fixtures, shot } = t;
  // Tall enough for the page drawn and the pad below it: the mouse works in the viewport.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport.width, height: 1600 });
  await page.goto(`${base}/tools/sign`);
  // The sections follow the choices: a typed name, the certificate.
  assert.equal(await page.isVisible("#sign-text"), false);
  await page.check("input[name=appearance][value=text]");
  assert.equal(await page.isVisible("#sign-text"), true);
  assert.equal(await page.isVisible("#sign-image"), false);
  await page.check("input[name=appearance][value=image]");
  await page.check("#certificate");
  assert.equal(await page.isVisible("#certificateFile"), true);
  await page.uncheck("#certificate");
  // The page drawn; a click centres the box on the point.
  await page.setInputFiles("#file", path.join(fixtures, "three-pages.pdf"));
  await page.waitForSelector("#sign-place:not([hidden]) canvas.sign-canvas");
  await page.fill("#page", "2");
  await page.dispatchEvent("#page", "change");
  await page.waitForFunction(() => document.querySelector("#sign-page canvas")?.getAttribute("aria-label") === "Page 2");
  const area = await page.locator("#sign-page canvas").boundingBox();
  await page.mouse.click(area.x + area.width * 0.5, area.y + area.height * 0.5);
  assert.equal(Number(await page.inputValue("#width")), 0.3);
  assert.ok(Math.abs(Number(await page.inputValue("#x")) - 0.35) < 0.01, await page.inputValue("#x"));
  // A drag draws the box from corner to corner.
  await page.mouse.move(area.x + area.width * 0.1, area.y + area.height * 0.7);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width * 0.3, area.y + area.height * 0.75, { steps: 5 });
  await page.mouse.move(area.x + area.width * 0.5, area.y + area.height * 0.8, { steps: 5 });
  await page.mouse.up();
  const [x, y, width] = await Promise.all(["#x", "#y", "#width"].map(async (s) => Number(await page.inputValue(s))));
  assert.ok(Math.abs(x - 0.1) < 0.01 && Math.abs(y - 0.7) < 0.01 && Math.abs(width - 0.4) < 0.01, `${x} ${y} ${width}`);
  const box = await page.locator("#sign-box").boundingBox();
  assert.ok(Math.abs(box.x - (area.x + area.width * 0.1)) < 3 && Math.abs(box.width - area.width * 0.4) < 3, JSON.stringify(box));
  // The keyboard: the box moves with the arrows.
  await page.focus("#sign-box");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.inputValue("#x"), String(Math.round((x + 0.01) * 1000) / 1000));
  // Nothing drawn yet: the page says so rather than sending the form.
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#error:not([hidden])");
  assert.match(await page.textContent("#error"), /Draw your signature/);
  // A signature drawn on the pad becomes a transparent PNG, sent after the PDF.
  const pad = await page.locator("#signature-canvas").boundingBox();
  await page.mouse.move(pad.x + pad.width * 0.1, pad.y + pad.height * 0.6);
  await page.mouse.down();
  for (const [fx, fy] of [[0.2, 0.3], [0.3, 0.7], [0.45, 0.35], [0.6, 0.65], [0.8, 0.4]]) await page.mouse.move(pad.x + pad.width * fx, pad.y + pad.height * fy, { steps: 4 });
  await page.mouse.up();
  const png = await page.evaluate(async () => {
    const file = await document.getElementById("signature-pad").fileSource();
    const bitmap = await createImageBitmap(file);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext("2d").drawImage(bitmap, 0, 0);
    const alpha = canvas.getContext("2d").getImageData(0, 0, bitmap.width, bitmap.height).data.filter((_, i) => i % 4 === 3);
    return { name: file.name, type: file.type, width: bitmap.width, height: bitmap.height, clear: alpha.filter((a) => a === 0).length, inked: alpha.filter((a) => a === 255).length };
  });
  assert.equal(png.name, "signature.png");
  assert.equal(png.type, "image/png");
  assert.ok(png.width > png.height && png.clear > png.inked && png.inked > 100, JSON.stringify(png));
  await shot(page, "17c-sign");
  await recordSends(page);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/tools/sign/run"), RUN),
    page.click("#tool button[type=submit]"),
  ]);
  // The fields (the typed name's left out: its section is off), then the PDF and the drawing.
  assert.deepEqual(await sentParts(page), [["page", "2"], ["x", String(Math.round((x + 0.01) * 1000) / 1000)], ["y", String(y)],
    ["width", String(width)], ["appearance", "image"], ["file", "file:three-pages.pdf"], ["file", "file:signature.png"]]);
  assert.ok(response.ok(), `sign answered ${response.status()}: ${await response.text()}`);
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^3 page/);
  await page.setViewportSize(viewport);
  t.errors.take({ refusals: true });
}

