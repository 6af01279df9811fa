(function () {
  "use strict";
  var root = document.getElementById("player");
  var steps = Array.prototype.slice.call(root.querySelectorAll(".step"));
  var last = steps.length - 1;
  var counter = document.getElementById("counter");
  var slider = document.getElementById("slider");
  var buttons = {};
  Array.prototype.forEach.call(root.querySelectorAll("button[data-go]"), function (b) {
    buttons[b.getAttribute("data-go")] = b;
  });
  var current = -1;
  var timer = null;

  function clamp(k) { return Math.max(0, Math.min(last, k)); }

  function show(k, fromHash) {
    k = clamp(k);
    if (k === current) { return; }
    steps.forEach(function (s, i) {
      var on = i === k;
      s.classList.toggle("current", on);
      s.setAttribute("aria-hidden", on ? "false" : "true");
    });
    current = k;
    counter.textContent = "step " + k + " / " + last;
    slider.value = String(k);
    slider.setAttribute("aria-valuetext", "step " + k + " of " + last);
    buttons.first.disabled = buttons.prev.disabled = k === 0;
    buttons.next.disabled = buttons.last.disabled = k === last;
    if (!fromHash) {
      try { history.replaceState(null, "", "#step=" + k); } catch (e) { /* file:// in some browsers */ }
    }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    buttons.play.setAttribute("aria-pressed", "false");
    buttons.play.textContent = "Play";
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (current === last) { show(0); }
    buttons.play.setAttribute("aria-pressed", "true");
    buttons.play.textContent = "Pause";
    timer = setInterval(function () {
      if (current >= last) { stop(); return; }
      show(current + 1);
    }, Number(root.getAttribute("data-interval")) || 1200);
  }

  function fit() {
    var on = !root.classList.contains("fit");
    root.classList.toggle("fit", on);
    buttons.fit.setAttribute("aria-pressed", on ? "true" : "false");
  }

  var actions = {
    first: function () { show(0); },
    prev: function () { show(current - 1); },
    next: function () { show(current + 1); },
    last: function () { show(last); },
    play: play,
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
    var m = /^#step=(\d+)$/.exec(window.location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener("hashchange", function () {
    var k = fromHash();
    if (k !== null) { show(k, true); }
  });

  var start = fromHash();
  show(start !== null ? start : Number(root.getAttribute("data-start")) || 0, true);
})();
