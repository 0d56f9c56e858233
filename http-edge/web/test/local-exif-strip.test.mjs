// exif-strip's byte work (src/local/exif-strip/): EXIF read (both byte orders, GPS to the
// decimal, broken blocks), JPEG/PNG/WebP cleaned with what stays byte-identical, orientation
// kept as a minimal EXIF, other types refused in words, and damaged input that never throws
// anything but a refusal nor loops. Test files are built here, byte by byte; real photos found
// on the machine are an extra, skipped when absent. The page itself: tests/web/local-exif-strip.mjs.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";
import zlib from "node:zlib";
import { readExif, orientationOnly, orientationTiff } from "../src/local/exif-strip/exif-read.mjs";
import { stripJpeg } from "../src/local/exif-strip/jpeg.mjs";
import { crc32, stripPng } from "../src/local/exif-strip/png.mjs";
import { kindOf, stripImage } from "../src/local/exif-strip/strip.mjs";
import { stripWebp } from "../src/local/exif-strip/webp.mjs";
import { cleanName } from "../src/local/exif-strip/view.mjs";

const enc = (s) => new TextEncoder().encode(s);
const cat = (...parts) => Uint8Array.from(parts.flatMap((p) => (typeof p === "number" ? [p] : [...(typeof p === "string" ? enc(p) : p)])));
const be16 = (n) => [n >> 8, n & 0xff];
const be32 = (n) => [n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const le32 = (n) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
const has = (bytes, text) => Buffer.from(bytes).includes(Buffer.from(text));

// --- builders -------------------------------------------------------------------------------

/// A TIFF block: `ifds` = { ifd0, exif, gps } as [tag, type, value] lists (ASCII string, or an
/// array of numbers, or of [top, bottom] for rationals); the Exif/GPS pointers are added.
function tiff(little, ifds) {
  const u16 = (n) => (little ? [n & 0xff, n >> 8] : be16(n));
  const u32 = (n) => (little ? le32(n) : be32(n));
  const SIZE = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 10: 8 };
  const encode = (type, value) => {
    if (type === 2) return [...enc(value), 0];
    if (type === 1) return value;
    if (type === 3) return value.flatMap(u16);
    if (type === 4) return value.flatMap(u32);
    return value.flatMap(([top, bottom]) => [...u32(top >>> 0), ...u32(bottom >>> 0)]);
  };
  const lists = [ifds.ifd0, ifds.exif, ifds.gps].filter(Boolean).map((l) => [...l]);
  const ifdSize = (l) => 2 + 12 * (l.length + (l === lists[0] ? (ifds.exif ? 1 : 0) + (ifds.gps ? 1 : 0) : 0)) + 4;
  const starts = [];
  let at = 8;
  for (const l of lists) starts.push(at), (at += ifdSize(l));
  if (ifds.exif) lists[0].push([0x8769, 4, [starts[1]]]);
  if (ifds.gps) lists[0].push([0x8825, 4, [starts[ifds.exif ? 2 : 1]]]);
  const out = [...(little ? [0x49, 0x49] : [0x4d, 0x4d]), ...u16(42), ...u32(8)];
  const data = [];
  for (const l of lists) {
    l.sort((a, b) => a[0] - b[0]);
    out.push(...u16(l.length));
    for (const [tag, type, value] of l) {
      const bytes = encode(type, value);
      const count = type === 2 ? bytes.length : bytes.length / SIZE[type];
      out.push(...u16(tag), ...u16(type), ...u32(count));
      if (bytes.length <= 4) out.push(...bytes, ...Array(4 - bytes.length).fill(0));
      else out.push(...u32(at + data.length)), data.push(...bytes);
    }
    out.push(...u32(0));
  }
  return Uint8Array.from([...out, ...data]);
}

/// EXIF of a photo taken in Sydney (33°51'54.36"S 151°12'30.24"E, 58 m), with camera and lens.
function sydney(little = true, orientation = 1) {
  return tiff(little, {
    ifd0: [[0x010f, 2, "TestCam"], [0x0110, 2, "T2"], [0x0131, 2, "Editor 9"], [0x0112, 3, [orientation]]],
    exif: [[0x9003, 2, "2025:01:02 03:04:05"], [0xa434, 2, "50mm f/1.8"], [0xa431, 2, "SN123"]],
    gps: [[1, 2, "S"], [2, 5, [[33, 1], [51, 1], [5436, 100]]], [3, 2, "E"], [4, 5, [[151, 1], [12, 1], [3024, 100]]],
      [5, 1, [0]], [6, 5, [[5800, 100]]]],
  });
}

