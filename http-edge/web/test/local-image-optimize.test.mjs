// image-optimize's pure parts (src/local/image-optimize/): the size fitted within the limits
// (never enlarged, proportions kept), the output names (no two alike), the change in words,
// and the settings' numbers parsed. The encoders and the page: tests/web/local-image-optimize.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FORMATS, fit, formatOf, outputName, parseLimit, parseQuality } from "../src/local/image-optimize/formats.mjs";
import { changeText } from "../src/local/image-optimize/results.mjs";

test("fits within the limits, keeps proportions, never enlarges", () => {
  assert.deepEqual(fit(4000, 3000, 0, 0), { width: 4000, height: 3000 });
  assert.deepEqual(fit(4000, 3000, 1600, 0), { width: 1600, height: 1200 });
  assert.deepEqual(fit(4000, 3000, 0, 600), { width: 800, height: 600 });
  assert.deepEqual(fit(4000, 3000, 1600, 600), { width: 800, height: 600 }, "the tighter limit wins");
  assert.deepEqual(fit(300, 200, 1600, 1600), { width: 300, height: 200 }, "a small image stays as it is");
  assert.deepEqual(fit(3000, 4000, 1000, 1000), { width: 750, height: 1000 }, "a portrait");
  assert.deepEqual(fit(10000, 3, 100, 0), { width: 100, height: 1 }, "never below one pixel");
  assert.deepEqual(fit(1001, 667, 500, 0), { width: 500, height: 333 });
});

test("output names take the format's extension and never collide", () => {
  const taken = new Set();
  const webp = formatOf("webp");
  assert.equal(outputName("holiday.JPG", webp, taken), "holiday.webp");
  assert.equal(outputName("holiday.png", webp, taken), "holiday-2.webp", "two photos named alike");
  assert.equal(outputName("holiday.jpeg", formatOf("avif"), taken), "holiday.avif");
  assert.equal(outputName("scan.final.tiff", formatOf("jpeg"), taken), "scan.final.jpg");
  assert.equal(outputName(".png", webp, taken), "image.webp");
});

test("the defaults are the reference encoders' own", () => {
  assert.deepEqual(FORMATS.map((f) => [f.key, f.type, f.quality]),
    [["webp", "image/webp", 75], ["avif", "image/avif", 60], ["jpeg", "image/jpeg", 75]]);
});

test("the change says smaller or larger", () => {
  assert.deepEqual(changeText(1000, 380), { text: "−62 %", larger: false });
  assert.deepEqual(changeText(1000, 1080), { text: "+8 %", larger: true });
  assert.deepEqual(changeText(1000, 1000), { text: "0 %", larger: false });
});

test("settings' numbers are parsed or refused", () => {
  assert.equal(parseQuality("75"), 75);
  for (const bad of ["0", "101", "7.5", "", "abc", "-3"]) assert.equal(parseQuality(bad), null, bad);
  assert.equal(parseLimit(""), 0);
  assert.equal(parseLimit("  "), 0);
  assert.equal(parseLimit("1920"), 1920);
  for (const bad of ["0", "16385", "12.5", "x"]) assert.equal(parseLimit(bad), null, bad);
});
