// The text-on-image tool's logic (src/local/text-on-image/): line wrapping with a given
// measure, the lines' places per alignment and vertical position, what text runs into, the
// safe-area guides against their formats, the covering crop, the file names, and the bundled
// fonts (their weights, and the characters their latin subsets hold). The page itself is
// checked in Chromium (tests/web/local-text-on-image.mjs).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";
import { brotliDecompressSync } from "node:zlib";
import { FORMATS } from "../src/local/social-resize/formats.mjs";
import { coverRect, enlarged } from "../src/local/text-on-image/backdrop.mjs";
import { FAMILIES, fontString, nearestWeight } from "../src/local/text-on-image/families.mjs";
import { GUIDES, guideFor } from "../src/local/text-on-image/guides.mjs";
import { layoutText, problems, reference, rescale, textArea } from "../src/local/text-on-image/layout.mjs";
import { fileName, slug } from "../src/local/text-on-image/naming.mjs";
import { breakWord, graphemes, wrapText } from "../src/local/text-on-image/wrap.mjs";

/// Every grapheme 10 px wide: line widths are easy to count.
const mono = (text) => graphemes(text).length * 10;

test("words go on a line while they fit, exactly", () => {
  assert.deepEqual(wrapText("the quick brown fox jumps over the lazy dog", 100, mono),
    ["the quick", "brown fox", "jumps over", "the lazy", "dog"]);
  // "jumps over" is exactly 100: a line as wide as the box fits.
  assert.deepEqual(wrapText("jumps over", 100, mono), ["jumps over"]);
  assert.deepEqual(wrapText("jumps over", 99, mono), ["jumps", "over"]);
  assert.deepEqual(wrapText("one", 1000, mono), ["one"]);
  // Runs of spaces and tabs count as one; the ends are trimmed.
  assert.deepEqual(wrapText("  a  \t b   c  ", 30, mono), ["a b", "c"]);
});

test("the measure decides, not the number of characters", () => {
  const widths = { i: 4, l: 4, m: 14, w: 14, " ": 5 };
  const measure = (text) => [...text].reduce((sum, c) => sum + (widths[c] ?? 8), 0);
  // "ill ill" = 12 + 5 + 12 = 29; "mmm www" = 42 + 5 + 42 = 89.
  assert.deepEqual(wrapText("ill ill mmm www", 45, measure), ["ill ill", "mmm", "www"]);
  // Seven characters each, yet one fits in 30 and the other needs 89.
  assert.deepEqual(wrapText("ill ill", 30, measure), ["ill ill"]);
  assert.deepEqual(wrapText("mmm www", 88, measure), ["mmm", "www"]);
  assert.deepEqual(wrapText("ill ill mmm www", 89, measure), ["ill ill mmm", "www"]);
});

test("a word longer than the line is cut, and the next words may follow its end", () => {
  assert.deepEqual(wrapText("a supercalifragilistic word", 50, mono), ["a", "super", "calif", "ragil", "istic", "word"]);
  assert.deepEqual(wrapText("abcdefgh ij", 60, mono), ["abcdef", "gh ij"]);
  assert.deepEqual(breakWord("abcdefghij", 30, mono), ["abc", "def", "ghi", "j"]);
  // A line narrower than one character still shows every character, one per line.
  assert.deepEqual(wrapText("abc", 0, mono), ["a", "b", "c"]);
  // A letter and its combining accent are never split.
  assert.deepEqual(breakWord("e\u0301e\u0301e\u0301", 20, mono), ["e\u0301e\u0301", "e\u0301"]);
});

test("typed line breaks stay, no-break spaces hold words together, nothing gives no line", () => {
  assert.deepEqual(wrapText("Title\nsecond line", 1000, mono), ["Title", "second line"]);
  assert.deepEqual(wrapText("one\r\n\r\ntwo", 1000, mono), ["one", "", "two"]);
  assert.deepEqual(wrapText("Noël\u00a0! Joyeux", 60, mono), ["Noël\u00a0!", "Joyeux"]);
  assert.deepEqual(wrapText("", 100, mono), []);
  assert.deepEqual(wrapText("  \n \n", 100, mono), []);
  assert.deepEqual(wrapText(undefined, 100, mono), []);
});