const segment = (marker, payload) => cat(0xff, marker, be16(payload.length + 2), payload);
const APP0 = segment(0xe0, cat("JFIF\0", 1, 1, 0, 0, 1, 0, 1, 0, 0));
const ICC = segment(0xe2, cat("ICC_PROFILE\0", 1, 1, "fake profile bytes"));
const ADOBE = segment(0xee, cat("Adobe", 0, 100, 0, 0, 0, 0, 1));
const DQT = segment(0xdb, cat(0, ...Array(64).fill(1)));
const SOF = segment(0xc0, cat(8, be16(16), be16(16), 1, 1, 0x11, 0));
const SOS = segment(0xda, cat(1, 1, 0, 0, 0x3f, 0));
// Entropy-coded data with a stuffed 0xFF00, a restart marker and a fill byte before EOI.
const SCAN = cat(0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff);
const EOI = cat(0xff, 0xd9);

function jpeg({ orientation = 1, exif = sydney(true, orientation), trailer = [] } = {}) {
  return cat(0xff, 0xd8, APP0, segment(0xe1, cat("Exif\0\0", exif)),
    segment(0xe1, cat("http://ns.adobe.com/xap/1.0/\0", "<x:xmpmeta>where</x:xmpmeta>")),
    segment(0xfe, enc("secret note")), ICC, segment(0xed, cat("Photoshop 3.0\0", "8BIM", 4, 4, 0, 0, 0, 0, 0, 0)),
    segment(0xec, cat("Ducky", 0, 1)), ADOBE, 0xff, 0xff, DQT, 0xff, 0x01, SOF, SOS, SCAN, EOI, trailer);
}

/// The segments of a JPEG up to the first SOS: [marker, bytes] (a test-side walker).
function markers(bytes) {
  const out = [];
  let pos = 2;
  while (pos < bytes.length) {
    while (bytes[pos + 1] === 0xff) pos++;
    const marker = bytes[pos + 1];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      pos += 2;
      continue;
    }
    const end = pos + 2 + ((bytes[pos + 2] << 8) | bytes[pos + 3]);
    out.push([marker, bytes.subarray(pos, end)]);
    if (marker === 0xda) break;
    pos = end;
  }
  return out;
}

const pngChunk = (type, data) => {
  const body = cat(type, data);
  return cat(be32(data.length), body, be32(zlib.crc32 ? zlib.crc32(body) : crc32(body)));
};
const IHDR = pngChunk("IHDR", cat(be32(1), be32(1), 8, 2, 0, 0, 0));
const IDAT = pngChunk("IDAT", zlib.deflateSync(Uint8Array.from([0, 255, 0, 0])));
const IEND = pngChunk("IEND", []);
const ICCP = pngChunk("iCCP", cat("sRGB\0", 0, zlib.deflateSync(enc("profile"))));

function png({ orientation = 1 } = {}) {
  return cat(0x89, "PNG\r\n\x1a\n", IHDR, pngChunk("tEXt", cat("Author\0", "Alice Example")),
    pngChunk("iTXt", cat("Comment\0", 0, 0, "fr\0", "Commentaire\0", "café au lait")),
    pngChunk("zTXt", cat("Secret\0", 0, zlib.deflateSync(enc("hidden")))),
    pngChunk("eXIf", sydney(false, orientation)), pngChunk("tIME", cat(be16(2025), 1, 2, 3, 4, 5)),
    ICCP, pngChunk("prVt", enc("private")), IDAT, IEND, "trailing");
}

function pngChunks(bytes) {
  const out = [];
  for (let pos = 8; pos + 12 <= bytes.length;) {
    const length = Buffer.from(bytes).readUInt32BE(pos);
    out.push([String.fromCharCode(...bytes.subarray(pos + 4, pos + 8)), bytes.subarray(pos, pos + 12 + length)]);
    pos += 12 + length;
  }
  return out;
}

const riffChunk = (fourcc, data) => cat(fourcc, le32(data.length), data, data.length & 1 ? [0] : []);
const VP8X = (flags) => riffChunk("VP8X", cat(flags, 0, 0, 0, 0, 0, 0, 0, 0, 0));
const VP8L = riffChunk("VP8L", cat(0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00, 0x00));
const WICC = riffChunk("ICCP", enc("fake profile"));

function webp({ orientation = 1, prefix = false } = {}) {
  const body = cat("WEBP", VP8X(0x20 | 0x10 | 0x08 | 0x04), WICC, VP8L,
    riffChunk("EXIF", cat(prefix ? "Exif\0\0" : [], sydney(true, orientation))), riffChunk("XMP ", enc("<x:xmpmeta>odd</x:xmpmeta>!")));
  return cat("RIFF", le32(body.length), body);
}

