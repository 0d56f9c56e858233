// What the share pages have in common: the page's language, elements, copy buttons, and the
// server's refusals in words.

const fr = document.documentElement.lang === "fr";
export const say = (en, french) => (fr ? french : en);

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

export const byId = (id) => document.getElementById(id);

/// A read-only field with a copy button.
export function copyRow(id, label, value, multiline = false) {
  const field = multiline
    ? element("textarea", { id, rows: "6", readonly: "", "aria-label": label })
    : element("input", { id, type: "text", readonly: "", "aria-label": label, spellcheck: "false" });
  field.value = value;
  const button = element("button", { type: "button", "data-copy-of": id }, say("Copy", "Copier"));
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      field.select();
      document.execCommand("copy");
    }
    button.textContent = say("Copied", "Copié");
    setTimeout(() => (button.textContent = say("Copy", "Copier")), 2000);
  });
  return element("div", { class: multiline ? "copy-block" : "copy-row" }, field, button);
}

export function bytes(size) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${size} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export function when(rfc3339) {
  return new Date(rfc3339).toLocaleString(fr ? "fr-FR" : "en-GB", { dateStyle: "medium", timeStyle: "short" });
}

// The server's details are in English; these lead in the page's language.
const MESSAGES = {
  "file-gone": ["This share is no longer available: its downloads were used up, it expired, or it was deleted.",
    "Ce partage n'est plus disponible : ses téléchargements sont épuisés, il a expiré ou il a été supprimé."],
  "file-not-found": ["There is no share at this address: check that the link was copied whole.",
    "Il n'y a pas de partage à cette adresse : vérifiez que le lien a été copié en entier."],
  "share-challenge-stale": ["The page waited too long: try again.", "La page a trop attendu : réessayez."],
  "daily-quota-exceeded": ["Your plan's calls for today are used up.", "Les appels du jour de votre offre sont épuisés."],
  "storage-quota-exceeded": ["Your storage is full: delete files first.", "Votre espace de stockage est plein : supprimez des fichiers."],
  "file-too-large": ["The file is larger than this server accepts.", "Le fichier dépasse la taille que ce serveur accepte."],
  "too-many-open-uploads": ["Too many uploads are unfinished: wait for them or cancel them.", "Trop d'envois sont inachevés : attendez-les ou annulez-les."],
  "csrf-rejected": ["The page expired: reload it and try again.", "La page a expiré : rechargez-la et réessayez."],
  "invalid-session": ["Your session ended: log in again.", "Votre session a pris fin : reconnectez-vous."],
};

/// A refusal (status and RFC 9457 problem, if any) in a sentence.
export function problemText(status, problem) {
  const known = problem && MESSAGES[problem.code];
  if (known) return say(...known);
  if (problem?.detail) return `${problem.title || status}: ${problem.detail}`;
  return say(`The request failed (${status}).`, `La requête a échoué (${status}).`);
}

/// A response's problem body, or null.
export async function problemOf(response) {
  const type = response.headers.get("Content-Type") || "";
  return type.includes("json") ? response.json().catch(() => null) : null;
}

export function base64url(bytes) {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
