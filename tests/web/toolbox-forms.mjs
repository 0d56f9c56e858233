// The form filler (a real PDF form listed, then filled) and the conversion tools' forms. The
// runs that need an engine the service may not have yet are reported, not failed, when the
// service refuses them; the pages themselves must work.
import assert from "node:assert/strict";
import path from "node:path";
import { recordSends, sentParts } from "./watch.mjs";

const RUN = { timeout: 180_000 };

// The `list` answer for formPdf(), as the engine words it: used only when the service cannot
// list fields yet, so that the page's form building is still checked.
const LISTED = {
  fields: [
    { name: "name", kind: "text", value: ["Ada"], options: [], readOnly: false, required: false, multiline: false, multiSelect: false, maxLength: 20, tooltip: "Your name", page: 1 },
    { name: "address", kind: "text", value: [], options: [], readOnly: false, required: false, multiline: true, multiSelect: false, maxLength: 0, tooltip: "", page: 1 },
    { name: "agree", kind: "checkbox", value: ["Off"], options: [{ export: "Yes", label: "Yes" }], readOnly: false, required: false, multiline: false, multiSelect: false, maxLength: 0, tooltip: "", page: 1 },
    { name: "colour", kind: "radio", value: ["Off"], options: [{ export: "Red", label: "Red" }, { export: "Blue", label: "Blue" }], readOnly: false, required: false, multiline: false, multiSelect: false, maxLength: 0, tooltip: "", page: 1 },
    { name: "country", kind: "combo", value: [], options: [{ export: "fr", label: "France" }, { export: "de", label: "Germany" }], readOnly: false, required: false, multiline: false, multiSelect: false, maxLength: 0, tooltip: "", page: 1 },
    { name: "langs", kind: "list", value: [], options: ["English", "French", "German"].map((l) => ({ export: l, label: l })), readOnly: false, required: false, multiline: false, multiSelect: true, maxLength: 0, tooltip: "", page: 1 },
    { name: "reference", kind: "text", value: ["Q-42"], options: [], readOnly: true, required: false, multiline: false, multiSelect: false, maxLength: 0, tooltip: "", page: 1 },
  ],
};

const statusSettled = (page) => page.waitForFunction(() => {
  const status = document.getElementById("fields-status").textContent;
  return !status.startsWith("Reading") && !status.startsWith("Choose");
}, null, RUN);

export async function fillFormPage(t) {
  const { page, base, fixtures, shot, step } = t;
  await page.goto(`${base}/tools/fill-form`);
  await page.setInputFiles("#file", path.join(fixtures, "form.pdf"));
  await statusSettled(page);
  const real = await page.isVisible("#pdf-fields");
  if (!real) {
    step(`fill-form: the service could not list the fields (${await page.textContent("#fields-status")}); the page is checked against the engine's answer shape`);
    // The list run is fill-form.js's fetch; Run sends the form by XMLHttpRequest.
    await page.route("**/tools/fill-form/run", (route) => route.request().resourceType() === "fetch"
      ? route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(LISTED) })
      : route.continue());
    await page.setInputFiles("#file", []);
    await page.setInputFiles("#file", path.join(fixtures, "form.pdf"));
    await page.waitForSelector("#pdf-fields:not([hidden])");
  }
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
  if (response.ok()) {
    await page.waitForSelector("#tool-stats");
    assert.match(await page.textContent("#tool-stats"), /^1 page/);
    assert.match(await page.textContent("#tool-notes"), /Fields filled: \d/);
  } else step(`fill-form: filling answered ${response.status()} (engine not wired yet?)`);
  // A PDF without a form says so.
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await statusSettled(page);
  if (real || (await page.textContent("#fields-status")).includes("no form fields")) {
    assert.equal(await page.textContent("#fields-status"), "This PDF has no form fields to fill.");
    assert.equal(await page.isDisabled("#tool button[type=submit]"), true);
  }
  await page.unrouteAll({ behavior: "ignoreErrors" });
  t.errors.take({ refusals: true });
}

export async function conversionForms(t) {
  const { page, base, fixtures, shot, step } = t;
  await page.goto(`${base}/tools/html-to-pdf`);
  assert.deepEqual(await page.locator("#paper option").evaluateAll((o) => o.map((e) => e.value)), ["a4", "letter", "legal", "a3", "a5"]);
  assert.equal(await page.inputValue("#margin"), "10");
  assert.equal(await page.inputValue("#scale"), "1");
  assert.match(await page.getAttribute("#file", "accept"), /\.md.*\.zip/);
  await page.setInputFiles("#file", path.join(fixtures, "page.html"));
  await page.check("#landscape");
  const [html] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/run"), RUN), page.click("#tool button[type=submit]")]);
  if (html.ok()) {
    await page.waitForSelector("#tool-stats");
    assert.match(await page.textContent("#tool-notes li[data-key=not-fetched]"), /https:\/\/example\.com\/x\.png/);
    await shot(page, "17e-html-to-pdf");
  } else step(`html-to-pdf: the run answered ${html.status()} (engine not wired yet?)`);
  await page.goto(`${base}/tools/office-to-pdf`);
  const accept = await page.getAttribute("#file", "accept");
  for (const extension of [".docx", ".doc", ".odt", ".rtf", ".xlsx", ".xls", ".ods", ".pptx", ".ppt", ".odp"]) assert.ok(accept.split(",").includes(extension), extension);
  await page.setInputFiles("#file", path.join(fixtures, "letter.rtf"));
  const [office] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/run"), RUN), page.click("#tool button[type=submit]")]);
  if (office.ok()) {
    await page.waitForSelector("#tool-stats");
    assert.match(await page.textContent("#tool-stats"), /^1 page/);
  } else step(`office-to-pdf: the run answered ${office.status()} (engine not wired yet?)`);
  t.errors.take({ refusals: true });
}