function riffChunks(bytes) {
  const out = [];
  for (let pos = 12; pos + 8 <= bytes.length;) {
    const size = Buffer.from(bytes).readUInt32LE(pos + 4);
    out.push([String.fromCharCode(...bytes.subarray(pos, pos + 4)), bytes.subarray(pos, pos + 8 + size + (size & 1))]);
    pos += 8 + size + (size & 1);
  }
  return out;
}

// --- EXIF -----------------------------------------------------------------------------------

test("EXIF is read in both byte orders: camera, lens, date, GPS to the decimal", () => {
  for (const little of [true, false]) {
    const exif = readExif(sydney(little, 6));
    assert.equal(exif.make, "TestCam");
    assert.equal(exif.model, "T2");
    assert.equal(exif.software, "Editor 9");
    assert.equal(exif.dateTaken, "2025:01:02 03:04:05");
    assert.equal(exif.lens, "50mm f/1.8");
    assert.equal(exif.serial, "SN123");
    assert.equal(exif.orientation, 6);
    assert.equal(exif.gps.position.latitude.toFixed(6), "-33.865100");
    assert.equal(exif.gps.position.longitude.toFixed(6), "151.208400");
    assert.equal(exif.gps.position.altitude, 58);
    assert.equal(exif.damaged, false);
  }
});

test("broken EXIF is unreadable or damaged, never thrown; an IFD loop ends", () => {
  assert.equal(readExif(new Uint8Array(0)).unreadable, true);
  assert.equal(readExif(enc("II*\0\xff\xff\x00\x00")).unreadable, true);
  assert.equal(readExif(enc("XX*\0\x08\0\0\0")).unreadable, true);
  // The Exif IFD pointer points back at IFD0; the GPS one far outside the block.
  const looped = tiff(false, { ifd0: [[0x010f, 2, "Loop"], [0x8769, 4, [8]], [0x8825, 4, [99999]]] });
  const exif = readExif(looped);
  assert.equal(exif.make, "Loop");
  assert.equal(exif.damaged, true);
  assert.equal(exif.gps.present, false);
  // A string whose offset lies outside: that entry is skipped, the rest is read.
  const bad = sydney(true);
  const at = Buffer.from(bad).indexOf(Buffer.from([0x0f, 0x01, 0x02, 0x00]));
  bad.set(le32(50000), at + 8);
  const partial = readExif(bad);
  assert.equal(partial.make, undefined);
  assert.equal(partial.model, "T2");
  assert.equal(partial.damaged, true);
});

test("the orientation-only block is a valid TIFF with one IFD and one entry", () => {
  const block = orientationTiff(6);
  assert.equal(block.length, 26);
  const exif = readExif(block);
  assert.equal(exif.orientation, 6);
  assert.deepEqual(exif.tags, { ifd0: [0x0112], exif: [], gps: [] });
  assert.equal(orientationOnly(exif), true);
  assert.equal(orientationOnly(readExif(sydney())), false);
});

// --- JPEG -----------------------------------------------------------------------------------

test("JPEG: metadata reported, then dropped; what stays is byte-identical", () => {
  const input = jpeg({ trailer: cat(0xff, 0xd8, "a preview with Exif\0\0") });
  const { output, found } = stripJpeg(input);
  assert.equal(found.exif.gps.position.latitude.toFixed(4), "-33.8651");
  assert.equal(found.xmp, true);
  assert.equal(found.iptc, true);
  assert.deepEqual(found.comments, ["secret note"]);
  assert.deepEqual(found.kept, ["colour profile"]);
  assert.deepEqual(found.removed.map((r) => r.what),
    ["APP1 EXIF", "APP1 XMP", "COM", "APP13 IPTC/Photoshop", "APP12 Ducky", "data after the picture"]);
  assert.deepEqual(markers(output).map(([m, b]) => [m, Buffer.from(b).toString("hex")]),
    [APP0, ICC, ADOBE, DQT, SOF, SOS].map((s) => [s[1], Buffer.from(s).toString("hex")]));
  for (const secret of ["Exif\0\0", "xmpmeta", "secret note", "Photoshop", "Ducky", "preview"]) assert.ok(!has(output, secret), secret);
  // The scan's data, restart marker and fill byte included, then EOI, end the file.
  assert.ok(Buffer.from(output).subarray(-SCAN.length - 2).equals(Buffer.from(cat(SCAN, EOI))));
  assert.equal(stripJpeg(output).output.length, output.length, "a second pass changes nothing");
});

