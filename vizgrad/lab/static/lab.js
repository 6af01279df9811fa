// The vizgrad lab page. Every number, caption and chain-rule line comes from the
// JSON API as text; this module only picks which step to show and keeps inputs valid.
import { ApiFailure, api } from "./api.js";
import { decodeState, encodeState } from "./address.js";
import { readNumber, show } from "./numbers.js";

const $ = (id) => document.getElementById(id);
const PENDING = "pending";
const NOT_REACHED = "—";

const state = {
  source: { example: "fork" },
  inputs: [{ name: "a", value: -2 }, { name: "b", value: 3 }],
  values: { a: -2, b: 3 },
  range: [-20, 20],
  examples: [],
  trace: null,
  check: null,
  step: 0,
  gen: 0,
  good: null,
  shown: null,
  waiting: false,
  checkGen: 0,
  renderGen: 0,
  timer: 0,
  busy: false,
  svgs: new Map(),
};

// The request for the graph on screen: the source and values that produced the shown trace.
function traceBody(extra) {
  return Object.assign({}, state.shown, extra || {});
}

function sourceBody(extra) {
  return Object.assign({}, state.source, { values: Object.assign({}, state.values) }, extra || {});
}

function say(message) { $("status").textContent = message || ""; }

function lo() { return state.range[0]; }
function hi() { return state.range[1]; }

// -- inputs ------------------------------------------------------------------
function inputIds(name) {
  return { range: `in-${name}-range`, number: `in-${name}-number`, error: `in-${name}-error`,
    hint: `in-${name}-hint` };
}

function buildInputs() {
  const box = $("inputs");
  box.replaceChildren();
  for (const input of state.inputs) {
    const ids = inputIds(input.name);
    const row = document.createElement("div");
    row.className = "input-row";
    row.dataset.input = input.name;
    const label = document.createElement("label");
    label.htmlFor = ids.number;
    label.textContent = `Input ${input.name} (${show(lo())} to ${show(hi())})`;
    const range = document.createElement("input");
    Object.assign(range, { type: "range", id: ids.range, min: lo(), max: hi(), step: "0.1" });
    range.value = String(input.value);
    range.setAttribute("aria-label", `${input.name}, slider from ${lo()} to ${hi()}`);
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
    range.addEventListener("input", () => onSlider(input.name, range, number));
    number.addEventListener("input", () => onNumber(input.name, number, false));
    number.addEventListener("change", () => onNumber(input.name, number, true));
    number.addEventListener("keydown", (e) => { if (e.key === "Enter") onNumber(input.name, number, true); });
  }
}

function setFieldError(name, message) {
  const ids = inputIds(name);
  $(ids.error).textContent = message;
  $(ids.number).setAttribute("aria-invalid", message ? "true" : "false");
}

function onNumber(name, field, committed) {
  // leaving the field (change, Enter) must not submit again what typing already handled,
  // such as a value the server rejected a moment ago
  if (committed && field.dataset.handled === field.value) return;
  const result = readNumber(field.value, { name, current: state.values[name], lo: lo(), hi: hi() });
  if (result.error) {
    if (result.incomplete && !committed) {
      field.setAttribute("aria-invalid", "true");
      $(inputIds(name).error).textContent = "";
      delete field.dataset.handled;
    } else {
      setFieldError(name, result.error);
      field.dataset.handled = field.value;
    }
    return;
  }
  field.dataset.handled = field.value;
  setFieldError(name, "");
  $(inputIds(name).range).value = String(result.value);
  changeValue(name, result.value);
}

function onSlider(name, range, number) {
  const value = Number(range.value);
  number.value = String(value);
  number.dataset.handled = number.value;
  setFieldError(name, "");
  changeValue(name, value);
}

function changeValue(name, value) {
  if (state.values[name] === value) return;
  state.values[name] = value;
  setBusy(true);
  clearTimeout(state.timer);
  state.waiting = true;
  state.timer = setTimeout(() => { state.waiting = false; recompute({ name }); }, 120);
}

// -- recomputing ---------------------------------------------------------------
// While a recomputation is on its way the step controls wait for it: the new
// graph starts again at step 0, and a step chosen meanwhile would be lost.
function setBusy(busy) {
  state.busy = busy;
  $("process").setAttribute("aria-busy", busy ? "true" : "false");
  updateButtons();
}

function updateButtons() {
  const t = state.trace;
  const atStart = !t || state.step === 0;
  const atEnd = !t || state.step === t.last_step;
  $("first").disabled = $("back").disabled = state.busy || atStart;
  $("next").disabled = $("last").disabled = state.busy || atEnd;
}

