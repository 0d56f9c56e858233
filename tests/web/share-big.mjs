// A large file shared and received (QUIRE_SHARE_MIB, 200 MiB in the tests) with the browser's
// memory measured on both sides: the page encrypts piece by piece and the service worker
// decrypts as the download is saved, so neither holds the file. With QUIRE_SHARE_BENCH set
// (scripts/bench.sh share), the same file is also uploaded (POST, and tus in the share's piece
// size) and downloaded plainly in the same browser, and the throughputs are printed side by side.
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import path from "node:path";
import { base, download, fill, mib, measured, open, sameBytes, submit } from "./share-helpers.mjs";

/// The browser may grow by this much while it moves the file, whatever the file's size.
const MEMORY_BOUND = 300 * 1048576;

export async function bigShare({ sender, recipientContext, fixtures, step }) {
  const big = path.join(fixtures, "big.bin");
  const size = statSync(big).size;
  step(`a ${mib(size)} MiB file both ways, memory measured`);
  // The form filled first: what is measured is the transfer, not the page.
  await fill(sender, { file: big });
  const up = await measured(() => submit(sender));
  const recipient = await open(recipientContext, up.result.link);
  const down = await measured(async () => {
    const [, file] = await download(recipient);
    await recipient.waitForSelector("#download-status:has-text('Saved')");
    return file;
  });
  await sameBytes(down.result, big);
  const line = (what, run) => `share: ${what}: ${run.seconds.toFixed(1)} s, ${(size / 1e6 / run.seconds).toFixed(1)} MB/s; ` +
    `browser memory ${mib(run.before)} MiB before, ${mib(run.peak)} MiB at most (+${mib(run.growth)} MiB)`;
  console.log(line("encrypt and upload", up));
  console.log(line("download and decrypt", down));
  assert.ok(up.growth < MEMORY_BOUND, `the upload grew the browser by ${mib(up.growth)} MiB`);
  assert.ok(down.growth < MEMORY_BOUND, `the download grew the browser by ${mib(down.growth)} MiB`);
  if (!process.env.QUIRE_SHARE_BENCH) return;

  // The same bytes with no encryption: the upload tool (POST /api/upload), and its link.
  await sender.goto(`${base}/tools/upload`);
  await sender.setInputFiles("#file", big);
  const plainUp = await measured(async () => {
    await sender.click("#tool button[type=submit]");
    await sender.waitForSelector("#result:not([hidden]), #error:not([hidden])", { timeout: 600_000 });
    assert.ok(await sender.isVisible("#result"), await sender.textContent("#error"));
    return sender.inputValue("#share-link");
  });
  // And with tus as the share does, in 8 MiB PATCHes of the file itself (the same pieces).
  await sender.goto(`${base}/share`);
  await sender.setInputFiles("#share-file", big);
  const plainTus = await measured(() => sender.evaluate(async () => {
    const file = document.getElementById("share-file").files[0];
    const headers = { "Tus-Resumable": "1.0.0", "X-CSRF-Token": document.querySelector('meta[name="csrf-token"]').content };
    const created = await fetch("/api/tus", { method: "POST", headers: { ...headers, "Upload-Length": String(file.size) } });
    const location = created.headers.get("Location");
    for (let offset = 0; offset < file.size; offset += 8 << 20) {
      const patched = await fetch(location, {
        method: "PATCH",
        headers: { ...headers, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
        body: file.slice(offset, offset + (8 << 20)),
      });
      if (patched.status !== 204) throw new Error(`PATCH answered ${patched.status}`);
    }
    return (await (await fetch(location, { headers })).json()).size;
  }));
  assert.equal(plainTus.result, size);
  const page = await recipientContext.newPage();
  await page.goto(`${base}/`);
  const plainDown = await measured(async () => {
    const [saved] = await Promise.all([
      page.waitForEvent("download", { timeout: 600_000 }),
      page.evaluate((url) => {
        const link = Object.assign(document.createElement("a"), { href: url, download: "big.bin" });
        document.body.append(link);
        link.click();
      }, plainUp.result),
    ]);
    return saved.path();
  });
  await sameBytes(await plainDown.result, big);
  console.log(line("plain upload (POST /api/upload)", plainUp));
  console.log(line("plain upload (tus, 8 MiB PATCHes)", plainTus));
  console.log(line("plain download (GET /f/{token})", plainDown));
  const ratio = (a, b) => (b.seconds / a.seconds).toFixed(2);
  console.log(`share: encrypted upload ${ratio(up, plainUp)}x the throughput of a plain POST, ${ratio(up, plainTus)}x that of a plain tus ` +
    `upload (goal >= 0.5x); decrypting download ${ratio(down, plainDown)}x the plain download's`);
}
