// Quire's web interface in a real browser (Debian's chromium, driven by playwright-core):
// sign-up, log-in, a key made in the page and used from here, revocation, each tool on a real
// file, files, languages, and the refusals (wrong password, a form without its CSRF token);
// the toolbox's pages in the browser (toolbox-checks.mjs), every tool page at desktop and
// phone widths with no error logged and no CSP violation (watch.mjs).
// Run by tests/tests/web.rs, which starts the stack: QUIRE_WEB_BASE, QUIRE_WEB_FIXTURES,
// QUIRE_WEB_SCREENSHOTS.
import assert from "node:assert/strict";
import path from "node:path";
import { chromium } from "playwright-core";
import { organizeThumbnails, ran, removeBlankPreview, signPage, walkTools, writeFixtures } from "./toolbox-checks.mjs";
import { conversionForms, fillFormPage } from "./toolbox-forms.mjs";
import { pdfaPage, redactPage } from "./toolbox-redact.mjs";
import { supportDesk } from "./support-desk.mjs";
import { watch } from "./watch.mjs";

const base = process.env.QUIRE_WEB_BASE;
const fixtures = process.env.QUIRE_WEB_FIXTURES;
const shots = process.env.QUIRE_WEB_SCREENSHOTS;
const email = `web-${Date.now()}@example.com`;
const password = "correct horse battery staple";

