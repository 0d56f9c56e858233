// image-optimize's benchmark (scripts/bench.sh image-optimize): the 20 real photos of
// scripts/corpus/bench-photos.sh encoded by the page in Chromium, as WebP by Chromium's own
// encoder and by the bundled one (libwebp in WebAssembly, in the page's worker), and as AVIF by
// the bundled one (libavif with libaom); beside them, in the same run, cwebp and avifenc
// (Debian's) on the same files at the same settings: quality 75 and method 4 for WebP, quality
// 60 (quantizer 25) at speed 6, 4:2:0, 8 bits, one thread for AVIF. Sizes in kB, times in ms;
// the page's times include reading the pixels back from the canvas. Run by
// tests/tests/web/local_tools.rs (ignored test): QUIRE_WEB_BASE, QUIRE_BENCH_PHOTOS.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const base = process.env.QUIRE_WEB_BASE;
const folder = process.env.QUIRE_BENCH_PHOTOS;
const photos = readdirSync(folder).filter((n) => /\.(jpe?g|png)$/i.test(n)).sort().map((n) => path.join(folder, n));
assert.equal(photos.length, 20, `20 photos in ${folder} (scripts/corpus/bench-photos.sh)`);

/// The page's outputs for all photos with `formats` ticked (and the rest not): name → { bytes, ms, encoder }.
async function pageRun(page, formats) {
  for (const key of ["webp", "avif", "jpeg"]) {
    await (formats.includes(key) ? page.check(`#optimize-${key}`) : page.uncheck(`#optimize-${key}`));
  }
  await page.setInputFiles("#optimize-files", photos);
  await page.waitForFunction((n) => document.querySelectorAll(".optimize-output").length === n
    && document.getElementById("optimize-progress").hidden, photos.length * formats.length, { timeout: 3_600_000, polling: 1000 });
  const rows = await page.$$eval(".optimize-output", (trs) => trs.map((tr) => ({ ...tr.dataset })));
  return rows;
}

/// A reference tool's run on every photo: its output's size and the wall time.
function toolRun(command, args) {
  const out = mkdtempSync(path.join(os.tmpdir(), "quire-bench-"));
  try {
    return photos.map((photo, i) => {
      const target = path.join(out, `${i}.out`);
      const started = process.hrtime.bigint();
      execFileSync(command, args(photo, target), { stdio: ["ignore", "ignore", "pipe"] });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      return { bytes: statSync(target).size, ms };
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const browser = await chromium.launch({
  executablePath: process.env.QUIRE_WEB_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
/// A fresh page of the tool; `withoutWebp` makes its canvas give PNG when asked for WebP (as
/// some browsers do) from before the page's first probe, so that it uses the bundled encoder.
async function toolPage(withoutWebp) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
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
  const native = await pageRun(await toolPage(false), ["webp", "avif"]);
  const bundledWebp = await pageRun(await toolPage(true), ["webp"]);
  assert.ok(bundledWebp.every((r) => r.encoder === "bundled"), "the bundled WebP encoder ran");
  const cwebp = toolRun("cwebp", (input, output) => ["-quiet", "-q", "75", "-m", "4", input, "-o", output]);
  const avifenc = toolRun("avifenc", (input, output) => ["-c", "aom", "--min", "25", "--max", "25", "-s", "6", "-j", "1", "-y", "420", "-d", "8", input, output]);

  const columns = [
    ["Chromium WebP", native.filter((r) => r.format === "webp")],
    ["bundled WebP", bundledWebp],
    ["cwebp", cwebp],
    ["bundled AVIF", native.filter((r) => r.format === "avif")],
    ["avifenc", avifenc],
  ];
  for (const [label, rows] of columns) assert.equal(rows.length, photos.length, label);
  const kb = (n) => (Number(n) / 1e3).toFixed(0).padStart(6);
  const ms = (n) => Number(n).toFixed(0).padStart(6);
  console.log(`bench: ${"photo".padEnd(44)} ${"orig kB".padStart(8)} ${columns.map(([l]) => `${l.padStart(13)} kB/ms`.padStart(21)).join(" ")}`);
  photos.forEach((photo, i) => {
    const cells = columns.map(([, rows]) => `${kb(rows[i].bytes)} ${ms(rows[i].ms)}`.padStart(21));
    console.log(`bench: ${path.basename(photo).slice(0, 44).padEnd(44)} ${kb(statSync(photo).size).padStart(8)} ${cells.join(" ")}`);
  });
  const sum = (rows, key) => rows.reduce((s, r) => s + Number(r[key]), 0);
  const originals = photos.reduce((s, p) => s + statSync(p).size, 0);
  console.log(`bench: ${"all 20".padEnd(44)} ${kb(originals).padStart(8)} ${columns.map(([, rows]) => `${kb(sum(rows, "bytes"))} ${ms(sum(rows, "ms"))}`.padStart(21)).join(" ")}`);
  const ratio = (a, b, key) => (sum(a, key) / sum(b, key)).toFixed(2);
  console.log(`bench: bundled WebP / cwebp: size ${ratio(bundledWebp, cwebp, "bytes")}, time ${ratio(bundledWebp, cwebp, "ms")}`);
  console.log(`bench: Chromium WebP / cwebp: size ${ratio(columns[0][1], cwebp, "bytes")}, time ${ratio(columns[0][1], cwebp, "ms")}`);
  console.log(`bench: bundled AVIF / avifenc: size ${ratio(columns[3][1], avifenc, "bytes")}, time ${ratio(columns[3][1], avifenc, "ms")}`);
  console.log("bench: done");
} finally {
  await browser.close();
}
