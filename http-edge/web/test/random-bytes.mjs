// Deterministic bytes for the browser code's tests: a linear congruential generator, so a
// failing case is the same bytes on every run.
export function random(size, seed) {
  const bytes = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}
