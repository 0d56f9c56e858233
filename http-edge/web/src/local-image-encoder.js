// The image-optimize page's worker: the bundled WebP and AVIF encoders, run off the page's
// thread (an AVIF of a 12-megapixel photo takes seconds). Served with the local pages' CSP:
// it may compile WebAssembly and connect nowhere. A job: { type, width, height, quality,
// pixels (a transferred ArrayBuffer) } → the encoded bytes (src/local/worker-jobs.mjs).
import { encodeBundled } from "./local/image-optimize/bundled.mjs";
import { serveJobs } from "./local/worker-jobs.mjs";

serveJobs(async ({ type, width, height, quality, pixels }) => {
  const bytes = await encodeBundled(type, new Uint8ClampedArray(pixels), width, height, quality);
  return { result: bytes, transfer: [bytes.buffer] };
});
