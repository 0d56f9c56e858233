// A large file shared and received (QUIRE_SHARE_MIB, 200 MiB in the tests) with the browser's
// memory measured on both sides: the page encrypts piece by piece and the service worker
// decrypts as the download is saved, so neither holds the file. With QUIRE_SHARE_BENCH set
// (scripts/bench.sh share), the throughputs are then measured apart from the memory (reading
// the browser's memory ten times a second takes CPU from the transfer), in three rounds that
// each share and receive the file and move the same bytes plainly (POST, tus in the share's
// piece size, GET); the medians are printed side by side.
import assert from "node:assert/strict";
import { execSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";
import { base, download, fill, mib, measured, open, sameBytes, submit } from "./share-helpers.mjs";

/// The browser may grow by this much while it moves the file, whatever the file's size.
const MEMORY_BOUND = 300 * 1048576;
/// Rounds of the throughput bench; the median of each figure is printed.
const ROUNDS = 5;
/// The share page's PATCH size (share/pieces.mjs), which the plain tus upload uses too.
const PIECE_MIB = 32;

export async function bigShare({ sender, senderContext, recipientContext, fixtures, step }) {
  const big = path.join(fixtures, "big.bin");
  const size = statSync(big).size;
  step(`a ${mib(size)} MiB file both ways, memory measured`);
  // The form filled first: what is measured is the transfer, not the page.
  await fill(sender, { file: big });
  const up = await measured(() => submit(sender));
  const recipient = await open(recipientContext, up.result.link);
  const down = await measured(() => receive(recipient));
  await sameBytes(down.result, big);
  await recipient.close();
  const line = (what, run) => `share: ${what}: ${run.seconds.toFixed(1)} s; ` +
    `browser memory ${mib(run.before)} MiB before, ${mib(run.peak)} MiB at most (+${mib(run.growth)} MiB)`;
  console.log(line("encrypt and upload", up));
  console.log(line("download and decrypt", down));
  assert.ok(up.growth < MEMORY_BOUND, `the upload grew the browser by ${mib(up.growth)} MiB`);
  assert.ok(down.growth < MEMORY_BOUND, `the download grew the browser by ${mib(down.growth)} MiB`);
  await cutAtHandover({ sender, senderContext, recipientContext, big, step });
  if (process.env.QUIRE_SHARE_BENCH) await bench({ sender, recipientContext, big, size, step });
}

/// The page starts the next range's worker while a worker sends its last piece (share/upload.mjs):
/// that PATCH cut off, the prepared worker (told the wrong offset) is dropped and the upload
/// resumes where the server's copy ends, the file whole.
async function cutAtHandover({ sender, senderContext, recipientContext, big, step }) {
  step("an upload cut at a worker's last PATCH resumes there");
  const offsets = [];
  await senderContext.route("**/api/tus/*", async (route) => {
    if (route.request().method() !== "PATCH") return route.continue();
    offsets.push(Number(route.request().headers()["upload-offset"]));
    // Pieces 1 and 2 are the first worker's range.
    if (offsets.length === 2) return route.abort("connectionreset");
    return route.continue();
  });
  await fill(sender, { file: big });
  const { link } = await submit(sender);
  await senderContext.unroute("**/api/tus/*");
  const piece = PIECE_MIB * (65536 + 16) * 16;
  assert.equal(offsets[1], 31 + piece, `PATCHes at ${offsets}`);
  assert.equal(offsets[2], offsets[1], `the retry starts where the server's copy ends: ${offsets}`);
  assert.equal(offsets[3], 31 + 2 * piece, `then the next piece: ${offsets}`);
  const recipient = await open(recipientContext, link);
  await sameBytes(await receive(recipient), big);
  await recipient.close();
}

/// Downloads the share open in `recipient` until the page says it is saved; the saved file.
async function receive(recipient) {
  const [, file] = await download(recipient);
  await recipient.waitForSelector("#download-status:has-text('Saved')");
  return file;
}

/// Writes the bytes the transfer before left in the page cache to disk, so that the kernel's
/// write-back does not take CPU from the next one (each transfer writes 200 MiB, on the server
/// or in the browser's downloads).
function settle() {
  execSync("sync");
}

/// `work` timed, nothing else.
async function timed(work) {
  const started = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - started) / 1000 };
}

