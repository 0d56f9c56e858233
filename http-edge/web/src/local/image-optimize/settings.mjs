// The settings of image-optimize: which formats, each one's quality, and the largest size.
// `read()` gives them parsed, or the first problem in words.
import { element, say } from "../common.mjs";
import { FORMATS, parseLimit, parseQuality } from "./formats.mjs";

export function settingsForm(onApply) {
  const rows = FORMATS.map((format) => {
    const on = element("input", { type: "checkbox", id: `optimize-${format.key}`, checked: format.key !== "jpeg" });
    const quality = element("input", { type: "number", id: `optimize-${format.key}-quality`, min: "1", max: "100",
      step: "1", value: String(format.quality), inputmode: "numeric" });
    const row = element("div", { class: "optimize-format" },
      on, " ", element("label", { for: on.id }, format.label), " ",
      element("label", { for: quality.id, class: "optimize-quality" }, say("quality", "qualité")), " ", quality);
    return { format, on, quality, row };
  });
  const maxWidth = element("input", { type: "number", id: "optimize-max-width", min: "1", max: "16384", placeholder: say("any", "libre") });
  const maxHeight = element("input", { type: "number", id: "optimize-max-height", min: "1", max: "16384", placeholder: say("any", "libre") });
  const apply = element("button", { type: "button", id: "optimize-apply", class: "button" }, say("Optimize", "Optimiser"));
  apply.addEventListener("click", onApply);
  const root = element("fieldset", { class: "optimize-settings" },
    element("legend", {}, say("Formats and size", "Formats et taille")),
    ...rows.map((r) => r.row),
    element("div", { class: "optimize-size" },
      element("label", { for: maxWidth.id }, say("Width at most (px)", "Largeur au plus (px)")), maxWidth,
      element("label", { for: maxHeight.id }, say("Height at most (px)", "Hauteur au plus (px)")), maxHeight),
    element("p", { class: "hint" }, say(
      "Quality from 1 to 100 on each encoder's own scale (as cwebp's and avifenc's -q). Images are made smaller to fit, never larger; metadata is not copied.",
      "Qualité de 1 à 100 sur l'échelle de chaque encodeur (comme -q de cwebp et d'avifenc). Les images sont réduites pour tenir, jamais agrandies ; les métadonnées ne sont pas copiées.")),
    apply);

  const read = () => {
    const formats = [];
    for (const { format, on, quality } of rows) {
      if (!on.checked) continue;
      const value = parseQuality(quality.value);
      if (value === null) return { problem: say(`${format.label}: the quality is a whole number from 1 to 100.`, `${format.label} : la qualité est un nombre entier de 1 à 100.`) };
      formats.push({ format, quality: value });
    }
    if (!formats.length) return { problem: say("Choose at least one format.", "Choisissez au moins un format.") };
    const width = parseLimit(maxWidth.value);
    const height = parseLimit(maxHeight.value);
    if (width === null || height === null) return { problem: say("A size limit is a whole number of pixels from 1 to 16384, or empty.", "Une limite de taille est un nombre entier de pixels de 1 à 16384, ou vide.") };
    return { formats, maxWidth: width, maxHeight: height };
  };
  return { root, read };
}
