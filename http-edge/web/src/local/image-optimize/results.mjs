// One photo's card in the results: its original size, then one row per output with its size,
// the change, the encoder that wrote it, the time it took, a download link and a button that
// shows it in the before/after view.
import { bytes, downloadLink, element, say } from "../common.mjs";
import { change } from "./formats.mjs";

export function fileCard(file, width, height) {
  return element("article", { class: "card optimize-file" },
    element("h3", {}, file.name),
    element("p", { class: "optimize-original" }, say(`Original: ${width} × ${height}, ${bytes(file.size)}`, `Original : ${width} × ${height}, ${bytes(file.size)}`)),
    element("table", { class: "optimize-outputs" }, element("tbody")));
}

/// "−62 %" or "+8 %", and whether the output is larger than the original.
export function changeText(before, after) {
  const ratio = change(before, after);
  const percent = Math.round(Math.abs(ratio) * 100);
  const sign = percent === 0 ? "" : ratio < 0 ? "−" : "+";
  return { text: `${sign}${percent} %`, larger: ratio > 0 };
}

/// Appends the row of `output` ({ name, format, bytes, width, height, encoder, ms }) to `card`.
export function outputRow(card, original, output, onCompare) {
  const { text, larger } = changeText(original.size, output.bytes.length);
  const compare = element("button", { type: "button", class: "link optimize-compare-button" }, say("Compare", "Comparer"));
  compare.addEventListener("click", onCompare);
  const row = element("tr", {
    class: larger ? "optimize-output larger" : "optimize-output",
    "data-name": output.name, "data-format": output.format.key, "data-encoder": output.encoder, "data-bytes": output.bytes.length,
    "data-ms": Math.round(output.ms),
  },
  element("th", { scope: "row" }, output.format.label),
  element("td", {}, `${output.width} × ${output.height}`),
  element("td", { class: "optimize-bytes" }, bytes(output.bytes.length)),
  element("td", { class: "optimize-change" }, text, larger ? say(" (larger: keep the original)", " (plus gros : gardez l'original)") : ""),
  element("td", { class: "optimize-encoder" }, output.encoder === "browser"
    ? say("browser's encoder", "encodeur du navigateur") : say("bundled encoder", "encodeur intégré")),
  element("td", {}, `${(output.ms / 1000).toFixed(2)} s`),
  element("td", {}, downloadLink(output.blob, output.name, say("Download", "Télécharger"))),
  element("td", {}, compare));
  card.querySelector("tbody").append(row);
}

/// A photo that could not be read or encoded.
export function refusal(card, message) {
  card.classList.add("refused");
  card.append(element("p", { class: "error" }, message));
}