const AREA = { x: 100, y: 200, w: 800, h: 600 };
/// A title of two lines (300 and 100 wide, 100 high) and a subtitle of one (200 wide, 50
/// high, 20 below the title): 270 high in all.
const BLOCKS = [
  { lines: [{ text: "ab", width: 300 }, { text: "c", width: 100 }], lineHeight: 100, gap: 0 },
  { lines: [{ text: "d", width: 200 }], lineHeight: 50, gap: 20 },
];
const places = (laid) => laid.lines.map(({ block, text, x, y, left, width, height }) => [block, text, x, y, left, width, height]);

test("centred in the middle", () => {
  const laid = layoutText({ area: AREA, align: "center", valign: "middle", blocks: BLOCKS });
  // (600 − 270) / 2 = 165 below the area's top; anchored at the area's middle, 500.
  assert.deepEqual(places(laid), [[0, "ab", 500, 365, 350, 300, 100], [0, "c", 500, 465, 450, 100, 100], [1, "d", 500, 585, 400, 200, 50]]);
  assert.deepEqual(laid.boxes, [{ x: 350, y: 365, w: 300, h: 200 }, { x: 400, y: 585, w: 200, h: 50 }]);
  assert.deepEqual(laid.box, { x: 350, y: 365, w: 300, h: 270 });
});

test("left at the top, right at the bottom", () => {
  const top = layoutText({ area: AREA, align: "left", valign: "top", blocks: BLOCKS });
  assert.deepEqual(places(top), [[0, "ab", 100, 200, 100, 300, 100], [0, "c", 100, 300, 100, 100, 100], [1, "d", 100, 420, 100, 200, 50]]);
  assert.deepEqual(top.box, { x: 100, y: 200, w: 300, h: 270 });
  const bottom = layoutText({ area: AREA, align: "right", valign: "bottom", blocks: BLOCKS });
  // Anchored at the right edge, 900; the last line ends at the area's bottom, 800.
  assert.deepEqual(places(bottom), [[0, "ab", 900, 530, 600, 300, 100], [0, "c", 900, 630, 800, 100, 100], [1, "d", 900, 750, 700, 200, 50]]);
  assert.deepEqual(bottom.box, { x: 600, y: 530, w: 300, h: 270 });
});

test("an empty block takes no room, and no gap", () => {
  const noSubtitle = layoutText({ area: AREA, align: "center", valign: "middle", blocks: [BLOCKS[0], { ...BLOCKS[1], lines: [] }] });
  assert.deepEqual(noSubtitle.box, { x: 350, y: 400, w: 300, h: 200 });
  assert.equal(noSubtitle.boxes[1], null);
  const noTitle = layoutText({ area: AREA, align: "left", valign: "top", blocks: [{ ...BLOCKS[0], lines: [] }, BLOCKS[1]] });
  assert.deepEqual(places(noTitle), [[1, "d", 100, 200, 100, 200, 50]], "the subtitle's gap only follows a title");
  const none = layoutText({ area: AREA, blocks: [{ ...BLOCKS[0], lines: [] }, { ...BLOCKS[1], lines: [] }] });
  assert.deepEqual([none.lines, none.box], [[], null]);
});

test("the text area is the safe area less a margin; a circle's is its inscribed square", () => {
  assert.deepEqual(textArea({ safe: { x: 0, y: 0, w: 1000, h: 1000 } }), { x: 50, y: 50, w: 900, h: 900 });
  assert.deepEqual(textArea(GUIDES.story), { x: 54, y: 304, w: 972, h: 1222 });
  assert.deepEqual(textArea(GUIDES["youtube-banner"]), { x: 528, y: 529, w: 1504, h: 381 });
  const round = textArea(GUIDES.profile);
  const side = 400 / Math.SQRT2;
  const inset = Math.round(0.05 * side);
  assert.ok(Math.abs(round.w - (side - 2 * inset)) < 1e-9 && Math.abs(round.x - ((400 - side) / 2 + inset)) < 1e-9);
  // Its corners are inside the circle.
  assert.ok(((round.x - 200) ** 2) + ((round.y - 200) ** 2) < 200 ** 2);
});

