// Showing one step: the scene's picture (one SVG, replayed by vg/playback.js), the node
// table that follows its boxes, the metrics and the numeric check.
import { api } from "./api.js";
import { $, state, traceBody, graphOptions } from "./state.js";
import { lang, t } from "./i18n.js";
import { describeError } from "./errors.js";
import { create, reveal } from "./vg/playback.js";
import { zoomControl } from "./vg/zoom.js";
import { glide } from "./vg/move.js";
import { attach } from "./vg/find.js";
import { captionOver as over } from "./vg/caption.js";
import { boxId, captionId, setScheme } from "./vg/ids.js";
import { NOT_REACHED, buildRows, markActive, rowIndex, showCell, showCells, showParams } from "./vg/table.js";

const scenes = new Map();

export function theme() {
  const choice = $("theme").value;
  if (choice !== "auto") return choice;
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

// -- the node table: rows from the scene, cells from the boxes' texts (vg/table.js) ----
let rows = {};

function onShape(id, look) {
  showCell(rows, id, look, state.scene.words);
}

function buildTable(scene) {
  const body = document.querySelector("#node-table tbody");
  const built = buildRows(scene.rows, scene.words);
  body.replaceWith(built);
  rows = rowIndex(built);
  $("grad-head").textContent = scene.words.grad;
  const root = state.trace ? state.trace.output : "";
  $("node-caption").textContent = t("player.table", { root });
  $("table-help").textContent = t("lab.table.help", { pending: scene.words.pending, none: NOT_REACHED });
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
  const was = box.querySelector("svg");
  const before = state.scene;
  box.replaceChildren(svg);
  // a picture that fits at 60 % of its size or more is shown fitted to the box; a wider
  // one keeps its size and scrolls (the Fit width button toggles)
  if (state.fit === undefined || state.fitKey !== scene.graph_key) {
    const natural = svg.viewBox.baseVal.width * 4 / 3;
    state.fit = natural * 0.6 <= box.clientWidth;
    state.fitKey = scene.graph_key;
  }
  // a group opened or closed in the same graph keeps the picture's scale (the text its size)
  const regrouped = state.regroup && before && was && scene.graph_key !== before.graph_key;
  state.regroup = false;
  if (regrouped && zoom().scale() === null && state.fit) {
    zoom().set(was.getBoundingClientRect().width / (was.viewBox.baseVal.width * 4 / 3));
  } else if (zoom().scale() === null) setFit(state.fit); else zoom().apply();
  showZoom();
  state.scene = scene;
  setScheme(scene.ids);
  buildTable(scene);
  state.player = create(svg, scene.playback, scene.prefix, onShape);
  // group boxes open, the opened group's label closes (lab.js listens on the box)
  for (const [path, id] of Object.entries(scene.boxes || {})) {
    const rect = svg.querySelector(`#${CSS.escape(scene.prefix + boxId(id))}`);
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
  showCells(rows, state.player, scene.words);
  box.setAttribute("aria-busy", "false");
  showPicture();
  if (regrouped) {  // the boxes glide from where they were (vg/move.js)
    const path = {};
    for (const [p, id] of Object.entries(before.boxes || {})) path[id] = p;
    const mine = {};
    for (const [p, id] of Object.entries(scene.boxes || {})) mine[id] = p;
    glide(was, svg, scene.prefix, (n) => {
      if (mine[n] !== undefined) return (before.boxes || {})[mine[n]] ?? null;
      return was.querySelector(`#${CSS.escape(scene.prefix + boxId(n))}`) && !path[n] ? n : null;
    });
  }
  if (state.focusAfter) {
    const el = svg.querySelector(state.focusAfter);
    state.focusAfter = null;
    if (el) el.focus();
  }
  $("find").placeholder = t("player.find.placeholder", { examples: scene.find_examples || "" });
  const then = state.afterScene;
  state.afterScene = null;
  if (then) then(); else finder().reset();  // a find that opened a group goes on
}

// -- the find box: the step player's (vg/find.js); a value inside a closed group opens it ---
let found = null;
function finder() {
  if (found) return found;
  const svgNow = () => $("graph").querySelector("svg");
  const words = () => ({ find_count: t("player.find.count"), find_none: t("player.find.none"),
                         find_closed: t("player.find.closed") });
  const page = {
    get words() { return words(); },
    get prefix() { return state.scene ? state.scene.prefix : ""; },
    get index() { return (state.scene && state.scene.index) || []; },
    get first() { return page.view(); },
    view: () => {
      const scene = state.scene || {};
      const boxOf = {};
      for (const [p, id] of Object.entries(scene.boxes || {})) boxOf[id] = p;
      return { svgEl: svgNow(), tbody: document.querySelector("#node-table tbody"),
               boxes: scene.boxes || {}, boxOf, open: state.expand[state.expand.length - 1] };
    },
    rows: () => rows,
    // every group can open here: a path names itself
    byPath: () => new Proxy({}, { get: (o, path) => (typeof path === "string" ? path : undefined) }),
    isOpen: (path) => state.expand.includes(path),
    waiting: (path) => !state.expand.includes(path),
    ready: (path, then) => {  // open the group, and the groups it lies in that are closed
      if (!state.trace || state.busy) return;
      const boxes = (state.scene && state.scene.boxes) || {};
      const open = state.expand.slice();
      const parts = path.split("/");
      for (let d = 1; d <= parts.length; d++) {
        const p = parts.slice(0, d).join("/");
        const up = parts.slice(0, d - 1).join("/");
        if (!open.includes(p) && (p in boxes || open.includes(up))) open.push(p);
      }
      if (!open.includes(path)) return;  // not a group this picture can open
      state.expand = open;
      state.afterScene = then;
      state.regroup = true;
      document.dispatchEvent(new CustomEvent("vg-regroup"));
    },
    switchTo: () => {},
    reveal: (id) => reveal($("graph"), svgNow(), id, page.prefix, true),
    frame: (path) => {
      const l = svgNow().querySelector(`.vg-frame-label[data-path="${CSS.escape(path)}"]`);
      return l ? l.id.slice(page.prefix.length) : "";
    },
  };
  found = attach($("find"), $("found"), page);
  return found;
}

// zoom, pan and fit of the picture, shared with the step player (vg/zoom.js)
let control = null;
export function zoom() {
  if (!control) {
    control = zoomControl({
      box: $("graph"), svgOf: () => $("graph").querySelector("svg"), fitted: $("graph"),
      fitButton: $("fit"), readout: $("zoom"),
      onZoom: (scale) => { if (scale !== null) state.fit = false; captionOver(); },
    });
  }
  return control;
}

function showZoom() {
  if (control) control.showZoom();
}

export function setFit(on) {
  state.fit = on;
  zoom().setFit(on);
}

// Move the picture and the table to the current step.
export function showPicture() {
  const player = state.player;
  if (!player || !state.scene || state.scene.graph_key !== state.trace.graph_key) return;
  const k = state.step;
  player.show(k);
  const active = player.active(k);
  const body = document.querySelector("#node-table tbody");
  markActive(body, active);
  showParams(body, k);
  const at = state.scene.steps ? state.scene.steps[k] : null;
  if (at) {  // groups open: the steps counted as in the collapsed picture
    const text = t("caption.step", { k: at[0], n: state.scene.base_last });
    $("step-label").textContent = at[3]
      ? `${text} ${t("player.inside", { path: at[3], i: at[1], n: at[2] })}` : text;
  }
  const cap = player.look(captionId(0));
  $("caption").textContent = cap ? cap.text : "";
  const svg = $("graph").querySelector("svg");
  reveal($("graph"), svg, active ? boxId(active) : null, state.scene.prefix, true);
  captionOver();
}

// While a line of the picture's caption (the step, then its chain rule) is cut at an edge of
// the box or scrolled away, all of them are shown, wrapped, over the top of the picture.
export function captionOver() {
  const box = $("graph");
  const svg = box.querySelector("svg");
  if (!svg || !state.scene) return;
  over(box, svg, state.scene.prefix, $("now"));
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
  const heads = [...table.querySelectorAll("thead th")].map((h) => h.textContent.trim());
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
      td.dataset.label = heads[i + 1] || "";  // a phone shows each row as labelled lines
      return td;
    });
    if (r.error > 1e-4 * Math.max(1, Math.abs(r.backprop))) cells[2].classList.add("bad");
    row.append(th, ...cells);
    return row;
  }));
}
