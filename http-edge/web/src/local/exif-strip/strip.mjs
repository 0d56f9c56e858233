// One file cleaned: its real type found from its bytes (not its name), the walker for that type
// run, and its output walked again to prove that nothing is left (and that a second pass would
// change nothing). Types this tool cannot clean without re-encoding are refused in words.
import { stripJpeg } from "./jpeg.mjs";
import { stripPng } from "./png.mjs";
import { leftovers, Refusal, startsWith } from "./report.mjs";
import { stripWebp } from "./webp.mjs";

const WALKERS = { "image/jpeg": stripJpeg, "image/png": stripPng, "image/webp": stripWebp };
export const EXTENSION = { "image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp" };

/// The type of `bytes`: a MIME type for the three we clean, else a name for the refusal.
export function kindOf(bytes) {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (startsWith(bytes, "\x89PNG\r\n\x1a\n")) return "image/png";
  if (startsWith(bytes, "RIFF") && startsWith(bytes, "WEBP", 8)) return "image/webp";
  if (startsWith(bytes, "GIF8")) return "GIF";
  if (startsWith(bytes, "ftyp", 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (/^avi[fs]$/.test(brand)) return "AVIF";
    if (/^(hei[cxms]|hev[cxms]|mif1|msf1)$/.test(brand)) return "HEIC/HEIF";
    return "MP4/QuickTime";
  }
  if (startsWith(bytes, "II*\0") || startsWith(bytes, "MM\0*")) return "TIFF/RAW";
  if (startsWith(bytes, "BM")) return "BMP";
  if (startsWith(bytes, "%PDF")) return "PDF";
  return null;
}

/// `bytes` cleaned: { type, output, found, left (metadata names still in the output: none
/// expected), removedBytes }. Throws a Refusal (in both languages) for a file it cannot clean.
export function stripImage(bytes, options = {}) {
  const type = kindOf(bytes);
  const walk = WALKERS[type];
  if (!walk) {
    if (!type) {
      throw new Refusal("This is not a photo this tool knows: only JPEG, PNG and WebP can be cleaned.",
        "Ce n'est pas une photo que cet outil connaît : seuls JPEG, PNG et WebP peuvent être nettoyés.");
    }
    throw new Refusal(`This is a ${type} file: only JPEG, PNG and WebP can be cleaned here, without changing a pixel.`,
      `C'est un fichier ${type} : seuls JPEG, PNG et WebP peuvent être nettoyés ici, sans changer un pixel.`);
  }
  const { output, found } = walk(bytes, options);
  const again = walk(output, options);
  const left = leftovers(again.found);
  if (again.output.length !== output.length) left.push("changed by a second pass");
  return { type, output, found, left, removedBytes: bytes.length - output.length };
}
