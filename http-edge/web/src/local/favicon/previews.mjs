// The icons as they came out, at their real pixel size (shrunk only where the screen is too
// narrow), on a checkerboard so transparency shows; the ICO's small sizes also enlarged 4×
// with square pixels, to judge each pixel. Maskable icons are shown cropped to a circle, as
// the most aggressive Android mask would.
import { element, say } from "../common.mjs";

const ZOOM = 4;
const SMALL = 48;

function image(url, size, alt, className) {
  const node = element("img", { src: url, width: String(size), height: String(size), alt, class: className });
  return element("span", { class: "favicon-frame" }, node);
}

/// Shows `previews` ([{ size, label, blob, masked }]) in `list`, and gives a function that
/// frees their object URLs when they are replaced.
export function showPreviews(list, previews) {
  const urls = [];
  const items = previews.map(({ size, label, blob, masked }) => {
    const url = URL.createObjectURL(blob);
    urls.push(url);
    const alt = say(`Preview of ${label}`, `Aperçu de ${label}`);
    const pictures = [image(url, size, alt, masked ? "favicon-masked" : "")];
    if (size <= SMALL) pictures.push(image(url, size * ZOOM, say(`${label}, enlarged ${ZOOM}×`, `${label}, agrandie ${ZOOM}×`), "favicon-pixelated"));
    return element("li", { "data-size": String(size) },
      element("figure", {}, element("div", { class: "favicon-pictures" }, pictures), element("figcaption", {}, label)));
  });
  list.replaceChildren(...items);
  return () => urls.forEach((url) => URL.revokeObjectURL(url));
}