async function recompute(changed) {
  const gen = ++state.gen;
  setBusy(true);
  $("graph").setAttribute("aria-busy", "true");
  try {
    const body = sourceBody();
    const data = await api("/api/trace", body);
    if (gen !== state.gen) return;
    say("");
    state.busy = state.waiting;  // another change may already be on its way
    adopt(data, body);
  } catch (err) {
    if (gen !== state.gen || state.waiting) return;  // a newer change supersedes this one
    if (changed && err instanceof ApiFailure && err.status === 422 && state.good) {
      // a value the function cannot take (log of a negative number, ...): keep the last
      // values that computed; the field keeps what was typed, next to the reason
      state.values = Object.assign({}, state.good);
      for (const [name, value] of Object.entries(state.good)) {
        const range = $(inputIds(name).range);
        if (range) range.value = String(value);
      }
      const kept = state.good[changed.name];
      const why = err.body.reason || err.message;
      setFieldError(changed.name, `${why} ${changed.name} keeps ${show(kept)}; nothing was recomputed.`);
    } else {
      say(`Could not recompute: ${err.message}`);
    }
    $("graph").setAttribute("aria-busy", "false");
    setBusy(false);
  }
}

function adopt(data, body) {
  state.shown = body;
  state.good = Object.assign({}, body.values);
  state.trace = data;
  state.check = null;
  state.step = 0;
  const by = new Map(data.inputs.map((i) => [i.name, i]));
  for (const input of state.inputs) {
    const info = by.get(input.name);
    if (info) input.value = state.values[input.name];
  }
  buildNodeTable();
  describeInputs();
  render();
  refreshCheck();
}

async function refreshCheck() {
  const gen = ++state.checkGen;
  const h = $("h").value;
  try {
    const data = await api("/api/gradcheck", traceBody({ h: Number(h) }));
    if (gen !== state.checkGen) return;
    state.check = Object.assign(data, { hLabel: h });
  } catch (err) {
    if (gen !== state.checkGen) return;
    state.check = { error: err.message, hLabel: h };
  }
  renderCheck();
}

// -- showing one step ----------------------------------------------------------
function stateAt(k) {
  const data = new Map();
  const grad = new Map();
  for (const step of state.trace.steps.slice(0, k + 1)) {
    for (const c of step.changes) (c.field === "data" ? data : grad).set(c.id, c.text);
  }
  return { data, grad };
}

function buildNodeTable() {
  const body = document.querySelector("#node-table tbody");
  body.replaceChildren();
  for (const node of state.trace.nodes) {
    const tr = document.createElement("tr");
    tr.dataset.node = node.id;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = node.name;
    const how = document.createElement("td");
    how.textContent = node.kind === "input" ? "input" : node.kind === "const" ? "constant" : node.formula;
    const data = document.createElement("td");
    data.className = "number data";
    const grad = document.createElement("td");
    grad.className = "number grad";
    tr.append(th, how, data, grad);
    body.append(tr);
  }
  $("grad-head").textContent = `Accumulated ∂${state.trace.output}/∂node`;
  $("source-formula").textContent = state.trace.nodes.filter((n) => n.formula.includes("="))
    .map((n) => n.formula).join(", ");
}

function describeInputs() {
  const graph = state.trace.graph;
  const names = new Map(state.trace.nodes.map((n) => [n.id, n]));
  for (const input of state.trace.inputs) {
    const users = [...new Set(graph.edges.filter((e) => e.source === input.id).map((e) => e.target))]
      .map((id) => names.get(id).formula);
    const hint = $(inputIds(input.name).hint);
    if (hint) hint.textContent = users.length ? `Feeds ${users.join("; ")}.` : "Not used.";
  }
  const out = state.trace.metrics[0];
  $("preview").textContent = `Full forward preview: ${out.label} = ${out.text}. The steps below start from zeroed gradients.`;
}

