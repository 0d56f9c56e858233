// The social-resize tool's logic (src/local/social-resize/): where each format's crop falls for a
// focal point, the format table, the output names, the downscaling steps and the keyboard's
// moves of the focal point. The page itself is checked in Chromium
// (tests/web/local-social-resize.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { crop, upscaled } from "../src/local/social-resize/crop.mjs";
import { nudge } from "../src/local/social-resize/focus.mjs";
import { FORMATS, formatById, outputName } from "../src/local/social-resize/formats.mjs";
import { halvingSteps } from "../src/local/social-resize/resample.mjs";

test("a centred focal point crops the middle", () => {
  assert.deepEqual(crop(1920, 1080, 1080, 1080, 0.5, 0.5), { x: 420, y: 0, w: 1080, h: 1080 });
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 0.5, 0.5), { x: 656, y: 0, w: 608, h: 1080 });
  assert.deepEqual(crop(1080, 1920, 1200, 630, 0.5, 0.5), { x: 0, y: 677, w: 1080, h: 567 });
  assert.deepEqual(crop(4000, 3000, 1584, 396, 0.5, 0.5), { x: 0, y: 1000, w: 4000, h: 1000 });
  // The defaults are the centre.
  assert.deepEqual(crop(1920, 1080, 1080, 1080), { x: 420, y: 0, w: 1080, h: 1080 });
});

test("a focal point in a corner pushes the crop against both edges", () => {
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 0, 0), { x: 0, y: 0, w: 608, h: 1080 });
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 1, 1), { x: 1312, y: 0, w: 608, h: 1080 });
  assert.deepEqual(crop(1080, 1920, 1500, 500, 1, 0), { x: 0, y: 0, w: 1080, h: 360 });
  assert.deepEqual(crop(1080, 1920, 1500, 500, 0, 1), { x: 0, y: 1560, w: 1080, h: 360 });
});

test("a focal point near an edge is centred as far as the edge allows", () => {
  // 0.75 × 1920 = 1440: the 608 px wide crop is centred on it, inside the image.
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 0.75, 0.5), { x: 1136, y: 0, w: 608, h: 1080 });
  // 0.9 × 1920 = 1728: centring would pass the right edge, so the crop stops at it.
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 0.9, 0.5), { x: 1312, y: 0, w: 608, h: 1080 });
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 0.1, 0.5), { x: 0, y: 0, w: 608, h: 1080 });
  // The other axis: a portrait photo's link preview, focus at 20 % from the top (384 − 283.5).
  assert.deepEqual(crop(1080, 1920, 1200, 630, 0.5, 0.2), { x: 0, y: 101, w: 1080, h: 567 });
  // Out of range or missing focal points are clamped or centred.
  assert.deepEqual(crop(1920, 1080, 1080, 1920, 7, -3), crop(1920, 1080, 1080, 1920, 1, 0));
  assert.deepEqual(crop(1920, 1080, 1080, 1920, NaN, NaN), crop(1920, 1080, 1080, 1920, 0.5, 0.5));
});

test("the same aspect ratio takes the whole image", () => {
  assert.deepEqual(crop(800, 600, 1600, 1200, 0.3, 0.9), { x: 0, y: 0, w: 800, h: 600 });
  assert.deepEqual(crop(2560, 1440, 1280, 720, 0, 1), { x: 0, y: 0, w: 2560, h: 1440 });
});

test("a source smaller than the target is cropped, then flagged as upscaled", () => {
  const rect = crop(300, 200, 1080, 1080, 0.5, 0.5);
  assert.deepEqual(rect, { x: 50, y: 0, w: 200, h: 200 });
  assert.equal(upscaled(rect, 1080, 1080), true);
  assert.equal(upscaled(crop(1920, 1080, 1080, 1080), 1080, 1080), false);
  assert.equal(upscaled(crop(1920, 1080, 1080, 1920), 1080, 1920), true);
  assert.equal(upscaled(crop(600, 600, 400, 400), 400, 400), false);
  // A one-pixel-wide image still gives a 1 × 1 crop at least.
  assert.deepEqual(crop(1, 1000, 1584, 396, 0.5, 0.5), { x: 0, y: 500, w: 1, h: 1 });
  assert.deepEqual(crop(1, 1, 2560, 1440, 0.5, 0.5), { x: 0, y: 0, w: 1, h: 1 });
});

test("every crop is inside the image, the largest of its ratio, within a pixel of it", () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const sizes = [[17, 3000], [3000, 17], [1920, 1080], [1080, 1920], [4032, 3024], [999, 1001], [640, 480]];
  for (const [W, H] of sizes) {
    for (const format of FORMATS) {
      for (let i = 0; i < 25; i++) {
        const [fx, fy] = i === 0 ? [0, 0] : i === 1 ? [1, 1] : [random(), random()];
        const { x, y, w, h } = crop(W, H, format.w, format.h, fx, fy);
        const where = `${W}×${H} → ${format.id} at ${fx}, ${fy}: ${x},${y} ${w}×${h}`;
        for (const v of [x, y, w, h]) assert.ok(Number.isInteger(v), where);
        assert.ok(x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= W && y + h <= H, where);
        assert.ok(w === W || h === H, `largest: ${where}`);
        const ratioError = Math.min(Math.abs(w - (h * format.w) / format.h), Math.abs(h - (w * format.h) / format.w));
        if (w > 1 && h > 1) assert.ok(ratioError <= 1, `ratio: ${where}`);
        // Centred on the focal point unless an edge stopped it (rounding: half a pixel).
        const [cx, cy] = [x + w / 2, y + h / 2];
        if (x > 0 && x + w < W) assert.ok(Math.abs(cx - fx * W) <= 0.5, `x centred: ${where}`);
        if (y > 0 && y + h < H) assert.ok(Math.abs(cy - fy * H) <= 0.5, `y centred: ${where}`);
      }
    }
  }
});

