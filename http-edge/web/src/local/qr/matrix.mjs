// Text → QR module matrix, by npm qrcode-generator (bundled, nothing fetched). The SVG and PNG
// are drawn from this matrix by svg.mjs and png.mjs, not by the library's own GIF/SVG output,
// so both exports are built from the very same modules.
import qrcode from "qrcode-generator";

export const LEVELS = ["L", "M", "Q", "H"];

/// The library turns each UTF-16 unit into one byte (its default drops the high byte, so "é"
/// would be garbled): it is given the UTF-8 bytes instead, one char per byte. Readers take
/// byte-mode data without an ECI as UTF-8, which is what phones and jsQR do.
export const utf8Binary = (text) => String.fromCharCode(...new TextEncoder().encode(text));

export class TooLong extends Error {}

/// { count, version, dark: boolean[count][count] } for `text` at error correction `level`,
/// the smallest version (size) that holds it. Throws TooLong when no version does.
export function qrMatrix(text, level = "M") {
  const qr = qrcode(0, LEVELS.includes(level) ? level : "M");
  qr.addData(utf8Binary(text), "Byte");
  try {
    qr.make();
  } catch (error) {
    // The library throws a string ("code length overflow. (…)") past version 40.
    if (String(error).includes("overflow")) throw new TooLong(String(error));
    throw error;
  }
  const count = qr.getModuleCount();
  const dark = Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => qr.isDark(row, col)));
  return { count, version: (count - 17) / 4, dark };
}
