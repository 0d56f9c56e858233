// The form filler (a real PDF form listed by the engine, then filled) and the conversion tools'
// forms, each run through the real engine.
import assert from "node:assert/strict";
import path from "node:path";
import { RUN, ran } from "./toolbox-checks.mjs";
import { recordSends, sentParts } from "./watch.mjs";

const statusSettled = (page) => page.waitForFunction(() => {
  const status = document.getElementById("fields-status").textContent;
  return !status.startsWith("Reading") && !status.startsWith("Choose");
}, null, RUN);

export async function fillFormPage(t) {
  const { page, base, fixtures, shot } = t;
  await page.goto(`${base}/tools/fill-form`);
  await page.setInputFiles("#file", path.join(fixtures, "form.pdf"));
  await statusSettled(page);
  assert.equal(await page.isVisible("#pdf-fields"), true, await page.textContent("#fields-status"));
  const fields = page.locator("#pdf-fields");
  // A real form: labels from the tooltip or the name, a length limit, a text area, a check
  // box, radio buttons, a combo box, a list with several choices, a read-only field.
  const name = fields.getByLabel("Your name");
  assert.equal(await name.inputValue(), "Ada");
  assert.equal(await name.getAttribute("maxlength"), "20");
  assert.equal(await fields.locator("textarea").count(), 1);
  assert.equal(await fields.locator("input[type=checkbox]").count(), 1);
  assert.equal(await fields.locator("input[type=radio]").count(), 2);
  assert.equal(await fields.locator("select:not([multiple]) option[value=de]").count(), 1);
  assert.equal(await fields.locator("select[multiple] option").count(), 3);
  assert.equal(await fields.getByLabel(/^reference/).isDisabled(), true);
  await name.fill("Grace");
  await fields.locator("input[type=checkbox]").check();
  await fields.locator("input[type=radio]").nth(1).check();
  await fields.locator("select:not([multiple])").selectOption("de");
  await fields.locator("select[multiple]").selectOption(["English", "German"]);
  assert.deepEqual(JSON.parse(await page.inputValue("#values")),
    { name: "Grace", agree: true, colour: "Blue", country: "de", langs: ["English", "German"] });
  await shot(page, "17d-fill-form");
  await recordSends(page);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith("/tools/fill-form/run"), RUN),
    page.click("#tool button[type=submit]"),
  ]);
  // The PDF's own fields go only inside `values`, never as options of the tool.
  assert.deepEqual(await sentParts(page), [["action", "fill"], ["values", await page.inputValue("#values")], ["file", "file:form.pdf"]]);
  assert.ok(response.ok(), `fill-form answered ${response.status()}`);
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^1 page/);
  assert.match(await page.textContent("#tool-notes"), /Fields filled: \d/);
  // A PDF without a form says so.
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await statusSettled(page);
  assert.equal(await page.textContent("#fields-status"), "This PDF has no form fields to fill.");
  assert.equal(await page.isDisabled("#tool button[type=submit]"), true);
  t.errors.take({ refusals: true });
}

export async function conversionForms(t) {
  const { page, base, fixtures, shot } = t;
  await page.goto(`${base}/tools/html-to-pdf`);
  assert.deepEqual(await page.locator("#paper option").evaluateAll((o) => o.map((e) => e.value)), ["a4", "letter", "legal", "a3", "a5"]);
  assert.equal(await page.inputValue("#margin"), "10");
  assert.equal(await page.inputValue("#scale"), "1");
  assert.match(await page.getAttribute("#file", "accept"), /\.md.*\.zip/);
  await page.setInputFiles("#file", path.join(fixtures, "page.html"));
  await page.check("#landscape");
  const [html] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/run"), RUN), page.click("#tool button[type=submit]")]);
  assert.ok(html.ok(), `html-to-pdf answered ${html.status()}`);
  await ran(page);
  assert.match(await page.textContent("#tool-notes li[data-key=not-fetched]"), /https:\/\/example\.com\/x\.png/);
  await shot(page, "17e-html-to-pdf");
  await page.goto(`${base}/tools/office-to-pdf`);
  const accept = await page.getAttribute("#file", "accept");
  for (const extension of [".docx", ".doc", ".odt", ".rtf", ".xlsx", ".xls", ".ods", ".pptx", ".ppt", ".odp"]) assert.ok(accept.split(",").includes(extension), extension);
  await page.setInputFiles("#file", path.join(fixtures, "letter.rtf"));
  const [office] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/run"), RUN), page.click("#tool button[type=submit]")]);
  assert.ok(office.ok(), `office-to-pdf answered ${office.status()}`);
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^1 page/);
  t.errors.take({ refusals: true });
}
