// The self-contained step player's page (vizgrad/render/write/html.py): the entry of the
// bundle the page inlines (vizgrad/render/write/_bundle.py); the other modules are shared
// with the lab.
import { fill } from "./words.js";
import { boxId, cellOf, frameLabelId, nodeOf, setScheme } from "./ids.js";
import { create, reveal } from "./playback.js";
import { zoomControl } from "./zoom.js";
import { captionLine } from "./caption.js";
import { buildRows, markActive, rowIndex, showCell, showCells, showParams } from "./table.js";
import { attach } from "./find.js";

var root = document.getElementById("player");
var data = JSON.parse(document.getElementById("vg-data").textContent);
var words = data.words;
var prefix = data.prefix;
setScheme(data.ids);
var stage = document.getElementById("stage");
var counter = document.getElementById("counter");
var slider = document.getElementById("slider");
var now = document.getElementById("now");
var findBox = document.getElementById("find");
var found = document.getElementById("found");
var zoomLabel = document.getElementById("zoom");
var buttons = {};
Array.prototype.forEach.call(root.querySelectorAll("button[data-go], button[data-do]"), function (b) {
  buttons[b.getAttribute("data-go") || b.getAttribute("data-do")] = b;
});

// -- views: the page's own picture, then one per group that can be opened -----------
var views = [{ open: null, playback: data.playback, from: data.from, boxes: data.boxes,
  rows: data.rows, svgEl: stage.querySelector("svg") }].concat(data.views);
var byPath = {};
function boxIndex(v) {
  v.boxOf = {};
  Object.keys(v.boxes).forEach(function (path) { v.boxOf[v.boxes[path]] = path; });
}
views.forEach(function (v, i) { if (v.open) { byPath[v.open] = i; } });
boxIndex(views[0]);