test("JPEG: the colour profile goes when asked", () => {
  const { output, found } = stripJpeg(jpeg(), { removeIcc: true });
  assert.ok(!has(output, "ICC_PROFILE"));
  assert.ok(found.removed.some((r) => r.what === "APP2 ICC_PROFILE"));
  assert.ok(has(output, "Adobe"));
});

test("JPEG: a turned photo keeps a minimal EXIF with only its orientation, after JFIF", () => {
  const { output, found } = stripJpeg(jpeg({ orientation: 6 }));
  assert.deepEqual(found.kept, ["orientation", "colour profile"]);
  const [[m0], [m1, app1]] = markers(output);
  assert.equal(m0, 0xe0);
  assert.equal(m1, 0xe1);
  assert.deepEqual([...app1.subarray(4)], [...cat("Exif\0\0", orientationTiff(6))]);
  const result = stripImage(jpeg({ orientation: 6 }));
  assert.deepEqual(result.left, []);
  assert.ok(!has(output, "TestCam"));
  assert.equal(stripJpeg(jpeg({ orientation: 1 })).found.kept.includes("orientation"), false);
});

test("JPEG: an unreadable EXIF is said so, and removed all the same", () => {
  const { output, found } = stripJpeg(jpeg({ exif: enc("MM\0*\0\0\xff\xffgarbage") }));
  assert.equal(found.exif.unreadable, true);
  assert.ok(!markers(output).some(([m]) => m === 0xe1));
});

// --- PNG ------------------------------------------------------------------------------------

test("PNG: text, eXIf, tIME and unknown chunks reported and dropped; kept chunks as they were", () => {
  const { output, found } = stripPng(png());
  assert.deepEqual(found.texts, [
    { keyword: "Author", text: "Alice Example" }, { keyword: "Comment", text: "café au lait" },
    { keyword: "Secret", text: "", compressed: true }, { keyword: "tIME", text: "2025-01-02 03:04:05" },
  ]);
  assert.equal(found.exif.gps.position.longitude.toFixed(4), "151.2084");
  assert.deepEqual(found.removed.map((r) => r.what), ["tEXt", "iTXt", "zTXt", "eXIf", "tIME", "prVt", "data after the picture"]);
  const chunks = pngChunks(output);
  assert.deepEqual(chunks.map(([type]) => type), ["IHDR", "iCCP", "IDAT", "IEND"]);
  assert.deepEqual(chunks.map(([, b]) => Buffer.from(b).toString("hex")), [IHDR, ICCP, IDAT, IEND].map((c) => Buffer.from(c).toString("hex")));
  assert.ok(!has(output, "Alice") && !has(output, "trailing"));
  assert.deepEqual(pngChunks(stripPng(png(), { removeIcc: true }).output).map(([type]) => type), ["IHDR", "IDAT", "IEND"]);
});

test("PNG: a turned picture keeps an eXIf chunk with only its orientation and a valid CRC", () => {
  const { output } = stripPng(png({ orientation: 8 }));
  const exifChunk = pngChunks(output).find(([type]) => type === "eXIf")[1];
  assert.deepEqual([...exifChunk], [...pngChunk("eXIf", orientationTiff(8))]);
  assert.deepEqual(stripImage(png({ orientation: 8 })).left, []);
});

// --- WebP -----------------------------------------------------------------------------------

test("WebP: EXIF and XMP dropped, VP8X flags cleared, RIFF size fixed", () => {
  for (const prefix of [false, true]) {
    const { output, found } = stripWebp(webp({ prefix }));
    assert.equal(found.exif.make, "TestCam");
    assert.equal(found.xmp, true);
    const chunks = riffChunks(output);
    assert.deepEqual(chunks.map(([f]) => f), ["VP8X", "ICCP", "VP8L"]);
    assert.equal(chunks[0][1][8], 0x20 | 0x10, "ICC and alpha flags stay, EXIF and XMP go");
    assert.deepEqual([...chunks[1][1]], [...WICC]);
    assert.deepEqual([...chunks[2][1]], [...VP8L]);
    assert.equal(Buffer.from(output).readUInt32LE(4), output.length - 8);
  }
  const noIcc = stripWebp(webp(), { removeIcc: true }).output;
  assert.deepEqual(riffChunks(noIcc).map(([f]) => f), ["VP8X", "VP8L"]);
  assert.equal(noIcc[20], 0x10);
  const turned = stripWebp(webp({ orientation: 3 })).output;
  const exif = riffChunks(turned).find(([f]) => f === "EXIF")[1];
  assert.deepEqual([...exif.subarray(8)], [...orientationTiff(3)]);
  assert.equal(turned[20], 0x20 | 0x10 | 0x08);
});

// --- types, damage, fuzz ----------------------------------------------------------------------

