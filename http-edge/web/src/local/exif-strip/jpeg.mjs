// JPEG without its metadata, losslessly: the segments are walked and copied or dropped, the
// compressed picture is never decoded. What goes: APP1 (EXIF, XMP), APP13 (Photoshop/IPTC),
// APP12, COM, every other APPn but the few that change how the picture looks (APP0 JFIF, APP14
// "Adobe": its colour transform flag, APP2 ICC_PROFILE unless asked), the MPF index and
// whatever follows the picture's end (phones append previews, depth maps and their own
// metadata there). A turned photo keeps a new, minimal EXIF that holds only its orientation.
import { orientationOnly, orientationTiff, orientationToKeep, readExif } from "./exif-read.mjs";
import { concat, damaged, newFound, Refusal, startsWith, text } from "./report.mjs";

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;

/// Markers that stand alone, without a length: TEM, RST0-7, SOI, EOI.
const standalone = (marker) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);

/// Where the entropy-coded data that starts at `at` ends: at the first marker that is not a
/// stuffed 0xFF00, a restart marker RSTn or a fill byte (a progressive JPEG's next table or
/// scan, or EOI); the length of `bytes` if there is none (a cut file).
function scanEnd(bytes, at) {
  let i = at;
  for (;;) {
    i = bytes.indexOf(0xff, i);
    if (i < 0 || i + 1 >= bytes.length) return bytes.length;
    const next = bytes[i + 1];
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) i += 2;
    else if (next === 0xff) i += 1;
    else return i;
  }
}

/// A minimal APP1 EXIF segment holding only Orientation.
export function orientationSegment(orientation) {
  const payload = concat([new TextEncoder().encode("Exif\0\0"), orientationTiff(orientation)]);
  const length = payload.length + 2;
  return concat([new Uint8Array([0xff, 0xe1, length >> 8, length & 0xff]), payload]);
}

/// What to do with the segment `marker` whose payload (after the length) is `data`: its name,
/// whether it is kept, and what it tells (recorded in `found`).
function judge(marker, data, found, options) {
  if (marker === 0xe0) {
    if (startsWith(data, "JFIF\0")) return { keep: true };
    return { what: startsWith(data, "JFXX\0") ? "APP0 JFXX (thumbnail)" : "APP0" };
  }
  if (marker === 0xe1) {
    if (startsWith(data, "Exif\0\0")) {
      const exif = readExif(data.subarray(6));
      found.exif ??= exif;
      return { what: "APP1 EXIF", exif };
    }
    if (startsWith(data, "http://ns.adobe.com/xap/1.0/\0") || startsWith(data, "http://ns.adobe.com/xmp/extension/\0")) {
      found.xmp = true;
      return { what: "APP1 XMP" };
    }
    return { what: "APP1" };
  }
  if (marker === 0xe2) {
    if (startsWith(data, "ICC_PROFILE\0")) {
      found.icc = true;
      return options.removeIcc ? { what: "APP2 ICC_PROFILE" } : { keep: true, icc: true };
    }
    return { what: startsWith(data, "MPF\0") ? "APP2 MPF" : startsWith(data, "FPXR") ? "APP2 FlashPix" : "APP2" };
  }
  if (marker === 0xed) {
    found.iptc = true;
    return { what: "APP13 IPTC/Photoshop" };
  }
  if (marker === 0xee && startsWith(data, "Adobe")) return { keep: true };
  if (marker >= 0xe3 && marker <= 0xef) {
    const name = /^[\x20-\x7e]{3,16}/.exec(String.fromCharCode(...data.subarray(0, 16)))?.[0];
    return { what: `APP${marker - 0xe0}${name ? ` ${name}` : ""}` };
  }
  if (marker === COM) {
    const comment = text(data);
    if (comment) found.comments.push(comment);
    return { what: "COM" };
  }
  return { keep: true }; // tables, frame, scan headers, restart interval...: the picture itself
}

/// `bytes` (a JPEG) without its metadata: { output, found }. Throws a Refusal if it is not one
/// or its segments are broken before the picture starts.
export function stripJpeg(bytes, options = {}) {
  if (!(bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8)) {
    throw new Refusal("This is not a JPEG file.", "Ce n'est pas un fichier JPEG.");
  }
  const found = newFound();
  const out = [bytes.subarray(0, 2)];
  let orientationWritten = false;
  let scans = 0;
  let pos = 2;
  let ended = false;
  while (pos < bytes.length) {
    if (bytes[pos] !== 0xff) {
      throw damaged(`no JPEG marker at byte ${pos}`, `pas de marqueur JPEG à l'octet ${pos}`);
    }
    while (pos + 1 < bytes.length && bytes[pos + 1] === 0xff) pos++; // fill bytes, dropped
    if (pos + 1 >= bytes.length) break;
    const marker = bytes[pos + 1];
    if (standalone(marker)) {
      out.push(bytes.subarray(pos, pos + 2));
      pos += 2;
      if (marker === EOI) {
        ended = true;
        break;
      }
      continue;
    }
    if (marker === 0x00 || pos + 4 > bytes.length) {
      throw damaged(`bad JPEG marker at byte ${pos}`, `marqueur JPEG invalide à l'octet ${pos}`);
    }
    const length = (bytes[pos + 2] << 8) | bytes[pos + 3];
    const end = pos + 2 + length;
    if (length < 2 || end > bytes.length) {
      throw damaged(`a segment runs past the end at byte ${pos}`, `un segment dépasse la fin à l'octet ${pos}`);
    }
    const verdict = judge(marker, bytes.subarray(pos + 4, end), found, options);
    if (verdict.keep) {
      out.push(bytes.subarray(pos, end));
      if (verdict.icc && !found.kept.includes("colour profile")) found.kept.push("colour profile");
    } else {
      found.removed.push({ what: verdict.what, size: end - pos, orientationOnly: orientationOnly(verdict.exif) });
      const orientation = verdict.exif && !orientationWritten ? orientationToKeep(verdict.exif) : null;
      if (orientation) {
        // In place of the EXIF it replaces, so that a JFIF APP0 before it stays first.
        out.push(orientationSegment(orientation));
        orientationWritten = true;
        found.kept.push("orientation");
      }
    }
    pos = end;
    if (marker === SOS) {
      scans++;
      const scanned = scanEnd(bytes, pos);
      out.push(bytes.subarray(pos, scanned));
      pos = scanned;
    }
  }
  if (!scans) throw damaged("no picture data", "pas de données d'image");
  if (ended && pos < bytes.length) found.removed.push({ what: "data after the picture", size: bytes.length - pos });
  return { output: concat(out), found };
}
