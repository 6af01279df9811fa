// The vizgrad lab page. Every number, caption and chain-rule line comes from the JSON API;
// the picture is the scene (one SVG and the changed shapes of each step), replayed here.
import { ApiFailure, api } from "./api.js";
import { decodeState, encodeState } from "./address.js";
import { show } from "./numbers.js";
import { $, state, say, lo, hi, traceBody, sourceBody, graphOptions } from "./state.js";
import { buildInputs, describeInputs, inputIds, keeps, labelInputs, setFieldError } from "./inputs.js";
import { captionOver, drawScene, renderCheck, renderMetrics, setFit, showPicture, zoom } from "./view.js";
import { describeError } from "./errors.js";
import { boxId, nodeOf } from "./vg/ids.js";
import * as i18n from "./i18n.js";
const { t } = i18n;

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
  const tr = state.trace;
  const atStart = !tr || state.step === 0;
  const atEnd = !tr || state.step === tr.last_step;
  $("first").disabled = $("back").disabled = state.busy || atStart;
  $("next").disabled = $("last").disabled = state.busy || atEnd;
}

// `from`: the source step to show afterwards (a change of collapse keeps the reader there)
async function recompute(changed, from) {
  const gen = ++state.gen;
  setBusy(true);
  try {
    const body = sourceBody();
    const data = await api("api/trace", Object.assign({ lang: i18n.lang() }, body, graphOptions()));
    if (gen !== state.gen) return;
    say("");
    state.busy = state.waiting;  // another change may already be on its way
    adopt(data, body, from);
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
      setFieldError(changed.name, `${describeError(err)} ${keeps(changed.name, state.good[changed.name])}`);
    } else {
      say(t("lab.status.recompute", { why: describeError(err) }));
    }
    setBusy(false);
  }
}

// the source step the step on screen stands for ("last" for the last step)
function sourceStep() {
  const tr = state.trace;
  return state.step === tr.last_step ? "last" : tr.steps[state.step].from;
}

function adopt(data, body, from) {
  state.shown = body;
  state.good = Object.assign({}, body.values);
  state.trace = data;
  state.check = null;
  state.step = 0;
  if (from === "last") {  // the last step stays the last: it ends the backward pass
    state.step = data.last_step;
  } else if (from !== undefined) {  // the last step of this graph at or before that source step
    data.steps.forEach((s, j) => { if (s.from <= from) state.step = j; });
  }
  $("collapse-field").hidden = !data.groups;
  describeInputs();
  describeSource();
  render();
  drawScene();
  refreshCheck();
}

async function refreshCheck() {
  const gen = ++state.checkGen;
  const h = $("h").value;
  try {
    const data = await api("api/gradcheck", traceBody({ h: Number(h) }));
    if (gen !== state.checkGen) return;
    state.check = Object.assign(data, { hLabel: h });
  } catch (err) {
    if (gen !== state.checkGen) return;
    state.check = { error: describeError(err), hLabel: h };
  }
  renderCheck();
}

function render() {
  const tr = state.trace;
  if (!tr) return;
  $("step-label").textContent = t("caption.step", { k: state.step, n: tr.last_step });
  updateButtons();
  $("process").setAttribute("aria-busy", state.busy ? "true" : "false");
  renderMetrics();
  renderCheck();
  showPicture();
  saveHash();
}

function goTo(k) {
  if (!state.trace || state.busy) return;
  const next = Math.max(0, Math.min(state.trace.last_step, k));
  if (next === state.step) return;
  state.step = next;
  render();
}

// -- sources: examples and expressions ------------------------------------------
function describeExample(ex) {
  return i18n.has(`example.${ex.name}`) ? t(`example.${ex.name}`) : ex.description;
}

function fillSources() {
  const select = $("source");
  const keep = select.value;
  const group = document.createElement("optgroup");
  group.label = t("lab.source.examples");
  for (const ex of state.examples) {
    group.append(new Option(ex.name === "fork" ? t("lab.source.fork") : ex.name, `example:${ex.name}`));
  }
  const custom = document.createElement("optgroup");
  custom.label = t("lab.source.beyond");
  custom.append(new Option(t("lab.source.expression"), "expression"));
  select.replaceChildren(group, custom);
  select.value = keep;
  describeSource();
}

