// The self-contained step player's page (vizgrad/player/page.py): the entry of the
// bundle the page inlines (vizgrad/player/bundle.py); the other modules are shared
// with the lab.
import { fill } from "./words.js";
import { badgeIds, boxId, cellOf, frameLabelId, nodeOf, setScheme } from "./ids.js";
import { create, reveal, revealAll } from "./playback.js";
import { zoomControl } from "./zoom.js";
import { captionText } from "./caption.js";
import { buildRows, markActive, rowIndex, showCell, showCells, showParams } from "./table.js";
import { attach } from "./find.js";
import { glide } from "./move.js";

var root = document.getElementById("player");
var data = JSON.parse(document.getElementById("vg-data").textContent);
var words = data.words;
var prefix = data.prefix;
setScheme(data.ids);
var stage = document.getElementById("stage");
var counter = document.getElementById("counter");
var slider = document.getElementById("slider");
var cap = document.getElementById("cap");
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
// the opened group a group lies in (a neuron in its layer), null at the top
function parentOf(path) {
  for (var i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
    if (byPath[path.slice(0, i)] !== undefined) { return path.slice(0, i); }
  }
  return null;
}
function frameLabels(v) {
  return Array.prototype.slice.call(v.svgEl.querySelectorAll(".vg-frame-label"));
}

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
    frameLabels(v).forEach(function (label) {  // each opened group's label closes it
      label.setAttribute("tabindex", "0");
      label.setAttribute("role", "button");
      var path = label.getAttribute("data-path");
      label.setAttribute("aria-label", fill(words.collapse, { path: path }));
    });
  }
}

// the picture keeps one scale on the page: fitted, every view is drawn at the scale that
// fits the page's own picture, so an opened group's text is as large as the rest
function keepScale() {
  var svg = view.svgEl;
  if (!zoom.fitted() || view === views[0]) {
    if (svg.style.width && zoom.scale() === null) { svg.style.width = ""; svg.style.maxWidth = ""; }
    return;
  }
  var vb = svg.viewBox.baseVal;
  var vb0 = views[0].svgEl.viewBox.baseVal;
  var room = stage.clientWidth;
  if (!vb || !vb0 || !vb0.width || !room) { return; }
  svg.style.width = (vb.width * room / vb0.width) + "px";
  svg.style.maxWidth = "none";
}

// node n of view v: its id in view w (a group box has another id in each view), or null
function sameNode(v, w, n) {
  var path = v.boxOf[n];
  if (path !== undefined) { return w.boxes[path] !== undefined ? w.boxes[path] : null; }
  return shape(w, boxId(n)) ? n : null;
}

function use(i) {
  var v = views[i];
  prepare(v);
  var old = stage.querySelector("svg");
  var was = view;
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
  keepScale();
  unmark();
}

// each position of a view: [the page's step it belongs to, i, n, the opened group it is
// inside ("" outside)]; the page's own view counts its own steps
function stepOf(v, k) { return v.steps ? v.steps[k] : [k, 0, 0, ""]; }
// where position k of the view on screen is in the backward pass (Infinity: the final view)
function sourceOf(k) {
  return k > play.last ? Infinity : { k: stepOf(view, k)[0], from: view.from[k] };
}
// the position of view v at that point: the first of its positions in the same page step
// from there on (an opened group starts at its own first step), else the last before
function positionIn(v, source) {
  if (source === Infinity) { return v.playback.changes.length - 1; }
  var same = [];
  var before = 0;
  for (var j = 0; j < v.from.length; j++) {
    var k = stepOf(v, j)[0];
    if (k === source.k) { same.push(j); }
    if (k <= source.k) { before = j; }
  }
  if (!same.length) { return before; }
  for (var m = 0; m < same.length; m++) { if (v.from[same[m]] >= source.from) { return same[m]; } }
  return same[same.length - 1];
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
    reveal(stage, view.svgEl, frameOf(view, view.open), prefix, false);
  } else if (was && was.open && view.boxes[was.open]) {
    reveal(stage, view.svgEl, boxId(view.boxes[was.open]), prefix, false);
  }
  // then the boxes glide from where they were (the scroll above saw their new places)
  glide(was.svgEl, view.svgEl, prefix, function (n) { return sameNode(view, was, n); });
  saveHash();
}

