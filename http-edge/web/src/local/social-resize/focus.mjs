// The focal point: a marker over the source image that the user drags (pointer events: mouse,
// pen, touch) or moves with the keyboard. Its position is kept in percent of the image's width
// and height, so it does not depend on the size the image is shown at.
import { element, say } from "../common.mjs";

const clamp = (v) => Math.min(100, Math.max(0, v));
const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/// The point moved by an arrow key: 1 % per press, 10 % with Shift; null for any other key.
export function nudge(point, key, big = false) {
  const step = STEPS[key];
  if (!step) return null;
  const by = big ? 10 : 1;
  return { x: clamp(point.x + step[0] * by), y: clamp(point.y + step[1] * by) };
}

/// The position in words, for screen readers (and the Chromium check).
export function valueText({ x, y }) {
  const [left, top] = [Math.round(x), Math.round(y)];
  return say(`${left}% from the left, ${top}% from the top`, `${left} % depuis la gauche, ${top} % depuis le haut`);
}

/// The source image's stage: { node, canvas, set(point) }. `onChange(point)` on every move by
/// the user (not on `set`); the caller throttles what it redraws.
export function focusStage({ onChange }) {
  const canvas = element("canvas", { id: "social-source", class: "social-source" });
  const hint = element("p", { id: "social-focus-hint", class: "hint" },
    say("Drag the point onto what must stay in every crop, or focus it and use the arrow keys (Shift: 10 % at a time).",
      "Faites glisser le point sur ce qui doit rester dans chaque recadrage, ou sélectionnez-le et utilisez les flèches (Maj : 10 % à la fois)."));
  // A slider is the closest ARIA role to a 2-D handle: its value is the horizontal position,
  // aria-valuetext gives both.
  const marker = element("div", {
    id: "social-focus", class: "social-marker", role: "slider", tabindex: "0",
    "aria-label": say("Focal point", "Point focal"), "aria-roledescription": say("focal point", "point focal"),
    "aria-valuemin": "0", "aria-valuemax": "100", "aria-describedby": "social-focus-hint",
  });
  const stage = element("div", { class: "social-stage" }, canvas, marker);
  let point = { x: 50, y: 50 };
  let dragging = null;

  function show() {
    marker.style.left = `${point.x}%`;
    marker.style.top = `${point.y}%`;
    marker.setAttribute("aria-valuenow", String(Math.round(point.x)));
    marker.setAttribute("aria-valuetext", valueText(point));
  }
  function move(next) {
    if (next.x === point.x && next.y === point.y) return;
    point = next;
    show();
    onChange({ ...point });
  }
  // Where the pointer is, in percent of the image as shown (the canvas fills the stage).
  function at(event) {
    const box = canvas.getBoundingClientRect();
    if (!box.width || !box.height) return point;
    return { x: clamp(((event.clientX - box.left) / box.width) * 100), y: clamp(((event.clientY - box.top) / box.height) * 100) };
  }

  stage.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection, no native image drag
    dragging = event.pointerId;
    stage.setPointerCapture(event.pointerId);
    marker.focus();
    move(at(event));
  });
  stage.addEventListener("pointermove", (event) => {
    if (event.pointerId === dragging) move(at(event));
  });
  const stop = (event) => {
    if (event.pointerId !== dragging) return;
    dragging = null;
    if (stage.hasPointerCapture(event.pointerId)) stage.releasePointerCapture(event.pointerId);
  };
  stage.addEventListener("pointerup", stop);
  stage.addEventListener("pointercancel", stop);
  marker.addEventListener("keydown", (event) => {
    const next = nudge(point, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault(); // the arrows would scroll the page
    move(next);
  });

  show();
  return {
    node: element("div", { class: "social-source-wrap" }, stage, hint),
    canvas,
    set(next) {
      point = { x: clamp(next.x), y: clamp(next.y) };
      show();
    },
  };
}
