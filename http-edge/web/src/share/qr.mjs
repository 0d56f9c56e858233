// QR codes of a share's link and secret, for a phone to read off the sender's screen: drawn in
// the page by npm qrcode-generator (bundled in by build.rs), nothing fetched from elsewhere.
import qrcode from "qrcode-generator";
import { element } from "./ui.mjs";

/// `text` as a QR code image (a GIF data: URL, which the pages' CSP allows for images).
export function qrImage(text, label) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  return element("img", { class: "qr", src: qr.createDataURL(4, 4), alt: label, title: label });
}
