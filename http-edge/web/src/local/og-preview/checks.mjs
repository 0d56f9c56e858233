// What is wrong or missing in the tags, as warning ids with their figures; view.mjs words them.
// The limits are where search results and most cards start cutting. Pure, tested in Node.
import { clean } from "./meta.mjs";

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
/// The size Facebook and LinkedIn ask for, for a sharp large card.
export const IMAGE_MIN = { width: 1200, height: 630 };

/// Whether `url` is absolute, with one of `schemes` ("https" or "https?") and a host.
function absolute(url, schemes) {
  if (!new RegExp(`^${schemes}://`, "i").test(url)) return false;
  try {
    return new URL(url).hostname !== "";
  } catch {
    return false;
  }
}

/// An address a network's crawler can fetch as is: absolute, https, with a host.
export const isAbsoluteHttps = (url) => absolute(url, "https");

/// [{ id, ...figures }] for `fields` ({ title, description, imageUrl, url }) and the local image
/// chosen for the preview (`image`: { width, height } or null).
export function checks(fields, image) {
  const list = [];
  const title = [...clean(fields.title)].length, description = [...clean(fields.description)].length;
  const imageUrl = fields.imageUrl.trim(), url = fields.url.trim();
  if (title === 0) list.push({ id: "title-missing" });
  if (title > TITLE_MAX) list.push({ id: "title-long", length: title, max: TITLE_MAX });
  if (description > DESCRIPTION_MAX) list.push({ id: "description-long", length: description, max: DESCRIPTION_MAX });
  if (!imageUrl && !image) list.push({ id: "image-missing" });
  else if (!imageUrl) list.push({ id: "image-url-missing" });
  else if (!isAbsoluteHttps(imageUrl)) list.push({ id: "image-not-https" });
  if (image && (image.width < IMAGE_MIN.width || image.height < IMAGE_MIN.height)) {
    list.push({ id: "image-small", width: image.width, height: image.height });
  }
  if (url && !absolute(url, "https?")) list.push({ id: "url-not-absolute" });
  return list;
}
