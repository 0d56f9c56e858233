// The QR tool's inputs: what to encode (a link, a Wi-Fi network, a contact) and how (error
// correction, size, margin). Builds the fields and reads them back; view.mjs draws the code.
import { element, say } from "../common.mjs";

/// A labelled input in a `.field` box; `attributes` go on the input.
export function field(id, label, attributes = {}, hint = null) {
  const input = element("input", { id, name: id, type: "text", autocomplete: "off", spellcheck: "false", ...attributes });
  return element("div", { class: "field" }, element("label", { for: id }, label), input,
    hint && element("small", { id: `${id}-hint` }, hint));
}

export function choice(id, label, options, value) {
  const select = element("select", { id, name: id },
    options.map(([v, text]) => element("option", { value: v, selected: v === value }, text)));
  return element("div", { class: "field" }, element("label", { for: id }, label), select);
}

const group = (id, legend, ...fields) => element("fieldset", { id, class: "qr-group" }, element("legend", {}, legend), ...fields);

export function buildForm() {
  const kind = choice("qr-kind", say("What the code holds", "Contenu du code"), [
    ["url", say("A link (URL)", "Un lien (URL)")],
    ["wifi", say("A Wi-Fi network", "Un réseau Wi-Fi")],
    ["vcard", say("A contact (vCard)", "Un contact (vCard)")],
  ], "url");
  const url = group("qr-url-fields", say("Link", "Lien"),
    field("qr-url", "URL", { type: "url", inputmode: "url", placeholder: "https://example.com/" }));
  const wifi = group("qr-wifi-fields", say("Wi-Fi network", "Réseau Wi-Fi"),
    field("qr-wifi-ssid", say("Network name (SSID)", "Nom du réseau (SSID)")),
    field("qr-wifi-password", say("Password", "Mot de passe")),
    choice("qr-wifi-security", say("Security", "Sécurité"), [
      ["WPA", "WPA/WPA2/WPA3"], ["WEP", "WEP"], ["nopass", say("None (open network)", "Aucune (réseau ouvert)")],
    ], "WPA"),
    element("div", { class: "field check-field" },
      element("label", { class: "check", for: "qr-wifi-hidden" },
        element("input", { id: "qr-wifi-hidden", name: "qr-wifi-hidden", type: "checkbox" }),
        " ", say("Hidden network", "Réseau masqué"))));
  const vcard = group("qr-vcard-fields", say("Contact", "Contact"),
    field("qr-vcard-name", say("Name", "Nom"), { autocomplete: "name" }),
    field("qr-vcard-org", say("Organisation", "Organisation"), { autocomplete: "organization" }),
    field("qr-vcard-phone", say("Phone", "Téléphone"), { type: "tel", autocomplete: "tel" }),
    field("qr-vcard-email", say("E-mail", "Courriel"), { type: "email", autocomplete: "email" }),
    field("qr-vcard-url", say("Website", "Site web"), { type: "url", inputmode: "url", placeholder: "https://" }));
  const options = group("qr-options", say("Code", "Code"),
    choice("qr-level", say("Error correction", "Correction d'erreurs"), [
      ["L", say("L: 7% (smallest code)", "L : 7 % (code le plus petit)")],
      ["M", say("M: 15%", "M : 15 %")],
      ["Q", say("Q: 25%", "Q : 25 %")],
      ["H", say("H: 30% (survives a logo or damage)", "H : 30 % (résiste à un logo ou à l'usure)")],
    ], "M"),
    field("qr-size", say("Size (px)", "Taille (px)"), { type: "number", min: "64", max: "4096", step: "1", value: "512", inputmode: "numeric" }),
    field("qr-margin", say("Margin (modules)", "Marge (modules)"), { type: "number", min: "0", max: "20", step: "1", value: "4", inputmode: "numeric" },
      say("Readers want 4 blank modules around the code.", "Les lecteurs veulent 4 modules blancs autour du code.")));
  // Enter in a field must not submit (and reload) the page: everything updates as one types.
  const form = element("form", { id: "qr-form", class: "stack qr-form", novalidate: true }, kind, url, wifi, vcard, options);
  form.addEventListener("submit", (event) => event.preventDefault());
  return form;
}

const value = (id) => document.getElementById(id).value;
const number = (id, fallback, min, max) => {
  const n = Math.round(Number(value(id)));
  return Number.isFinite(n) && value(id).trim() !== "" ? Math.min(max, Math.max(min, n)) : fallback;
};

/// The form as plain values, sizes clamped to what the inputs allow.
export function readForm() {
  return {
    kind: value("qr-kind"),
    url: { url: value("qr-url") },
    wifi: { ssid: value("qr-wifi-ssid"), password: value("qr-wifi-password"), security: value("qr-wifi-security"),
      hidden: document.getElementById("qr-wifi-hidden").checked },
    vcard: { name: value("qr-vcard-name"), org: value("qr-vcard-org"), phone: value("qr-vcard-phone"),
      email: value("qr-vcard-email"), url: value("qr-vcard-url") },
    level: value("qr-level"),
    size: number("qr-size", 512, 64, 4096),
    margin: number("qr-margin", 4, 0, 20),
  };
}

/// Only the chosen kind's fields show; an open network's password is not encoded, so its field
/// is disabled rather than silently ignored.
export function showKind(kind) {
  for (const k of ["url", "wifi", "vcard"]) document.getElementById(`qr-${k}-fields`).hidden = k !== kind;
  document.getElementById("qr-wifi-password").disabled = value("qr-wifi-security") === "nopass";
}
