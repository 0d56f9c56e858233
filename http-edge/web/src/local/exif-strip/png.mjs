// PNG without its metadata, losslessly: chunks are copied whole (their CRCs with them) or
// dropped. Kept: the critical chunks (without them there is no picture) and the ancillary ones
// that change how it looks (transparency, gamma, colours, pixel size, animation); dropped: text
// (tEXt, zTXt, iTXt), eXIf, tIME and every ancillary chunk we do not know, since an unknown
// chunk may carry anything (C2PA manifests, editors' private data...). A turned picture keeps
// a new eXIf chunk with only its orientation, as JPEG does.
import { orientationOnly, orientationTiff, orientationToKeep, readExif } from "./exif-read.mjs";
import { ascii, concat, damaged, latin1, newFound, Refusal, text } from "./report.mjs";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const KEEP = new Set([
  "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "bKGD",
  "acTL", "fcTL", "fdAT", // APNG
  "cICP", "mDCv", "cLLi", // HDR colour (PNG third edition)
]);

let table = null;
/// CRC-32 of `bytes` (the PNG one: polynomial 0xEDB88320), for the chunk we write.
export function crc32(bytes) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/// A whole chunk (length, type, data, CRC) of `type` holding `data`.
export function chunk(type, data) {
  const body = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(body.length + 8);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(out.length - 4, crc32(body));
  return out;
}

/// What a text chunk says: tEXt "keyword\0text" (Latin-1); iTXt "keyword\0 flag method
/// language\0 translated keyword\0 text" (UTF-8, shown when not compressed); zTXt (compressed).
function textChunk(type, data) {
  const zero = data.indexOf(0);
  const keyword = latin1(data.subarray(0, zero < 0 ? Math.min(data.length, 79) : zero), 79);
  if (zero < 0) return { keyword, text: "" };
  if (type === "tEXt") return { keyword, text: latin1(data.subarray(zero + 1)) };
  if (type === "zTXt") return { keyword, text: "", compressed: true };
  if (data[zero + 1] === 1) return { keyword, text: "", compressed: true };
  const language = data.indexOf(0, zero + 3);
  const translated = language < 0 ? -1 : data.indexOf(0, language + 1);
  return { keyword, text: translated < 0 ? "" : text(data.subarray(translated + 1)) };
}

/// tIME as "YYYY-MM-DD hh:mm:ss" (the last time the picture was changed).
function time(data) {
  if (data.length < 7) return "";
  const two = (n) => String(n).padStart(2, "0");
  return `${(data[0] << 8) | data[1]}-${two(data[2])}-${two(data[3])} ${two(data[4])}:${two(data[5])}:${two(data[6])}`;
}

/// `bytes` (a PNG) without its metadata: { output, found }. Throws a Refusal if it is not one
/// or a chunk is cut or broken.
export function stripPng(bytes, options = {}) {
  if (!(bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b))) {
    throw new Refusal("This is not a PNG file.", "Ce n'est pas un fichier PNG.");
  }
  const found = newFound();
  const out = [bytes.subarray(0, 8)];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let orientationWritten = false;
  let pos = 8;
  let ended = false;
  while (pos < bytes.length) {
    if (pos + 12 > bytes.length) throw damaged(`a chunk is cut at byte ${pos}`, `un bloc est coupé à l'octet ${pos}`);
    const length = view.getUint32(pos);
    const type = ascii(bytes, pos + 4, 4);
    if (!/^[A-Za-z]{4}$/.test(type) || length > bytes.length - pos - 12) {
      throw damaged(`a broken chunk at byte ${pos}`, `un bloc invalide à l'octet ${pos}`);
    }
    const end = pos + 12 + length;
    const data = bytes.subarray(pos + 8, pos + 8 + length);
    const critical = (bytes[pos + 4] & 0x20) === 0;
    let keep = critical || KEEP.has(type);
    let exif = null;
    if (type === "iCCP") {
      found.icc = true;
      keep = !options.removeIcc;
      if (keep && !found.kept.includes("colour profile")) found.kept.push("colour profile");
    } else if (type === "tEXt" || type === "zTXt" || type === "iTXt") {
      found.texts.push(textChunk(type, data));
    } else if (type === "tIME") {
      found.texts.push({ keyword: "tIME", text: time(data) });
    } else if (type === "eXIf") {
      exif = readExif(data);
      found.exif ??= exif;
    }
    if (keep) {
      out.push(bytes.subarray(pos, end));
    } else {
      found.removed.push({ what: type, size: end - pos, orientationOnly: orientationOnly(exif) });
      const orientation = exif && !orientationWritten ? orientationToKeep(exif) : null;
      if (orientation) {
        out.push(chunk("eXIf", orientationTiff(orientation)));
        orientationWritten = true;
        found.kept.push("orientation");
      }
    }
    pos = end;
    if (type === "IEND") {
      ended = true;
      break;
    }
  }
  if (ended && pos < bytes.length) found.removed.push({ what: "data after the picture", size: bytes.length - pos });
  return { output: concat(out), found };
}
