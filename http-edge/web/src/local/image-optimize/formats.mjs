// The formats image-optimize writes, their quality scales and defaults, and the names of the
// files it gives. Pure: unit-tested in Node (test/image-optimize.test.mjs).

/// Each format: its MIME type, extension, label, default quality (1–100) — those of the
/// reference encoders run without options (cwebp -q 75, avifenc's quality 60, cjpeg 75), so
/// that a default result compares honestly with theirs — and whether the page's worker has an
/// encoder for it (bundled.mjs) for browsers whose canvas cannot write it. Every browser's
/// canvas writes JPEG.
export const FORMATS = [
  { key: "webp", type: "image/webp", extension: "webp", label: "WebP", quality: 75, bundled: true },
  { key: "avif", type: "image/avif", extension: "avif", label: "AVIF", quality: 60, bundled: true },
  { key: "jpeg", type: "image/jpeg", extension: "jpg", label: "JPEG", quality: 75, bundled: false },
];

export const formatOf = (key) => FORMATS.find((f) => f.key === key);

/// The size to encode at: the image fitted within maxWidth × maxHeight (either may be empty:
/// no limit), its proportions kept, never enlarged. Integers, at least 1.
export function fit(width, height, maxWidth, maxHeight) {
  const limits = [maxWidth > 0 ? maxWidth / width : Infinity, maxHeight > 0 ? maxHeight / height : Infinity];
  const scale = Math.min(1, ...limits);
  if (scale === 1) return { width, height };
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/// "holiday.JPG" as WebP → "holiday.webp"; names already taken in `taken` (a Set, updated) get
/// "-2", "-3": two photos named alike in different folders must not overwrite each other.
export function outputName(name, format, taken) {
  const stem = name.replace(/\.[^.]*$/, "") || "image";
  let candidate = `${stem}.${format.extension}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem}-${n}.${format.extension}`;
  taken.add(candidate);
  return candidate;
}

/// The change in size, as a signed fraction of the original: -0.62 is 62 % smaller.
export const change = (before, after) => (after - before) / before;

/// A parsed quality: an integer in 1..100, or null when the text is not one.
export function parseQuality(text) {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 100 ? value : null;
}

/// A parsed dimension limit: empty is no limit (0); else an integer in 1..16384, or null.
export function parseLimit(text) {
  if (String(text).trim() === "") return 0;
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 16384 ? value : null;
}
