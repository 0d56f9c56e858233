// The before/after slider: the original and one output stacked in one frame, the output shown
// right of a divider that a range input moves (mouse, touch or arrow keys). "Actual pixels"
// shows both at the output's size, scrollable, where compression artefacts are visible.
import { element, say } from "../common.mjs";

export function compareView() {
  const before = element("img", { class: "compare-before", alt: "" });
  const after = element("img", { class: "compare-after", alt: "" });
  const divider = element("div", { class: "compare-divider" });
  const frame = element("div", { class: "compare-frame" }, before, after, divider);
  const slider = element("input", { type: "range", id: "optimize-slider", min: "0", max: "100", value: "50",
    "aria-label": say("Position of the divider", "Position du séparateur") });
  const actual = element("input", { type: "checkbox", id: "optimize-actual" });
  const caption = element("p", { class: "compare-caption", id: "optimize-compare-caption" });
  const root = element("section", { class: "compare", id: "optimize-compare", hidden: true },
    element("h2", {}, say("Before and after", "Avant et après")), caption,
    element("div", { class: "compare-scroll" }, frame), slider,
    element("p", {}, actual, " ", element("label", { for: "optimize-actual" }, say("Actual pixels", "Pixels réels"))));

  const place = () => {
    const at = Number(slider.value);
    after.style.clipPath = `inset(0 0 0 ${at}%)`;
    divider.style.left = `${at}%`;
  };
  const size = () => {
    const { width, height } = root.dataset;
    frame.style.aspectRatio = `${width} / ${height}`;
    frame.style.width = actual.checked ? `${width}px` : "";
  };
  slider.addEventListener("input", place);
  actual.addEventListener("change", size);
  place();

  return {
    root,
    /// Shows `original` (a blob URL) against `output` ({ url, name, width, height, label }).
    show(original, output, label) {
      before.src = original;
      after.src = output.url;
      before.alt = say("Original", "Original");
      after.alt = output.name;
      Object.assign(root.dataset, { width: output.width, height: output.height, name: output.name });
      caption.textContent = label;
      root.hidden = false;
      size();
    },
    hide() {
      root.hidden = true;
      before.removeAttribute("src");
      after.removeAttribute("src");
    },
  };
}
