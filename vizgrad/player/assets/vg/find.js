// Finding a node by its label in the step player (player.js gives it `page`): every row of
// the page's own table, every value inside a group (opening the group's view when it can),
// marked in the picture and the table.
import { fill } from "./words.js";
import { boxId, frameLabelId } from "./ids.js";

// box: the <input>; out: the <output> that says what was found
export function attach(box, out, page) {
  var entries = null;
  // is the group `path` open where the reader looks (the lab: one of several open)
  var isOpen = page.isOpen || function (path) { return page.view().open === path; };
  var matches = [];
  var at = -1;
  var mark = null;

  function allEntries() {
    if (entries) { return entries; }
    entries = [];
    var first = page.first;
    Array.prototype.forEach.call(first.tbody.querySelectorAll("tr[data-node]"), function (tr) {
      var id = tr.getAttribute("data-node");
      var path = first.boxOf[id];
      entries.push(path ? { name: path, box: path } : { name: tr.querySelector("th").textContent, id: id });
    });
    page.index.forEach(function (e) { entries.push({ name: e[0], path: e[1], id: e[2], cell: e[3] }); });
    return entries;
  }

  function unmark() {
    if (mark && mark.parentNode) { mark.parentNode.removeChild(mark); }
    mark = null;
    Array.prototype.forEach.call(document.querySelectorAll("tr.found"), function (tr) {
      tr.classList.remove("found");
    });
  }

  function markShape(id) {
    var el = page.view().svgEl.querySelector("#" + CSS.escape(page.prefix + id));
    if (!el) { return; }
    var b = el.getBBox();
    var pad = 5;
    mark = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    mark.setAttribute("class", "vg-found");
    mark.setAttribute("x", b.x - pad);
    mark.setAttribute("y", b.y - pad);
    mark.setAttribute("width", b.width + 2 * pad);
    mark.setAttribute("height", b.height + 2 * pad);
    mark.setAttribute("rx", 6);
    mark.setAttribute("fill", "none");
    page.view().svgEl.appendChild(mark);
    page.reveal(id);
  }

  function markRow(tr) {
    if (!tr) { return; }
    tr.classList.add("found");
    var wrap = tr.closest(".table-wrap");
    if (!wrap) { return; }
    var r = tr.getBoundingClientRect();
    var w = wrap.getBoundingClientRect();
    if (r.top < w.top + 30 || r.bottom > w.bottom) {
      wrap.scrollTop += r.top - w.top - wrap.clientHeight / 2;
    }
  }

  function paramRow(boxId, name) {
    var hit = null;
    Array.prototype.forEach.call(page.view().tbody.querySelectorAll("tr.param"), function (tr) {
      if (tr.getAttribute("data-param") === boxId && tr.querySelector("th").textContent === name) { hit = tr; }
    });
    return hit;
  }

  function goTo(i) {
    var m = matches[i];
    var want = page.byPath()[m.path];
    if (m.path && !m.box && want !== undefined && page.waiting(want)) {
      page.ready(want, function () { if (matches[i] === m) { goTo(i); } });
      return;
    }
    at = i;
    unmark();
    var note = fill(page.words.find_count, { i: i + 1, n: matches.length, name: m.name });
    var path = m.box || m.path;
    if (path && !isOpen(path) && page.byPath()[path] !== undefined && !m.box) { page.switchTo(page.byPath()[path], false); }
    if (m.box && isOpen(m.box)) {
      markShape(page.frame ? page.frame(m.box) : frameLabelId());
    } else if (m.box || (path && !isOpen(path))) {
      var closed = page.view().boxes[path];  // inside a group that stays closed: its box
      markShape(boxId(closed));
      markRow(m.box ? page.rows()[closed] : paramRow(closed, m.name) || page.rows()[closed]);
      if (!m.box) { note = fill(page.words.find_closed, { name: m.name, path: path }); }
    } else {  // a value, or an input of a batch: its cell and its row under its box's
      markShape(m.cell || boxId(m.id));
      markRow((m.cell && paramRow(m.id, m.name)) || page.rows()[m.id]);
    }
    out.textContent = note;
  }

  var asked = null;  // the query the matches are of
  function find() {
    var q = box.value.trim().toLowerCase();
    asked = q;
    unmark();
    matches = [];
    at = -1;
    if (!q) { out.textContent = ""; return; }
    var seen = {};
    allEntries().forEach(function (e, order) {
      var name = e.name.toLowerCase();
      var where = name.indexOf(q);
      var key = (e.box || e.path || "") + "|" + (e.id || "") + "|" + (e.cell || "");
      if (where < 0 || seen[key]) { return; }
      seen[key] = true;
      matches.push({ e: e, rank: name === q ? 0 : where === 0 ? 1 : 2, order: order });
    });
    matches.sort(function (a, b) { return a.rank - b.rank || a.order - b.order; });
    matches = matches.map(function (m) { return m.e; });
    if (!matches.length) { out.textContent = fill(page.words.find_none, { q: box.value.trim() }); return; }
    goTo(0);
  }

  var typing = null;
  var entered = false;  // Enter pressed since the last edit: the next Enter moves on
  box.addEventListener("input", function () {
    clearTimeout(typing);
    entered = false;
    typing = setTimeout(find, 200);
  });
  box.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") { return; }
    e.preventDefault();
    clearTimeout(typing);
    // the first Enter after typing shows the first match, whether or not the pause after
    // typing already found it; each Enter after that the next one (Shift: the one before)
    var first = !entered;
    entered = true;
    if (asked !== box.value.trim().toLowerCase() || !matches.length) { find(); return; }
    if (!first) { goTo((at + (e.shiftKey ? matches.length - 1 : 1)) % matches.length); }
  });

  // forget what was found (the lab: another graph, or the same with other groups open)
  function reset() {
    entries = null; matches = []; at = -1; asked = null; entered = false; unmark(); out.textContent = "";
  }
  return { clear: unmark, reset: reset };
}
