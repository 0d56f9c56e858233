// The chosen image as the background: scaled to cover the whole canvas (CSS object-fit: cover)
// and centred, cropping what overflows. social-resize's crop does exactly that with its focal
// point in the middle, and its render halves large photos in steps for a clean downscale: both
// reused, so the two tools frame a photo the same way.
import { crop, upscaled } from "../social-resize/crop.mjs";
import { render } from "../social-resize/resample.mjs";

/// The part { x, y, w, h } of an imageW × imageH image that covers a w × h canvas.
export const coverRect = (imageW, imageH, w, h) => crop(imageW, imageH, w, h, 0.5, 0.5);

/// Whether covering w × h enlarges the image (it will look soft): the cropped part, or null.
export function enlarged(imageW, imageH, w, h) {
  const rect = coverRect(imageW, imageH, w, h);
  return upscaled(rect, w, h) ? rect : null;
}

/// A new canvas of `outW` × `outH` holding `bitmap` as it covers a `w` × `h` image: the export
/// asks for w × h itself, the preview for a smaller copy of the same crop.
export function backdrop(bitmap, w, h, outW = w, outH = h) {
  return render(bitmap, coverRect(bitmap.width, bitmap.height, w, h), outW, outH);
}
