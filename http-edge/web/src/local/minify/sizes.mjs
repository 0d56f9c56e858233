// Sizes before and after: the UTF-8 bytes a file takes (what a download or a server sends),
// the same gzipped (what travels when the server compresses, measured with the browser's own
// CompressionStream: no library, and skipped where the browser has none), and the saving.
// No DOM: node (which has TextEncoder and CompressionStream too) tests it.

const encoder = new TextEncoder();

/// The UTF-8 bytes of `text`.
export const utf8 = (text) => encoder.encode(text);
export const byteLength = (text) => utf8(text).length;

/// The gzipped size of `text` in bytes (default level), or null without CompressionStream.
export async function gzipSize(text) {
  if (typeof CompressionStream !== "function") return null;
  const reader = new Blob([utf8(text)]).stream().pipeThrough(new CompressionStream("gzip")).getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return size;
    size += value.length;
  }
}

/// The saving from `before` to `after` bytes in percent, one decimal (negative: it grew).
export function saving(before, after) {
  if (!before) return 0;
  return Math.round((1 - after / before) * 1000) / 10;
}

/// "−42.3 %" / "+1.5 %" / "0 %": how the page words a saving (a decimal comma in French).
export function savingText(percent, french = false) {
  const sign = percent > 0 ? "−" : percent < 0 ? "+" : "";
  const value = Math.abs(percent).toFixed(percent % 1 ? 1 : 0);
  return `${sign}${french ? value.replace(".", ",") : value} %`;
}

/// Everything the page shows for one text: { before, after, saving, gzipBefore, gzipAfter,
/// gzipSaving } (the gzip ones null where the browser cannot gzip).
export async function measure(original, minified) {
  const before = byteLength(original);
  const after = byteLength(minified);
  const [gzipBefore, gzipAfter] = await Promise.all([gzipSize(original), gzipSize(minified)]);
  return {
    before, after, saving: saving(before, after),
    gzipBefore, gzipAfter, gzipSaving: gzipBefore === null ? null : saving(gzipBefore, gzipAfter),
  };
}
