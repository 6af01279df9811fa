(function () {
  "use strict";
  var root = document.getElementById("player");
  var data = JSON.parse(document.getElementById("vg-data").textContent);
  var words = data.words;
  var stage = document.getElementById("stage");
  var svg = stage.querySelector("svg");
  var counter = document.getElementById("counter");
  var slider = document.getElementById("slider");
  var rows = {};
  Array.prototype.forEach.call(document.querySelectorAll("#nodes tbody tr"), function (tr) {
    rows[tr.getAttribute("data-node")] = tr;
  });
  var buttons = {};
  Array.prototype.forEach.call(root.querySelectorAll("button[data-go]"), function (b) {
    buttons[b.getAttribute("data-go")] = b;
  });

  // the node table follows the value and grad texts of the boxes
  var CELL = /^t-(.+)-(data|grad)$/;
  function onChange(id, look) {
    var m = CELL.exec(id);
    if (!m || !rows[m[1]]) { return; }
    var td = rows[m[1]].querySelector("td." + m[2]);
    td.textContent = look.text;
    td.classList.toggle("pending", m[2] === "data" && look.text === words.pending);
    td.classList.toggle("unreached", m[2] === "grad" && look.text === "\u2014");
  }

  var play = VizgradPlayback.create(svg, data.playback, data.prefix, onChange);
  var last = play.end;  // the final view, after the last step
  var current = -1;
  var activeRow = null;
  var now = document.getElementById("now");
  function caption() { VizgradPlayback.caption(stage, svg, data.prefix, now); }
  stage.addEventListener("scroll", caption);
  var timer = null;

  function label(k) {
    return k > play.last ? words.final
      : words.step.replace("{k}", String(k)).replace("{n}", String(play.last));
  }

  function show(k, fromHash) {
    k = Math.max(0, Math.min(last, k));
    if (k === current) { return; }
    play.show(k);
    current = k;
    counter.textContent = label(k);
    slider.value = String(k);
    slider.setAttribute("aria-valuetext", label(k));
    buttons.first.disabled = buttons.prev.disabled = k === 0;
    buttons.next.disabled = buttons.last.disabled = k === last;
    var active = play.active(k);
    if (activeRow) { activeRow.classList.remove("active"); activeRow.removeAttribute("aria-current"); }
    activeRow = active ? rows[active] : null;
    if (activeRow) { activeRow.classList.add("active"); activeRow.setAttribute("aria-current", "step"); }
    VizgradPlayback.reveal(stage, svg, active ? "n-" + active : null, data.prefix);
    caption();
    if (!fromHash) {
      try {
        history.replaceState(null, "", "#step=" + (k > play.last ? "final" : k));
      } catch (e) { /* file:// in some browsers */ }
    }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    buttons.play.setAttribute("aria-pressed", "false");
    buttons.play.textContent = words.play;
  }

  function start() {
    if (timer !== null) { stop(); return; }
    if (current === last) { show(0); }
    buttons.play.setAttribute("aria-pressed", "true");
    buttons.play.textContent = words.pause;
    timer = setInterval(function () {
      if (current >= last) { stop(); return; }
      show(current + 1);
    }, Number(root.getAttribute("data-interval")) || 1200);
  }

  function fit() {
    var on = !root.classList.contains("fit");
    root.classList.toggle("fit", on);
    buttons.fit.setAttribute("aria-pressed", on ? "true" : "false");
    VizgradPlayback.reveal(stage, svg, play.active() ? "n-" + play.active() : null, data.prefix);
  }

  var actions = {
    first: function () { show(0); },
    prev: function () { show(current - 1); },
    next: function () { show(current + 1); },
    last: function () { show(last); },
    play: start,
    fit: fit
  };

  Object.keys(buttons).forEach(function (name) {
    buttons[name].addEventListener("click", function () {
      if (name !== "play" && name !== "fit") { stop(); }
      actions[name]();
    });
  });

  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) { return; }
    var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[e.key]) {
      e.preventDefault();
      stop();
      actions[keys[e.key]]();
    }
  });

  function fromHash() {
    var m = /^#step=(\d+|final)$/.exec(window.location.hash);
    if (!m) { return null; }
    return m[1] === "final" ? last : Number(m[1]);
  }
  window.addEventListener("hashchange", function () {
    var k = fromHash();
    if (k !== null) { show(k, true); }
  });

  var begin = fromHash();
  show(begin !== null ? begin : Number(root.getAttribute("data-start")) || 0, true);
})();
