// Replaying a vizgrad scene in the browser: one SVG with every shape, and per position
// the shapes whose look changed (see vizgrad/render/playback.py). Shared by the HTML
// step player (inlined) and the lab (served as /static/playback.js).
var VizgradPlayback = (function () {
  "use strict";

  // look attribute -> SVG attribute ("text", "hidden", "bold" and "hatch" are special)
  var ATTRS = { stroke: "stroke", sw: "stroke-width", dash: "stroke-dasharray" };

  // Write `look` on `el`; with `before` (the look it shows now) only what differs.
  function paint(el, look, hatchUrl, before) {
    if (!el) { return; }
    var was = before || {};
    var all = !before;
    if ("text" in look && (all || look.text !== was.text)) { el.textContent = look.text; }
    if ("fill" in look && (all || look.fill !== was.fill || look.hatch !== was.hatch)) {
      el.setAttribute("fill", look.hatch ? hatchUrl : look.fill);
    }
    Object.keys(ATTRS).forEach(function (key) {
      if (!(key in look) || (!all && look[key] === was[key] && look.stroke === was.stroke)) { return; }
      if (look[key] && !(key === "sw" && !look.stroke)) { el.setAttribute(ATTRS[key], look[key]); }
      else { el.removeAttribute(ATTRS[key]); }
    });
    if ("bold" in look && (all || look.bold !== was.bold)) {
      if (look.bold) { el.setAttribute("font-weight", "bold"); } else { el.removeAttribute("font-weight"); }
    }
    if (all || !look.hidden !== !was.hidden) {
      if (look.hidden) { el.setAttribute("display", "none"); } else { el.removeAttribute("display"); }
    }
  }

  // The looks in place of their indexes (see pack() in playback.py); the objects are shared.
  function unpack(data) {
    if (!data.looks) { return data; }
    function resolve(refs) {
      var out = {};
      Object.keys(refs).forEach(function (id) { out[id] = data.looks[refs[id]]; });
      return out;
    }
    return { base: resolve(data.base), changes: data.changes.map(resolve), active: data.active,
      last: data.last };
  }

  // svg: the scene's <svg> element; data: {looks, base, changes, active, last}; prefix: of
  // the ids. onChange(id, look) is called for every shape whose look is written.
  function create(svg, packed, prefix, onChange) {
    var data = unpack(packed);
    var changes = data.changes;
    var end = changes.length - 1;  // the final view
    var model = {};
    var elements = {};
    var pattern = svg.querySelector("pattern");
    var hatchUrl = pattern ? "url(#" + pattern.id + ")" : "none";
    var at = end;

    function element(id) {
      if (!(id in elements)) { elements[id] = svg.getElementById ? svg.getElementById(prefix + id) : null; }
      if (!elements[id]) { elements[id] = svg.ownerDocument.getElementById(prefix + id); }
      return elements[id];
    }

    function rebuild(k) {
      model = Object.assign({}, data.base);
      for (var j = 1; j <= k; j++) { Object.assign(model, changes[j]); }
    }

    // the page shows the final view before any script runs
    rebuild(end);

    // write the shapes whose look is not the one they show (`shown`: id -> look shown now)
    function write(shown) {
      Object.keys(shown).forEach(function (id) {
        if (shown[id] === model[id]) { return; }  // equal looks are one shared object
        paint(element(id), model[id], hatchUrl, shown[id]);
        if (onChange) { onChange(id, model[id]); }
      });
    }

    return {
      last: data.last,
      end: end,
      position: function () { return at; },
      active: function (k) { return data.active[k === undefined ? at : k]; },
      look: function (id) { return model[id]; },
      // show position k (0..last are steps, last + 1 is the final view)
      show: function (k) {
        k = Math.max(0, Math.min(end, k));
        if (k === at) { return k; }
        var shown = {};
        var j;
        var touch = function (id) { if (!(id in shown)) { shown[id] = model[id]; } };
        if (k > at) {
          for (j = at + 1; j <= k; j++) {
            Object.keys(changes[j]).forEach(touch);
            Object.assign(model, changes[j]);
          }
        } else {
          for (j = k + 1; j <= at; j++) { Object.keys(changes[j]).forEach(touch); }
          rebuild(k);
        }
        at = k;
        write(shown);
        return k;
      },
      // write every shape (after the SVG was replaced)
      repaint: function () {
        Object.keys(model).forEach(function (id) {
          paint(element(id), model[id], hatchUrl);
          if (onChange) { onChange(id, model[id]); }
        });
      }
    };
  }

  // Whether moves should be instant: the reader asked the system for reduced motion.
  function still() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  // Scroll `box` (not the page) so the shape with id `id` is inside it: a shape out of
  // view (or closer than a margin to an edge) is brought to the middle of that axis;
  // smoothly when `smooth`, unless the reader prefers reduced motion.
  function reveal(box, svg, id, prefix, smooth) {
    var el = id ? svg.ownerDocument.getElementById(prefix + id) : null;
    if (!el || !box) { return; }
    var r = el.getBoundingClientRect();
    var b = box.getBoundingClientRect();
    var pad = 24;
    var left = box.scrollLeft;
    var top = box.scrollTop;
    if (r.left < b.left + pad || r.right > b.right - pad) {
      left += (r.left + r.right) / 2 - (b.left + b.right) / 2;
    }
    if (r.top < b.top + pad || r.bottom > b.bottom - pad) {
      top += (r.top + r.bottom) / 2 - (b.top + b.bottom) / 2;
    }
    if (left === box.scrollLeft && top === box.scrollTop) { return; }
    if (smooth && !still() && box.scrollTo) {
      box.scrollTo({ left: left, top: top, behavior: "smooth" });
    } else {
      box.scrollLeft = left;
      box.scrollTop = top;
    }
  }

  // Zoom and pan for a scroll box `box` holding an <svg> (`svgOf()` gives the current one).
  // Zooming sets the SVG's width (its viewBox keeps the text sharp at any size); the box
  // scrolls to pan: drag with the mouse, Ctrl + wheel or a two-finger pinch zooms around
  // the pointer. `onZoom(scale)` hears every change; scale null is "fit to the box".
  function zoomer(box, svgOf, onZoom) {
    var scale = null;
    var MIN = 0.1;
    var MAX = 8;
    var drag = null;
    var touches = {};
    var pinch = null;
    var moved = false;

    function natural() {
      var svg = svgOf();
      var vb = svg && svg.viewBox && svg.viewBox.baseVal;
      return vb && vb.width ? vb.width * 4 / 3 : 0;  // points to CSS pixels
    }
    function shown() {
      var svg = svgOf();
      return svg && natural() ? svg.getBoundingClientRect().width / natural() : 1;
    }
    function apply() {
      var svg = svgOf();
      if (!svg) { return; }
      svg.style.width = scale === null ? "" : (natural() * scale) + "px";
      svg.style.maxWidth = scale === null ? "" : "none";
    }
    // zoom to `to` keeping the point (x, y) of the page (default: the box's middle) in place
    function set(to, x, y) {
      var svg = svgOf();
      if (!svg) { return; }
      to = Math.max(MIN, Math.min(MAX, to));
      var b = box.getBoundingClientRect();
      if (x === undefined) { x = b.left + box.clientWidth / 2; y = b.top + box.clientHeight / 2; }
      var r = svg.getBoundingClientRect();
      var fx = r.width ? (x - r.left) / r.width : 0;
      var fy = r.height ? (y - r.top) / r.height : 0;
      scale = to;
      apply();
      var r2 = svg.getBoundingClientRect();
      box.scrollLeft += r2.left + fx * r2.width - x;
      box.scrollTop += r2.top + fy * r2.height - y;
      if (onZoom) { onZoom(scale); }
    }
    box.addEventListener("wheel", function (e) {
      if (!e.ctrlKey) { return; }  // a plain wheel scrolls; Ctrl + wheel (and a touchpad pinch) zooms
      e.preventDefault();
      set(shown() * Math.exp(-e.deltaY * 0.002), e.clientX, e.clientY);
    }, { passive: false });
    box.addEventListener("pointerdown", function (e) {
      moved = false;
      if (e.pointerType === "touch") {
        touches[e.pointerId] = [e.clientX, e.clientY];
        var ids = Object.keys(touches);
        if (ids.length === 2) {
          var a = touches[ids[0]];
          var c = touches[ids[1]];
          pinch = { d: Math.hypot(a[0] - c[0], a[1] - c[1]) || 1, scale: shown() };
        }
        return;
      }
      if (e.button !== 0) { return; }
      drag = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop, id: e.pointerId };
    });
    box.addEventListener("pointermove", function (e) {
      if (e.pointerType === "touch" && touches[e.pointerId]) {
        touches[e.pointerId] = [e.clientX, e.clientY];
        var ids = Object.keys(touches);
        if (pinch && ids.length === 2) {
          var a = touches[ids[0]];
          var c = touches[ids[1]];
          var d = Math.hypot(a[0] - c[0], a[1] - c[1]);
          set(pinch.scale * d / pinch.d, (a[0] + c[0]) / 2, (a[1] + c[1]) / 2);
          moved = true;
        }
        return;
      }
      if (!drag || e.pointerId !== drag.id) { return; }
      var dx = e.clientX - drag.x;
      var dy = e.clientY - drag.y;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 5) { return; }
      if (!moved && box.setPointerCapture) { box.setPointerCapture(e.pointerId); }
      moved = true;
      box.classList.add("dragging");
      box.scrollLeft = drag.left - dx;
      box.scrollTop = drag.top - dy;
    });
    function end(e) {
      delete touches[e.pointerId];
      if (Object.keys(touches).length < 2) { pinch = null; }
      if (drag && e.pointerId === drag.id) { drag = null; box.classList.remove("dragging"); }
    }
    box.addEventListener("pointerup", end);
    box.addEventListener("pointercancel", end);
    // a drag ends with a click on whatever is under the pointer: that click is not a choice
    box.addEventListener("click", function (e) {
      if (moved) { e.stopPropagation(); e.preventDefault(); moved = false; }
    }, true);
    return {
      scale: function () { return scale; },
      shown: shown,
      set: set,
      zoomIn: function () { set(shown() * 1.25); },
      zoomOut: function () { set(shown() / 1.25); },
      fit: function () { scale = null; apply(); if (onZoom) { onZoom(null); } },
      // after the SVG was replaced: give it the same scale
      apply: apply,
      // pan by (dx, dy) pixels
      pan: function (dx, dy) { box.scrollLeft += dx; box.scrollTop += dy; }
    };
  }

  // While the picture's own caption (cap-0) is scrolled out of `box`, `line` shows it and
  // gets the class "on"; the line keeps its height either way, so nothing moves.
  function caption(box, svg, prefix, line) {
    var cap = svg.ownerDocument.getElementById(prefix + "cap-0");
    if (!cap || !line) { return; }
    var c = cap.getBoundingClientRect();
    var b = box.getBoundingClientRect();
    var away = c.top < b.top || c.left < b.left;
    line.textContent = away ? cap.textContent : "";
    line.classList.toggle("on", away);
  }

  return { create: create, paint: paint, reveal: reveal, caption: caption, zoomer: zoomer, still: still };
})();
if (typeof window !== "undefined") { window.VizgradPlayback = VizgradPlayback; }