const line = (left, y, width, height) => ({ left, y, width, height, x: left, text: "x", block: 0 });

test("text outside the safe area or under a network's controls is reported", () => {
  const story = GUIDES.story;
  assert.deepEqual(problems([line(100, 300, 800, 100)], story), []);
  assert.deepEqual(problems([line(100, 200, 800, 100)], story), [{ kind: "outside" },
    { kind: "avoid", en: story.avoid[0].en, fr: story.avoid[0].fr }]);
  assert.deepEqual(problems([line(100, 1500, 800, 100)], story).map((p) => p.kind), ["outside", "avoid"]);
  // Touching an edge (within half a pixel) is inside.
  assert.deepEqual(problems([line(0, 250, 1080, 1330.4)], story), []);
  // A blank typed line has no width: never reported.
  assert.deepEqual(problems([line(0, 0, 0, 100)], story), []);
  // The avatar circle: the square's middle is in, its corner is not.
  assert.deepEqual(problems([line(150, 180, 100, 40)], GUIDES.profile), []);
  assert.deepEqual(problems([line(10, 10, 100, 40)], GUIDES.profile), [{ kind: "outside" }]);
  // The X header's photo, lower left.
  assert.deepEqual(problems([line(100, 400, 300, 80)], GUIDES["x-header"]).map((p) => p.kind), ["avoid"]);
  assert.deepEqual(problems([line(600, 400, 300, 80)], GUIDES["x-header"]), []);
});

const inside = (rect, w, h) => rect.x >= 0 && rect.y >= 0 && rect.w > 0 && rect.h > 0 && rect.x + rect.w <= w && rect.y + rect.h <= h;

test("every format has a guide, and every guide lies inside its canvas", () => {
  assert.deepEqual(Object.keys(GUIDES).sort(), FORMATS.map((f) => f.id).sort());
  for (const format of FORMATS) {
    const guide = guideFor(format.id, format.w, format.h);
    assert.ok(inside(guide.safe, format.w, format.h), `${format.id}: safe area`);
    for (const area of [...(guide.avoid ?? []), ...(guide.areas ?? [])]) {
      assert.ok(inside(area, format.w, format.h), `${format.id}: ${area.en}`);
      assert.ok(area.en && area.fr, `${format.id}: the area is named in both languages`);
    }
    for (const value of [guide.safe, ...(guide.avoid ?? []), ...(guide.areas ?? [])].flatMap((r) => [r.x, r.y, r.w, r.h])) {
      assert.ok(Number.isInteger(value), `${format.id}: whole pixels`);
    }
    const area = textArea(guide);
    assert.ok(area.x >= guide.safe.x && area.y >= guide.safe.y && area.x + area.w <= guide.safe.x + guide.safe.w
      && area.y + area.h <= guide.safe.y + guide.safe.h, `${format.id}: the text area is in the safe area`);
    assert.ok(guide.en && guide.fr && guide.source, `${format.id}: described and sourced`);
    assert.equal(Boolean(guide.round), Boolean(format.round), `${format.id}: round where social-resize shows it round`);
  }
});

