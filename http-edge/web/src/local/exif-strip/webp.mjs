// WebP without its metadata, losslessly: the RIFF chunks are copied or dropped, never decoded.
// Dropped: EXIF, XMP, chunks we do not know (readers must skip them, so they can only be extra
// data), the colour profile ICCP if asked, and anything after the RIFF's end. The VP8X chunk's
// flags say which optional chunks follow: its EXIF/XMP (and ICC) bits are cleared to match, and
// the RIFF size is rewritten. A turned picture keeps an EXIF chunk with only its orientation.
import { orientationOnly, orientationTiff, orientationToKeep, readExif } from "./exif-read.mjs";
import { ascii, concat, damaged, newFound, Refusal, startsWith } from "./report.mjs";

const KEEP = new Set(["VP8X", "VP8 ", "VP8L", "ALPH", "ANIM", "ANMF", "ICCP"]);
const FLAG = { icc: 0x20, exif: 0x08, xmp: 0x04 };

function header(fourcc, size) {
  const out = new Uint8Array(8);
  out.set(new TextEncoder().encode(fourcc));
  new DataView(out.buffer).setUint32(4, size, true);
  return out;
}

/// `bytes` (a WebP) without its metadata: { output, found }. Throws a Refusal if it is not one
/// or a chunk runs past the end.
export function stripWebp(bytes, options = {}) {
  if (!(bytes.length >= 12 && startsWith(bytes, "RIFF") && startsWith(bytes, "WEBP", 8))) {
    throw new Refusal("This is not a WebP file.", "Ce n'est pas un fichier WebP.");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = Math.min(bytes.length, 8 + view.getUint32(4, true));
  const found = newFound();
  const out = [];
  let vp8x = null; // a copy of the VP8X chunk, whose flags are set at the end
  let orientationWritten = false;
  let pos = 12;
  while (pos + 8 <= end) {
    const fourcc = ascii(bytes, pos, 4);
    const size = view.getUint32(pos + 4, true);
    if (size > end - pos - 8) throw damaged(`a chunk runs past the end at byte ${pos}`, `un bloc dépasse la fin à l'octet ${pos}`);
    const data = bytes.subarray(pos + 8, pos + 8 + size);
    // Chunks are padded to an even size; a last chunk without its pad byte gets one.
    const next = pos + 8 + size + (size & 1);
    const whole = next <= end ? bytes.subarray(pos, next) : concat([bytes.subarray(pos, pos + 8 + size), new Uint8Array(1)]);
    let keep = KEEP.has(fourcc);
    let exif = null;
    if (fourcc === "ICCP") {
      found.icc = true;
      keep = !options.removeIcc;
      if (keep && !found.kept.includes("colour profile")) found.kept.push("colour profile");
    } else if (fourcc === "EXIF") {
      // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
      exif = readExif(startsWith(data, "Exif\0\0") ? data.subarray(6) : data);
      found.exif ??= exif;
    } else if (fourcc === "XMP ") {
      found.xmp = true;
    }
    if (keep) {
      if (fourcc === "VP8X" && size >= 10 && !vp8x) {
        vp8x = whole.slice();
        out.push(vp8x);
      } else {
        out.push(whole);
      }
    } else {
      found.removed.push({ what: fourcc.trim() || "chunk", size: whole.length, orientationOnly: orientationOnly(exif) });
      const orientation = exif && !orientationWritten ? orientationToKeep(exif) : null;
      if (orientation) {
        out.push(concat([header("EXIF", 26), orientationTiff(orientation)]));
        orientationWritten = true;
        found.kept.push("orientation");
      }
    }
    pos = next;
  }
  if (pos < end) throw damaged(`a chunk is cut at byte ${pos}`, `un bloc est coupé à l'octet ${pos}`);
  if (end < bytes.length) found.removed.push({ what: "data after the picture", size: bytes.length - end });
  if (vp8x) {
    // Flags byte: what is left is what the bits say (EXIF only when we wrote the orientation).
    let flags = vp8x[8] & ~(FLAG.exif | FLAG.xmp);
    if (options.removeIcc) flags &= ~FLAG.icc;
    if (orientationWritten) flags |= FLAG.exif;
    vp8x[8] = flags;
  }
  const body = concat(out);
  return { output: concat([header("RIFF", body.length + 4), new TextEncoder().encode("WEBP"), body]), found };
}