// a view other than the page's own comes compressed (zlib, base64): inflate it once
function inflate(v) {
  if (!v.loading) {
    var bytes = Uint8Array.from(atob(v.z), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    v.loading = new Response(stream).text().then(function (text) {
      Object.assign(v, JSON.parse(text));
      v.z = null;
      boxIndex(v);
      return v;
    });
  }
  return v.loading;
}
// run `then` once view i is ready (at once when it is)
function ready(i, then) {
  if (!views[i].z) { then(); return; }
  inflate(views[i]).then(then);
}
var view = null;
var play = null;
var rows = {};
var current = -1;
var anchor = null;  // the source step a view switch started from, while the reader stays put

// the node table follows the value and grad texts of the boxes
function onChange(id, look) {
  if (view.play === play) { showCell(rows, id, look, words); }
}

// the shape `id` (without the page's prefix) in the picture of view v
function shape(v, id) { return v.svgEl.querySelector("#" + CSS.escape(prefix + id)); }

function prepare(v) {
  if (!v.svgEl) {
    var doc = new DOMParser().parseFromString(v.svg, "image/svg+xml");
    v.svgEl = document.importNode(doc.documentElement, true);
  }
  if (!v.tbody) { v.tbody = buildRows(v.rows, words); }
  if (!v.play) { v.play = create(v.svgEl, v.playback, prefix, onChange); }
  if (!v.ready) {
    v.ready = true;
    var openable = Object.keys(byPath).length > 0;
    if (openable) { v.svgEl.setAttribute("role", "group"); }
    Object.keys(v.boxes).forEach(function (path) {
      var box = shape(v, boxId(v.boxes[path]));
      if (!box || byPath[path] === undefined) { return; }
      box.setAttribute("tabindex", "0");
      box.setAttribute("role", "button");
      box.setAttribute("aria-label", fill(words.expand, { path: path }));
      box.classList.add("vg-openable");
    });
    var label = shape(v, frameLabelId());
    if (label && v.open) {
      label.setAttribute("tabindex", "0");
      label.setAttribute("role", "button");
      label.setAttribute("aria-label", fill(words.collapse, { path: v.open }));
    }
  }
}

function use(i) {
  var v = views[i];
  prepare(v);
  var old = stage.querySelector("svg");
  if (old !== v.svgEl) { stage.replaceChild(v.svgEl, old); }
  var body = document.querySelector("#nodes tbody");
  if (body !== v.tbody) { body.parentNode.replaceChild(v.tbody, body); }
  view = v;
  view.index = i;
  play = v.play;
  rows = rowIndex(v.tbody);
  showCells(rows, play, words);  // the table shows what this view's picture shows
  slider.max = String(play.end);
  if (buttons["collapse-all"]) { buttons["collapse-all"].disabled = !v.open; }
  zoom.apply();
  unmark();
}

// the source step of position k of the view on screen (Infinity: the final view, "last":
// the last step, which stays the last: its merged step ends the backward pass)
function sourceOf(k) { return k > play.last ? Infinity : k === play.last ? "last" : view.from[k]; }
function positionIn(v, source) {
  if (source === Infinity) { return v.playback.changes.length - 1; }
  if (source === "last") { return v.playback.last; }
  var k = 0;
  for (var j = 0; j < v.from.length; j++) { if (v.from[j] <= source) { k = j; } }
  return k;
}

// open view i at the same point of the backward pass
function switchTo(i, say) {
  if (view && view.index === i) { return; }
  if (views[i].z) { ready(i, function () { switchTo(i, say); }); return; }
  var source = anchor && anchor.pos === current && anchor.view === view.index ? anchor.source
    : sourceOf(current);
  var was = view;
  use(i);
  var k = positionIn(view, source);
  current = -1;
  show(k, false, true);
  anchor = { source: source, view: i, pos: k };
  if (say !== false) {
    found.textContent = view.open ? fill(words.opened, { path: view.open })
      : fill(words.closed, { path: was.open });
  }
  if (view.open && !play.active(k)) {
    reveal(stage, view.svgEl, frameLabelId(), prefix, false);
  } else if (was && was.open && view.boxes[was.open]) {
    reveal(stage, view.svgEl, boxId(view.boxes[was.open]), prefix, false);
  }
  saveHash();
}

function openPath(path) {
  if (byPath[path] !== undefined) { switchTo(byPath[path]); }
}
function closeAll(focus) {
  if (!view.open) { return; }
  var was = view.open;
  switchTo(0);
  if (focus) {
    var box = shape(view, boxId(view.boxes[was]));
    if (box) { box.focus(); }
  }
}

// -- stepping -----------------------------------------------------------------------
var timer = null;

function label(k) {
  return k > play.last ? words.final
    : words.step.replace("{k}", String(k)).replace("{n}", String(play.last));
}

function saveHash() {
  try {
    var open = view.open ? "&open=" + encodeURIComponent(view.open) : "";
    history.replaceState(null, "", "#step=" + (current > play.last ? "final" : current) + open);
  } catch (e) { /* file:// in some browsers */ }
}

function show(k, fromHash, instant) {
  k = Math.max(0, Math.min(play.end, k));
  if (k === current) { return; }
  play.show(k);
  current = k;
  counter.textContent = label(k);
  slider.value = String(k);
  slider.setAttribute("aria-valuetext", label(k));
  buttons.first.disabled = buttons.prev.disabled = k === 0;
  buttons.next.disabled = buttons.last.disabled = k === play.end;
  showParams(view.tbody, k);
  var active = play.active(k);
  markActive(view.tbody, active);
  reveal(stage, view.svgEl, active ? boxId(active) : null, prefix, !instant);
  showSample();
  caption();
  if (!fromHash) { saveHash(); }
}

// a net run on several samples: the boxes' data rows show the sample chosen (grads are
// the totals whatever is chosen); the steps write sample 0's, so it is written again
var sampleBox = document.getElementById("sample");
function showSample() {
  if (sampleBox) { sampleBox.disabled = view !== views[0]; }  // an opened group: its values
  if (!sampleBox || !data.samples || view !== views[0]) { return; }
  var texts = data.samples[sampleBox.value] || {};
  Object.keys(texts).forEach(function (id) {
    var el = view.svgEl.getElementById ? view.svgEl.getElementById(prefix + id)
      : document.getElementById(prefix + id);
    if (!el) { return; }
    var c = cellOf(id);
    var isData = c !== null && c.slot === "data";
    if (isData && el.textContent === words.pending) { return; }
    el.textContent = texts[id];
    if (isData) { showCell(rows, id, { text: texts[id] }, words); }
  });
}
if (sampleBox) { sampleBox.addEventListener("change", showSample); }

function caption() { captionLine(stage, view.svgEl, prefix, now); }
stage.addEventListener("scroll", caption);

// how long each position is held while playing: one number for every step, or one per
// step and the final view (each caption's reading time, the GIF's and animated SVG's pace)
var holds = (root.getAttribute("data-interval") || "1200").split(" ").map(Number);
function holdOf(k) { return holds.length > 1 ? holds[Math.min(k, holds.length - 1)] : holds[0]; }

function stop() {
  if (timer !== null) { clearTimeout(timer); timer = null; }
  buttons.play.setAttribute("aria-pressed", "false");
  buttons.play.textContent = words.play;
}

function start() {
  if (timer !== null) { stop(); return; }
  if (current === play.end) { show(0); }
  buttons.play.setAttribute("aria-pressed", "true");
  buttons.play.textContent = words.pause;
  function tick() {
    if (current >= play.end) { stop(); return; }
    show(current + 1);
    if (current >= play.end) { stop(); return; }  // resting on the final view
    timer = setTimeout(tick, holdOf(current));
  }
  timer = setTimeout(tick, holdOf(current));
}

// -- zoom and pan ---------------------------------------------------------------------
var zoom = zoomControl({
  box: stage, svgOf: function () { return stage.querySelector("svg"); }, fitted: root,
  fitButton: buttons.fit, readout: zoomLabel,
  onZoom: function () { decided = true; }  // the reader chose a size
});
function showZoom() { zoom.showZoom(); }

function fit() {
  zoom.toggleFit();
  reveal(stage, view.svgEl, play.active() ? boxId(play.active()) : null, prefix, false);
}

var actions = {
  first: function () { show(0); },
  prev: function () { show(current - 1); },
  next: function () { show(current + 1); },
  last: function () { show(play.end); },
  play: start,
  fit: fit,
  "zoom-in": function () { zoom.zoomIn(); },
  "zoom-out": function () { zoom.zoomOut(); },
  "collapse-all": function () { closeAll(true); }
};

Object.keys(buttons).forEach(function (name) {
  buttons[name].addEventListener("click", function () {
    if (name in { first: 1, prev: 1, next: 1, last: 1 }) { stop(); }
    actions[name]();
  });
});

slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });

