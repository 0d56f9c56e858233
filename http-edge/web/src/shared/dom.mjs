// The bundled pages' small DOM helpers (the support desk, the browser-local tools): elements
// built from attributes and children, the page's language, and a copy to the clipboard with
// the older fallback.

export const fr = () => document.documentElement.lang === "fr";
export const say = (en, french) => (fr() ? french : en);

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue;
    node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/// Copies `text`, and says so on `button` for two seconds.
export async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const scratch = element("textarea", { class: "offscreen", "aria-hidden": "true" });
    scratch.value = text;
    document.body.append(scratch);
    scratch.select();
    document.execCommand("copy");
    scratch.remove();
  }
  const label = button.textContent;
  button.textContent = say("Copied", "Copié");
  setTimeout(() => (button.textContent = label), 2000);
}