// the id (without the prefix) of the label of the frame of `path` in view v
function frameOf(v, path) {
  var hit = frameLabels(v).filter(function (l) { return l.getAttribute("data-path") === path; })[0];
  return hit ? hit.id.slice(prefix.length) : frameLabelId();
}
function openPath(path) {
  if (byPath[path] !== undefined) { switchTo(byPath[path]); }
}
// close `path` (and what is open inside it): back to the view of the group it lies in
function closePath(path, focus) {
  if (!view.open) { return; }
  var up = parentOf(path);
  switchTo(up === null ? 0 : byPath[up]);
  if (focus) {
    var box = view.boxes[path] !== undefined ? shape(view, boxId(view.boxes[path])) : null;
    if (box) { box.focus({ preventScroll: true }); }
  }
}
function closeAll(focus) {
  if (!view.open) { return; }
  var top = view.open;
  while (parentOf(top) !== null) { top = parentOf(top); }
  closePath(top, focus);
}

// -- stepping -----------------------------------------------------------------------
var timer = null;

// the counter: the page's own steps, and inside an opened group which of its steps
function label(k) {
  if (k > play.last) { return words.final; }
  var s = stepOf(view, k);
  var n = data.last === undefined ? play.last : data.last;
  var text = words.step.replace("{k}", String(s[0])).replace("{n}", String(n));
  return s[3] ? text + " " + fill(words.inside, { path: s[3], i: s[1], n: s[2] }) : text;
}

function saveHash() {
  try {
    var open = view.open ? "&open=" + encodeURIComponent(view.open) : "";
    history.replaceState(null, "", "#step=" + (current > play.last ? "final" : current) + open);
  } catch (e) { /* file:// in some browsers */ }
}

// the boxes position k writes a value or grad in (else the active one): what a step brings
// into view
function changedBoxes(k, active) {
  var out = [];
  var mine = active ? boxId(active) : null;
  if (k <= play.last) {
    play.changed(k).forEach(function (id) {  // a value or grad written: its box
      var c = cellOf(id);
      var box = c ? boxId(c.node) : null;
      if (box && box !== mine && out.indexOf(box) < 0 && shape(view, box)) { out.push(box); }
    });
  }
  if (!out.length && !mine) {  // nothing written, no value at work: the inputs' step
    view.svgEl.querySelectorAll(".vg-input, .vg-inputs").forEach(function (el) {
      if (el.id.indexOf(prefix) === 0) { out.push(el.id.slice(prefix.length)); }
    });
  }
  return out.length || !mine ? out : [mine];
}

function show(k, fromHash, instant) {
  k = Math.max(0, Math.min(play.end, k));
  if (k === current) { return; }
  var loading = current < 0;  // the page (or an opened group's view) just shown
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
  showSample();
  caption();  // first: the caption's height moves the picture on the page
  revealAll(stage, view.svgEl, changedBoxes(k, active), prefix, !instant,
            document.querySelector(".bar"), loading);
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

function caption() { captionText(view.svgEl, prefix, cap, badgeIds()); }

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
  keepScale();
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
function labelPath(t) {
  return t && t.classList && t.classList.contains("vg-frame-label") ? t.getAttribute("data-path")
    : null;
}
stage.addEventListener("click", function (e) {
  var t = e.target;
  if (labelPath(t) !== null) { closePath(labelPath(t), true); return; }
  var path = boxPath(t);
  if (path) { openPath(path); }
});
stage.addEventListener("keydown", function (e) {
  if (e.key !== "Enter" && e.key !== " ") { return; }
  var t = e.target;
  if (labelPath(t) !== null) { e.preventDefault(); closePath(labelPath(t), true); return; }
  var path = boxPath(t);
  if (path) {
    e.preventDefault();
    ready(byPath[path], function () {
      openPath(path);
      var label = shape(view, frameOf(view, path));
      if (label) { label.focus({ preventScroll: true }); }
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
  reveal: function (id) { reveal(stage, view.svgEl, id, prefix, true); },
  frame: function (path) { return frameOf(view, path); }
});
function unmark() { finder.clear(); }

// -- keys -------------------------------------------------------------------------------
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey) { return; }
  var t = e.target;
  if (e.key === "Escape" && view.open && t !== findBox) {  // closes the innermost group
    e.preventDefault();
    closePath(view.open, true);
    return;
  }
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
  keepScale();
  showZoom();
}
measured();
if (window.ResizeObserver) { new ResizeObserver(measured).observe(stage); }
var begin = fromHash();
if (begin !== null) { go(begin); } else { show(Number(root.getAttribute("data-start")) || 0, true); }
