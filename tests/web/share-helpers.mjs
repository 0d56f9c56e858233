// What the encrypted share tests (share.test.mjs, share-big.mjs) do over and over: share from
// the /share page, open a link in a recipient's page, download and compare, read a share's
// facts from outside the browser, and the memory of the browser's processes.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createReadStream, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const base = process.env.QUIRE_WEB_BASE;

/// Shares from the sender's page: a file (path) or a text; resolves with the link (and the
/// separate secret) once the page shows them. `lifetime` replaces the first lifetime offered
/// (the tests' short-lived shares).
export async function share(page, options = {}) {
  await fill(page, options);
  return submit(page, options);
}

/// The sender's form, filled in and not sent.
export async function fill(page, { file, text, separate = false, password = "", downloads = 1, lifetime } = {}) {
  await page.goto(`${base}/share`);
  if (text !== undefined) {
    await page.check("input[name=kind][value=text]");
    await page.fill("#share-text", text);
  } else {
    await page.setInputFiles("#share-file", file);
  }
  if (lifetime) {
    await page.$eval("#expiresIn", (select, seconds) => {
      select.options[0].value = seconds;
      select.selectedIndex = 0;
    }, String(lifetime));
  }
  await page.fill("#maxDownloads", String(downloads));
  if (password) await page.fill("#share-password", password);
  if (separate) await page.check("input[name=delivery][value=separate]");
}

/// Sends the filled form; resolves with the link (and the separate secret) once shown.
export async function submit(page, { separate = false } = {}) {
  await page.click("#share-form button[type=submit]");
  await page.waitForSelector("#share-result:not([hidden]), #share-error:not([hidden])", { timeout: 600_000 });
  const error = await page.$("#share-error:not([hidden])");
  if (error) throw new Error(`the share page refused: ${await error.textContent()}`);
  return { link: await page.inputValue("#share-link"), code: separate ? await page.inputValue("#share-code") : null };
}

/// The share's token, from its link.
export const tokenOf = (link) => new URL(link).pathname.split("/").pop();

/// GET /s/{token}/info from outside the browser: [status, body].
export async function info(link) {
  const response = await fetch(`${base}/s/${tokenOf(link)}/info`);
  return [response.status, await response.json()];
}

/// Opens `link` in a new page of `context` and waits for the page to settle: opened (name
/// shown), asking for the secret, or refusing.
export async function open(context, link) {
  const page = await context.newPage();
  page.on("pageerror", (error) => { throw error; });
  await page.goto(link);
  await page.waitForSelector("#opened:not([hidden]), #unlock:not([hidden]), #share-error:not([hidden])");
  return page;
}

/// Clicks Download and waits for the browser's download: [download, its path or null, failure].
export async function download(page) {
  const [saved] = await Promise.all([page.waitForEvent("download", { timeout: 600_000 }), page.click("#download")]);
  const failure = await saved.failure();
  return [saved, failure ? null : await saved.path(), failure];
}

export function sha256(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file).on("data", (d) => hash.update(d)).on("end", () => resolve(hash.digest("hex"))).on("error", reject);
  });
}

export async function sameBytes(a, b) {
  assert.equal(statSync(a).size, statSync(b).size, `${a} and ${b} differ in size`);
  assert.equal(await sha256(a), await sha256(b), `${a} and ${b} differ`);
}

/// Bytes of ciphertext for a plaintext of `size` (docs/sharing.md).
export const ciphertextLength = (size) => 31 + size + 16 * Math.max(1, Math.ceil(size / 65536));

/// The stored bytes of `size` written last under the stack's data directory, as the files
/// that hold them in order: one blob, or the parts a resumable upload left (files/blobs.rs).
export function storedOfSize(dataDir, size) {
  const found = [];
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile()).map((e) => path.join(dir, e.name)).sort();
    for (const file of files) if (statSync(file).size === size) found.push([file]);
    if (files.length > 1 && files.reduce((n, f) => n + statSync(f).size, 0) === size) found.push(files);
    for (const entry of entries) if (entry.isDirectory()) walk(path.join(dir, entry.name));
  };
  walk(path.join(dataDir, "blobs"));
  const newest = (files) => Math.max(...files.map((f) => statSync(f).mtimeMs));
  found.sort((a, b) => newest(b) - newest(a));
  assert.ok(found.length, `no stored bytes of size ${size} under ${dataDir}`);
  return found[0];
}

/// The file holding byte `offset` of `files` (storedOfSize's), and the offset within it.
export function storedByteAt(files, offset) {
  for (const file of files) {
    const size = statSync(file).size;
    if (offset < size) return [file, offset];
    offset -= size;
  }
  throw new Error(`offset ${offset} is past the stored bytes`);
}

/// The browser's memory: the proportional set size (shared pages split between their users)
/// summed over every process this test started (Chromium's browser, renderer, GPU and
/// utility processes, the renderer running the service worker among them), sampled from /proc.
export function browserMemory() {
  const parents = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(name), Number(fields[1]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const ours = new Set([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!ours.has(pid) && ours.has(parent)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  ours.delete(process.pid);
  let kib = 0;
  for (const pid of ours) {
    try {
      kib += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] || 0);
    } catch {
      // Ended meanwhile.
    }
  }
  return kib * 1024;
}

/// Samples `browserMemory` every 100 ms while `work` runs: its result, the figure before, the
/// peak and the growth, in bytes.
export async function measured(work) {
  const before = browserMemory();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, browserMemory())), 100);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, before, peak, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

export const mib = (bytes) => (bytes / 1048576).toFixed(1);
