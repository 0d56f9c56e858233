// Encoding one canvas as WebP, AVIF or JPEG: with the browser's own encoder where it really
// writes the format asked for, else with the bundled one in the worker. Browsers do not say
// when they cannot: asked for an AVIF, Chromium and Firefox give a PNG; an older Safari does
// the same for WebP. So each type is probed once on a tiny canvas, and every output's bytes
// are checked again (sniffImage) before they are offered as that type.
import { canvasBlob, sniffImage } from "../common.mjs";
import { WorkerJobs } from "../worker-jobs.mjs";

const probes = new Map();

/// Whether this browser's canvas really encodes `type`.
export function nativeEncodes(type) {
  if (!probes.has(type)) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 2;
    canvas.getContext("2d").fillRect(0, 0, 1, 1);
    probes.set(type, canvasBlob(canvas, type, 0.8)
      .then(async (blob) => sniffImage(new Uint8Array(await blob.arrayBuffer())) === type)
      .catch(() => false));
  }
  return probes.get(type);
}

/// The worker with the bundled encoders (local-image-encoder.js).
export class BundledEncoder extends WorkerJobs {
  encode(canvas, type, quality) {
    const { width, height } = canvas;
    const pixels = canvas.getContext("2d").getImageData(0, 0, width, height).data.buffer;
    return this.run({ type, width, height, quality, pixels }, [pixels]);
  }
}

/// `canvas` as `format` at `quality` (1–100): { bytes, encoder: "browser" | "bundled", ms }.
export async function encode(canvas, format, quality, bundled) {
  const started = performance.now();
  if (await nativeEncodes(format.type)) {
    const blob = await canvasBlob(canvas, format.type, quality / 100);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    if (sniffImage(bytes) === format.type) return { bytes, encoder: "browser", ms: performance.now() - started };
  }
  if (!format.bundled) throw new Error(`this browser cannot write ${format.label}`);
  const bytes = await bundled.encode(canvas, format.type, quality);
  if (sniffImage(bytes) !== format.type) throw new Error(`the bundled encoder did not write ${format.label}`);
  return { bytes, encoder: "bundled", ms: performance.now() - started };
}
