// The before/after comparison: the raw log and the anonymized one side by side, line by line,
// each replaced item marked on both sides with its placeholder, a legend with the counts per
// kind, and Previous/Next to go from one replacement to the next. Selecting an item offers to
// restore it; selecting text offers it to the "missed item" field.
import { countsByKind, mainOriginal } from "./align.mjs";
import { element, say } from "../shared/dom.mjs";

/// The comparison of the raw log and `anonymized`, paired by `align` (`{ lines, items }`, which
/// the desk computes once per render for this view and the reply's chips);
/// `onPick(placeholder, item)` when an item is chosen, `onSelectText(text)` when text is
/// selected in either column.
export function compareView({ lines, items }, anonymized, { onPick, onSelectText }) {
  const counts = countsByKind(anonymized);
  const legend = element("ul", { class: "desk-legend", id: "desk-legend", "aria-label": say("Replaced items per kind", "Éléments remplacés par type") },
    [...counts].map(([kind, count]) => element("li", { class: `kind kind-${kind.toLowerCase()}`, "data-kind": kind }, `${kind} `, element("strong", {}, String(count)))));
  if (!counts.size) legend.append(element("li", {}, say("Nothing was replaced.", "Rien n'a été remplacé.")));

  let at = 0;
  const rows = lines.map((line, i) => {
    const rawCell = element("code", { class: "raw" });
    const anonymizedCell = element("code", { class: "anonymized" });
    if (line.segments) {
      for (const segment of line.segments) {
        if (!segment.placeholder) {
          rawCell.append(segment.text);
          anonymizedCell.append(segment.text);
          continue;
        }
        const common = { class: `item kind-${segment.kind.toLowerCase()}`, "data-item": segment.placeholder, "data-at": String(at) };
        rawCell.append(element("mark", { ...common, title: segment.placeholder }, segment.original));
        anonymizedCell.append(element("mark", {
          ...common, tabindex: "0", role: "button",
          "aria-label": `${segment.placeholder}: ${segment.original}`,
        }, segment.placeholder));
        at += 1;
      }
    } else {
      rawCell.append(line.raw ?? "");
      anonymizedCell.append(line.anonymized ?? "");
    }
    return element("div", { class: line.segments ? "desk-row" : "desk-row unpaired", role: "row" },
      element("span", { class: "line-number", role: "rowheader" }, String(i + 1)),
      element("span", { role: "cell" }, rawCell), element("span", { role: "cell" }, anonymizedCell));
  });
  const total = at;
  const table = element("div", { class: "desk-compare", id: "desk-compare", role: "table", "aria-label": say("Raw log and anonymized log, line by line", "Journal brut et journal anonymisé, ligne par ligne") },
    element("div", { class: "desk-row desk-head", role: "row" },
      element("span", { role: "columnheader" }, "#"),
      element("span", { role: "columnheader" }, say("Raw log (stays in this browser)", "Journal brut (reste dans ce navigateur)")),
      element("span", { role: "columnheader" }, say("Anonymized log", "Journal anonymisé"))),
    rows);

  const position = element("span", { id: "desk-position", "aria-live": "polite" }, total ? `0 / ${total}` : "0 / 0");
  let current = -1;
  const go = (index) => {
    if (!total) return;
    current = (index + total) % total;
    for (const mark of table.querySelectorAll("mark.current")) mark.classList.remove("current");
    const marks = table.querySelectorAll(`mark[data-at="${current}"]`);
    for (const mark of marks) mark.classList.add("current");
    const target = marks[marks.length - 1];
    target.focus();
    target.scrollIntoView({ block: "nearest", inline: "nearest" });
    position.textContent = `${current + 1} / ${total}`;
    pick(target);
  };
  const pick = (mark) => {
    const placeholder = mark.dataset.item;
    onPick(placeholder, { ...items.get(placeholder), original: mainOriginal(items.get(placeholder)) });
  };
  const previous = element("button", { type: "button", id: "desk-previous", disabled: !total, "aria-keyshortcuts": "Alt+ArrowUp" }, say("← Previous", "← Précédent"));
  const next = element("button", { type: "button", id: "desk-next", disabled: !total, "aria-keyshortcuts": "Alt+ArrowDown" }, say("Next →", "Suivant →"));
  previous.addEventListener("click", () => go(current - 1));
  next.addEventListener("click", () => go(current + 1));
  table.addEventListener("click", (event) => {
    const mark = event.target.closest("mark.item");
    if (mark) go(Number(mark.dataset.at));
  });
  table.addEventListener("keydown", (event) => {
    const mark = event.target.closest?.("mark.item");
    if (mark && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      go(Number(mark.dataset.at));
    } else if (event.altKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      go(current + (event.key === "ArrowDown" ? 1 : -1));
    }
  });
  // Text selected in one line of either column is offered as a missed item.
  table.addEventListener("mouseup", () => {
    const text = String(document.getSelection() || "").trim();
    if (text && !text.includes("\n")) onSelectText(text);
  });

  return element("section", { class: "desk-section", id: "desk-comparison" },
    element("h2", {}, say("Before and after", "Avant et après")),
    legend,
    element("div", { class: "desk-nav" }, previous, position, next),
    table);
}
