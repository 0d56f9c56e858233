// What the three format walkers (jpeg.mjs, png.mjs, webp.mjs) share: the record of what a file
// carried, the refusal that carries its message in both languages (these modules have no DOM,
// so the view picks the language), and small byte helpers. Everything here is pure so that node
// can test it.

/// A file this tool will not or cannot clean; `message` in English, `fr` in French. The view
/// shows it for that file only; the other files of the batch go on.
export class Refusal extends Error {
  constructor(en, fr) {
    super(en);
    this.name = "Refusal";
    this.fr = fr;
  }
}

export const damaged = (en, fr) =>
  new Refusal(`This file is damaged (${en}): it was left as it is.`, `Ce fichier est endommagé (${fr}) : il est laissé tel quel.`);

/// What a walker found while it read a file. `removed` lists every piece dropped, with its size;
/// a piece that is the minimal orientation-only EXIF (ours) has `orientationOnly`, so that the
/// check of the output does not count it as metadata left.
export function newFound() {
  return {
    exif: null, // exif-read.mjs's result (or { unreadable: true }), for the first EXIF block
    xmp: false,
    iptc: false,
    icc: false, // a colour profile was there (kept unless asked otherwise)
    comments: [],
    texts: [], // PNG text chunks: { keyword, text }
    removed: [], // { what, size, orientationOnly? }
    kept: [], // "orientation", "colour profile"
  };
}

/// What is still metadata in a file the walker read a second time (the output): every piece
/// it would drop, except our orientation-only EXIF. Empty means "no metadata left".
export function leftovers(found) {
  return found.removed.filter((piece) => !piece.orientationOnly).map((piece) => piece.what);
}

export function concat(pieces) {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/// Whether `bytes` hold the ASCII `text` at `at` (false past the end, never a throw).
export function startsWith(bytes, text, at = 0) {
  if (at < 0 || at + text.length > bytes.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

export const ascii = (bytes, at, length) => String.fromCharCode(...bytes.subarray(at, at + length));

/// Text for display: UTF-8 where it is (EXIF "ASCII" is often UTF-8 in practice), NULs and
/// surrounding blanks dropped, cut at `limit` characters so that a huge comment stays readable.
export function text(bytes, limit = 500) {
  const decoded = new TextDecoder("utf-8").decode(bytes.subarray(0, limit * 4));
  const clean = decoded.replace(/\0+$/, "").replace(/\0/g, " ").trim();
  return clean.length > limit ? `${clean.slice(0, limit)}…` : clean;
}

/// ISO-8859-1 text (PNG tEXt): each byte is its code point.
export function latin1(bytes, limit = 500) {
  const clean = String.fromCharCode(...bytes.subarray(0, limit + 1)).replace(/\0/g, " ").trim();
  return clean.length > limit ? `${clean.slice(0, limit)}…` : clean;
}
