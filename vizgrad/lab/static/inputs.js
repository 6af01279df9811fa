// The input rows: a slider and an exact field per input, kept in step, never clamped.
import { $, state, lo, hi } from "./state.js";
import { readNumber, show } from "./numbers.js";
import { t } from "./i18n.js";

export function inputIds(name) {
  return { range: `in-${name}-range`, number: `in-${name}-number`, error: `in-${name}-error`,
    hint: `in-${name}-hint`, label: `in-${name}-label` };
}

// Words of one row (again after the language changes).
export function labelInputs() {
  for (const input of state.inputs) {
    const ids = inputIds(input.name);
    const range = $(ids.range);
    if (!range) continue;
    $(ids.label).textContent = t("lab.input", { name: input.name, lo: show(lo()), hi: show(hi()) });
    range.setAttribute("aria-label", t("lab.input.slider", { name: input.name, lo: show(lo()), hi: show(hi()) }));
  }
  $("inputs-help").textContent = t("lab.inputs.help", { lo: show(lo()), hi: show(hi()) });
}

// onChange(name, value) is called for every valid new value.
export function buildInputs(onChange) {
  const box = $("inputs");
  box.replaceChildren();
  for (const input of state.inputs) {
    const ids = inputIds(input.name);
    const row = document.createElement("div");
    row.className = "input-row";
    row.dataset.input = input.name;
    const label = document.createElement("label");
    label.htmlFor = ids.number;
    label.id = ids.label;
    const range = document.createElement("input");
    Object.assign(range, { type: "range", id: ids.range, min: lo(), max: hi(), step: "0.1" });
    range.value = String(input.value);
    range.setAttribute("aria-describedby", ids.hint);
    const number = document.createElement("input");
    Object.assign(number, { type: "text", id: ids.number, inputMode: "decimal", autocomplete: "off",
      spellcheck: false });
    number.value = String(input.value);
    number.dataset.handled = number.value;
    number.setAttribute("aria-describedby", `${ids.error} ${ids.hint}`);
    number.setAttribute("aria-invalid", "false");
    const error = document.createElement("p");
    error.id = ids.error;
    error.className = "field-error";
    error.setAttribute("aria-live", "assertive");
    const hint = document.createElement("p");
    hint.id = ids.hint;
    hint.className = "hint";
    row.append(label, range, number, error, hint);
    box.append(row);
    range.addEventListener("input", () => onSlider(input.name, range, number, onChange));
    number.addEventListener("input", () => onNumber(input.name, number, false, onChange));
    number.addEventListener("change", () => onNumber(input.name, number, true, onChange));
    number.addEventListener("keydown", (e) => { if (e.key === "Enter") onNumber(input.name, number, true, onChange); });
  }
  labelInputs();
}

export function setFieldError(name, message) {
  const ids = inputIds(name);
  $(ids.error).textContent = message;
  $(ids.number).setAttribute("aria-invalid", message ? "true" : "false");
}

export function keeps(name, value) {
  return t("lab.error.keeps", { name, value: show(value) });
}

function onNumber(name, field, committed, onChange) {
  // leaving the field (change, Enter) must not submit again what typing already handled,
  // such as a value the server rejected a moment ago
  if (committed && field.dataset.handled === field.value) return;
  const result = readNumber(field.value, { lo: lo(), hi: hi() });
  if (result.error) {
    if (result.incomplete && !committed) {
      field.setAttribute("aria-invalid", "true");
      $(inputIds(name).error).textContent = "";
      delete field.dataset.handled;
    } else {
      const kept = keeps(name, state.values[name]);
      setFieldError(name, result.error === "nan"
        ? t("lab.error.nan", { raw: field.value.trim(), lo: show(lo()), hi: show(hi()), keeps: kept })
        : t("lab.error.range", { value: show(result.text), lo: show(lo()), hi: show(hi()), keeps: kept }));
      field.dataset.handled = field.value;
    }
    return;
  }
  field.dataset.handled = field.value;
  setFieldError(name, "");
  $(inputIds(name).range).value = String(result.value);
  onChange(name, result.value);
}

function onSlider(name, range, number, onChange) {
  const value = Number(range.value);
  number.value = String(value);
  number.dataset.handled = number.value;
  setFieldError(name, "");
  onChange(name, value);
}

// What each input feeds, and the full forward result.
export function describeInputs() {
  const graph = state.trace.graph;
  const names = new Map(state.trace.nodes.map((n) => [n.id, n]));
  for (const input of state.trace.inputs) {
    const users = [...new Set(graph.edges.filter((e) => e.source === input.id).map((e) => e.target))]
      .map((id) => names.get(id).formula);
    const hint = $(inputIds(input.name).hint);
    if (hint) hint.textContent = users.length ? t("lab.feeds", { users: users.join(t("list.separator")) }) : t("lab.unused");
  }
  const out = state.trace.metrics[0];
  $("preview").textContent = t("lab.preview", { label: out.label, value: out.text });
}
