// image-optimize's benchmark (scripts/bench.sh image-optimize): the 20 real photos of
// scripts/corpus/bench-photos.sh encoded by the page in Chromium, as WebP by Chromium's own
// encoder and by the bundled one (libwebp in WebAssembly, in the page's worker), and as AVIF by
// the bundled one (libavif with libaom); beside them, in the same run, cwebp and avifenc
// (Debian's) on the same files at the same settings: quality 75 and method 4 for WebP, quality
// 60 (quantizer 25) at speed 6, 4:2:0, 8 bits, one thread for AVIF. Sizes in kB, times in ms;
// the page's times include reading the pixels back from the canvas. The same setting is not
// the same quality across encoders: each output's luma PSNR against its original (dB,
// bench-psnr.py with Pillow) says how close it stayed. Run by tests/tests/web/local_tools.rs
// (ignored test): QUIRE_WEB_BASE, QUIRE_BENCH_PHOTOS, QUIRE_BENCH_PYTHON.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { saveDownload, unzip } from "./local-files.mjs";

const base = process.env.QUIRE_WEB_BASE;
const folder = process.env.QUIRE_BENCH_PHOTOS;
const photos = readdirSync(folder).filter((n) => /\.(jpe?g|png)$/i.test(n)).sort().map((n) => path.join(folder, n));
assert.equal(photos.length, 20, `20 photos in ${folder} (scripts/corpus/bench-photos.sh)`);
const outputs = mkdtempSync(path.join(os.tmpdir(), "quire-bench-"));

/// The page's outputs for all photos with `formats` ticked (and the rest not), saved from its
/// ZIP: [{ name, format, encoder, bytes, ms, file }] in the photos' order.
async function pageRun(page, formats, label) {
  for (const key of ["webp", "avif", "jpeg"]) {
    await (formats.includes(key) ? page.check(`#optimize-${key}`) : page.uncheck(`#optimize-${key}`));
  }
  await page.setInputFiles("#optimize-files", photos);
  await page.waitForFunction((n) => document.querySelectorAll(".optimize-output").length === n
    && document.getElementById("optimize-progress").hidden, photos.length * formats.length, { timeout: 3_600_000, polling: 1000 });
  const rows = await page.$$eval(".optimize-output", (trs) => trs.map((tr) => ({ ...tr.dataset })));
  const files = unzip((await saveDownload(page, "#optimize-zip")).bytes);
  return rows.map((row) => {
    const file = path.join(outputs, `${label}-${row.name}`);
    writeFileSync(file, files.get(row.name));
    return { ...row, file };
  });
}

/// A reference tool's run on every photo: its output's size, the wall time and the file.
function toolRun(label, command, args) {
  return photos.map((photo, i) => {
    const file = path.join(outputs, `${label}-${i}`);
    const started = process.hrtime.bigint();
    execFileSync(command, args(photo, file), { stdio: ["ignore", "ignore", "pipe"] });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return { bytes: statSync(file).size, ms, file };
  });
}

/// Each output's luma PSNR against its photo (bench-psnr.py), in place as `db`.
function measure(rows) {
  const pairs = rows.map((row, i) => [photos[i], row.file]);
  const scores = JSON.parse(execFileSync(process.env.QUIRE_BENCH_PYTHON || "python3", [new URL("./bench-psnr.py", import.meta.url).pathname],
    { input: JSON.stringify(pairs), maxBuffer: 1 << 20 }).toString());
  rows.forEach((row, i) => (row.db = scores[i]));
}

const browser = await chromium.launch({
  executablePath: process.env.QUIRE_WEB_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
/// A fresh page of the tool; `withoutWebp` makes its canvas give PNG when asked for WebP (as
/// some browsers do) from before the page's first probe, so that it uses the bundled encoder.
async function toolPage(withoutWebp) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  if (withoutWebp) {
    await page.addInitScript(() => {
      const real = HTMLCanvasElement.prototype.toBlob;
      HTMLCanvasElement.prototype.toBlob = function (done, type, quality) {
        return real.call(this, done, type === "image/webp" ? "image/png" : type, quality);
      };
    });
  }
  await page.goto(`${base}/local/image-optimize`);
  await page.waitForSelector("#local-tool:not([data-loading])");
  return page;
}

try {
  console.log(`bench: Chromium ${browser.version()}; ${photos.length} photos, ${photos.reduce((s, p) => s + statSync(p).size, 0) / 1e6} MB`);
  const native = await pageRun(await toolPage(false), ["webp", "avif"], "native");
  const bundledWebp = await pageRun(await toolPage(true), ["webp"], "bundled");
  assert.ok(bundledWebp.every((r) => r.encoder === "bundled"), "the bundled WebP encoder ran");
  const cwebp = toolRun("cwebp", "cwebp", (input, output) => ["-quiet", "-q", "75", "-m", "4", input, "-o", output]);
  const avifenc = toolRun("avifenc", "avifenc", (input, output) => ["-c", "aom", "--min", "25", "--max", "25", "-s", "6", "-j", "1", "-y", "420", "-d", "8", input, output]);

  const columns = [
    ["Chromium WebP", native.filter((r) => r.format === "webp")],
    ["bundled WebP", bundledWebp],
    ["cwebp", cwebp],
    ["bundled AVIF", native.filter((r) => r.format === "avif")],
    ["avifenc", avifenc],
  ];
  for (const [label, rows] of columns) {
    assert.equal(rows.length, photos.length, label);
    measure(rows);
  }
  const kb = (n) => (Number(n) / 1e3).toFixed(0).padStart(6);
  const ms = (n) => Number(n).toFixed(0).padStart(6);
  const db = (n) => (n === null ? "  —" : Number(n).toFixed(1)).padStart(5);
  const cell = (text) => text.padStart(25);
  console.log(`bench: ${"photo".padEnd(40)} ${"orig kB".padStart(8)} ${columns.map(([l]) => cell(`${l} kB/ms/dB`)).join(" ")}`);
  photos.forEach((photo, i) => {
    const cells = columns.map(([, rows]) => cell(`${kb(rows[i].bytes)} ${ms(rows[i].ms)} ${db(rows[i].db)}`));
    console.log(`bench: ${path.basename(photo).slice(0, 40).padEnd(40)} ${kb(statSync(photo).size).padStart(8)} ${cells.join(" ")}`);
  });
  const sum = (rows, key) => rows.reduce((s, r) => s + Number(r[key]), 0);
  const meanDb = (rows) => sum(rows, "db") / rows.length;
  const originals = photos.reduce((s, p) => s + statSync(p).size, 0);
  console.log(`bench: ${"all 20 (PSNR: mean)".padEnd(40)} ${kb(originals).padStart(8)} ${columns.map(([, rows]) => cell(`${kb(sum(rows, "bytes"))} ${ms(sum(rows, "ms"))} ${db(meanDb(rows))}`)).join(" ")}`);
  const compare = (label, a, b) => console.log(`bench: ${label}: size ${(sum(a, "bytes") / sum(b, "bytes")).toFixed(2)}, time ${(sum(a, "ms") / sum(b, "ms")).toFixed(2)}, PSNR ${(meanDb(a) - meanDb(b)).toFixed(2)} dB`);
  compare("bundled WebP / cwebp", bundledWebp, cwebp);
  compare("Chromium WebP / cwebp", columns[0][1], cwebp);
  compare("bundled AVIF / avifenc", columns[3][1], avifenc);
  console.log("bench: done");
} finally {
  await browser.close();
  rmSync(outputs, { recursive: true, force: true });
}
