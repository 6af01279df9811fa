(function () {
  "use strict";
  var P = VizgradPlayback;
  var root = document.getElementById("player");
  var data = JSON.parse(document.getElementById("vg-data").textContent);
  var words = data.words;
  var prefix = data.prefix;
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
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? String(values[k]) : m; });
  }

  // -- views: the page's own picture, then one per group that can be opened -----------
  var views = [{ open: null, playback: data.playback, from: data.from, boxes: data.boxes,
    svgEl: stage.querySelector("svg"), tbody: document.querySelector("#nodes tbody") }].concat(data.views);
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
  var params = [];
  var current = -1;
  var anchor = null;  // the source step a view switch started from, while the reader stays put
  var activeRow = null;

  // the node table follows the value and grad texts of the boxes
  var CELL = /^t-(.+)-(data|grad)$/;
  function onChange(id, look) {
    var m = CELL.exec(id);
    if (!m || !rows[m[1]] || view.play !== play) { return; }
    var td = rows[m[1]].querySelector("td." + m[2]);
    td.textContent = look.text;
    td.classList.toggle("pending", m[2] === "data" && look.text === words.pending);
    td.classList.toggle("unreached", m[2] === "grad" && look.text === "\u2014");
  }

  function cell(tr, tag, cls, text) {
    var td = document.createElement(tag);
    if (cls) { td.className = cls; }
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  function buildRows(v) {
    var body = document.createElement("tbody");
    v.rows.forEach(function (r) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-node", r.id);
      tr.className = r.kind + (r.on_path ? "" : " off-path");
      cell(tr, "th", "", r.name).setAttribute("scope", "row");
      cell(tr, "td", "", r.how);
      cell(tr, "td", "num data", "");
      cell(tr, "td", "num grad", "");
      body.appendChild(tr);
      (r.params || []).forEach(function (p) {
        var pr = document.createElement("tr");
        pr.setAttribute("data-param", r.id);
        pr.setAttribute("data-done", String(p.done));
        pr.className = "param";
        var th = cell(pr, "th", "", "");
        th.setAttribute("scope", "row");
        cell(th, "span", "nest", p.name);
        cell(pr, "td", "", fill(words.param, { path: v.boxOf[r.id] || r.name }));
        cell(pr, "td", "num data", p.data);
        cell(pr, "td", "num grad", p.grad);
        body.appendChild(pr);
      });
    });
    return body;
  }

  function prepare(v) {
    if (!v.svgEl) {
      var doc = new DOMParser().parseFromString(v.svg, "image/svg+xml");
      v.svgEl = document.importNode(doc.documentElement, true);
    }
    if (!v.tbody) { v.tbody = buildRows(v); }
    if (!v.play) { v.play = P.create(v.svgEl, v.playback, prefix, onChange); }
    if (!v.ready) {
      v.ready = true;
      var openable = Object.keys(byPath).length > 0;
      if (openable) { v.svgEl.setAttribute("role", "group"); }
      Object.keys(v.boxes).forEach(function (path) {
        var box = v.svgEl.querySelector("#" + prefix + "n-" + v.boxes[path]);
        if (!box || byPath[path] === undefined) { return; }
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "button");
        box.setAttribute("aria-label", fill(words.expand, { path: path }));
        box.classList.add("vg-openable");
      });
      var label = v.svgEl.querySelector("#" + prefix + "frame-label");
      if (label && v.open) {
        label.setAttribute("tabindex", "0");
        label.setAttribute("role", "button");
        label.setAttribute("aria-label", fill(words.collapse, { path: v.open }));
      }
      v.params = Array.prototype.map.call(v.tbody.querySelectorAll("tr.param"), function (tr) {
        var td = tr.querySelector("td.grad");
        return { td: td, grad: td.textContent, done: Number(tr.getAttribute("data-done")) };
      });
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
    rows = {};
    Array.prototype.forEach.call(v.tbody.querySelectorAll("tr[data-node]"), function (tr) {
      rows[tr.getAttribute("data-node")] = tr;
    });
    params = v.params;
    Object.keys(rows).forEach(function (n) {  // the table shows what this view's picture shows
      ["data", "grad"].forEach(function (key) {
        var look = play.look("t-" + n + "-" + key);
        if (look) { onChange("t-" + n + "-" + key, look); }
      });
    });
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
      P.reveal(stage, view.svgEl, "frame-label", prefix, false);
    } else if (was && was.open && view.boxes[was.open]) {
      P.reveal(stage, view.svgEl, "n-" + view.boxes[was.open], prefix, false);
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
      var box = view.svgEl.querySelector("#" + prefix + "n-" + view.boxes[was]);
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
    params.forEach(function (p) {
      var done = k >= p.done;
      p.td.textContent = done ? p.grad : "\u2014";
      p.td.classList.toggle("unreached", !done);
    });
    var active = play.active(k);
    if (activeRow) { activeRow.classList.remove("active"); activeRow.removeAttribute("aria-current"); }
    activeRow = active ? rows[active] : null;
    if (activeRow) { activeRow.classList.add("active"); activeRow.setAttribute("aria-current", "step"); }
    P.reveal(stage, view.svgEl, active ? "n-" + active : null, prefix, !instant);
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
      var isData = /-data$/.test(id);
      if (isData && el.textContent === words.pending) { return; }
      el.textContent = texts[id];
      var n = id.slice(2, isData ? -5 : -3);
      if (isData && rows[n]) { rows[n].querySelector("td.data").textContent = texts[id]; }
    });
  }
  if (sampleBox) { sampleBox.addEventListener("change", showSample); }

  function caption() { P.caption(stage, view.svgEl, prefix, now); }
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
  var zoom = P.zoomer(stage, function () { return stage.querySelector("svg"); }, function (scale) {
    decided = true;  // the reader chose a size
    if (scale !== null && root.classList.contains("fit")) {
      root.classList.remove("fit");
      buttons.fit.setAttribute("aria-pressed", "false");
    }
    showZoom();
  });
  function showZoom() { zoomLabel.textContent = Math.round(zoom.shown() * 100) + " %"; }

  function fit() {
    var on = !root.classList.contains("fit");
    zoom.fit();
    root.classList.toggle("fit", on);
    buttons.fit.setAttribute("aria-pressed", on ? "true" : "false");
    showZoom();
    P.reveal(stage, view.svgEl, play.active() ? "n-" + play.active() : null, prefix, false);
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
  var SHAPE = /^[ntcs]-([a-z]+\d+)(?:-|$)/;
  function boxPath(el) {
    var id = el && el.id ? el.id.slice(prefix.length) : "";
    var m = SHAPE.exec(id);
    return m && view.boxOf[m[1]] && byPath[view.boxOf[m[1]]] !== undefined ? view.boxOf[m[1]] : null;
  }
  stage.addEventListener("click", function (e) {
    var t = e.target;
    if (t.id === prefix + "frame-label") { closeAll(true); return; }
    var path = boxPath(t);
    if (path) { openPath(path); }
  });
  stage.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" && e.key !== " ") { return; }
    var t = e.target;
    if (t.id === prefix + "frame-label") { e.preventDefault(); closeAll(true); return; }
    var path = boxPath(t);
    if (path) {
      e.preventDefault();
      ready(byPath[path], function () {
        openPath(path);
        var label = view.svgEl.querySelector("#" + prefix + "frame-label");
        if (label) { label.focus(); }
      });
    }
  });

  // -- find a node by its label (find.js) ------------------------------------------------
  var finder = VizgradFind.attach(findBox, found, {
    words: words, prefix: prefix, fill: fill, first: views[0], index: data.index,
    view: function () { return view; },
    rows: function () { return rows; },
    byPath: function () { return byPath; },
    waiting: function (i) { return !!views[i].z; },
    ready: ready,
    switchTo: switchTo,
    reveal: function (id) { P.reveal(stage, view.svgEl, id, prefix, true); }
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
})();
