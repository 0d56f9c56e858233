// What the browser-local tools (/local/<slug>) share: the page's language, elements, a drop zone
// for files, downloads, ZIPs (fflate, from npm through the lockfile) and the real type of image
// bytes. Nothing here talks to the network: these pages run with the network cut, and no file
// dropped on them ever leaves the browser.
import { zipSync } from "fflate";
import { element, say } from "../shared/dom.mjs";

export { element, fr, say } from "../shared/dom.mjs";

/// A labelled file input that also takes files dropped on it; `onFiles(files)` with the chosen
/// files (an array). `accept` as the input's attribute.
export function fileDrop({ id, label, accept = "", multiple = false, onFiles }) {
  const input = element("input", { id, type: "file", accept, multiple });
  const zone = element("div", { class: "drop" },
    element("label", { for: id }, label), input, element("small", {}, say("or drop here", "ou déposez ici")));
  input.addEventListener("change", () => {
    if (input.files.length) onFiles([...input.files]);
  });
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const files = [...event.dataTransfer.files];
    if (files.length) onFiles(multiple ? files : files.slice(0, 1));
  });
  return zone;
}

/// A link that saves `blob` as `name` (the caller revokes its object URL when it replaces it).
export function downloadLink(blob, name, label, id) {
  const link = element("a", { class: "button", href: URL.createObjectURL(blob), download: name, id });
  link.textContent = label;
  return link;
}

/// A ZIP (stored: images and the like are compressed already) of `entries`:
/// [{ name, bytes (Uint8Array) }]; names made unique.
export function zip(entries) {
  const files = {};
  for (const { name, bytes } of entries) {
    let unique = name;
    for (let n = 2; unique in files; n++) unique = name.replace(/(\.[^.]*)?$/, (ext) => `-${n}${ext || ""}`);
    files[unique] = [bytes, { level: 0 }];
  }
  return new Blob([zipSync(files)], { type: "application/zip" });
}

/// The canvas encoded as `type` at `quality` (0..1, where the type has one).
export function canvasBlob(canvas, type, quality) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(`the browser cannot encode ${type}`))), type, quality);
  });
}

/// The image in `file` decoded, its EXIF orientation applied.
export function decodeImage(file) {
  return createImageBitmap(file, { imageOrientation: "from-image" }).catch(() => {
    throw new Error(say(`${file.name} is not an image this browser can read.`, `${file.name} n'est pas une image lisible par ce navigateur.`));
  });
}

/// The image type the bytes really are (a browser asked for WebP may give PNG), or null.
export function sniffImage(bytes) {
  const b = bytes;
  const ascii = (at, text) => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));
  if (b.length >= 8 && b[0] === 0x89 && ascii(1, "PNG")) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 12 && ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (b.length >= 12 && ascii(4, "ftyp") && (ascii(8, "avif") || ascii(8, "avis"))) return "image/avif";
  if (b.length >= 6 && ascii(0, "GIF8")) return "image/gif";
  if (b.length >= 4 && b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0) return "image/x-icon";
  return null;
}

/// Bytes in words: 1.2 MB, 340 kB (decimal, as browsers and file managers show sizes).
export function bytes(n) {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(2)} MB`;
}

/// A file name's stem: "photo.final.jpg" → "photo.final".
export const stem = (name) => name.replace(/\.[^.]*$/, "") || "image";
