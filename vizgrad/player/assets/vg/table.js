// The node table: built here, once, from the scene's rows (vizgrad/player/views.py
// table_rows), and kept in step with the value and grad texts of the picture's boxes.
// Shared by the step player and the lab; one class vocabulary for both pages' CSS:
//   tr[data-node].<kind> (.off-path, .active)   a value of the graph
//   tr.param[data-param][data-done][data-grad]   a parameter of a group's box
//   td.number.data, td.number.grad               the value columns (td.pending: not known yet)
//   th > span.nest                               a parameter's name, under its group
import { fill } from "./words.js";
import { cellOf, cellSlots, textId } from "./ids.js";

// what a grad cell shows before the backward pass reaches it
export const NOT_REACHED = "\u2014";

function cell(tr, tag, cls, text) {
  const td = document.createElement(tag);
  if (cls) { td.className = cls; }
  td.textContent = text;
  tr.appendChild(td);
  return td;
}

// A <tbody> of `rows` (each {id, name, how, kind, on_path, data, grad, path, params}):
// one row per value, then its group's parameters (or a batch's inputs, each with its own
// `how`). `words.param` says where a parameter is.
export function buildRows(rows, words) {
  const body = document.createElement("tbody");
  rows.forEach(function (r) {
    const tr = document.createElement("tr");
    tr.setAttribute("data-node", r.id);
    tr.className = r.kind + (r.on_path ? "" : " off-path");
    cell(tr, "th", "", r.name).setAttribute("scope", "row");
    cell(tr, "td", "", r.how);
    cell(tr, "td", "number data", r.data === undefined ? "" : r.data);
    cell(tr, "td", "number grad", r.grad === undefined ? "" : r.grad);
    body.appendChild(tr);
    (r.params || []).forEach(function (p) {
      const pr = document.createElement("tr");
      pr.setAttribute("data-param", r.id);
      pr.setAttribute("data-done", String(p.done));
      pr.setAttribute("data-grad", p.terms || p.grad);
      pr.className = "param";
      const th = cell(pr, "th", "", "");
      th.setAttribute("scope", "row");
      cell(th, "span", "nest", p.name);
      cell(pr, "td", "", p.how || fill(words.param, { path: r.path || r.name }));
      cell(pr, "td", "number data", p.data);
      cell(pr, "td", "number grad", p.grad);
      body.appendChild(pr);
    });
  });
  return body;
}

// node id -> its row, for the rows of `tbody`
export function rowIndex(tbody) {
  const rows = {};
  Array.prototype.forEach.call(tbody.querySelectorAll("tr[data-node]"), function (tr) {
    rows[tr.getAttribute("data-node")] = tr;
  });
  return rows;
}

// Write the look of shape `id` into its cell when the table shows it (a value or a grad of
// a box); a value still to compute (words.pending) or a grad not reached is .pending.
// Returns whether a cell was written.
export function showCell(rows, id, look, words) {
  const c = cellOf(id);
  if (!c || !rows[c.node] || !look) { return false; }
  const td = rows[c.node].querySelector("td." + c.slot);
  if (!td) { return false; }
  td.textContent = look.full || look.text;
  td.classList.toggle("pending", look.text === words.pending || look.text === NOT_REACHED);
  return true;
}

// Write every cell of `rows` from the looks `play` shows now (playback.create()).
export function showCells(rows, play, words) {
  Object.keys(rows).forEach(function (n) {
    cellSlots().forEach(function (slot) {
      const id = textId(n, slot);
      showCell(rows, id, play.look(id), words);
    });
  });
}

// A parameter's grad is known from its group's backward step on: before position k reaches
// it, its cell shows NOT_REACHED.
export function showParams(tbody, k) {
  Array.prototype.forEach.call(tbody.querySelectorAll("tr.param"), function (tr) {
    const done = k >= Number(tr.getAttribute("data-done"));
    const td = tr.querySelector("td.grad");
    td.textContent = done ? tr.getAttribute("data-grad") : NOT_REACHED;
    td.classList.toggle("pending", !done);
  });
}

// Mark the row of node `active` (none: null) as the step's; returns that row.
export function markActive(tbody, active) {
  let hit = null;
  Array.prototype.forEach.call(tbody.querySelectorAll("tr[data-node]"), function (tr) {
    const on = tr.getAttribute("data-node") === active;
    tr.classList.toggle("active", on);
    if (on) { tr.setAttribute("aria-current", "step"); hit = tr; } else { tr.removeAttribute("aria-current"); }
  });
  return hit;
}