function render() {
  const t = state.trace;
  if (!t) return;
  const k = state.step;
  const last = t.last_step;
  const step = t.steps[k];
  $("step-label").textContent = `step ${k} / ${last}`;
  updateButtons();
  $("process").setAttribute("aria-busy", state.busy ? "true" : "false");
  $("caption").textContent = step.caption;
  const lines = $("chain-rule");
  lines.replaceChildren(...step.chain_rule.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  const known = stateAt(k);
  for (const tr of document.querySelectorAll("#node-table tbody tr")) {
    const id = tr.dataset.node;
    const data = tr.querySelector(".data");
    const grad = tr.querySelector(".grad");
    data.textContent = known.data.get(id) ?? PENDING;
    data.classList.toggle("pending", !known.data.has(id));
    grad.textContent = known.grad.get(id) ?? NOT_REACHED;
    tr.classList.toggle("active", id === step.node);
    if (id === step.node) tr.setAttribute("aria-current", "step"); else tr.removeAttribute("aria-current");
  }
  const metrics = $("metrics");
  metrics.replaceChildren(...t.metrics.map((m) => {
    const div = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = m.kind === "output" ? `Output ${m.label}` : `Final gradient ${m.label}`;
    const dd = document.createElement("dd");
    const ready = k >= m.known_at;
    dd.textContent = ready ? m.text : PENDING;
    dd.className = ready ? "" : "pending";
    dd.id = m.kind === "output" ? "metric-output" : `metric-grad-${names(m)}`;
    dd.tabIndex = 0;
    const note = document.createElement("dd");
    note.className = "note";
    note.textContent = ready ? (m.kind === "output" ? "forward pass done" : "all paths collected")
      : `known from step ${m.known_at}`;
    div.append(dt, dd, note);
    return div;
  }));
  renderCheck();
  drawStep(k);
  saveHash();
}

function names(metric) {
  const input = state.trace.inputs.find((i) => i.id === metric.id);
  return input ? input.name : metric.id;
}

function renderCheck() {
  const t = state.trace;
  const table = $("check-table");
  const note = $("check-note");
  const complete = t && state.step === t.backward_complete_at;
  if (!complete || !state.check || state.check.error) {
    table.hidden = true;
    note.hidden = false;
    note.textContent = state.check && state.check.error && complete
      ? `The numeric check failed: ${state.check.error}`
      : `Once the backward pass is complete (step ${t ? t.last_step : 7} / ${t ? t.last_step : 7}), ` +
        "the backprop gradients are compared with central differences here.";
    return;
  }
  if (!state.check.rows.length) {
    table.hidden = true;
    note.hidden = false;
    note.textContent = "This graph has no inputs, so there is nothing to compare.";
    return;
  }
  note.hidden = true;
  table.hidden = false;
  $("check-caption").textContent = `Backprop against central differences, h = ${state.check.hLabel}`;
  const body = table.querySelector("tbody");
  body.replaceChildren(...state.check.rows.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.input = r.input;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = r.input;
    const cells = [r.backprop_text, r.numeric_text, r.error_text].map((text, i) => {
      const td = document.createElement("td");
      td.className = `number ${["backprop", "numeric", "error"][i]}`;
      td.textContent = text;
      return td;
    });
    if (r.error > 1e-4 * Math.max(1, Math.abs(r.backprop))) cells[2].classList.add("bad");
    tr.append(th, ...cells);
    return tr;
  }));
}

function theme() {
  const choice = $("theme").value;
  if (choice !== "auto") return choice;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

async function drawStep(k) {
  const t = state.trace;
  const rankdir = $("rankdir").value;
  const key = `${t.graph_key}|${k}|${theme()}|${rankdir}`;
  const gen = ++state.renderGen;
  let svg = state.svgs.get(key);
  if (svg === undefined) {
    $("graph").setAttribute("aria-busy", "true");
    try {
      svg = await api("/api/render", traceBody({ step: k, theme: theme(), rankdir, caption: false }));
    } catch (err) {
      if (gen === state.renderGen) {
        $("graph").setAttribute("aria-busy", "false");
        $("graph").replaceChildren(Object.assign(document.createElement("p"),
          { className: "hint", textContent: `No drawing: ${err.message}` }));
      }
      return;
    }
    if (state.svgs.size > 200) state.svgs.clear();
    state.svgs.set(key, svg);
  }
  if (gen !== state.renderGen) return;
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  const root = doc.documentElement;
  const box = $("graph");
  if (root.nodeName !== "svg") {
    box.replaceChildren(Object.assign(document.createElement("p"),
      { className: "hint", textContent: "The drawing could not be read." }));
  } else {
    const node = document.importNode(root, true);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", `Computation graph, ${t.steps[k].caption}`);
    box.replaceChildren(node);
  }
  box.setAttribute("aria-busy", "false");
}

function goTo(k) {
  if (!state.trace || state.busy) return;
  const next = Math.max(0, Math.min(state.trace.last_step, k));
  if (next === state.step) return;
  state.step = next;
  render();
}

// -- sources: examples and expressions ------------------------------------------
async function loadExamples() {
  try {
    const data = await api("/api/examples");
    state.examples = data.examples;
    state.range = data.limits.value_range;
    const select = $("source");
    const keep = select.value;
    const group = document.createElement("optgroup");
    group.label = "Chapter examples";
    for (const ex of data.examples) {
      const option = new Option(ex.name === "fork" ? `fork — the chapter's lab: q = (a×b)×(a+b)` : ex.name,
        `example:${ex.name}`);
      group.append(option);
    }
    const custom = document.createElement("optgroup");
    custom.label = "Beyond the chapter";
    custom.append(new Option("Your own expression…", "expression"));
    select.replaceChildren(group, custom);
    select.value = keep;
  } catch (err) {
    say(`Could not load the examples: ${err.message}`);
  }
}

function chooseSource() {
  const value = $("source").value;
  const form = $("expression-form");
  if (value === "expression") {
    form.hidden = false;
    $("source-description").textContent = "Type an expression with variables and build its graph.";
    applyExpression();
    return;
  }
  form.hidden = true;
  const name = value.slice("example:".length);
  const ex = state.examples.find((e) => e.name === name);
  if (!ex) return;
  $("source-description").textContent = ex.description;
  state.source = { example: name };
  state.inputs = ex.inputs.map((i) => ({ name: i.name, value: i.value }));
  state.values = Object.fromEntries(ex.inputs.map((i) => [i.name, i.value]));
  state.svgs.clear();
  buildInputs();
  recompute(null);
}

async function applyExpression() {
  const field = $("expression");
  const source = field.value;
  const error = $("expression-error");
  const gen = ++state.gen;
  let values = {};
  setBusy(true);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const data = await api("/api/trace", { expression: source, values });
      if (gen !== state.gen) return;
      error.textContent = "";
      field.setAttribute("aria-invalid", "false");
      state.source = { expression: source };
      state.values = values;
      state.inputs = data.inputs.map((i) => ({ name: i.name, value: i.value }));
      state.busy = false;
      buildInputs();
      adopt(data, { expression: source, values: Object.assign({}, values) });
      return;
    } catch (err) {
      if (gen !== state.gen) return;
      const body = err.body || {};
      if (attempt === 0 && body.error === "missing_values") {
        values = Object.fromEntries(body.variables.map((v) => [v, v in state.values ? state.values[v] : 1]));
        continue;
      }
      error.textContent = err.message;
      field.setAttribute("aria-invalid", "true");
      if (body.column) field.setSelectionRange(body.column - 1, body.column);
      setBusy(false);
      return;
    }
  }
}

