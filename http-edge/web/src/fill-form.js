// Fill a form: choosing the PDF lists its fields (a `list` run of the tool, answered in JSON),
// which become an HTML form; the fields the user changes go into the `values` field as the
// JSON object the edge reads, sent by Run with `action=fill`. Uses app.js's helpers.
"use strict";

// Names a field's value is read from: a check box is on unless it says off.
const OFF = new Set(["", "off", "false", "no"]);

function fillForm() {
  const container = document.getElementById("pdf-fields");
  const form = document.getElementById("tool");
  const input = form?.querySelector("#file");
  if (!container || !input) return;
  const status = document.getElementById("fields-status");
  const values = document.getElementById("values");
  const run = form.querySelector("button[type=submit]");
  // Only what the user changed is filled: the other fields keep the document's values.
  let changed = {};
  const write = () => (values.value = JSON.stringify(changed));

  input.addEventListener("change", async () => {
    changed = {};
    write();
    container.replaceChildren();
    container.hidden = true;
    const file = input.files[0];
    if (!file) return;
    status.textContent = say("Reading the form's fields…", "Lecture des champs du formulaire…");
    const body = new FormData();
    body.append("action", "list");
    body.append("file", file);
    let response;
    try {
      response = await fetch(form.dataset.endpoint, { method: "POST", body, headers: { "X-CSRF-Token": csrf() } });
    } catch {
      status.textContent = say("The connection was lost: try again.", "La connexion a été perdue : réessayez.");
      return;
    }
    const type = response.headers.get("Content-Type") || "";
    const blob = await response.blob();
    if (!response.ok || !type.includes("json")) {
      status.textContent = await problemText(response.status, type, blob);
      return;
    }
    const fields = (JSON.parse(await blob.text()).fields || []);
    if (!fields.length) {
      status.textContent = say("This PDF has no form fields to fill.", "Ce PDF n'a aucun champ de formulaire à remplir.");
      run.disabled = true;
      return;
    }
    run.disabled = false;
    status.textContent = say(`${fields.length} field(s) found: fill them in, then run.`, `${fields.length} champ(s) trouvé(s) : remplissez-les, puis lancez.`);
    let page = null;
    const pages = new Set(fields.map((f) => f.page)).size;
    fields.forEach((field, index) => {
      if (pages > 1 && field.page !== page) {
        page = field.page;
        container.append(element("h2", { class: "fields-page" }, `${say("Page", "Page")} ${page}`));
      }
      container.append(control(field, index, (value) => {
        changed[field.name] = value;
        write();
      }));
    });
    container.hidden = false;
  });
}

// One field as an HTML control. Controls carry `data-local`: app.js does not send them as
// options (a PDF field may be called `action`); `onChange` gets the value to send.
function control(field, index, onChange) {
  const id = `pdf-field-${index}`;
  const label = field.tooltip || field.name;
  const current = Array.isArray(field.value) ? field.value : field.value == null ? [] : [String(field.value)];
  const locked = field.readOnly || field.kind === "button" || field.kind === "signature";
  const attributes = (extra) => {
    const a = { id, "data-local": "", ...extra };
    if (locked) a.disabled = "";
    if (field.required && !locked) a.required = "";
    return a;
  };
  const note = locked ? ` (${field.kind === "signature" ? say("signature field: use Sign a PDF", "champ de signature : utilisez Signer un PDF")
    : field.kind === "button" ? say("button", "bouton") : say("read-only", "lecture seule")})` : "";
  const labelled = (node) => element("div", { class: "pdf-field" }, element("label", { for: id }, label + note), node);
  const options = field.options || [];
  switch (field.kind) {
    case "checkbox": {
      const box = element("input", attributes({ type: "checkbox" }));
      box.checked = current.length > 0 && !OFF.has(current[0].toLowerCase());
      box.addEventListener("change", () => onChange(box.checked));
      return element("div", { class: "pdf-field" }, element("label", { class: "check" }, box, ` ${label}${note}`));
    }
    case "radio": {
      const group = element("fieldset", { class: "pdf-field" }, element("legend", {}, label + note));
      options.forEach((option, at) => {
        const radio = element("input", { ...attributes({ type: "radio", name: `pdf-radio-${index}`, value: option.export }), id: `${id}-${at}` });
        radio.checked = current[0] === option.export;
        radio.addEventListener("change", () => radio.checked && onChange(option.export));
        group.append(element("label", { class: "check" }, radio, ` ${option.label || option.export}`));
      });
      if (locked) group.disabled = true;
      return group;
    }
    case "combo":
    case "list": {
      const several = field.kind === "list" && field.multiSelect;
      const extra = several ? { multiple: "", size: String(Math.min(Math.max(options.length, 2), 6)) } : {};
      const select = element("select", attributes(extra));
      if (!several) select.append(element("option", { value: "" }, "—"));
      for (const option of options) {
        const item = element("option", { value: option.export }, option.label || option.export);
        item.selected = current.includes(option.export);
        select.append(item);
      }
      select.addEventListener("change", () => onChange(several ? Array.from(select.selectedOptions, (o) => o.value) : select.value));
      return labelled(select);
    }
    default: {
      const text = field.multiline
        ? element("textarea", attributes({ rows: "3" }))
        : element("input", attributes({ type: "text" }));
      if (field.maxLength > 0) text.maxLength = field.maxLength;
      text.value = current[0] ?? "";
      text.addEventListener("input", () => onChange(text.value));
      return labelled(text);
    }
  }
}

document.addEventListener("DOMContentLoaded", fillForm);
