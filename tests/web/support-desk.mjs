// The support tool's desk in Chromium (http-edge/web/src/support-desk.js): the comparison of the
// raw and anonymized logs with its legend and Previous/Next, a missed item marked, a false
// positive restored, the reply's placeholders resolved, the final text copied as plain text and
// as Markdown, the desk found again after a reload, and forgotten by Clear; in French too.
import assert from "node:assert/strict";

const LOG = [
  "2026-11-21 10:14:22 ERROR vpn: auth failed for CORP\\jdoe from 10.1.2.3",
  "2026-11-21 10:15:01 WARN Alice Martin <alice.martin@acme-corp.net> retried via gw.acme-corp.net from 10.1.2.3.",
  "2026-11-21 10:16:40 ERROR vpn: Alice Martin locked out",
].join("\n");

const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());
const anonymized = (page) => page.inputValue("#anonymized");
const legend = (page) => page.$$eval("#desk-legend li", (items) => items.map((li) => li.textContent));

/// `page`: a logged-in English page whose context may read the clipboard.
export async function supportDesk({ page, frPage, base, step, shot }) {
  step("support desk: the comparison, line by line");
  await page.goto(`${base}/tools/support`);
  await page.fill("#rawLog", LOG);
  await page.selectOption("#locale", "en");
  await page.click("#tool button[type=submit]");
  await page.waitForSelector("#desk-compare");
  assert.equal(await page.locator("#desk-compare .desk-row:not(.desk-head)").count(), 3);
  assert.equal(await page.locator("#desk-compare .unpaired").count(), 0);
  const before = await anonymized(page);
  assert.match(before, /auth failed for \[DOMAIN_USER_1\] from \[IPV4_1\]/);
  assert.match(before, /Alice Martin/, "the anonymizer does not take names: the test marks one");
  const fqdn = /via (\[FQDN_\d+\])/.exec(before)?.[1];
  assert.ok(fqdn, `the host name is replaced: ${before}`);
  // Each item on both sides: the raw value left, its placeholder right, the same kind.
  const raw = await page.$$eval("#desk-compare code.raw mark", (marks) => marks.map((m) => [m.dataset.item, m.textContent]));
  assert.deepEqual(raw.slice(0, 2), [["[DOMAIN_USER_1]", "CORP\\jdoe"], ["[IPV4_1]", "10.1.2.3"]]);
  assert.ok(raw.some(([item, text]) => item === fqdn && text === "gw.acme-corp.net"), JSON.stringify(raw));
  assert.ok((await legend(page)).includes("IPV4 2"), (await legend(page)).join());
  const total = await page.locator("#desk-compare code.anonymized mark").count();
  await page.click("#desk-next");
  await page.click("#desk-next");
  assert.equal(await page.textContent("#desk-position"), `2 / ${total}`);
  assert.equal(await page.locator("mark.current").count(), 2);
  // The keyboard: Alt+ArrowUp goes back, and the item is offered for restoring.
  await page.keyboard.press("Alt+ArrowUp");
  assert.equal(await page.textContent("#desk-position"), `1 / ${total}`);
  assert.match(await page.textContent("#desk-picked"), /\[DOMAIN_USER_1\] = CORP\\jdoe/);
  await shot(page, "11b-support-compare");

  step("support desk: a missed item marked everywhere");
  await page.fill("#desk-missed", "Alice Matrin");
  await page.click("#desk-mark button[type=submit]");
  assert.match(await page.textContent("#desk-mark-error"), /not in the anonymized log/);
  await page.fill("#desk-missed", "alice martin");
  await page.selectOption("#desk-kind", "NAME");
  await page.click("#desk-mark button[type=submit]");
  await page.waitForSelector("#desk-corrections li");
  const marked = await anonymized(page);
  assert.doesNotMatch(marked, /Alice Martin/);
  assert.equal(marked.match(/\[NAME_1\]/g).length, 2);
  assert.ok((await legend(page)).includes("NAME 2"));
  assert.deepEqual(await page.$$eval("#desk-compare code.raw mark[data-item='[NAME_1]']", (m) => m.map((x) => x.textContent)), ["Alice Martin", "Alice Martin"]);
  assert.match(await page.textContent("#support-stats"), new RegExp(`^${total + 2} items replaced`));

  step("support desk: a false positive restored");
  await page.click(`#desk-compare code.anonymized mark[data-item='${fqdn}']`);
  await page.click("#desk-restore");
  const restored = await anonymized(page);
  assert.match(restored, /retried via gw\.acme-corp\.net from/);
  assert.equal(await page.locator("#desk-corrections li").count(), 2);

  step("support desk: the reply's placeholders, then final, copied");
  const draft = await page.inputValue("#draft");
  await page.fill("#draft", `${draft}\n\nAsk [NAME_1] to retry from [IPV4_1].`);
  await page.locator("#draft").blur();
  await page.waitForSelector("#desk-chips li[data-placeholder='[NAME_1]']");
  assert.ok(await page.isDisabled("#desk-finalize"));
  // The chip offers the raw value; the address is kept as a placeholder on purpose.
  assert.equal(await page.inputValue("#desk-chips li[data-placeholder='[NAME_1]'] input"), "Alice Martin");
  await page.click("#desk-chips li[data-placeholder='[NAME_1]'] button.fill");
  for (const placeholder of await page.$$eval("#desk-chips li", (items) => items.map((li) => li.dataset.placeholder))) {
    await page.click(`#desk-chips li[data-placeholder='${placeholder}'] button.keep`);
  }
  await page.click("#desk-finalize");
  assert.ok(await page.getAttribute("#draft", "readonly") !== null);
  const final = await page.inputValue("#draft");
  assert.match(final, /Ask Alice Martin to retry from \[IPV4_1\]\.$/);
  await page.click("#desk-copy-text");
  assert.equal(await clipboard(page), final);
  await page.click("#desk-copy-markdown");
  assert.match(await clipboard(page), /Ask Alice Martin to retry from `\[IPV4_1\]`\.\n$/);
  await shot(page, "11c-support-final");

  step("support desk: a reload finds it as it was; Clear forgets it");
  await page.reload();
  await page.waitForSelector("#desk-final-state");
  assert.equal(await anonymized(page), restored);
  assert.equal(await page.inputValue("#draft"), final);
  assert.equal(await page.locator("#desk-corrections li").count(), 2);
  await page.click("#desk-clear");
  assert.ok(await page.isHidden("#result"));
  assert.equal(await page.inputValue("#rawLog"), "");
  assert.deepEqual(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("quire-support-desk"))), []);
  await page.reload();
  assert.ok(await page.isHidden("#result"));

  step("support desk: in French");
  await frPage.goto(`${base}/tools/support`);
  await frPage.fill("#rawLog", LOG);
  await frPage.click("#tool button[type=submit]");
  await frPage.waitForSelector("#desk-compare");
  assert.equal(await frPage.textContent("#desk-comparison h2"), "Avant et après");
  assert.equal(await frPage.textContent("#desk-finalize"), "Finaliser");
  await frPage.click("#desk-clear");
}