test("the guides say what the networks say", () => {
  // Stories and Reels: 250 px clear at the top, 340 px at the bottom of 1080 × 1920.
  const story = GUIDES.story.safe;
  assert.deepEqual([story.y, 1920 - story.y - story.h, story.w], [250, 340, 1080]);
  // YouTube's banner: 1546 × 423 in the middle of 2560 × 1440.
  const banner = GUIDES["youtube-banner"].safe;
  assert.deepEqual([banner.w, banner.h], [1546, 423]);
  assert.equal(banner.x * 2 + banner.w, 2560);
  assert.ok(Math.abs(banner.y * 2 + banner.h - 1440) <= 1);
  // The X header's photo is in its lower left.
  const photo = GUIDES["x-header"].avoid[0];
  assert.ok(photo.x + photo.w < 1500 / 2 && photo.y + photo.h === 500);
  // A custom size is safe everywhere.
  assert.deepEqual(guideFor("custom", 640, 480).safe, { x: 0, y: 0, w: 640, h: 480 });
});

test("sizes follow the safe area from one format to the next", () => {
  const square = GUIDES["instagram-square"];
  assert.equal(Math.round(reference(square) * 0.09), 84);
  assert.equal(rescale(84, square, square), 84);
  assert.equal(rescale(84, square, GUIDES.profile), 36);
  assert.equal(rescale(84, square, GUIDES["youtube-banner"]), 73);
  assert.equal(rescale(10, square, GUIDES.profile), 8, "never below 8 px");
});

test("the photo covers the canvas, centred", () => {
  assert.deepEqual(coverRect(1920, 1080, 1080, 1080), { x: 420, y: 0, w: 1080, h: 1080 });
  assert.deepEqual(coverRect(1920, 1080, 1080, 1920), { x: 656, y: 0, w: 608, h: 1080 });
  assert.deepEqual(coverRect(1080, 1920, 1500, 500), { x: 0, y: 780, w: 1080, h: 360 });
  assert.deepEqual(coverRect(3000, 2000, 1500, 1000), { x: 0, y: 0, w: 3000, h: 2000 });
  for (const [W, H] of [[1920, 1080], [1080, 1920], [4032, 3024], [500, 501]]) {
    for (const { w, h, id } of FORMATS) {
      const rect = coverRect(W, H, w, h);
      assert.ok(rect.w === W || rect.h === H, `${id} from ${W}×${H}: one side whole`);
      assert.ok(Math.abs(rect.w * h - rect.h * w) <= Math.max(w, h), `${id} from ${W}×${H}: the format's ratio`);
      assert.ok(Math.abs(rect.x * 2 + rect.w - W) <= 1 && Math.abs(rect.y * 2 + rect.h - H) <= 1, `${id} from ${W}×${H}: centred`);
    }
  }
  assert.deepEqual(enlarged(1920, 1080, 1080, 1920), { x: 656, y: 0, w: 608, h: 1080 });
  assert.equal(enlarged(1920, 1080, 1080, 1080), null);
});

test("the file is named after the title", () => {
  assert.equal(fileName("Fête à Noël !", 1080, 1080, "image/png"), "fete-a-noel-1080x1080.png");
  assert.equal(fileName("Straße & Œuvres, ça ü", 1080, 1920, "image/jpeg"), "strasse-oeuvres-ca-u-1080x1920.jpg");
  assert.equal(fileName("", 1200, 630, "image/jpeg"), "text-on-image-1200x630.jpg");
  assert.equal(fileName("!!! ???", 400, 400, "image/png"), "text-on-image-400x400.png");
  assert.equal(fileName("a/b\\c:d*e?f\"g<h>i|j", 10, 10, "image/png"), "a-b-c-d-e-f-g-h-i-j-10x10.png");
  assert.equal(slug("東京 2025"), "東京-2025", "other scripts' letters stay");
  assert.equal(slug("Oﬃce\nparty"), "office-party");
  const long = slug("word ".repeat(30));
  assert.ok(long.length <= 60 && !long.endsWith("-") && long.startsWith("word-word"));
});