// An example's description quotes its own values: once an input differs from them, it says
// so and names the values on screen.
function describeSource() {
  const value = $("source").value;
  const ex = state.examples.find((e) => `example:${e.name}` === value);
  let text = value === "expression" ? t("lab.expression.choose") : ex ? describeExample(ex) : "";
  if (ex && ex.inputs.some((i) => i.name in state.values && state.values[i.name] !== i.value)) {
    const now = ex.inputs.map((i) => `${i.name} = ${show(i.name in state.values ? state.values[i.name] : i.value)}`);
    text = t("lab.source.changed", { description: text, values: now.join(t("list.separator")) });
  }
  $("source-description").textContent = text;
  describeGraph(value === "example:fork");
}

// The headings and the explanation describe the graph shown: the fork graph's own words for
// the fork, general ones (and none of the fork's numbers) for any other graph.
function describeGraph(fork) {
  for (const [id, key] of [["lab-heading", "lab.heading"], ["lab-intro", "lab.intro"],
    ["lab-h-inputs", "lab.h.inputs"], ["lab-h-explain", "lab.h.explain"]]) {
    const el = $(id);
    if (!el) continue;
    el.dataset.i18n = fork ? key : `${key}.other`;
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of document.querySelectorAll(".fork-only")) el.hidden = !fork;
}

async function loadExamples() {
  try {
    const data = await api("api/examples");
    state.examples = data.examples;
    state.range = data.limits.value_range;
    fillSources();
  } catch (err) {
    say(t("lab.status.examples", { why: describeError(err) }));
  }
}

function chooseSource() {
  const value = $("source").value;
  const form = $("expression-form");
  describeSource();
  if (value === "expression") {
    form.hidden = false;
    applyExpression();
    return;
  }
  form.hidden = true;
  const ex = state.examples.find((e) => `example:${e.name}` === value);
  if (!ex) return;
  state.collapse = "";
  state.expand = [];
  $("collapse").value = "";
  state.source = { example: ex.name };
  state.inputs = ex.inputs.map((i) => ({ name: i.name, value: i.value }));
  state.values = Object.fromEntries(ex.inputs.map((i) => [i.name, i.value]));
  buildInputs(changeValue);
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
      const data = await api("api/trace", { expression: source, values, lang: i18n.lang() });
      if (gen !== state.gen) return;
      error.textContent = "";
      field.setAttribute("aria-invalid", "false");
      state.source = { expression: source };
      state.values = values;
      state.inputs = data.inputs.map((i) => ({ name: i.name, value: i.value }));
      state.busy = false;
      buildInputs(changeValue);
      adopt(data, { expression: source, values: Object.assign({}, values) });
      return;
    } catch (err) {
      if (gen !== state.gen) return;
      const body = err.body || {};
      if (attempt === 0 && body.error === "missing_values") {
        values = Object.fromEntries(body.variables.map((v) => [v, v in state.values ? state.values[v] : 1]));
        continue;
      }
      error.textContent = describeError(err);
      field.setAttribute("aria-invalid", "true");
      if (body.column) field.setSelectionRange(body.column - 1, body.column);
      setBusy(false);
      return;
    }
  }
}

// -- language --------------------------------------------------------------------
async function fillLanguages() {
  const names = await i18n.languageNames();
  $("lang").replaceChildren(...Object.entries(names).map(([code, name]) => new Option(name, code)));
  $("lang").value = i18n.lang();
}

async function switchLanguage(code) {
  await i18n.load(code);
  await fillLanguages();
  fillSources();
  labelInputs();
  if (state.trace) {
    describeInputs();
    render();
    drawScene();
  }
}

