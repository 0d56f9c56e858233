// End-to-end encrypted shares in a real browser (Debian's chromium, driven by playwright-core):
// the sender's /share page encrypts and uploads, a recipient's page in another browser context
// (no session, no cookies) decrypts and saves through the service worker, and the bytes saved
// are the original's. Then: the separate secret (with a password) and wrong tries, a text, a
// link preview that burns nothing, a used-up, an expired and a revoked link, a ciphertext chunk
// altered on the server's disk, an upload cut off and resumed, and (share-big.mjs) a large file
// both ways with the browser's memory measured.
// Run by tests/tests/web.rs: QUIRE_WEB_BASE, QUIRE_WEB_FIXTURES, QUIRE_WEB_SCREENSHOTS,
// QUIRE_WEB_SESSION (a logged-in session's cookie), QUIRE_WEB_DATA_DIR (the stack's blobs).
import assert from "node:assert/strict";
import { closeSync, openSync, readFileSync, readSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { bigShare } from "./share-big.mjs";
import { base, ciphertextLength, download, info, open, sameBytes, share, storedByteAt, storedOfSize } from "./share-helpers.mjs";
import { watch } from "./watch.mjs";

const fixtures = process.env.QUIRE_WEB_FIXTURES;
const shots = process.env.QUIRE_WEB_SCREENSHOTS;
const dataDir = process.env.QUIRE_WEB_DATA_DIR;
const [cookieName, cookieValue] = process.env.QUIRE_WEB_SESSION.split("=");
const small = path.join(fixtures, "relevé été.bin");
const medium = path.join(fixtures, "medium.bin");

const browser = await chromium.launch({
  executablePath: process.env.QUIRE_WEB_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const step = (name) => console.log(`share: ${name}`);
const shot = (page, name) => page.screenshot({ path: path.join(shots, `share-${name}.png`), fullPage: true });

try {
  step("the share page wants a logged-in account");
  const anonymous = await browser.newContext({ locale: "en-US" });
  const visitor = await anonymous.newPage();
  await visitor.goto(`${base}/share`);
  assert.equal(new URL(visitor.url()).pathname, "/login");

  const senderContext = await browser.newContext({ locale: "en-US", viewport: { width: 1100, height: 900 } });
  await senderContext.addCookies([{ name: cookieName, value: cookieValue, url: base }]);
  const senderErrors = await watch(senderContext);
  const sender = await senderContext.newPage();
  sender.on("pageerror", (error) => { throw error; });
  // The recipient: another browser profile, without the sender's session.
  const recipientContext = await browser.newContext({ locale: "en-US", acceptDownloads: true });
  await recipientContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const recipientErrors = await watch(recipientContext);
  step("share a file with the key in the link");
  await sender.goto(`${base}/share`);
  assert.match(await sender.textContent("#trust"), /cannot be scanned by the antivirus/);
  await shot(sender, "01-send");
  const first = await share(sender, { file: small });
  assert.match(first.link, new RegExp(`^${base}/s/[^#/]+#[A-Za-z0-9_-]{43}$`));
  assert.equal(await sender.locator("#share-result img.qr").count(), 1);
  assert.match(await sender.getAttribute("#share-result img.qr", "src"), /^data:image\/gif;base64,/);
  await shot(sender, "02-sent");

  step("a link preview's plain GET changes nothing");
  const [link] = first.link.split("#");
  const preview = await fetch(link, { headers: { "User-Agent": "Slackbot-LinkExpanding 1.0" } });
  assert.equal(preview.status, 200);
  assert.match(await preview.text(), /data-token=/);
  const [status, facts] = await info(first.link);
  assert.equal(status, 200);
  assert.equal(facts.downloadsLeft, 1);
  assert.equal(facts.size, ciphertextLength(statSync(small).size));
  // What the server stores is not the file: no 32-byte window of the plaintext is in the blob.
  const stored = Buffer.concat(storedOfSize(dataDir, facts.size).map((file) => readFileSync(file)));
  const plain = readFileSync(small);
  for (let at = 0; at + 32 <= plain.length; at += Math.max(1, Math.floor(plain.length / 16))) {
    assert.equal(stored.indexOf(plain.subarray(at, at + 32)), -1, `plaintext bytes at ${at} are stored as they are`);
  }

  step("the recipient opens the link: name and size, nothing claimed; downloads");
  let page = await open(recipientContext, first.link);
  assert.ok(!(await page.isVisible("#share-error")), await page.textContent("#share-error"));
  assert.match(await page.textContent("#share-name"), /relevé été\.bin \(/);
  assert.match(await page.textContent("#trust"), /trust the person/);
  assert.equal((await info(first.link))[1].downloadsLeft, 1);
  await shot(page, "03-opened");
  let [saved, file] = await download(page);
  assert.equal(saved.suggestedFilename(), "relevé été.bin");
  await sameBytes(file, small);
  await page.waitForSelector("#download-status:has-text('Saved')");
  await shot(page, "04-saved");

  step("without a service worker the page decrypts in memory, and says so");
  const noWorker = await browser.newContext({ locale: "en-US", acceptDownloads: true, serviceWorkers: "block" });
  const inMemory = await share(sender, { file: small, downloads: 2 });
  page = await open(noWorker, inMemory.link);
  [saved, file] = await download(page);
  assert.ok(await page.isVisible("#memory-notice"));
  assert.equal(saved.suggestedFilename(), "relevé été.bin");
  await sameBytes(file, small);
  // One download left: the button works again.
  await page.waitForSelector("#share-facts:has-text('1 download(s) left')");
  assert.ok(await page.isEnabled("#download"));
  await noWorker.close();

  step("the used-up link says so");
  assert.equal((await info(first.link))[0], 410);
  page = await open(recipientContext, first.link);
  assert.match(await page.textContent("#share-error"), /no longer available/);
  await shot(page, "05-used-up");

  step("a separate secret and a password: wrong tries say so and use no download");
  const apart = await share(sender, { file: small, separate: true, password: "open sesame" });
  assert.ok(!apart.link.includes("#"));
  assert.match(apart.code, /^([0-9A-HJKMNP-TV-Z]{4}-){4}[0-9A-HJKMNP-TV-Z]{4}$/);
  assert.equal(await sender.locator("#share-result img.qr").count(), 2);
  assert.match(await sender.textContent("#two-channels"), /two different channels/);
  await shot(sender, "06-separate-secret");
  page = await open(recipientContext, apart.link);
  assert.ok(await page.isVisible("#share-code"));
  assert.ok(await page.isVisible("#share-password"));
  const wrongCode = apart.code.startsWith("0") ? `1${apart.code.slice(1)}` : `0${apart.code.slice(1)}`;
  await page.fill("#share-code", wrongCode);
  await page.fill("#share-password", "open sesame");
  await page.click("#unlock button[type=submit]");
  await page.waitForSelector("#share-error:has-text('tries left')");
  assert.match(await page.textContent("#share-error"), /Wrong secret or password: 4 tries left/);
  await shot(page, "07-wrong-secret");
  // A code that cannot be one is refused in the page, without spending a try.
  await page.fill("#share-code", "ABCD-EFGH");
  await page.click("#unlock button[type=submit]");
  await page.waitForSelector("#share-error:has-text('20 letters and digits')");
  await page.fill("#share-code", apart.code);
  await page.fill("#share-password", "open sesame!");
  await page.click("#unlock button[type=submit]");
  await page.waitForSelector("#share-error:has-text('3 tries left')");
  const [, afterWrong] = await info(apart.link);
  assert.equal(afterWrong.triesLeft, 3);
  assert.equal(afterWrong.downloadsLeft, 1);
  // As a person retypes it: lower case, spaces for dashes, O for 0.
  await page.fill("#share-code", apart.code.toLowerCase().replaceAll("-", " ").replaceAll("0", "o"));
  await page.fill("#share-password", "open sesame");
  await page.click("#unlock button[type=submit]");
  await page.waitForSelector("#opened:not([hidden])");
  [, file] = await download(page);
  await sameBytes(file, small);

  step("a text secret");
  const secretText = "vpn: Zq8!mT3#wL9 — ünïcödé ✓\nsecond line";
  const textShare = await share(sender, { text: secretText });
  page = await open(recipientContext, textShare.link);
  assert.match(await page.textContent("#share-name"), /A text/);
  await page.click("#download");
  await page.waitForSelector("#share-text-value");
  assert.equal(await page.inputValue("#share-text-value"), secretText);
  await page.click("#share-text-result button");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secretText);
  await shot(page, "08-text");
  assert.equal((await info(textShare.link))[0], 410);

  step("an expired link");
  const shortLived = await share(sender, { file: small, lifetime: 1 });
  await new Promise((resolve) => setTimeout(resolve, 2500));
  page = await open(recipientContext, shortLived.link);
  assert.match(await page.textContent("#share-error"), /no longer available/);

  step("the sender's shares in the dashboard, and a revocation");
  const revoked = await share(sender, { file: small, downloads: 3 });
  await sender.goto(`${base}/dashboard/files`);
  const row = sender.locator("#files tr", { has: sender.locator(`input[value="${revoked.link.split("#")[0]}"]`) });
  assert.match(await row.textContent(), /Encrypted share/);
  assert.match(await row.textContent(), /3 left/);
  assert.doesNotMatch(await sender.textContent("#files"), /relevé/);
  await shot(sender, "09-dashboard");
  sender.once("dialog", (dialog) => dialog.accept());
  await Promise.all([sender.waitForURL("**/dashboard/files"), row.locator("button:has-text('Revoke')").click()]);
  page = await open(recipientContext, revoked.link);
  assert.ok(await page.isVisible("#share-error"));
  assert.ok(!(await page.isVisible("#opened")));

  step("a ciphertext chunk altered on the server's disk: the page says the file is damaged");
  const tampered = await share(sender, { file: medium });
  const length = ciphertextLength(statSync(medium).size);
  flipByte(...storedByteAt(storedOfSize(dataDir, length), Math.floor(length / 2)));
  page = await open(recipientContext, tampered.link);
  const [, damagedPath, failure] = await download(page);
  assert.equal(damagedPath, null);
  assert.ok(failure, "the download fails");
  await page.waitForSelector("#share-error:has-text('damaged')");
  await shot(page, "10-damaged");

  step("an upload cut off by the network resumes where it stopped");
  // The second PATCH is cut as a dropped connection would: the page waits, asks the server
  // where its copy ends (HEAD) and goes on from there, not from the start.
  const offsets = [];
  let patches = 0;
  await senderContext.route("**/api/tus/*", async (route) => {
    if (route.request().method() !== "PATCH") return route.continue();
    offsets.push(Number(route.request().headers()["upload-offset"]));
    patches += 1;
    if (patches === 2) return route.abort("connectionreset");
    return route.continue();
  });
  const resumed = await share(sender, { file: medium });
  await senderContext.unroute("**/api/tus/*");
  assert.ok(offsets.length >= 4, `PATCHes at ${offsets}`);
  assert.equal(offsets[0], 0);
  assert.ok(offsets[1] > 0 && offsets[2] === offsets[1], `the retry starts where the server's copy ends: ${offsets}`);
  page = await open(recipientContext, resumed.link);
  [, file] = await download(page);
  await sameBytes(file, medium);

  await bigShare({ browser, sender, senderContext, recipientContext, fixtures, step });

  assert.deepEqual(senderErrors.take({ refusals: true }).filter((e) => !/ERR_CONNECTION_RESET|ERR_FAILED/.test(e)), []);
  assert.deepEqual(recipientErrors.take({ refusals: true }), []);
  console.log("share: all passed");
} finally {
  await browser.close();
}

function flipByte(file, at) {
  const fd = openSync(file, "r+");
  try {
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, at);
    byte[0] ^= 0x5a;
    writeSync(fd, byte, 0, 1, at);
  } finally {
    closeSync(fd);
  }
}
