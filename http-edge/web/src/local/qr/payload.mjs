// The text a QR code carries for each kind the tool makes: a link as typed, a Wi-Fi network in
// the WIFI: form that phone cameras join from, a contact as a vCard 3.0. Pure functions: the
// page shows their result word for word, and test/local-qr.test.mjs pins them down.

/// A link is encoded as typed (trimmed): what the user sees is what the code says, and a
/// scheme is not guessed. `hasScheme` lets the page warn when one is missing ("host:8080/…" is
/// a host and port, not a scheme; "geo:48.8,2.3" and "tel:+33…" are schemes).
export const urlPayload = (url) => url.trim();
export function hasScheme(url) {
  const text = url.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^:/]+:\d+(\/|$)/.test(text);
}

/// The WIFI: format (ZXing's, which Android and iOS cameras read) escapes \ ; , : and " with a
/// backslash inside a value; anything else is taken literally.
export const wifiEscape = (value) => value.replace(/[\\;,:"]/g, "\\$&");

export const SECURITIES = ["WPA", "WEP", "nopass"];

/// WIFI:T:<WPA|WEP|nopass>;S:<ssid>;P:<password>;H:true;; — an open network has no P: field
/// (a password typed for it is not encoded), H: only when the network is hidden.
export function wifiPayload({ ssid = "", password = "", security = "WPA", hidden = false }) {
  const type = SECURITIES.includes(security) ? security : "WPA";
  let text = `WIFI:T:${type};S:${wifiEscape(ssid)};`;
  if (type !== "nopass") text += `P:${wifiEscape(password)};`;
  if (hidden) text += "H:true;";
  return `${text};`;
}

/// vCard 3.0 (RFC 2426) text values escape \ , ; and line breaks; lines end with CRLF.
export const vcardEscape = (value) => value.replace(/[\\,;]/g, "\\$&").replace(/\r\n|\r|\n/g, "\\n");

/// N: wants family and given names apart; from one "name" field, the last word is taken as the
/// family name ("Ada King Lovelace" → Lovelace; Ada King), which is right for most names and
/// harmless otherwise: FN: carries the name exactly as typed, and that is what phones show.
export function splitName(name) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { family: words[0] || "", given: "" };
  return { family: words[words.length - 1], given: words.slice(0, -1).join(" ") };
}

/// A vCard 3.0 with the fields filled in (N and FN are required by the format, so they are
/// always there). Phone and URL are not text values: only line breaks are removed from them.
export function vcardPayload({ name = "", org = "", phone = "", email = "", url = "" }) {
  const flat = (value) => value.replace(/[\r\n]+/g, " ").trim();
  const { family, given } = splitName(name);
  const lines = ["BEGIN:VCARD", "VERSION:3.0",
    `N:${vcardEscape(family)};${vcardEscape(given)};;;`, `FN:${vcardEscape(name.trim())}`];
  if (org.trim()) lines.push(`ORG:${vcardEscape(org.trim())}`);
  if (phone.trim()) lines.push(`TEL:${flat(phone)}`);
  if (email.trim()) lines.push(`EMAIL:${vcardEscape(email.trim())}`);
  if (url.trim()) lines.push(`URL:${flat(url)}`);
  lines.push("END:VCARD");
  return lines.join("\r\n");
}

/// Whether the kind's form has enough to make a code: a link, a network name, a name or some
/// way to reach the contact.
export function ready(kind, fields) {
  if (kind === "url") return fields.url.trim() !== "";
  if (kind === "wifi") return fields.ssid !== "";
  return [fields.name, fields.org, fields.phone, fields.email, fields.url].some((v) => v.trim() !== "");
}
