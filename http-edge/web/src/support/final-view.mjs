// The final wording: the summary beside the draft reply in an editor, each placeholder left in
// the reply as a chip to fill in (with the raw value it stands for, or any text) or keep on
// purpose, and "Make final", which locks the text once no chip is left open and offers it as
// plain text and as Markdown.
import { copy, element, say } from "../shared/dom.mjs";
import { placeholdersIn, toMarkdown, unresolved } from "./wording.mjs";

/// `desk`: { draft, summary, kept (a Set), final, originals (placeholder → raw value) } and the
/// actions `edit(text)`, `fill(placeholder, value)`, `keep(placeholder, kept)`, `finalize(final)`.
export function finalView(desk, actions) {
  const editor = element("textarea", { id: "draft", rows: "14", readonly: desk.final, "aria-describedby": "desk-chips-status" });
  editor.value = desk.draft;
  const chips = element("ul", { class: "chips", id: "desk-chips", "aria-label": say("Placeholders in the reply", "Remplaçants dans la réponse") });
  const status = element("p", { id: "desk-chips-status", class: "hint", "aria-live": "polite" });
  const finalize = button("desk-finalize", say("Make final", "Finaliser"), () => actions.finalize(true));
  // The chips and the state follow the text as it is typed; the editor itself is never
  // rebuilt under the user's caret.
  const follow = () => {
    const open = unresolved(desk.draft, desk.kept);
    chips.replaceChildren(...placeholdersIn(desk.draft).map((placeholder) => chip(placeholder, desk, actions)));
    status.textContent = open.length
      ? say(`${open.length} placeholder(s) to fill in or keep before the reply can be made final.`,
        `${open.length} remplaçant(s) à compléter ou garder avant de finaliser la réponse.`)
      : say("No placeholder left open.", "Aucun remplaçant en suspens.");
    finalize.disabled = open.length > 0;
  };
  follow();
  let pause;
  const edited = () => {
    clearTimeout(pause);
    desk.draft = editor.value;
    actions.edit(editor.value);
    follow();
  };
  editor.addEventListener("input", () => {
    clearTimeout(pause);
    pause = setTimeout(edited, 300);
  });
  editor.addEventListener("change", edited);

  const buttons = desk.final
    ? [button("desk-copy-text", say("Copy as plain text", "Copier en texte brut"), (b) => copy(desk.draft, b)),
      button("desk-copy-markdown", say("Copy as Markdown", "Copier en Markdown"), (b) => copy(toMarkdown(desk.draft, desk.kept), b)),
      button("desk-edit", say("Edit again", "Modifier à nouveau"), () => actions.finalize(false))]
    : [finalize];

  return element("section", { class: "desk-section", id: "desk-final" },
    element("h2", {}, say("Final wording", "Formulation finale")),
    element("div", { class: "columns" },
      element("section", {},
        element("h3", {}, say("Summary", "Résumé")),
        element("p", { id: "summary", class: "desk-summary" }, desk.summary)),
      element("section", {},
        element("label", { for: "draft" }, say("Reply", "Réponse")),
        editor,
        desk.final ? element("p", { id: "desk-final-state", class: "ok" }, say("Final: the text is locked.", "Finale : le texte est verrouillé.")) : null,
        chips, status,
        element("div", { class: "actions" }, buttons))));
}

function chip(placeholder, desk, actions) {
  const kept = desk.kept.has(placeholder);
  const id = `desk-fill-${placeholder.replace(/\W/g, "")}`;
  const value = element("input", { type: "text", id, value: desk.originals.get(placeholder) || "", disabled: desk.final, "aria-label": say(`Text for ${placeholder}`, `Texte pour ${placeholder}`) });
  const fill = element("button", { type: "button", class: "fill", disabled: desk.final }, say("Fill in", "Compléter"));
  fill.addEventListener("click", () => {
    if (value.value.trim()) actions.fill(placeholder, value.value);
    else value.focus();
  });
  const keep = element("button", { type: "button", class: "keep", "aria-pressed": String(kept), disabled: desk.final }, kept ? say("Kept", "Gardé") : say("Keep", "Garder"));
  keep.addEventListener("click", () => actions.keep(placeholder, !kept));
  return element("li", { class: kept ? "chip kept" : "chip", "data-placeholder": placeholder }, element("code", {}, placeholder), value, fill, keep);
}

function button(id, label, onClick) {
  const node = element("button", { type: "button", id });
  node.textContent = label;
  node.addEventListener("click", () => onClick(node));
  return node;
}
