// The support tool's desk (/tools/support), after a run: the before/after comparison, the
// corrections to the anonymization, and the reply's final wording. app.js hands it the API's
// answer (window.quireSupportDesk.show); everything here is computed in the browser from the
// raw log and the answer, and kept in this browser only (support/store.mjs), so a reload finds
// the desk as it was and "Clear" forgets it.
import { align, countsByKind, mainOriginal } from "./support/align.mjs";
import { compareView } from "./support/compare-view.mjs";
import { correctView } from "./support/correct-view.mjs";
import { applyAll, applyOne } from "./support/corrections.mjs";
import { copy, element, say } from "./shared/dom.mjs";
import { finalView } from "./support/final-view.mjs";
import * as store from "./support/store.mjs";
import { fillIn } from "./support/wording.mjs";

/// The desk: { raw, context, locale, result, corrections, draft (null until the reply is
/// edited), kept (placeholders kept on purpose), final }; null before a run.
let desk = null;
/// The item chosen in the comparison, which the corrections panel offers to restore.
let picked = null;
let correct = null;

const resultBox = () => document.getElementById("result");
const form = () => document.getElementById("tool");

function texts() {
  return applyAll(desk.result, desk.corrections, desk.raw);
}

function keep() {
  store.save(desk).then((saved) => {
    const warning = document.getElementById("desk-not-kept");
    if (warning) warning.hidden = saved;
  });
}

/// The desk's parts, from the desk's state.
function build() {
  const current = texts();
  const draft = desk.draft ?? current.draft;
  const paired = align(desk.raw, current.anonymized);
  const { items } = paired;
  const originals = new Map([...items].map(([placeholder, item]) => [placeholder, mainOriginal(item)]));
  const total = [...countsByKind(current.anonymized).values()].reduce((a, b) => a + b, 0);

  correct = correctView({ corrections: desk.corrections, picked }, actions);
  const comparison = compareView(paired, current.anonymized, {
    onPick: (placeholder, item) => {
      picked = { placeholder, original: item.original };
      const next = correctView({ corrections: desk.corrections, picked }, actions);
      correct.node.replaceWith(next.node);
      correct = next;
    },
    onSelectText: (text) => correct.offer(text),
  });
  const log = element("textarea", { id: "anonymized", rows: "10", readonly: true, "aria-label": say("Anonymized log", "Journal anonymisé") });
  log.value = current.anonymized;
  const copyLog = element("button", { type: "button" }, say("Copy", "Copier"));
  copyLog.addEventListener("click", () => copy(log.value, copyLog));
  const clear = element("button", { type: "button", id: "desk-clear", class: "danger" }, say("Clear", "Effacer"));
  clear.addEventListener("click", forget);

  return [
    element("p", { id: "support-stats" }, `${total} ${say("items replaced", "éléments remplacés")}`),
    element("p", { class: "error", id: "desk-not-kept", role: "alert", hidden: true },
      say("This browser refused to keep the desk: a reload will lose the corrections.", "Ce navigateur refuse de garder le bureau : un rechargement perdra les corrections.")),
    comparison,
    correct.node,
    element("section", { class: "desk-section" },
      element("h2", {}, say("Anonymized log, corrected", "Journal anonymisé, corrigé")),
      element("div", { class: "copy-block" }, log, copyLog)),
    finalView({ draft, summary: current.summary, kept: new Set(desk.kept), final: desk.final, originals }, actions),
    element("p", { class: "desk-clear" }, clear, " ",
      element("small", {}, say("The corrections and the reply are kept in this browser, for this session only; Clear forgets them and the log.",
        "Les corrections et la réponse sont gardées dans ce navigateur, pour cette session seulement ; Effacer les oublie, avec le journal."))),
  ];
}

function render(focus) {
  const box = resultBox();
  box.replaceChildren(...build());
  box.hidden = false;
  if (focus) document.getElementById(focus)?.focus();
}

/// Applies `correction` to the desk; false if it changes nothing.
function correctWith(correction) {
  const before = texts();
  const draft = desk.draft ?? before.draft;
  const after = applyOne({ ...before, draft }, correction, desk.raw);
  if (after.anonymized === before.anonymized && after.summary === before.summary && after.draft === draft) return false;
  desk.corrections.push(correction);
  // A reply the user has edited (or made final) keeps their text; a mark still reaches it
  // unless it is final.
  if (desk.draft !== null && !desk.final) desk.draft = after.draft;
  picked = null;
  keep();
  return true;
}

const actions = {
  mark(value, kind) {
    if (!correctWith({ mark: value, kind })) return false;
    render("desk-missed");
    return true;
  },
  restore(placeholder, original) {
    correctWith({ restore: true, placeholder, original });
    render("desk-picked");
  },
  undo(index) {
    desk.corrections.splice(index, 1);
    keep();
    render("desk-missed");
  },
  edit(text) {
    desk.draft = text;
    keep();
  },
  fill(placeholder, value) {
    desk.draft = fillIn(desk.draft ?? texts().draft, placeholder, value);
    desk.kept = desk.kept.filter((p) => p !== placeholder);
    keep();
    render("draft");
  },
  keep(placeholder, kept) {
    desk.kept = kept ? [...new Set([...desk.kept, placeholder])] : desk.kept.filter((p) => p !== placeholder);
    keep();
    render("draft");
  },
  finalize(final) {
    desk.draft = desk.draft ?? texts().draft;
    desk.final = final;
    keep();
    render(final ? "desk-copy-text" : "draft");
  },
};

function forget() {
  store.clear();
  desk = null;
  picked = null;
  const box = resultBox();
  box.replaceChildren();
  box.hidden = true;
  const tool = form();
  tool.rawLog.value = "";
  tool.ticketContext.value = "";
  tool.rawLog.focus();
}

window.quireSupportDesk = {
  /// A run's answer: a new desk for the log that was sent.
  show(json) {
    const tool = form();
    desk = {
      raw: tool.rawLog.value, context: tool.ticketContext.value, locale: tool.locale.value,
      result: json.result, corrections: [], draft: null, kept: [], final: false,
    };
    picked = null;
    keep();
    return build();
  },
};

document.addEventListener("DOMContentLoaded", async () => {
  const tool = form();
  if (tool?.dataset.result !== "support") return;
  const kept = await store.load();
  if (!kept || desk) return;
  desk = kept;
  tool.rawLog.value = desk.raw;
  tool.ticketContext.value = desk.context || "";
  tool.locale.value = desk.locale;
  render();
});
