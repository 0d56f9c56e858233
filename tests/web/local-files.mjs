// What the browser-local tools' Chromium checks (local-<slug>.mjs) share to handle files: a
// fixture's path, a download's bytes, a stored ZIP's entries, a PNG's or a JPEG's size read from
// its bytes, and image bytes decoded to pixels by the page itself. Parsing errors throw with
// what was wrong and where, so a broken output fails the check in words rather than by a
// wrong index further on.
import fs from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/// The JPEG frame headers (SOF0–SOF15 but DHT c4, JPG c8 and DAC cc, which share the range).
const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const hex = (n) => `0x${n.toString(16).padStart(2, "0")}`;

/// Bytes as a Buffer without copying (downloads are Buffers; a Uint8Array is viewed as one).
const asBuffer = (bytes) => (Buffer.isBuffer(bytes) ? bytes
  : ArrayBuffer.isView(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.from(bytes));

/// CRC-32 as ZIP uses it: Node's own where it has one (20.15+), else a table (to check entries).
const CRC_TABLE = Int32Array.from({ length: 256 }, (_, n) => {
  for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
  return n;
});
const crc32 = zlib.crc32 ?? ((bytes) => {
  let c = -1;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
});

/// A fixture's path, as setInputFiles takes it: the runner passes the folder local-fixtures.py wrote.
export function fixture(fixtures, name) {
  if (typeof fixtures !== "string") throw new TypeError(`the fixtures are a folder's path, not ${typeof fixtures}`);
  const file = path.join(fixtures, name);
  if (!fs.existsSync(file)) throw new Error(`fixture ${name}: not in ${fixtures} (local-fixtures.py writes it)`);
  return file;
}

/// Clicks `target` (selector or Locator) and gives its download { name, bytes }, waiting before clicking so none is missed.
export async function saveDownload(page, target) {
  const [download] = await Promise.all([page.waitForEvent("download"),
    typeof target === "string" ? page.click(target) : target.click()]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/// A stored ZIP's entries (the tools' zip(), fflate level 0) as Map name → Buffer in order, every header and CRC checked.
export function unzip(zip, what = "the ZIP") {
  const bytes = asBuffer(zip);
  const fail = (message) => {
    throw new Error(`${what}: ${message}`);
  };
  const need = (at, length, part) => {
    if (at < 0 || at + length > bytes.length) fail(`${part} (${length} bytes at ${at}) runs past the end (${bytes.length} bytes)`);
  };
  // The end of central directory record: 22 bytes and its comment, which ends the file.
  let end = bytes.length - 22;
  const first = Math.max(0, bytes.length - 22 - 0xffff);
  while (end >= first && !(bytes.readUInt32LE(end) === 0x06054b50 && end + 22 + bytes.readUInt16LE(end + 20) === bytes.length)) end--;
  if (end < first) fail(`no end of central directory record in ${bytes.length} bytes (not a ZIP, or cut short)`);
  const count = bytes.readUInt16LE(end + 10);
  const [directorySize, directory] = [bytes.readUInt32LE(end + 12), bytes.readUInt32LE(end + 16)];
  if (count === 0xffff || directory === 0xffffffff || directorySize === 0xffffffff) fail("ZIP64, which is not read here");
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0 || bytes.readUInt16LE(end + 8) !== count) fail("split over several disks");
  if (directory + directorySize !== end) fail(`its central directory (${directorySize} bytes at ${directory}) does not end where its end record starts (${end})`);
  if (count === 0) fail("no entries");

  const entries = new Map();
  let at = directory;
  for (let i = 0; i < count; i++) {
    need(at, 46, `central directory header ${i}`);
    if (bytes.readUInt32LE(at) !== 0x02014b50) fail(`no central directory header ${i} at ${at}`);
    const [flags, method, crc] = [bytes.readUInt16LE(at + 8), bytes.readUInt16LE(at + 10), bytes.readUInt32LE(at + 16)];
    const [packed, size, local] = [bytes.readUInt32LE(at + 20), bytes.readUInt32LE(at + 24), bytes.readUInt32LE(at + 42)];
    const [nameLength, extra, comment] = [bytes.readUInt16LE(at + 28), bytes.readUInt16LE(at + 30), bytes.readUInt16LE(at + 32)];
    need(at + 46, nameLength + extra + comment, `central directory header ${i}'s name, extra field and comment`);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    const entry = `entry ${i} (${JSON.stringify(name)})`;
    if (flags & 1) fail(`${entry} is encrypted`);
    if (method !== 0) fail(`${entry} is compressed (method ${method}); only stored entries are read`);
    if (packed !== size) fail(`${entry} is stored but takes ${packed} bytes for ${size}`);
    if (entries.has(name)) fail(`${entry} is there twice`);

    need(local, 30, `${entry}'s local header`);
    if (bytes.readUInt32LE(local) !== 0x04034b50) fail(`${entry}: no local header at ${local}`);
    if (bytes.readUInt16LE(local + 6) & 8) fail(`${entry}: its sizes are in a data descriptor, not in its local header`);
    const header = [bytes.readUInt16LE(local + 8), bytes.readUInt32LE(local + 14), bytes.readUInt32LE(local + 18), bytes.readUInt32LE(local + 22)];
    if (header.join() !== [method, crc, packed, size].join()) fail(`${entry}: its local header (method, CRC, sizes ${header}) disagrees with the central directory`);
    const [localName, localExtra] = [bytes.readUInt16LE(local + 26), bytes.readUInt16LE(local + 28)];
    need(local + 30, localName + localExtra, `${entry}'s local name and extra field`);
    if (bytes.toString("utf8", local + 30, local + 30 + localName) !== name) fail(`${entry}: another name in its local header`);
    const start = local + 30 + localName + localExtra;
    if (start + size > directory) fail(`${entry}: its ${size} bytes at ${start} run into the central directory at ${directory}`);
    const data = bytes.subarray(start, start + size);
    const actual = crc32(data) >>> 0;
    if (actual !== crc) fail(`${entry}: CRC-32 ${actual.toString(16)}, the ZIP says ${crc.toString(16)}`);
    entries.set(name, data);
    at += 46 + nameLength + extra + comment;
  }
  if (at !== end) fail(`${end - at} bytes in its central directory after its ${count} entries`);
  return entries;
}

/// [width, height] of a PNG from its IHDR, which must come first: an output's size without decoding it.
export function pngSize(bytes, what = "the image") {
  const png = asBuffer(bytes);
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error(`${what} is not a PNG`);
  if (png.readUInt32BE(8) !== 13 || png.toString("latin1", 12, 16) !== "IHDR") throw new Error(`${what}: its first chunk is not a 13-byte IHDR`);
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

/// [width, height] of a JPEG from its frame header (SOFn), walking its segments: an output's size without decoding it.
export function jpegSize(bytes, what = "the image") {
  const jpeg = asBuffer(bytes);
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error(`${what} is not a JPEG`);
  for (let at = 2; ;) {
    if (at + 2 > jpeg.length) throw new Error(`${what}: ends at ${at} before any frame header`);
    if (jpeg[at] !== 0xff) throw new Error(`${what}: ${hex(jpeg[at])} where a marker should start, at ${at}`);
    const marker = jpeg[at + 1];
    if (marker === 0xff) { // a fill byte: the marker follows
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) { // TEM, RST0–7, SOI: no length
      at += 2;
      continue;
    }
    if (marker === 0x00 || marker === 0xd9 || marker === 0xda) throw new Error(`${what}: marker ${hex(marker)} at ${at}, before any frame header`);
    const length = at + 4 <= jpeg.length ? jpeg.readUInt16BE(at + 2) : 0;
    if (length < 2 || at + 2 + length > jpeg.length) throw new Error(`${what}: segment ${hex(marker)} at ${at} is cut short`);
    if (SOF_MARKERS.has(marker)) {
      if (length < 8) throw new Error(`${what}: frame header ${hex(marker)} at ${at} is ${length} bytes`);
      return [jpeg.readUInt16BE(at + 7), jpeg.readUInt16BE(at + 5)];
    }
    at += 2 + length;
  }
}

/// [width, height] of a PNG or a JPEG, by its signature (the tools output one or the other).
export function imageSize(bytes, what = "the image") {
  const b = asBuffer(bytes);
  if (b.subarray(0, 8).equals(PNG_SIGNATURE)) return pngSize(b, what);
  if (b[0] === 0xff && b[1] === 0xd8) return jpegSize(b, what);
  throw new Error(`${what} is neither a PNG nor a JPEG`);
}

/// The MIME type of image bytes by their signature, so the page's blob has one (an SVG needs it).
function imageType(bytes) {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image/jpeg";
  if (/^(\ufeff)?\s*<(\?xml|svg)/.test(bytes.toString("utf8", 0, 256))) return "image/svg+xml";
  return "";
}

/// Image bytes as the page decodes and draws them (an <img>, so SVG too): { width, height, data: RGBA Buffer, via base64 for speed }.
/// Options: `type` (else sniffed), `size` (drawn size × size), `background` (CSS colour under it), `region` ({ x, y, width, height } read).
export async function pagePixels(page, bytes, { type, size, background, region } = {}) {
  const input = asBuffer(bytes);
  const drawn = await page.evaluate(async ({ base64, type, size, background, region }) => {
    const raw = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([raw], { type }));
    try {
      const image = new Image();
      image.src = url;
      await image.decode();
      const width = size || image.naturalWidth, height = size || image.naturalHeight;
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [width, height];
      const context = canvas.getContext("2d", { willReadFrequently: true });
      if (background) {
        context.fillStyle = background;
        context.fillRect(0, 0, width, height);
      }
      context.drawImage(image, 0, 0, width, height);
      const { x, y, width: w, height: h } = region || { x: 0, y: 0, width, height };
      if (!(x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= width && y + h <= height)) {
        throw new Error(`the region ${w}×${h} at (${x}, ${y}) is not inside the ${width}×${height} image`);
      }
      const rgba = context.getImageData(x, y, w, h).data;
      let binary = "";
      for (let i = 0; i < rgba.length; i += 0x8000) binary += String.fromCharCode.apply(null, rgba.subarray(i, i + 0x8000));
      return { width, height, data: btoa(binary) };
    } finally {
      URL.revokeObjectURL(url);
    }
  }, { base64: input.toString("base64"), type: type ?? imageType(input), size: size ?? 0, background: background ?? "", region: region ?? null });
  return { width: drawn.width, height: drawn.height, data: Buffer.from(drawn.data, "base64") };
}

/// [width, height] of image bytes as the page decodes them: checks the file decodes, not just its header.
export async function pageImageSize(page, bytes, type) {
  const { width, height } = await pagePixels(page, bytes, { type, region: { x: 0, y: 0, width: 1, height: 1 } });
  return [width, height];
}

/// [r, g, b, a] of the pixel (x, y) of image bytes as the page decodes them, reading that pixel alone.
export async function pagePixel(page, bytes, x, y) {
  const { data } = await pagePixels(page, bytes, { region: { x, y, width: 1, height: 1 } });
  return [...data];
}