test("the formats are the documented sizes, even, with their sources", () => {
  const documented = {
    "instagram-square": [1080, 1080],
    "instagram-portrait": [1080, 1350],
    story: [1080, 1920],
    "link-preview": [1200, 630],
    "x-post": [1600, 900],
    "linkedin-cover": [1584, 396],
    "facebook-cover": [1640, 624],
    "x-header": [1500, 500],
    "youtube-thumbnail": [1280, 720],
    "youtube-banner": [2560, 1440],
    profile: [400, 400],
  };
  assert.deepEqual(Object.fromEntries(FORMATS.map((f) => [f.id, [f.w, f.h]])), documented);
  for (const format of FORMATS) {
    assert.equal(format.w % 2, 0, format.id);
    assert.equal(format.h % 2, 0, format.id);
    assert.match(format.id, /^[a-z0-9-]+$/);
    assert.ok(format.en && format.fr && format.source.length > 20, format.id);
    assert.equal(formatById(format.id), format);
  }
  assert.equal(new Set(FORMATS.map((f) => f.id)).size, FORMATS.length);
  // The circle mask is for the profile picture only; a few sensible formats are ticked.
  assert.deepEqual(FORMATS.filter((f) => f.round).map((f) => f.id), ["profile"]);
  assert.ok(FORMATS.some((f) => f.checked) && FORMATS.some((f) => !f.checked));
  // The 9:16 story, 1.91:1 preview and 2× Facebook cover as their networks show them.
  assert.equal(1920 / 1080, 16 / 9);
  assert.ok(Math.abs(formatById("link-preview").w / formatById("link-preview").h - 1.91) < 0.01);
  assert.deepEqual([formatById("facebook-cover").w / 2, formatById("facebook-cover").h / 2], [820, 312]);
});

test("output names carry the stem, the format and its size", () => {
  const square = formatById("instagram-square");
  assert.equal(outputName("holiday", square, "image/jpeg"), "holiday-instagram-square-1080x1080.jpg");
  assert.equal(outputName("holiday", square, "image/png"), "holiday-instagram-square-1080x1080.png");
  assert.equal(outputName("IMG 0042.final", formatById("story"), "image/jpeg"), "IMG 0042.final-story-1080x1920.jpg");
  assert.equal(outputName("logo", formatById("profile"), "image/png"), "logo-profile-400x400.png");
  assert.equal(outputName('a/b:c*"d', formatById("x-header"), "image/jpeg"), "a-b-c--d-x-header-1500x500.jpg");
  assert.equal(outputName("", formatById("youtube-banner"), "image/jpeg"), "image-youtube-banner-2560x1440.jpg");
  const names = FORMATS.map((f) => outputName("p", f, "image/jpeg"));
  assert.equal(new Set(names).size, names.length);
});

test("reductions beyond 2× halve in steps, never below the target", () => {
  assert.deepEqual(halvingSteps(4000, 4000, 400, 400), [[2000, 2000], [1000, 1000], [500, 500]]);
  assert.deepEqual(halvingSteps(1920, 1080, 1200, 630), []);
  assert.deepEqual(halvingSteps(608, 1080, 1080, 1920), []);
  assert.deepEqual(halvingSteps(6001, 3375, 1600, 900), [[3001, 1688]]);
  for (const [w, h, tw, th] of [[9000, 9000, 400, 400], [5000, 1250, 1584, 396], [3, 3, 1, 1]]) {
    const steps = halvingSteps(w, h, tw, th);
    const [lw, lh] = steps.at(-1) ?? [w, h];
    assert.ok(lw >= tw && lh >= th && (lw < 2 * tw || lh < 2 * th), `${w}×${h} → ${tw}×${th}: ${steps}`);
  }
});

test("the arrow keys move the focal point by 1 %, 10 % with Shift, inside the image", () => {
  assert.deepEqual(nudge({ x: 50, y: 50 }, "ArrowRight"), { x: 51, y: 50 });
  assert.deepEqual(nudge({ x: 50, y: 50 }, "ArrowUp", true), { x: 50, y: 40 });
  assert.deepEqual(nudge({ x: 95, y: 3 }, "ArrowRight", true), { x: 100, y: 3 });
  assert.deepEqual(nudge({ x: 95, y: 3 }, "ArrowUp", true), { x: 95, y: 0 });
  assert.deepEqual(nudge({ x: 0, y: 100 }, "ArrowLeft"), { x: 0, y: 100 });
  assert.equal(nudge({ x: 50, y: 50 }, "Enter"), null);
  let point = { x: 50, y: 50 };
  for (let i = 0; i < 10; i++) point = nudge(point, "ArrowRight");
  assert.deepEqual(point, { x: 60, y: 50 });
});
