// Making the file: a canvas at the format's exact size, drawn by the same `compose` as the
// preview but without the guides, encoded by the browser. The background photo is scaled for
// this size only now, and every canvas freed once encoded: a 2560 × 1440 banner is 15 MB of
// pixels per canvas, which a phone feels.
import { canvasBlob, say, sniffImage } from "../common.mjs";
import { canvasOf } from "../social-resize/resample.mjs";
import { backdrop } from "./backdrop.mjs";
import { compose } from "./draw.mjs";
import { fileName } from "./naming.mjs";

/// { blob, name } for `settings` (form.mjs), `plan` (plan.mjs) and the background `bitmap`
/// (or null for the colour alone).
export async function makeFile(settings, plan, bitmap) {
  const { w, h, type } = settings;
  const canvas = canvasOf(w, h);
  const back = bitmap ? backdrop(bitmap, w, h) : null;
  let blob;
  try {
    compose(canvas.getContext("2d"), { settings, plan, backdrop: back });
    blob = await canvasBlob(canvas, type, type === "image/jpeg" ? settings.quality : undefined);
  } finally {
    if (back) back.width = 0;
    canvas.width = 0;
  }
  // toBlob falls back to PNG for a type it cannot encode: never name PNG bytes ".jpg".
  const head = new Uint8Array(await blob.slice(0, 16).arrayBuffer());
  if (sniffImage(head) !== type) throw new Error(say(`This browser cannot make ${type} files.`, `Ce navigateur ne sait pas produire de fichiers ${type}.`));
  return { blob, name: fileName(settings.title.text, w, h, type) };
}
