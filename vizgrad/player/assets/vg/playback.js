// Replaying a vizgrad scene in the browser: one SVG with every shape, and per position
// the shapes whose look changed (see vizgrad/write/playback.py). Shared by the
// step player and the lab.

// look attribute -> SVG attribute ("text", "hidden", "bold", "hatch" and "title", a box's
// tooltip, are special; "full" is a table cell's whole text where the box prints less)
var ATTRS = { stroke: "stroke", sw: "stroke-width", dash: "stroke-dasharray" };

// Write `look` on `el`; with `before` (the look it shows now) only what differs.
export function paint(el, look, hatchUrl, before) {
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
  if ("title" in look && (all || look.title !== was.title)) {
    var tip = el.querySelector("title") ||
      el.appendChild(document.createElementNS(el.namespaceURI, "title"));
    tip.textContent = look.title;
  }
  if ("bold" in look && (all || look.bold !== was.bold)) {
    if (look.bold) { el.setAttribute("font-weight", "bold"); } else { el.removeAttribute("font-weight"); }
  }
  if (all || !look.hidden !== !was.hidden) {
    if (look.hidden) { el.setAttribute("display", "none"); } else { el.removeAttribute("display"); }
  }
}

// The looks in place of their indexes (see pack() in playback.py); the objects are shared.
export function unpack(data) {
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
export function create(svg, packed, prefix, onChange) {
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
    // the ids of the shapes whose look position k changes
    changed: function (k) { return Object.keys(changes[k === undefined ? at : k] || {}); },
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
export function still() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// Scroll `box` (not the page) so the shape with id `id` is inside it: a shape out of
// view (or closer than a margin to an edge) is brought to the middle of that axis;
// smoothly when `smooth`, unless the reader prefers reduced motion.
export function reveal(box, svg, id, prefix, smooth) {
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

// Scroll `box` so the shapes of `ids` (the boxes a step changes, the active one last) are
// inside it: their span centred where it fits, else cutting into each, else the first; then
// the page, when that part of the picture lies outside the window (a phone's screen),
// below `under` (the sticky bar). Smoothly when `smooth`, unless the reader prefers reduced
// motion.
// `loading`: the page has just opened (or changed view): the shape nearest the picture's top
// left goes to the box's top, and the page itself does not scroll (the reader starts at the
// caption)
export function revealAll(box, svg, ids, prefix, smooth, under, loading) {
  var doc = svg.ownerDocument;
  var els = ids.map(function (id) { return doc.getElementById(prefix + id); })
    .filter(function (el) { return el && el.getAttribute("display") !== "none"; });
  if (!els.length || !box) { return; }
  var rects = els.map(function (el) { return el.getBoundingClientRect(); });
  if (loading) {
    rects = [rects.reduce(function (a, r) { return r.left + r.top < a.left + a.top ? r : a; })];
  }
  var b = box.getBoundingClientRect();
  var pad = 24;
  // where the window of one axis starts (client coordinates) to show the rectangles: their
  // span centred when it fits, else a place that cuts into every one, else the first one
  function place(lo, hi, from, size) {
    var first = lo(rects[0]);
    var low = Math.min.apply(null, rects.map(lo));
    var high = Math.max.apply(null, rects.map(hi));
    if (low >= from + pad && high <= from + size - pad) { return from; }
    if (high - low <= size - 2 * pad) { return (low + high) / 2 - size / 2; }
    var a = Math.max.apply(null, rects.map(lo)) - size + pad;  // every one starts before the end
    var z = Math.min.apply(null, rects.map(hi)) - pad;  // and ends after the start
    if (a <= z) { return Math.max(a, Math.min(z, low - pad)); }
    var w = hi(rects[0]) - first;
    return w <= size - 2 * pad ? first + w / 2 - size / 2 : first - pad;
  }
  var left = box.scrollLeft + place(function (r) { return r.left; },
    function (r) { return r.right; }, b.left, b.width) - b.left;
  var top = box.scrollTop - b.top + (loading
    ? Math.min.apply(null, rects.map(function (r) { return r.top; })) - pad
    : place(function (r) { return r.top; }, function (r) { return r.bottom; }, b.top, b.height));
  var u = { top: Math.min.apply(null, rects.map(function (r) { return r.top; })),
    bottom: Math.max.apply(null, rects.map(function (r) { return r.bottom; })) };
  var moved = top - box.scrollTop;
  var gentle = smooth && !still();
  if (left !== box.scrollLeft || top !== box.scrollTop) {
    if (gentle && box.scrollTo) { box.scrollTo({ left: left, top: top, behavior: "smooth" }); }
    else { box.scrollLeft = left; box.scrollTop = top; }
  }
  // where the shapes will be on the page once the box has scrolled
  var shownTop = Math.max(b.top, u.top - moved);
  var shownBottom = Math.min(b.bottom, u.bottom - moved);
  var floor = under ? under.getBoundingClientRect().bottom : 0;
  var by = 0;
  if (shownBottom > window.innerHeight - 8) { by = shownBottom - window.innerHeight + pad; }
  if (shownTop - by < floor + 8) { by = shownTop - floor - pad; }
  if (by && !loading) { window.scrollBy({ top: by, behavior: gentle ? "smooth" : "auto" }); }
}
