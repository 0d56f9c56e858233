// The corrections panel: mark a missed item (typed, or selected in the comparison) as a kind,
// restore the item picked in the comparison, and the list of corrections made, each undoable.
import { KINDS, markProblem } from "./corrections.mjs";
import { element, say } from "../shared/dom.mjs";

const PROBLEMS = {
  empty: () => say("Type or select the text to replace.", "Tapez ou sélectionnez le texte à remplacer."),
  multiline: () => say("Select text within one line.", "Sélectionnez du texte sur une seule ligne."),
  placeholder: () => say("The text holds a placeholder already: select only the part that was missed.",
    "Le texte contient déjà un remplaçant : sélectionnez seulement la partie oubliée."),
  absent: () => say("This text is not in the anonymized log (outside placeholders): check its spelling.",
    "Ce texte ne figure pas dans le journal anonymisé (hors remplaçants) : vérifiez son orthographe."),
};

/// `desk`: { corrections, picked } and the actions `mark(value, kind)` (false if nothing was
/// replaced), `restore(placeholder, original)`, `undo(index)`.
export function correctView(desk, actions) {
  const missed = element("input", { id: "desk-missed", type: "text", autocomplete: "off", spellcheck: "false" });
  const kind = element("select", { id: "desk-kind" }, KINDS.map((k) => element("option", { value: k }, k)));
  const problem = element("p", { class: "error", id: "desk-mark-error", role: "alert", hidden: true });
  const form = element("form", { class: "desk-mark", id: "desk-mark" },
    element("label", { for: "desk-missed" }, say("Missed item (type it or select it above)", "Élément oublié (tapez-le ou sélectionnez-le ci-dessus)")),
    missed,
    element("label", { for: "desk-kind" }, say("Kind", "Type")),
    kind,
    element("button", { type: "submit" }, say("Replace everywhere", "Remplacer partout")),
    problem);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = missed.value.trim();
    const why = markProblem(value) || (actions.mark(value, kind.value) ? null : "absent");
    problem.hidden = !why;
    if (why) {
      problem.textContent = PROBLEMS[why]();
      missed.focus();
    }
  });

  const picked = desk.picked;
  const restore = picked
    ? element("div", { class: "desk-picked", id: "desk-picked" },
      element("span", {}, element("code", {}, picked.placeholder), " = ", element("code", {}, picked.original)),
      element("button", { type: "button", id: "desk-restore" }, say("Not sensitive: restore it everywhere", "Pas sensible : le rétablir partout")))
    : element("p", { class: "hint", id: "desk-picked" }, say("Choose a replaced item above to restore it.", "Choisissez un élément remplacé ci-dessus pour le rétablir."));
  restore.querySelector("button")?.addEventListener("click", () => actions.restore(picked.placeholder, picked.original));

  const list = element("ol", { id: "desk-corrections", class: "desk-corrections" }, desk.corrections.map((c, i) => {
    const text = c.mark !== undefined
      ? say(`“${c.mark}” replaced by ${c.placeholder}`, `« ${c.mark} » remplacé par ${c.placeholder}`)
      : say(`${c.placeholder} restored to “${c.original}”`, `${c.placeholder} rétabli en « ${c.original} »`);
    const undo = element("button", { type: "button", class: "link", "aria-label": `${say("Undo", "Annuler")}: ${text}` }, say("Undo", "Annuler"));
    undo.addEventListener("click", () => actions.undo(i));
    return element("li", {}, text, " ", undo);
  }));

  return {
    node: element("section", { class: "desk-section", id: "desk-correct" },
      element("h2", {}, say("Corrections", "Corrections")),
      restore, form,
      desk.corrections.length ? list : null),
    offer: (text) => {
      missed.value = text;
    },
  };
}
