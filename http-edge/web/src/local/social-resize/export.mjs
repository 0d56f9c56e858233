// Making the files: each image × each chosen format, at the format's exact size, then one file
// to download (a single output as it is, several as social-images.zip). Sequential on purpose:
// a 2560 × 1440 canvas per format at once would take hundreds of MB on a phone.
import { canvasBlob, say, sniffImage, zip } from "../common.mjs";
import { crop, upscaled } from "./crop.mjs";
import { outputName } from "./formats.mjs";
import { render } from "./resample.mjs";

export const ZIP_NAME = "social-images.zip";

/// [{ name, bytes, type, format, rect, upscaled }] for `items` ([{ bitmap, stem, focus }]) ×
/// `formats`; `type` "image/jpeg" or "image/png"; `progress(done, total)` after each.
export async function makeOutputs(items, formats, { type, quality }, progress = () => {}) {
  const total = items.length * formats.length;
  const outputs = [];
  for (const item of items) {
    for (const format of formats) {
      const { bitmap, focus } = item;
      const rect = crop(bitmap.width, bitmap.height, format.w, format.h, focus.x / 100, focus.y / 100);
      const canvas = render(bitmap, rect, format.w, format.h, type === "image/jpeg" ? "#ffffff" : null);
      const blob = await canvasBlob(canvas, type, type === "image/jpeg" ? quality : undefined);
      canvas.width = 0;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      // toBlob falls back to PNG for a type it cannot encode: never name PNG bytes ".jpg".
      if (sniffImage(bytes) !== type) throw new Error(say(`This browser cannot make ${type} files.`, `Ce navigateur ne sait pas produire de fichiers ${type}.`));
      outputs.push({ name: outputName(item.stem, format, type), bytes, type, format, rect, upscaled: upscaled(rect, format.w, format.h) });
      progress(outputs.length, total);
    }
  }
  return outputs;
}

/// What to download: { blob, name }.
export function pack(outputs) {
  if (outputs.length === 1) {
    const [only] = outputs;
    return { blob: new Blob([only.bytes], { type: only.type }), name: only.name };
  }
  return { blob: zip(outputs.map(({ name, bytes }) => ({ name, bytes }))), name: ZIP_NAME };
}
