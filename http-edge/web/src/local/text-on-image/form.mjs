// The settings form: the size (a network's format or a custom one), the background, the title
// and subtitle, their placement, the output. Builds the fields and reads them back as one plain
// object; view.mjs redraws on every change. Every input has its label; the radios are grouped
// in fieldsets with a legend, so they are reached and named by keyboard and screen readers.
import { element, say } from "../common.mjs";
import { FORMATS, formatById } from "../social-resize/formats.mjs";
import { FAMILIES } from "./families.mjs";
import { guideFor } from "./guides.mjs";
import { reference, rescale } from "./layout.mjs";
import { textFields } from "./text-fields.mjs";

export const CUSTOM = "custom";
const SIDE_MIN = 16;
// 4096 × 4096 is the largest canvas iOS Safari draws (16.7 million pixels).
const SIDE_MAX = 4096;
const FIRST = "instagram-square";

const field = (id, label, input, ...after) => element("div", { class: "toi-field" }, element("label", { for: id }, label), input, ...after);

/// A group of radio buttons: [[value, label]], ids "<name>-<value>".
function radios(name, legend, options, checked) {
  return element("fieldset", { class: "toi-radios", id: name },
    element("legend", {}, legend),
    options.map(([value, label]) => element("label", { class: "check", for: `${name}-${value}` },
      element("input", { type: "radio", name, id: `${name}-${value}`, value, checked: value === checked }), " ", label)));
}

const checkedValue = (node) => node.querySelector("input:checked")?.value;

