// Showing one step: the scene's picture (one SVG, replayed by VizgradPlayback), the node
// table that follows its boxes, the metrics and the numeric check.
import { api } from "./api.js";
import { $, state, traceBody, graphOptions } from "./state.js";
import { lang, t } from "./i18n.js";
import { describeError } from "./errors.js";

const scenes = new Map();

export function theme() {
  const choice = $("theme").value;
  if (choice !== "auto") return choice;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

// -- the node table: rows from the scene, cells from the boxes' texts ------------
const CELL = /^t-(.+)-(data|grad)$/;

function onShape(id, look) {
  const m = CELL.exec(id);
  if (!m) return;
  const tr = document.querySelector(`#node-table tbody tr[data-node="${CSS.escape(m[1])}"]`);
  if (!tr) return;
  const td = tr.querySelector(`.${m[2]}`);
  td.textContent = look.text;
  td.classList.toggle("pending", m[2] === "data" && look.text === state.scene.words.pending);
}

function buildTable(scene) {
  const body = document.querySelector("#node-table tbody");
  body.replaceChildren(...scene.rows.map((r) => {
    const tr = document.createElement("tr");
    tr.dataset.node = r.id;
    if (!r.on_path) tr.classList.add("off-path");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = r.name;
    const how = document.createElement("td");
    how.textContent = r.how;
    const data = document.createElement("td");
    data.className = "number data";
    const grad = document.createElement("td");
    grad.className = "number grad";
    tr.append(th, how, data, grad);
    // a group's parameters, each with its grad from the group's backward step on
    const params = (r.params || []).map((p) => {
      const row = document.createElement("tr");
      row.className = "param";
      row.dataset.param = r.id;
      row.dataset.done = String(p.done);
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = `\u21b3 ${p.name}`;
      const cells = [t("player.param", { path: r.name }), p.data, p.grad].map((text, i) => {
        const td = document.createElement("td");
        td.className = ["", "number data", "number grad"][i];
        td.textContent = text;
        return td;
      });
      row.dataset.grad = p.grad;
      row.append(name, ...cells);
      return row;
    });
    return [tr, ...params];
  }).flat());
  $("grad-head").textContent = scene.words.grad;
  const root = state.trace ? state.trace.output : "";
  $("node-caption").textContent = t("player.table", { root });
  $("table-help").textContent = t("lab.table.help", { pending: scene.words.pending, none: "\u2014" });
}

// -- the picture ------------------------------------------------------------------
function sceneKey() {
  return `${state.trace.graph_key}|${theme()}|${$("rankdir").value}|${lang()}`;
}

// Fetch (or reuse) the scene of the graph on screen, then show the current step on it.
export async function drawScene() {
  const key = sceneKey();
  const gen = ++state.sceneGen;
  const box = $("graph");
  let scene = scenes.get(key);
  if (scene === undefined) {
    box.setAttribute("aria-busy", "true");
    try {
      scene = await api("api/scene", traceBody(Object.assign(
        { theme: theme(), rankdir: $("rankdir").value, lang: lang() }, graphOptions())));
    } catch (err) {
      if (gen === state.sceneGen) {
        box.setAttribute("aria-busy", "false");
        box.replaceChildren(Object.assign(document.createElement("p"),
          { className: "hint", textContent: t("lab.nodraw", { why: describeError(err) }) }));
      }
      return;
    }
    if (scenes.size > 16) scenes.clear();
    scenes.set(key, scene);
  }
  if (gen !== state.sceneGen) return;
  const doc = new DOMParser().parseFromString(scene.svg, "image/svg+xml");
  if (doc.documentElement.nodeName !== "svg") {
    box.replaceChildren(Object.assign(document.createElement("p"), { className: "hint", textContent: "?" }));
    return;
  }
  const svg = document.importNode(doc.documentElement, true);
  svg.setAttribute("role", "img");
  box.replaceChildren(svg);
  // a picture that fits at 60 % of its size or more is shown fitted to the box; a wider
  // one keeps its size and scrolls (the Fit width button toggles)
  if (state.fit === undefined || state.fitKey !== scene.graph_key) {
    const natural = svg.viewBox.baseVal.width * 4 / 3;
    state.fit = natural * 0.6 <= box.clientWidth;
    state.fitKey = scene.graph_key;
  }
  if (zoom().scale() === null) setFit(state.fit); else zoom().apply();
  showZoom();
  state.scene = scene;
  buildTable(scene);
  state.player = window.VizgradPlayback.create(svg, scene.playback, scene.prefix, onShape);
  // group boxes open, the opened group's label closes (lab.js listens on the box)
  for (const [path, id] of Object.entries(scene.boxes || {})) {
    const rect = svg.querySelector(`#${scene.prefix}n-${id}`);
    if (!rect) continue;
    Object.assign(rect.dataset, { open: path });
    rect.setAttribute("tabindex", "0");
    rect.setAttribute("role", "button");
    rect.setAttribute("aria-label", t("player.expand", { path }));
    rect.classList.add("vg-openable");
  }
  for (const label of svg.querySelectorAll(".vg-frame-label")) {
    label.setAttribute("tabindex", "0");
    label.setAttribute("role", "button");
    label.setAttribute("aria-label", t("player.collapse", { path: label.dataset.path }));
  }
  if (Object.keys(scene.boxes || {}).length) svg.setAttribute("role", "group");
  for (const id of Object.keys(scene.playback.base)) {
    if (CELL.test(id)) onShape(id, state.player.look(id));
  }
  box.setAttribute("aria-busy", "false");
  showPicture();
  if (state.focusAfter) {
    const el = svg.querySelector(state.focusAfter);
    state.focusAfter = null;
    if (el) el.focus();
  }
}

// zoom and pan of the picture, shared with the step player (drag, Ctrl + wheel, pinch)
let zoomer = null;
export function zoom() {
  if (!zoomer) {
    zoomer = window.VizgradPlayback.zoomer($("graph"), () => $("graph").querySelector("svg"), (scale) => {
      if (scale !== null && state.fit) {
        state.fit = false;
        $("graph").classList.remove("fit");
        $("fit").setAttribute("aria-pressed", "false");
      }
      showZoom();
      captionOver();
    });
  }
  return zoomer;
}

function showZoom() {
  if (zoomer) $("zoom").textContent = `${Math.round(zoomer.shown() * 100)} %`;
}

export function setFit(on) {
  state.fit = on;
  zoom().fit();
  $("graph").classList.toggle("fit", on);
  $("fit").setAttribute("aria-pressed", on ? "true" : "false");
  showZoom();
}

// Move the picture and the table to the current step.
export function showPicture() {
  const player = state.player;
  if (!player || !state.scene || state.scene.graph_key !== state.trace.graph_key) return;
  const k = state.step;
  player.show(k);
  const active = player.active(k);
  for (const tr of document.querySelectorAll("#node-table tbody tr")) {
    const on = tr.dataset.node === active;
    tr.classList.toggle("active", on);
    if (on) tr.setAttribute("aria-current", "step"); else tr.removeAttribute("aria-current");
  }
  for (const tr of document.querySelectorAll("#node-table tbody tr.param")) {
    const done = k >= Number(tr.dataset.done);
    const td = tr.querySelector(".grad");
    td.textContent = done ? tr.dataset.grad : "\u2014";
    td.classList.toggle("pending", !done);
  }
  const cap = player.look("cap-0");
  $("caption").textContent = cap ? cap.text : "";
  const svg = $("graph").querySelector("svg");
  window.VizgradPlayback.reveal($("graph"), svg, active ? `n-${active}` : null, state.scene.prefix, true);
  captionOver();
}

// While a line of the picture's caption (the step, then its chain rule) is cut at an edge of
// the box or scrolled away, all of them are shown, wrapped, over the top of the picture.
export function captionOver() {
  const box = $("graph");
  const svg = box.querySelector("svg");
  const line = $("now");
  if (!svg || !state.scene) return;
  const lines = [...svg.querySelectorAll(`[id^="${state.scene.prefix}cap-"]`)]
    .filter((el) => el.getAttribute("display") !== "none" && el.textContent.trim());
  const b = box.getBoundingClientRect();
  const cut = lines.some((el) => {
    const r = el.getBoundingClientRect();
    return r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5;
  });
  line.replaceChildren(...(cut ? lines : []).map((el) =>
    Object.assign(document.createElement("div"), { textContent: el.textContent })));
  line.classList.toggle("on", cut);
}

// -- metrics and the numeric check --------------------------------------------------
function metricId(m) {
  const input = state.trace.inputs.find((i) => i.id === m.id);
  return m.kind === "output" ? "metric-output" : `metric-grad-${input ? input.name : m.id}`;
}

export function renderMetrics() {
  const k = state.step;
  const pending = state.scene ? state.scene.words.pending : t("pending");
  $("metrics").replaceChildren(...state.trace.metrics.map((m) => {
    const div = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = t(m.kind === "output" ? "lab.metric.output" : "lab.metric.grad", { label: m.label });
    const dd = document.createElement("dd");
    const ready = k >= m.known_at;
    dd.textContent = ready ? m.text : pending;
    dd.className = ready ? "" : "pending";
    dd.id = metricId(m);
    const note = document.createElement("dd");
    note.className = "note";
    note.textContent = ready ? t(m.kind === "output" ? "lab.metric.done" : "lab.metric.collected")
      : t("lab.metric.known", { k: m.known_at });
    div.append(dt, dd, note);
    return div;
  }));
}

export function renderCheck() {
  const tr = state.trace;
  const table = $("check-table");
  const note = $("check-note");
  const complete = tr && state.step === tr.backward_complete_at;
  if (!complete || !state.check || state.check.error) {
    table.hidden = true;
    note.hidden = false;
    note.textContent = state.check && state.check.error && complete
      ? t("lab.check.failed", { why: state.check.error })
      : t("lab.check.note", { n: tr ? tr.last_step : 7 });
    return;
  }
  if (!state.check.rows.length) {
    table.hidden = true;
    note.hidden = false;
    note.textContent = t("lab.check.none");
    return;
  }
  note.hidden = true;
  table.hidden = false;
  $("check-caption").textContent = t("lab.check.caption", { h: state.check.hLabel });
  table.querySelector("tbody").replaceChildren(...state.check.rows.map((r) => {
    const row = document.createElement("tr");
    row.dataset.input = r.input;
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
    row.append(th, ...cells);
    return row;
  }));
}
