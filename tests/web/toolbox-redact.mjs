// Redact and PDF/A in the browser: the pages drawn, an area drawn by a drag, a search's hits
// listed and drawn, the run's notes saying what was checked; PDF/A's verdict.
// Called by web.test.mjs with a logged-in page.
import assert from "node:assert/strict";
import path from "node:path";
import { ran } from "./toolbox-checks.mjs";

export async function redactPage(t) {
  const { page, base, fixtures, shot } = t;
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: viewport.width, height: 1600 });
  await page.goto(`${base}/tools/redact`);
  await page.setInputFiles("#file", path.join(fixtures, "three-pages.pdf"));
  await page.waitForFunction(() => document.querySelectorAll("#redact-pages .redact-page canvas").length === 3);
  // A drag over the big "1" in the middle of page 1 marks an area.
  const frame = await page.locator(".redact-page[data-page='1']").boundingBox();
  await page.mouse.move(frame.x + frame.width * 0.3, frame.y + frame.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(frame.x + frame.width * 0.7, frame.y + frame.height * 0.62, { steps: 5 });
  await page.mouse.up();
  let areas = JSON.parse(await page.inputValue("#areas"));
  assert.equal(areas.length, 1);
  assert.equal(areas[0].page, 1);
  assert.ok(areas[0].width > 0.3 && areas[0].width < 0.5, JSON.stringify(areas));
  // Search "Page 2": one hit, on page 2, drawn there and accepted.
  await page.fill("#termsList", "Page 2");
  await page.click("#redact-find");
  await page.waitForSelector("#redact-hit-list li");
  assert.equal(await page.locator("#redact-hit-list li").count(), 1);
  assert.equal(await page.locator(".redact-page[data-page='2'] .redact-box.hit").count(), 1);
  areas = JSON.parse(await page.inputValue("#areas"));
  assert.equal(areas.length, 2);
  assert.deepEqual(JSON.parse(await page.inputValue("#removedTerms")), ["Page 2"]);
  // Rejected, the hit stays: neither its area nor its text is sent; accepted again, both are.
  await page.uncheck("#hit-0");
  assert.equal(JSON.parse(await page.inputValue("#areas")).length, 1);
  assert.deepEqual(JSON.parse(await page.inputValue("#removedTerms")), []);
  await page.check("#hit-0");
  await shot(page, "17f-redact-marked");
  await page.click("#tool button[type=submit]");
  await ran(page);
  const notes = await page.textContent("#tool-notes");
  assert.match(notes, /Checked: text/);
  assert.match(notes, /Checked: rendering/);
  await shot(page, "17g-redact-done");
  await page.setViewportSize(viewport);
}

export async function pdfaPage(t) {
  const { page, base, fixtures, shot } = t;
  await page.goto(`${base}/tools/pdfa`);
  await page.setInputFiles("#file", path.join(fixtures, "three-pages.pdf"));
  await page.click("#tool button[type=submit]");
  await ran(page);
  assert.match(await page.textContent("#tool-notes"), /Validation: conforms to PDF\/A-2b/);
  await shot(page, "17h-pdfa");
}
