// The browser-local tools (/local/<slug>) in Chromium: each page is loaded, the network is cut
// (Playwright's offline mode), and the tool's own check (local-<slug>.mjs) runs it on real
// files and verifies what it gives; then no request may have left the page after it loaded,
// none may have been refused by the CSP, and nothing may have been logged as an error. Also:
// no account is needed, the pages in French, and no page wider than a phone's screen.
// Run by tests/tests/web/local_tools.rs, which starts the stack and writes the fixtures
// (local-fixtures.py): QUIRE_WEB_BASE, QUIRE_WEB_FIXTURES, QUIRE_WEB_SCREENSHOTS.
import assert from "node:assert/strict";
import path from "node:path";
import { chromium } from "playwright-core";
import { watch } from "./watch.mjs";

const base = process.env.QUIRE_WEB_BASE;
const fixtures = process.env.QUIRE_WEB_FIXTURES;
const shots = process.env.QUIRE_WEB_SCREENSHOTS;
/// The tools, as /local lists them.
const TOOLS = ["social-resize", "og-preview", "text-on-image", "qr", "image-optimize", "favicon", "exif-strip", "minify"];

const browser = await chromium.launch({
  executablePath: process.env.QUIRE_WEB_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const step = (name) => console.log(`local: ${name}`);
const shot = (page, name) => page.screenshot({ path: path.join(shots, `local-${name}.png`), fullPage: true });

try {
  step("the list, without an account");
  const anonymous = await browser.newContext({ locale: "en-US" });
  const list = await anonymous.newPage();
  await list.goto(`${base}/local`);
  const links = await list.$$eval("a[href^='/local/']", (as) => as.map((a) => a.getAttribute("href")));
  assert.deepEqual(links.sort(), TOOLS.map((t) => `/local/${t}`).sort());
  await list.goto(`${base}/`);
  assert.equal(await list.locator("a[href^='/local/']").count(), TOOLS.length, "the landing page links every local tool");
  await anonymous.close();

  for (const slug of TOOLS) {
    const { check } = await import(`./local-${slug}.mjs`);
    const context = await browser.newContext({ acceptDownloads: true, locale: "en-US", viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const errors = await watch(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.pageErrors = [...(errors.pageErrors || []), error.message]);
    await page.goto(`${base}/local/${slug}`);
    await page.waitForLoadState("load");
    // A tool that loads more after its page (image-optimize's encoders) says so until done.
    await page.waitForSelector("#local-tool:not([data-loading])", { timeout: 60_000 });
    assert.match(await page.textContent(".local-badge"), /nothing you drop here is sent anywhere/);
    // From here on, nothing may go out: the network is cut, and any request is recorded.
    const sent = [];
    context.on("request", (request) => {
      if (!/^(blob|data):/.test(request.url())) sent.push(`${request.method()} ${request.url()}`);
    });
    await context.setOffline(true);
    await check(page, { fixtures, step, shot: (p, name) => shot(p, `${slug}-${name}`) });
    assert.deepEqual(sent, [], `${slug}: requests after the page loaded`);
    assert.deepEqual(errors.take(), [], `${slug}: errors logged`);
    assert.deepEqual(errors.pageErrors || [], [], `${slug}: uncaught errors`);
    await context.close();
  }

  step("in French, and on a phone's screen");
  const french = await browser.newContext({ locale: "fr-FR", viewport: { width: 390, height: 844 } });
  const frenchErrors = await watch(french);
  const page = await french.newPage();
  for (const slug of TOOLS) {
    await page.goto(`${base}/local/${slug}`);
    await page.waitForSelector("#local-tool > *");
    assert.equal(await page.getAttribute("html", "lang"), "fr");
    assert.match(await page.textContent(".local-badge"), /rien de ce que vous déposez ici n'est envoyé/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `/local/${slug} is ${width}px wide on a 390px screen`);
    await shot(page, `${slug}-fr-phone`);
  }
  assert.deepEqual(frenchErrors.take(), []);
  console.log("local: all passed");
} finally {
  await browser.close();
}