// -- wiring ------------------------------------------------------------------------
function wire() {
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.step - 1));
  $("next").addEventListener("click", () => goTo(state.step + 1));
  $("last").addEventListener("click", () => goTo(state.trace ? state.trace.last_step : 0));
  $("fit").addEventListener("click", () => { setFit(!state.fit); showPicture(); });
  $("zoom-in").addEventListener("click", () => zoom().zoomIn());
  $("zoom-out").addEventListener("click", () => zoom().zoomOut());
  $("graph").addEventListener("scroll", captionOver);
  if (window.ResizeObserver) new ResizeObserver(captionOver).observe($("graph"));
  $("h").addEventListener("change", () => { refreshCheck(); saveHash(); });
  $("rankdir").addEventListener("change", () => { if (state.trace) drawScene(); });
  $("theme").addEventListener("change", () => {
    document.documentElement.dataset.theme = $("theme").value;
    if (state.trace) drawScene();
  });
  $("lang").addEventListener("change", () => switchLanguage($("lang").value));
  $("source").addEventListener("change", chooseSource);
  $("collapse").addEventListener("change", () => {
    const tr = state.trace;
    const from = tr ? sourceStep() : undefined;
    state.collapse = $("collapse").value;
    state.expand = [];
    recompute(null, from);
  });
  // a click (or Enter) on a group box opens it, on the opened group's label closes it
  function openOrClose(target) {
    const svg = $("graph").querySelector("svg");
    if (!svg || !state.trace || state.busy) return false;
    const label = target.closest && target.closest(".vg-frame-label");
    let path = null;
    if (!label) {
      const prefix = state.scene ? state.scene.prefix : "";
      const id = target.id && target.id.startsWith(prefix) ? target.id.slice(prefix.length) : "";
      const node = nodeOf(id);  // the box, or a text or cell of it (vg/ids.js)
      const rect = node ? svg.querySelector(`#${CSS.escape(prefix + boxId(node))}`) : null;
      path = rect && rect.dataset.open ? rect.dataset.open : null;
      if (!path) return false;
    }
    if (path) {  // open it too: the groups already open stay open
      state.expand = state.expand.concat([path]);
      state.focusAfter = `.vg-frame-label[data-path="${CSS.escape(path)}"]`;
    } else {  // close the label's group, and what is open inside it
      const shut = label.dataset.path;
      state.expand = state.expand.filter((p) => p !== shut && !p.startsWith(shut + "/"));
      state.focusAfter = `[data-open="${CSS.escape(shut)}"]`;
    }
    state.regroup = true;  // the next picture: the same graph with other groups open
    recompute(null, sourceStep());
    return true;
  }
  $("graph").addEventListener("click", (e) => { openOrClose(e.target); });
  // the find box opened a group (view.js): draw the graph with it open
  document.addEventListener("vg-regroup", () => recompute(null, sourceStep()));
  $("graph").addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && openOrClose(e.target)) e.preventDefault();
  });
  $("expression-form").addEventListener("submit", (e) => { e.preventDefault(); applyExpression(); });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key === "Escape" && state.expand.length && state.trace && !state.busy
        && e.target.id !== "find") {
      const was = state.expand[0];  // Esc closes them all
      state.expand = [];
      state.focusAfter = `[data-open="${CSS.escape(was)}"]`;
      state.regroup = true;
      recompute(null, sourceStep());
      e.preventDefault();
      return;
    }
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
    step: state.step, h: $("h").value, lang: i18n.lang(), collapse: state.collapse }));
}

function restoreFromHash(asked) {
  if (asked.empty) return { step: 0, note: "" };
  const ignored = asked.ignored;
  if (asked.h && [...$("h").options].some((o) => o.value === asked.h)) $("h").value = asked.h;
  if (asked.expression !== null) {
    $("source").value = "expression";
    $("expression-form").hidden = false;
    $("expression").value = asked.expression;
    state.source = { expression: asked.expression };
    state.values = asked.values;
  } else if (asked.example !== null) {
    const ex = state.examples.find((e) => e.name === asked.example);
    if (ex) {
      state.collapse = asked.collapse;
      $("collapse").value = asked.collapse;
      $("source").value = `example:${ex.name}`;
      state.source = { example: ex.name };
      state.inputs = ex.inputs.map((i) => ({ name: i.name, value: i.name in asked.values ? asked.values[i.name] : i.value }));
      state.values = Object.fromEntries(state.inputs.map((i) => [i.name, i.value]));
    } else {
      ignored.push(`example ${asked.example}`);
    }
  }
  describeSource();
  const note = ignored.length ? t("lab.status.ignored", { what: ignored.join(", "), lo: show(lo()), hi: show(hi()) }) : "";
  return { step: asked.step, note };
}

async function start() {
  wire();
  const early = decodeState(location.hash, { lo: -Infinity, hi: Infinity });
  try {
    await i18n.load(early.lang || undefined);
  } catch (err) {
    await i18n.load("en");
  }
  await fillLanguages();
  await loadExamples();
  const restored = restoreFromHash(decodeState(location.hash, { lo: lo(), hi: hi() }));
  buildInputs(changeValue);
  if (state.source.expression !== undefined) await applyExpression();
  else await recompute(null);
  if (restored.step) goTo(restored.step);
  if (restored.note) say(restored.note);
  document.body.dataset.ready = "true";
}

start();
