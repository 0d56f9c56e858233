// The favicon.ico container, written by hand: a 6-byte ICONDIR, one 16-byte ICONDIRENTRY per
// image, then the images themselves. Each image is stored as a whole PNG file, which every
// browser since IE9/Vista reads, so no BMP/AND-mask encoding is needed. Pure: no DOM, so the
// node tests parse its output back.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DIR_SIZE = 6;
const ENTRY_SIZE = 16;

/// The .ico file holding `images`: [{ size (1..256, square), png (Uint8Array, a PNG file) }],
/// in the order given (browsers pick by size, not by order).
export function writeIco(images) {
  if (!images.length || images.length > 0xffff) throw new Error(`an ICO holds 1 to 65535 images, not ${images.length}`);
  for (const { size, png } of images) {
    if (!Number.isInteger(size) || size < 1 || size > 256) throw new Error(`an ICO image is 1 to 256 pixels wide, not ${size}`);
    if (!(png instanceof Uint8Array) || !PNG_SIGNATURE.every((b, i) => png[i] === b)) throw new Error(`the ${size}×${size} image is not a PNG`);
  }
  const dataStart = DIR_SIZE + ENTRY_SIZE * images.length;
  const total = dataStart + images.reduce((sum, { png }) => sum + png.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  // ICONDIR: reserved (0), type (1 = icon; 2 would be a cursor), image count; little-endian.
  view.setUint16(0, 0, true);
  view.setUint16(2, 1, true);
  view.setUint16(4, images.length, true);
  let offset = dataStart;
  images.forEach(({ size, png }, i) => {
    const at = DIR_SIZE + ENTRY_SIZE * i;
    // Width and height are one byte each, so 256 is written as 0.
    view.setUint8(at, size === 256 ? 0 : size);
    view.setUint8(at + 1, size === 256 ? 0 : size);
    view.setUint8(at + 2, 0); // colours in the palette: 0, no palette
    view.setUint8(at + 3, 0); // reserved
    view.setUint16(at + 4, 1, true); // colour planes
    view.setUint16(at + 6, 32, true); // bits per pixel: RGBA
    view.setUint32(at + 8, png.length, true); // bytes of the image
    view.setUint32(at + 12, offset, true); // where the image starts, from the file's start
    out.set(png, offset);
    offset += png.length;
  });
  return out;
}