// -- wiring ------------------------------------------------------------------------
function wire() {
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.step - 1));
  $("next").addEventListener("click", () => goTo(state.step + 1));
  $("last").addEventListener("click", () => goTo(state.trace ? state.trace.last_step : 0));
  $("h").addEventListener("change", () => { refreshCheck(); saveHash(); });
  $("rankdir").addEventListener("change", () => { if (state.trace) drawStep(state.step); });
  $("theme").addEventListener("change", () => {
    document.documentElement.dataset.theme = $("theme").value;
    if (state.trace) drawStep(state.step);
  });
  $("source").addEventListener("change", chooseSource);
  $("expression-form").addEventListener("submit", (e) => { e.preventDefault(); applyExpression(); });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    // fields and sliders keep their own keys; so do the metrics, which scroll sideways
    if (e.target.closest && e.target.closest("input, select, textarea, [contenteditable], #metrics")) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) goTo(state.step + moves[e.key]);
    else if (e.key === "Home") goTo(0);
    else if (e.key === "End") goTo(state.trace ? state.trace.last_step : 0);
    else return;
    e.preventDefault();
  });
}

// -- the address keeps the state, so a reload or a shared link shows the same step --
function saveHash() {
  history.replaceState(null, "", encodeState({ source: state.source, values: state.values,
    step: state.step, h: $("h").value }));
}

function restoreFromHash() {
  const asked = decodeState(location.hash, { lo: lo(), hi: hi() });
  if (asked.empty) return { step: 0, note: "" };
  const ignored = asked.ignored;
  if (asked.h && [...$("h").options].some((o) => o.value === asked.h)) $("h").value = asked.h;
  if (asked.expression !== null) {
    $("source").value = "expression";
    $("expression-form").hidden = false;
    $("expression").value = asked.expression;
    $("source-description").textContent = "Type an expression with variables and build its graph.";
    state.source = { expression: asked.expression };
    state.values = asked.values;
  } else if (asked.example !== null) {
    const ex = state.examples.find((e) => e.name === asked.example);
    if (ex) {
      $("source").value = `example:${ex.name}`;
      $("source-description").textContent = ex.description;
      state.source = { example: ex.name };
      state.inputs = ex.inputs.map((i) => ({ name: i.name, value: i.name in asked.values ? asked.values[i.name] : i.value }));
      state.values = Object.fromEntries(state.inputs.map((i) => [i.name, i.value]));
    } else {
      ignored.push(`example ${asked.example}`);
    }
  }
  const note = ignored.length ? `Ignored from the address: ${ignored.join(", ")} ` +
    `(values must be numbers in [${show(lo())}, ${show(hi())}]).` : "";
  return { step: asked.step, note };
}

async function start() {
  wire();
  await loadExamples();
  const restored = restoreFromHash();
  buildInputs();
  if (state.source.expression !== undefined) await applyExpression();
  else await recompute(null);
  if (restored.step) goTo(restored.step);
  if (restored.note) say(restored.note);
  document.body.dataset.ready = "true";
}

start();