const browser = await chromium.launch({
  executablePath: process.env.QUIRE_WEB_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const step = (name) => console.log(`web: ${name}`);
const shot = (page, name) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
writeFixtures(fixtures);

try {
  const context = await browser.newContext({ locale: "en-US", viewport: { width: 1200, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const errors = await watch(context);
  const page = await context.newPage();
  page.on("dialog", (dialog) => dialog.accept());
  page.on("pageerror", (error) => { throw error; });

  step("landing page");
  await page.goto(`${base}/`);
  assert.equal(await page.textContent("h1"), "Files in, results out.");
  await shot(page, "01-landing");

  step("sign up");
  await page.click("text=Sign up >> nth=0");
  await page.fill("#email", email);
  await page.fill("#password", password);
  await shot(page, "02-signup");
  // Sign-up answers alike for a new address and a known one: the log-in form, with a notice.
  await Promise.all([page.waitForLoadState("load"), page.click("form button[type=submit]")]);
  assert.match(await page.textContent(".notice"), /log in with your password/);
  assert.equal(await page.inputValue("#email"), email);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL("**/dashboard"), page.click("form.stack button[type=submit]")]);
  assert.equal(await page.textContent("#plan"), "FREE");
  assert.match(await page.textContent("#calls-left"), /^100 left today/);
  await shot(page, "03-dashboard");

  step("log out, wrong password, log in");
  await Promise.all([page.waitForURL(`${base}/`), page.click("button:has-text('Log out')")]);
  await page.goto(`${base}/login`);
  await page.fill("#email", email);
  await page.fill("#password", "not the password");
  const refused = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/login") && r.request().method() === "POST"), page.click("form.stack button[type=submit]")]);
  assert.equal(refused[0].status(), 401);
  assert.equal(await page.textContent(".error"), "Wrong e-mail or password.");
  await shot(page, "04-login-refused");
  await page.fill("#password", password);
  await Promise.all([page.waitForURL("**/dashboard"), page.click("form.stack button[type=submit]")]);

  step("create a read-only key, copy it");
  await page.goto(`${base}/dashboard/api-keys`);
  await page.fill("#key-name", "no scope");
  await Promise.all([page.waitForLoadState("load"), page.click("#create-key button[type=submit]")]);
  assert.equal(await page.textContent(".error"), "Give the key a name (1 to 100 characters) and tick at least one scope.");
  assert.equal(await page.locator("#keys").count(), 0);
  await page.fill("#key-name", "read only");
  await page.check("input[name=scope_read]");
  await Promise.all([page.waitForLoadState("load"), page.click("#create-key button[type=submit]")]);
  const key = await page.inputValue("#new-key");
  assert.match(key, /^qk_[0-9A-Za-z]{40}$/);
  await page.click("button[data-copy=new-key]");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
  await shot(page, "05-key-created");

  step("the key from outside the browser: 403 on upload, 200 on support");
  const api = (route, init) => fetch(`${base}${route}`, { ...init, headers: { Authorization: `Bearer ${key}`, ...(init.headers || {}) } });
  const form = new FormData();
  form.append("file", new Blob(["hello"]), "hello.txt");
  const upload = await api("/api/upload", { method: "POST", body: form });
  assert.equal(upload.status, 403);
  assert.equal((await upload.json()).code, "missing-scope");
  const support = () => api("/api/workflows/support/auto", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ rawLog: "ERROR vpn down from 10.0.0.1", locale: "en" }) });
  assert.equal((await support()).status, 200);

  step("revoke it in the page: 401 on its next call");
  await page.goto(`${base}/dashboard/api-keys`);
  await Promise.all([page.waitForURL("**/dashboard/api-keys"), page.click("#keys button:has-text('Revoke')")]);
  assert.equal(await page.textContent("#keys td.revoked"), "revoked");
  await shot(page, "06-key-revoked");
  const afterRevoke = await support();
  assert.equal(afterRevoke.status, 401);
  assert.equal((await afterRevoke.json()).code, "revoked-api-key");

  step("a form posted without the session's CSRF token is refused");
  const cookies = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const forged = await fetch(`${base}/dashboard/api-keys`, {
    method: "POST", headers: { Cookie: cookies, "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: "name=forged&scope_upload=on", redirect: "manual",
  });
  assert.equal(forged.status, 403);
  const crossSite = await fetch(`${base}/api/workflows/support/auto`, {
    method: "POST", headers: { Cookie: cookies, "Content-Type": "application/json", Origin: "https://evil.example" },
    body: JSON.stringify({ rawLog: "x" }),
  });
  assert.equal(crossSite.status, 403);

  step("tool: upload");
  await page.goto(`${base}/tools/upload`);
  await page.setInputFiles("#file", path.join(fixtures, "notes.txt"));
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#share-link");
  const link = await page.inputValue("#share-link");
  assert.match(link, /\/f\/[A-Za-z0-9_-]+$/);
  assert.equal(await (await fetch(link)).text(), "notes from the browser test\n");
  await shot(page, "07-tool-upload");

  step("tool: OCR");
  await page.goto(`${base}/tools/ocr`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#ocr-text");
  assert.match(await page.inputValue("#ocr-text"), /Quire browser test letter/);
  assert.match(await page.textContent("#ocr-stats"), /^2 page/);
  await shot(page, "08-tool-ocr");

  step("tool: compress");
  await page.goto(`${base}/tools/compress-pdf`);
  await page.setInputFiles("#file", path.join(fixtures, "photos.pdf"));
  await page.selectOption("#quality", "screen");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#compress-stats");
  const [, before, after] = (await page.textContent("#compress-stats")).match(/^(\d+) B → (\d+) B/);
  assert.ok(Number(after) < Number(before), `${after} < ${before}`);
  await shot(page, "09-tool-compress");

  step("tool: PDF to images");
  await page.goto(`${base}/tools/pdf-to-images`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.fill("#dpi", "72");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#thumbs img");
  assert.equal(await page.locator("#thumbs img").count(), 2);
  assert.ok(await page.locator("#thumbs img").first().evaluate((img) => img.decode().then(() => img.naturalWidth)) === 595);
  await shot(page, "10-tool-pdf-to-images");

  step("tool: support");
  await page.goto(`${base}/tools/support`);
  await page.fill("#rawLog", "2026-11-21 10:14:22 ERROR vpn: auth failed for CORP\\jdoe from 10.1.2.3\n");
  await page.fill("#ticketContext", "VPN refuses my password since this morning");
  await page.selectOption("#locale", "en");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#anonymized");
  assert.match(await page.inputValue("#anonymized"), /\[DOMAIN_USER_1\] from \[IPV4_1\]/);
  assert.ok((await page.inputValue("#draft")).length > 40);
  await shot(page, "11-tool-support");

  step("errors in words: a tool given a file it cannot take");
  await page.goto(`${base}/tools/compress-pdf`);
  await page.setInputFiles("#file", path.join(fixtures, "notes.txt"));
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#error:not([hidden])");
  assert.match(await page.textContent("#error"), /PDF/);

  step("files: listed with the web calls counted, then deleted");
  await page.goto(`${base}/dashboard`);
  assert.match(await page.textContent("#calls-left"), /^9[0-9] left today/);
  await page.goto(`${base}/dashboard/files`);
  assert.equal(await page.locator("#files tbody tr").count(), 1);
  assert.match(await page.textContent("#files"), /notes\.txt/);
  await shot(page, "12-files");
  await Promise.all([page.waitForURL("**/dashboard/files"), page.click("#files button:has-text('Delete')")]);
  assert.equal(await page.locator("#files").count(), 0);
  assert.equal((await fetch(link)).status, 404);

  step("toolbox: the tool list filters as one types");
  await page.goto(`${base}/tools`);
  await page.fill("#tool-search", "merge");
  assert.equal(await page.locator("#tool-list li:visible").count(), 1);
  await shot(page, "12a-tools");

  step("toolbox: merge two PDFs in the order set in the page, keep the result");
  await page.goto(`${base}/tools/merge`);
  await page.setInputFiles("#file", [path.join(fixtures, "letter.pdf"), path.join(fixtures, "photos.pdf")]);
  assert.equal(await page.locator("#file-order li").count(), 2);
  // Each file's first page drawn beside its name (pdf.js, in the page).
  await page.waitForFunction(() => document.querySelectorAll("#file-order li img.thumb.drawn").length === 2);
  await page.click("#file-order li:first-child button[aria-label='Move down']");
  assert.match(await page.textContent("#file-order li:first-child"), /photos\.pdf/);
  await page.click("#tool button[type=submit]");
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^4 page/);
  assert.equal(await page.getAttribute("#result a.button", "download"), "photos-merged.pdf");
  await page.click("#keep-button");
  await page.waitForSelector("#kept-link");
  const kept = await page.inputValue("#kept-link");
  const keptPdf = Buffer.from(await (await fetch(kept)).arrayBuffer());
  assert.equal(keptPdf.subarray(0, 5).toString(), "%PDF-");
  await shot(page, "12b-tool-merge");

  step("toolbox: split by ranges, organize, rotate");
  await page.goto(`${base}/tools/split`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.fill("#ranges", "1,2");
  await page.click("#tool button[type=submit]");
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^2 files, 2 page/);
  await shot(page, "12c-tool-split");
  await page.goto(`${base}/tools/organize`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.fill("#order", "2,1,blank");
  await page.click("#tool button[type=submit]");
  await ran(page);
  assert.match(await page.textContent("#tool-stats"), /^3 page/);
  await page.goto(`${base}/tools/rotate`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.fill("#pages", "9");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#error:not([hidden])");
  assert.match(await page.textContent("#error"), /9/);
  await shot(page, "12d-tool-rotate-error");

  step("toolbox: metadata shown as a report, pages as JPEG thumbnails, two PDFs compared");
  await page.goto(`${base}/tools/metadata`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#tool-report dl");
  await shot(page, "12e-tool-metadata");
  await page.goto(`${base}/tools/pdf-to-jpg`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.fill("#dpi", "50");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#thumbs img");
  assert.equal(await page.locator("#thumbs img").count(), 2);
  await page.goto(`${base}/tools/compare`);
  await page.setInputFiles("#file", path.join(fixtures, "letter.pdf"));
  await page.setInputFiles("#changed", path.join(fixtures, "letter-changed.pdf"));
  await page.waitForFunction(() => document.querySelectorAll("#compare-preview img.thumb.drawn").length === 2);
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#compare-stats");
  assert.match(await page.textContent("#compare-stats"), /2/);
  assert.ok(await page.locator("#comparison del").count() > 0);
  await shot(page, "12f-tool-compare");

  step("toolbox in the browser: what went before logged no error but the refusals it asked for");
  assert.deepEqual(errors.take({ refusals: true }), []);
  const toolboxChecks = { page, base, fixtures, shot, step, errors };
  step("toolbox: organize shows the pages and builds the order");
  await organizeThumbnails(toolboxChecks);
  step("toolbox: remove-blank's preview marks the page that would go");
  await removeBlankPreview(toolboxChecks);
  step("toolbox: sign places the box on the page, the drawn signature is sent as a PNG");
  await signPage(toolboxChecks);
  step("toolbox: fill a form builds the PDF's fields as inputs");
  await fillFormPage(toolboxChecks);
  step("toolbox: the HTML or Markdown and Office forms");
  await conversionForms(toolboxChecks);
  step("toolbox: redact marks an area and a search hit, and says what it checked");
  await redactPage(toolboxChecks);
  step("toolbox: PDF/A says its output conforms");
  await pdfaPage(toolboxChecks);
  step("every tool page at 1200px: no error logged, no CSP violation");
  const listed = await walkTools(toolboxChecks, 1200);

  step("password change ends the other sessions, keeps this browser in; the new password logs in");
  await page.goto(`${base}/dashboard/account`);
  await page.fill("#current", "not the password");
  await page.fill("#new", "an even better passphrase");
  await page.click("#change-password button[type=submit]");
  assert.match(await page.textContent(".error"), /current password is wrong/);
  await page.fill("#current", password);
  await page.fill("#new", "an even better passphrase");
  await shot(page, "13-account");
  await Promise.all([page.waitForURL("**/dashboard/account?changed=1"), page.click("#change-password button[type=submit]")]);
  assert.match(await page.textContent(".notice"), /Every other session/);
  await Promise.all([page.waitForURL(`${base}/`), page.click("button:has-text('Log out')")]);
  await page.goto(`${base}/login`);
  await page.fill("#email", email);
  await page.fill("#password", "an even better passphrase");
  await Promise.all([page.waitForURL("**/dashboard"), page.click("form.stack button[type=submit]")]);

  step("French, from Accept-Language and from the switch");
  const french = await browser.newContext({ locale: "fr-FR" });
  const frPage = await french.newPage();
  await frPage.goto(`${base}/`);
  assert.equal(await frPage.getAttribute("html", "lang"), "fr");
  assert.equal(await frPage.textContent("h1"), "Des fichiers en entrée, des résultats en sortie.");
  await shot(frPage, "14-landing-fr");
  await frPage.goto(`${base}/login`);
  await frPage.fill("#email", email);
  await frPage.fill("#password", "an even better passphrase");
  await Promise.all([frPage.waitForURL("**/dashboard"), frPage.click("form.stack button[type=submit]")]);
  assert.equal(await frPage.textContent("h1"), "Tableau de bord");
  await frPage.goto(`${base}/tools/ocr`);
  await frPage.setInputFiles("#file", path.join(fixtures, "notes.txt"));
  await frPage.click("#tool button[type=submit]");
  await frPage.waitForSelector("#error:not([hidden])");
  assert.match(await frPage.textContent("#error"), /^Cet outil n'accepte pas ce type de fichier/);
  await shot(frPage, "15-tool-error-fr");
  await frPage.goto(`${base}/tools/sign`);
  assert.equal(await frPage.textContent("h1"), "Signer un PDF");
  await frPage.goto(`${base}/tools/html-to-pdf`);
  assert.equal(await frPage.textContent("h1"), "HTML ou Markdown en PDF");
  await supportDesk({ page, frPage, base, step, shot });
  await frPage.click("a[href='/lang/en']");
  assert.equal(await frPage.getAttribute("html", "lang"), "en");

  step("a phone-sized screen: no page is wider than the screen");
  const phone = await browser.newContext({ locale: "en-US", viewport: { width: 390, height: 844 } });
  const phoneErrors = await watch(phone);
  const phonePage = await phone.newPage();
  await phonePage.goto(`${base}/login`);
  await phonePage.fill("#email", email);
  await phonePage.fill("#password", "an even better passphrase");
  await Promise.all([phonePage.waitForURL("**/dashboard"), phonePage.click("form.stack button[type=submit]")]);
  for (const route of ["/dashboard", "/dashboard/api-keys", "/tools/support", "/tools", "/"]) {
    await phonePage.goto(`${base}${route}`);
    const width = await phonePage.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `${route} is ${width}px wide on a 390px screen`);
  }
  assert.equal(await walkTools({ page: phonePage, base, errors: phoneErrors }, 390), listed);
  // The sign page's pad and the organize grid fit a phone once a PDF is chosen.
  await phonePage.goto(`${base}/tools/organize`);
  await phonePage.setInputFiles("#file", path.join(fixtures, "three-pages.pdf"));
  await phonePage.waitForSelector("#page-grid .page-tile");
  assert.ok(await phonePage.evaluate(() => document.documentElement.scrollWidth) <= 390, "organize's grid fits");
  await shot(phonePage, "16b-organize-phone");
  await phonePage.goto(`${base}/tools/sign`);
  await phonePage.setInputFiles("#file", path.join(fixtures, "three-pages.pdf"));
  await phonePage.waitForSelector("#sign-place:not([hidden]) canvas");
  assert.ok(await phonePage.evaluate(() => document.documentElement.scrollWidth) <= 390, "sign's page fits");
  await shot(phonePage, "16c-sign-phone");
  assert.deepEqual(phoneErrors.take(), []);
  await phonePage.goto(`${base}/dashboard`);
  await shot(phonePage, "16-dashboard-phone");

  step("every page carries a strict CSP");
  const headers = (await fetch(`${base}/login`)).headers;
  assert.match(headers.get("content-security-policy"), /frame-ancestors 'none'/);
  assert.equal(headers.get("x-content-type-options"), "nosniff");
  console.log("web: all passed");
} catch (error) {
  // What each page showed when the check failed, for whoever reads the failure.
  let n = 0;
  for (const context of browser.contexts()) {
    for (const page of context.pages()) await shot(page, `failure-${++n}`).catch(() => {});
  }
  throw error;
} finally {
  await browser.close();
}