/// { node, outputBox, read(), suggestOverlay() }. `imageNode`: the image chooser, put in
/// the background fieldset. `onChange()` after every change of a setting.
export function settingsForm({ imageNode, onChange }) {
  const preset = element("select", { id: "toi-preset" },
    FORMATS.map((f) => element("option", { value: f.id, selected: f.id === FIRST }, `${say(f.en, f.fr)} — ${f.w}×${f.h}`)),
    element("option", { value: CUSTOM }, say("Custom size", "Taille libre")));
  const width = element("input", { id: "toi-width", type: "number", min: String(SIDE_MIN), max: String(SIDE_MAX), step: "1", value: "1080", inputmode: "numeric" });
  const height = element("input", { id: "toi-height", type: "number", min: String(SIDE_MIN), max: String(SIDE_MAX), step: "1", value: "1080", inputmode: "numeric" });
  const custom = element("div", { class: "toi-custom", id: "toi-custom", hidden: true },
    field("toi-width", say("Width (px)", "Largeur (px)"), width),
    field("toi-height", say("Height (px)", "Hauteur (px)"), height));
  const sizeBox = element("fieldset", { class: "toi-group" }, element("legend", {}, say("Format", "Format")),
    field("toi-preset", say("Network and use", "Réseau et usage"), preset), custom);

  const colour = element("input", { id: "toi-background", type: "color", value: "#1e3a5f" });
  const overlay = element("input", { id: "toi-overlay", type: "range", min: "0", max: "80", step: "5", value: "0" });
  const overlayShown = element("output", { id: "toi-overlay-value", for: "toi-overlay" }, "0 %");
  const backgroundBox = element("fieldset", { class: "toi-group" }, element("legend", {}, say("Background", "Fond")),
    imageNode,
    field("toi-background", say("Colour (alone, or behind a transparent image)", "Couleur (seule, ou derrière une image transparente)"), colour),
    field("toi-overlay", say("Darken the background, so the text stands out", "Assombrir le fond, pour détacher le texte"), overlay, overlayShown));

  const initial = guideFor(FIRST);
  const sized = (share) => Math.round(reference(initial) * share);
  const title = textFields("title", say("Title", "Titre"), {
    text: say("Your title here", "Votre titre ici"), family: FAMILIES[0].family, weight: FAMILIES[0].title, size: sized(0.09), colour: "#ffffff",
  });
  const subtitle = textFields("subtitle", say("Subtitle", "Sous-titre"), {
    text: say("A line or two to go with it", "Une ligne ou deux pour l'accompagner"), family: FAMILIES[0].family, weight: 400, size: sized(0.045), colour: "#ffffff",
  });

  const align = radios("toi-align", say("Alignment", "Alignement"),
    [["left", say("Left", "À gauche")], ["center", say("Centre", "Centré")], ["right", say("Right", "À droite")]], "center");
  const valign = radios("toi-valign", say("Vertical position", "Position verticale"),
    [["top", say("Top", "En haut")], ["middle", say("Middle", "Au milieu")], ["bottom", say("Bottom", "En bas")]], "middle");
  const shadow = element("input", { id: "toi-shadow", type: "checkbox", checked: true });
  const placeBox = element("fieldset", { class: "toi-group" }, element("legend", {}, say("Placement", "Disposition")),
    align, valign,
    element("label", { class: "check", for: "toi-shadow" }, shadow, " ", say("Shadow under the text", "Ombre sous le texte")));

  const type = radios("toi-type", say("File type", "Type de fichier"), [["png", "PNG"], ["jpeg", "JPEG"]], "png");
  const quality = element("input", { id: "toi-quality", type: "range", min: "0.5", max: "1", step: "0.05", value: "0.9", disabled: true });
  const qualityShown = element("output", { id: "toi-quality-value", for: "toi-quality" }, "90 %");
  const outputBox = element("div", { class: "toi-output" }, type,
    field("toi-quality", say("JPEG quality", "Qualité JPEG"), quality, qualityShown));

  let lastPreset = FIRST;
  let last = { w: 1080, h: 1080 };
  const side = (input, fallback) => {
    const n = Math.round(Number(input.value));
    return Number.isFinite(n) && n >= SIDE_MIN ? Math.min(SIDE_MAX, n) : fallback;
  };
  function size() {
    if (preset.value !== CUSTOM) return formatById(preset.value);
    last = { w: side(width, last.w), h: side(height, last.h) };
    return last;
  }

  // A new format keeps the text's share of the image: sizes follow the safe area's size.
  preset.addEventListener("change", () => {
    const before = lastPreset === CUSTOM ? last : formatById(lastPreset);
    const from = guideFor(lastPreset, before.w, before.h);
    if (preset.value === CUSTOM) {
      const { w, h } = formatById(lastPreset) ?? last;
      [width.value, height.value] = [String(w), String(h)];
      last = { w, h };
    }
    const now = size();
    const to = guideFor(preset.value, now.w, now.h);
    for (const block of [title, subtitle]) block.setSize(rescale(block.size(), from, to));
    custom.hidden = preset.value !== CUSTOM;
    lastPreset = preset.value;
  });
  overlay.addEventListener("input", () => (overlayShown.textContent = `${overlay.value} %`));
  quality.addEventListener("input", () => (qualityShown.textContent = `${Math.round(Number(quality.value) * 100)} %`));
  type.addEventListener("change", () => (quality.disabled = checkedValue(type) !== "jpeg")); // PNG: lossless

  const node = element("div", { class: "toi-settings", id: "toi-settings" }, sizeBox, backgroundBox, title.node, subtitle.node, placeBox);
  for (const part of [node, outputBox]) {
    part.addEventListener("input", () => onChange());
    part.addEventListener("change", () => onChange());
  }

  return {
    node,
    outputBox,
    read() {
      const { w, h } = size();
      return {
        preset: preset.value, w, h,
        background: colour.value || "#000000",
        overlay: Number(overlay.value) || 0,
        title: title.read(),
        subtitle: subtitle.read(),
        align: checkedValue(align) || "center",
        valign: checkedValue(valign) || "middle",
        shadow: shadow.checked,
        type: checkedValue(type) === "jpeg" ? "image/jpeg" : "image/png",
        quality: Number(quality.value) || 0.9,
      };
    },
    /// A photo under white text needs some darkening: offered once, when an image first comes
    /// in with none set (the user's own choice, even 0 set back by hand, stands after that).
    suggestOverlay() {
      if (overlay.dataset.suggested) return;
      overlay.dataset.suggested = "yes";
      if (overlay.value === "0") {
        overlay.value = "30";
        overlayShown.textContent = "30 %";
      }
    },
  };
}