test("the typefaces offer only the weights they bundle", () => {
  assert.deepEqual(FAMILIES.map((f) => f.family), ["Inter", "Playfair Display", "Bebas Neue", "Caveat"]);
  for (const f of FAMILIES) assert.ok(f.weights.includes(f.title), f.family);
  assert.equal(nearestWeight("Bebas Neue", 700), 400);
  assert.equal(nearestWeight("Caveat", 700), 700);
  assert.equal(nearestWeight("Inter", 600), 700);
  assert.equal(fontString("Playfair Display", 700, 96), '700 96px "Playfair Display", sans-serif');
  assert.equal(fontString("Bebas Neue", 700, 40), '400 40px "Bebas Neue", sans-serif');
});

/// The code points a WOFF2 file maps (its cmap table, formats 4 and 12). WOFF2 keeps cmap
/// untransformed in one Brotli stream with the other tables.
const KNOWN = ["cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm", "glyf", "loca", "prep", "CFF ",
  "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX", "vhea", "vmtx", "BASE", "GDEF", "GPOS", "GSUB"];
function codePoints(file) {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  assert.equal(view.getUint32(0), 0x774f4632, "wOF2");
  let at = 48;
  const base128 = () => {
    let n = 0;
    for (;;) {
      const b = file[at++];
      n = n * 128 + (b & 127);
      if (!(b & 128)) return n;
    }
  };
  const tables = [];
  for (let i = 0; i < view.getUint16(12); i++) {
    const flags = file[at++];
    let tag = KNOWN[flags & 63];
    if ((flags & 63) === 63) [tag, at] = [String.fromCharCode(...file.subarray(at, at + 4)), at + 4];
    assert.ok(tag, `table tag ${flags & 63} is one this reader knows`);
    let length = base128();
    const transformed = tag === "glyf" || tag === "loca" ? flags >> 6 === 0 : flags >> 6 !== 0;
    if (transformed) length = base128();
    tables.push({ tag, length });
  }
  const data = brotliDecompressSync(file.subarray(at, at + view.getUint32(20)));
  let offset = 0;
  let cmap;
  for (const t of tables) {
    if (t.tag === "cmap") cmap = new DataView(data.buffer, data.byteOffset + offset, t.length);
    offset += t.length;
  }
  const found = new Set();
  for (let i = 0; i < cmap.getUint16(2); i++) {
    const sub = cmap.getUint32(8 + i * 8);
    if (cmap.getUint16(sub) === 4) {
      const segments = cmap.getUint16(sub + 6) / 2;
      for (let s = 0; s < segments; s++) {
        const end = cmap.getUint16(sub + 14 + s * 2);
        for (let c = cmap.getUint16(sub + 16 + segments * 2 + s * 2); c <= end && c < 0xffff; c++) found.add(c);
      }
    } else if (cmap.getUint16(sub) === 12) {
      for (let g = 0; g < cmap.getUint32(sub + 12); g++) {
        for (let c = cmap.getUint32(sub + 16 + g * 12); c <= cmap.getUint32(sub + 20 + g * 12); c++) found.add(c);
      }
    }
  }
  return found;
}

test("the bundled font files are every offered weight, and hold French and German letters", () => {
  const source = readFileSync(new URL("../src/local/text-on-image/fonts.mjs", import.meta.url), "utf8");
  const files = [...source.matchAll(/from "(@fontsource\/[^"]+\.woff2)"/g)].map((m) => m[1]);
  const expected = FAMILIES.flatMap((f) => f.weights.map((w) =>
    `@fontsource/${f.family.toLowerCase().replace(/ /g, "-")}/files/${f.family.toLowerCase().replace(/ /g, "-")}-latin-${w}-normal.woff2`));
  assert.deepEqual(files.sort(), expected.sort());
  const require = createRequire(import.meta.url);
  const wanted = [..."é à ç ü ß É À Ç Ü œ Œ € ’ « » … – — ! ? 0 9 A Z a z"].filter((c) => c !== " ");
  for (const file of files) {
    const points = codePoints(readFileSync(require.resolve(file)));
    const missing = wanted.filter((c) => !points.has(c.codePointAt(0)));
    assert.deepEqual(missing, [], `${file} lacks ${missing.join(" ")}`);
  }
});
