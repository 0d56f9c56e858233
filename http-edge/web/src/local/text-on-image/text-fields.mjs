// One text block's fields (the title's or the subtitle's): the words, the typeface, its weight
// when the typeface has several, the size in exported pixels, the colour. Ids are
// "toi-<name>", "toi-<name>-font", "-weight", "-size", "-colour".
import { element, say } from "../common.mjs";
import { FAMILIES, familyOf, nearestWeight } from "./families.mjs";

const WEIGHT_NAMES = { 400: ["Regular", "Normal"], 700: ["Bold", "Gras"] };
export const SIZE_MIN = 8;
export const SIZE_MAX = 1000;

const labelled = (id, label, input, extra = {}) => element("div", { class: "toi-field", ...extra }, element("label", { for: id }, label), input);

/// { node, read(), setSize(px), size() }. `defaults`: { text, family, weight, size, colour }.
export function textFields(name, legend, defaults) {
  const id = `toi-${name}`;
  const text = element("textarea", { id, rows: "2", maxlength: "400", spellcheck: "true", class: "toi-text" });
  text.value = defaults.text;
  const font = element("select", { id: `${id}-font` },
    FAMILIES.map((f) => element("option", { value: f.family, selected: f.family === defaults.family }, f.label)));
  const weight = element("select", { id: `${id}-weight` });
  const weightField = labelled(`${id}-weight`, say("Weight", "Graisse"), weight);
  const size = element("input", { id: `${id}-size`, type: "number", min: String(SIZE_MIN), max: String(SIZE_MAX), step: "1",
    value: String(defaults.size), inputmode: "numeric" });
  const colour = element("input", { id: `${id}-colour`, type: "color", value: defaults.colour });

  /// The weight list follows the typeface: only the bundled weights, hidden when there is one.
  function fillWeights(wanted) {
    const { family, weights } = familyOf(font.value);
    const chosen = nearestWeight(family, wanted);
    weight.replaceChildren(...weights.map((w) => element("option", { value: String(w), selected: w === chosen },
      `${say(...WEIGHT_NAMES[w])} (${w})`)));
    weight.value = String(chosen);
    weightField.hidden = weights.length < 2;
  }
  fillWeights(defaults.weight);
  font.addEventListener("change", () => fillWeights(Number(weight.value) || defaults.weight));

  /// The size typed, kept within bounds; the last good one while the field is empty or wrong.
  let lastSize = defaults.size;
  const readSize = () => {
    const n = Math.round(Number(size.value));
    if (Number.isFinite(n) && n >= SIZE_MIN) lastSize = Math.min(SIZE_MAX, n);
    return lastSize;
  };

  const node = element("fieldset", { class: "toi-block", id: `${id}-fields` },
    element("legend", {}, legend),
    labelled(id, say("Text", "Texte"), text, { class: "toi-field toi-wide" }),
    labelled(`${id}-font`, say("Typeface", "Police"), font),
    weightField,
    labelled(`${id}-size`, say("Size (px)", "Taille (px)"), size),
    labelled(`${id}-colour`, say("Colour", "Couleur"), colour));

  return {
    node,
    read: () => ({ text: text.value, family: font.value, weight: Number(weight.value), size: readSize(), colour: colour.value || "#ffffff" }),
    size: readSize,
    setSize(px) {
      lastSize = Math.min(SIZE_MAX, Math.max(SIZE_MIN, px));
      size.value = String(lastSize);
    },
  };
}