async function bench({ sender, recipientContext, big, size, step }) {
  const runs = { up: [], down: [], post: [], tus: [], get: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    step(`throughput, round ${round} of ${ROUNDS}`);
    await fill(sender, { file: big });
    settle();
    runs.up.push(await clickTimed(sender, "#share-form button[type=submit]", "#share-result:not([hidden]), #share-error:not([hidden])"));
    assert.ok(await sender.isVisible("#share-result"), await sender.textContent("#share-error"));
    const recipient = await open(recipientContext, await sender.inputValue("#share-link"));
    settle();
    const down = await timed(() => receive(recipient));
    await sameBytes(down.result, big);
    await recipient.close();
    runs.down.push(down.seconds);
    settle();
    const post = await plainPost(sender, big);
    runs.post.push(post.seconds);
    settle();
    runs.tus.push(await plainTus(sender, big, size));
    settle();
    runs.get.push((await plainGet(recipientContext, post.link, big)).seconds);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const rate = (seconds) => size / 1e6 / seconds;
  const line = (what, list) => console.log(`share: ${what}: ${rate(median(list)).toFixed(1)} MB/s (median of ` +
    `${list.map((s) => s.toFixed(2)).join(", ")} s)`);
  line("encrypt and upload", runs.up);
  line("download and decrypt", runs.down);
  line("plain upload (POST /api/upload)", runs.post);
  line(`plain upload (tus, ${PIECE_MIB} MiB PATCHes)`, runs.tus);
  line("plain download (GET /f/{token})", runs.get);
  const ratio = (a, b) => (median(b) / median(a)).toFixed(2);
  console.log(`share: encrypted upload ${ratio(runs.up, runs.post)}x the throughput of a plain POST, ${ratio(runs.up, runs.tus)}x ` +
    `that of a plain tus upload; decrypting download ${ratio(runs.down, runs.post)}x the plain POST's, ` +
    `${ratio(runs.down, runs.get)}x the plain download's (goal >= 0.5x the plain upload)`);
}

/// Clicks `button` and resolves with the seconds until an element matches `done`, timed in the
/// page: Playwright's own waiting added 0.1 to 0.5 s of polling to each upload's time.
function clickTimed(page, button, done) {
  return page.evaluate(([button, done]) => new Promise((resolve) => {
    const started = performance.now();
    const observer = new MutationObserver(() => {
      if (!document.querySelector(done)) return;
      observer.disconnect();
      resolve((performance.now() - started) / 1000);
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    document.querySelector(button).click();
  }), [button, done]);
}

/// The same bytes with no encryption through the upload tool (POST /api/upload): its seconds
/// and link.
async function plainPost(sender, big) {
  await sender.goto(`${base}/tools/upload`);
  await sender.setInputFiles("#file", big);
  const seconds = await clickTimed(sender, "#tool button[type=submit]", "#result:not([hidden]), #error:not([hidden])");
  assert.ok(await sender.isVisible("#result"), await sender.textContent("#error"));
  return { seconds, link: await sender.inputValue("#share-link") };
}

/// And with tus as the share does, in PATCHes of the share's piece size of the file itself:
/// its seconds, timed in the page.
async function plainTus(sender, big, size) {
  await sender.goto(`${base}/share`);
  await sender.setInputFiles("#share-file", big);
  const run = await sender.evaluate(async (piece) => {
    const started = performance.now();
    const file = document.getElementById("share-file").files[0];
    const headers = { "Tus-Resumable": "1.0.0", "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content };
    const created = await fetch("/api/tus", { method: "POST", headers: { ...headers, "Upload-Length": String(file.size) } });
    const location = created.headers.get("Location");
    for (let offset = 0; offset < file.size; offset += piece) {
      const patched = await fetch(location, {
        method: "PATCH",
        headers: { ...headers, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
        body: file.slice(offset, offset + piece),
      });
      if (patched.status !== 204) throw new Error(`PATCH answered ${patched.status}`);
    }
    const stored = (await (await fetch(location, { headers })).json()).size;
    return { stored, seconds: (performance.now() - started) / 1000 };
  }, PIECE_MIB << 20);
  assert.equal(run.stored, size);
  return run.seconds;
}

/// The plain file's link downloaded in a recipient's page.
async function plainGet(recipientContext, url, big) {
  const page = await recipientContext.newPage();
  await page.goto(`${base}/`);
  const run = await timed(async () => {
    const [saved] = await Promise.all([
      page.waitForEvent("download", { timeout: 600_000 }),
      page.evaluate((link) => {
        const anchor = Object.assign(document.createElement("a"), { href: link, download: "big.bin" });
        document.body.append(anchor);
        anchor.click();
      }, url),
    ]);
    return saved.path();
  });
  await sameBytes(await run.result, big);
  await page.close();
  return run;
}
