// Zoom, pan and fit of the picture's scroll box. Shared by the step player and the lab.

// Zoom and pan for a scroll box `box` holding an <svg> (`svgOf()` gives the current one).
// Zooming sets the SVG's width (its viewBox keeps the text sharp at any size); the box
// scrolls to pan: drag with the mouse, Ctrl + wheel or a two-finger pinch zooms around
// the pointer. `onZoom(scale)` hears every change; scale null is "fit to the box".
export function zoomer(box, svgOf, onZoom) {
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

// The zoom readout: the share of its natural size the picture is shown at, in per cent.
export function percent(shown) { return Math.round(shown * 100) + " %"; }

// The zoom and fit wiring of a page: `box` scrolls the picture (svgOf() gives it),
// `fitted` is the element whose class "fit" scales the picture to the box, `fitButton` the
// toggle (aria-pressed), `readout` the <output> of percent(). onZoom(scale) hears every change
// after the readout is written (scale null: fitted). A zoom by the reader ends the fit.
export function zoomControl(o) {
  const control = {};
  const z = zoomer(o.box, o.svgOf, function (scale) {
    if (scale !== null && control.fitted()) { mark(false); }
    control.showZoom();
    if (o.onZoom) { o.onZoom(scale); }
  });
  function mark(on) {
    o.fitted.classList.toggle("fit", on);
    if (o.fitButton) { o.fitButton.setAttribute("aria-pressed", on ? "true" : "false"); }
  }
  Object.assign(control, {
    zoomer: z,
    fitted: function () { return o.fitted.classList.contains("fit"); },
    // fit the picture to the box (on) or give it back its natural size
    setFit: function (on) { z.fit(); mark(on); control.showZoom(); },
    toggleFit: function () { control.setFit(!control.fitted()); },
    showZoom: function () { if (o.readout) { o.readout.textContent = percent(z.shown()); } },
    zoomIn: z.zoomIn, zoomOut: z.zoomOut, apply: z.apply, pan: z.pan, shown: z.shown,
    scale: z.scale, set: z.set
  });
  return control;
}