test("other types are refused in words", () => {
  const cases = [[cat("GIF89a", 1, 0, 1, 0), /GIF/], [cat(0, 0, 0, 24, "ftypheic", 0, 0, 0, 0), /HEIC/],
    [cat("II*\0", 8, 0, 0, 0), /TIFF/], [enc("hello, world"), /only JPEG, PNG and WebP/]];
  for (const [bytes, message] of cases) {
    assert.throws(() => stripImage(bytes), (error) => error.name === "Refusal" && message.test(error.message) && Boolean(error.fr));
  }
  assert.equal(kindOf(jpeg()), "image/jpeg");
  assert.equal(cleanName("IMG_1.JPEG", "image/jpeg"), "IMG_1-clean.JPEG");
  assert.equal(cleanName("photo.png", "image/jpeg"), "photo-clean.jpg");
});

/// A tiny seeded generator, so that a failure can be replayed.
function random(seed) {
  let s = seed >>> 0;
  return (n) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % n);
}

test("cut and scrambled files give a result or a refusal, never another error nor a hang", { timeout: 20000 }, () => {
  const next = random(42);
  for (const sample of [jpeg({ orientation: 6 }), png({ orientation: 6 }), webp({ orientation: 6 })]) {
    for (let round = 0; round < 400; round++) {
      let bytes = sample.slice(0, round < 200 ? next(sample.length + 1) : sample.length);
      if (round >= 100) for (let k = 0; k < 1 + next(8); k++) if (bytes.length) bytes[next(bytes.length)] = next(256);
      try {
        const { output, left } = stripImage(bytes);
        assert.deepEqual(left, [], `round ${round}`);
        // A cut file keeps nothing it carried; a scrambled one may have turned metadata into
        // what looks like picture data, which is then kept as such.
        if (round < 100) assert.ok(!has(output, "TestCam") && !has(output, "secret note") && !has(output, "Alice"), `round ${round}`);
      } catch (error) {
        if (error.name !== "Refusal") throw error;
      }
    }
  }
  for (let round = 0; round < 2000; round++) {
    const block = sydney(next(2) === 0).slice();
    for (let k = 0; k < 1 + next(6); k++) block[next(block.length)] = next(256);
    const exif = readExif(block.subarray(0, next(block.length + 1)));
    assert.equal(typeof exif, "object");
  }
});

// --- real photos: the phones' and cameras' files setup fetches (scripts/corpus/photos.sh) --------

const CORPUS = process.env.QUIRE_PHOTO_CORPUS || new URL("../../../.cache/photo-corpus", import.meta.url).pathname;
const SAMPLES = [
  ...(process.env.QUIRE_EXIF_SAMPLES ? process.env.QUIRE_EXIF_SAMPLES.split(":") : []),
  ...(fs.existsSync(CORPUS) ? fs.readdirSync(CORPUS).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)).map((f) => `${CORPUS}/${f}`) : []),
];
// In CI the corpus must be there: a test that silently skips proves nothing.
if (process.env.CI && SAMPLES.length < 30) throw new Error(`the photo corpus is missing from ${CORPUS}: run scripts/setup.sh --tests`);

test("real photos: their metadata goes, their picture data stays", { skip: SAMPLES.length ? false : "no photo corpus: run scripts/setup.sh --tests" }, () => {
  for (const file of SAMPLES) {
    const input = new Uint8Array(fs.readFileSync(file));
    const { output, left, type } = stripImage(input);
    assert.deepEqual(left, [], file);
    assert.equal(stripImage(output).output.length, output.length, file);
    if (type !== "image/jpeg") continue;
    assert.ok(!has(output, "http://ns.adobe.com/xap"), file);
    // An EXIF block stays only to keep a turned photo's orientation: one entry, a few bytes.
    const exifAt = Buffer.from(output).indexOf("Exif\0\0");
    if (exifAt !== -1) assert.ok(((output[exifAt - 2] << 8) | output[exifAt - 1]) < 64, `${file}: more than the orientation stays`);
    // Every segment that is not metadata (APPn, COM), and the compressed picture from the
    // first SOS on, unchanged.
    const picture = (bytes) => markers(bytes).filter(([m]) => (m < 0xe0 || m > 0xef) && m !== 0xfe)
      .map(([, b]) => Buffer.from(b).toString("hex")).join();
    assert.equal(picture(output), picture(input), file);
    const scan = (bytes) => Buffer.from(bytes).subarray(markers(bytes).at(-1)[1].byteOffset - bytes.byteOffset);
    assert.ok(scan(input).subarray(0, scan(output).length).equals(scan(output)), file);
  }
});