// -- opening and closing groups in the picture ----------------------------------------
function boxPath(el) {
  var n = nodeOf(el && el.id ? el.id.slice(prefix.length) : "");
  return n && view.boxOf[n] && byPath[view.boxOf[n]] !== undefined ? view.boxOf[n] : null;
}
stage.addEventListener("click", function (e) {
  var t = e.target;
  if (t.id === prefix + frameLabelId()) { closeAll(true); return; }
  var path = boxPath(t);
  if (path) { openPath(path); }
});
stage.addEventListener("keydown", function (e) {
  if (e.key !== "Enter" && e.key !== " ") { return; }
  var t = e.target;
  if (t.id === prefix + frameLabelId()) { e.preventDefault(); closeAll(true); return; }
  var path = boxPath(t);
  if (path) {
    e.preventDefault();
    ready(byPath[path], function () {
      openPath(path);
      var label = shape(view, frameLabelId());
      if (label) { label.focus(); }
    });
  }
});

// -- find a node by its label (find.js) ------------------------------------------------
var finder = attach(findBox, found, {
  words: words, prefix: prefix, first: views[0], index: data.index,
  view: function () { return view; },
  rows: function () { return rows; },
  byPath: function () { return byPath; },
  waiting: function (i) { return !!views[i].z; },
  ready: ready,
  switchTo: switchTo,
  reveal: function (id) { reveal(stage, view.svgEl, id, prefix, true); }
});
function unmark() { finder.clear(); }

// -- keys -------------------------------------------------------------------------------
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey) { return; }
  var t = e.target;
  if (e.key === "Escape" && view.open && t !== findBox) { e.preventDefault(); closeAll(true); return; }
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) { return; }
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last",
    "+": "zoom-in", "=": "zoom-in", "-": "zoom-out", "0": "fit" };
  if (e.shiftKey && e.key.indexOf("Arrow") === 0) {  // Shift + arrows pan the picture
    var step = 80;
    var d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (d) { e.preventDefault(); zoom.pan(d[0], d[1]); }
    return;
  }
  if (keys[e.key]) {
    e.preventDefault();
    if (keys[e.key] in actions && ["prev", "next", "first", "last"].indexOf(keys[e.key]) >= 0) { stop(); }
    if (keys[e.key] === "fit" && root.classList.contains("fit")) { return; }
    actions[keys[e.key]]();
  }
});

// -- the address: #step=K (or final), and the open group -------------------------------
function fromHash() {
  var m = /^#step=(\d+|final)(?:&open=([^&]*))?$/.exec(window.location.hash);
  if (!m) { return null; }
  var open = m[2] ? decodeURIComponent(m[2]) : null;
  return { step: m[1], open: open && byPath[open] !== undefined ? byPath[open] : 0 };
}
function go(h) {
  if (views[h.open].z) { ready(h.open, function () { go(h); }); return; }
  if (h.open !== view.index) { use(h.open); current = -1; }
  show(h.step === "final" ? play.end : Number(h.step), true);
}
window.addEventListener("hashchange", function () {
  var h = fromHash();
  if (h !== null) { go(h); }
});

if (typeof DecompressionStream === "undefined") {  // no way to read the views: nothing opens
  byPath = {};
}
use(0);
// The zoom readout and the first fit wait for the picture's first layout: a page in a
// lazy or srcdoc frame may run this script before its frame has a size. A picture a little
// too wide starts fitted (in a frame, where the reader cannot widen the window, up to half
// its size); a resize keeps the readout true.
var framed = false;
try { framed = window.self !== window.top; } catch (err) { framed = true; }
var decided = root.classList.contains("fit");
function measured() {
  var svg = stage.querySelector("svg");
  var vb = svg && svg.viewBox && svg.viewBox.baseVal;
  var natural = vb && vb.width ? vb.width * 4 / 3 : 0;
  var room = stage.parentNode.clientWidth;
  if (!svg || !natural || !room || !svg.getBoundingClientRect().width) { return; }
  if (!decided) {
    decided = true;
    if (natural > room + 0.5 && room / natural >= (framed ? 0.5 : 0.7)) { fit(); }
  }
  showZoom();
}
measured();
if (window.ResizeObserver) { new ResizeObserver(measured).observe(stage); }
var begin = fromHash();
if (begin !== null) { go(begin); } else { show(Number(root.getAttribute("data-start")) || 0, true); }
