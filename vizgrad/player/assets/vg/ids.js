// The scene's shape ids, read with the scheme Python writes (vizgrad/scene/ids.py):
// the page's data JSON and the lab's scene answer carry it as `ids`, so a rename in
// Python reaches the script with the data. Shared by the step player and the lab.

// the scheme the scripts were written against; setScheme() replaces it with the page's
let scheme = {
  box: "n-{node}", op: "o-{node}", text: "t-{node}-{slot}", cells: ["data", "grad"], caption: "cap-{line}",
  badge: "badge", badge_text: "badge-t",
  node: "^[ntcs]-([a-z]+\\d+)(?:-|$)", cell: "^t-(.+)-(data|grad)$", frame_label: "frame-label"
};
let cellRe = new RegExp(scheme.cell);
let nodeRe = new RegExp(scheme.node);

// Use the scheme of the data on the page (a page without one keeps the built-in scheme).
export function setScheme(given) {
  if (!given) { return; }
  scheme = Object.assign({}, scheme, given);
  cellRe = new RegExp(scheme.cell);
  nodeRe = new RegExp(scheme.node);
}

function build(pattern, fields) {
  return pattern.replace(/\{(\w+)\}/g, function (m, k) { return String(fields[k]); });
}

// the id of node n's box
export function boxId(n) { return build(scheme.box, { node: n }); }
// the id of node n's op circle
export function opId(n) { return build(scheme.op, { node: n }); }
// the id of node n's text in slot `slot` ("data", "grad", "name", ...)
export function textId(n, slot) { return build(scheme.text, { node: n, slot: slot }); }
// the id of line i of the picture's caption
export function captionId(i) { return build(scheme.caption, { line: i }); }
// the ids of the caption's badge: its rect and its text
export function badgeIds() { return { rect: scheme.badge, text: scheme.badge_text }; }
// the id of an opened group's label
export function frameLabelId() { return scheme.frame_label; }
// the table's value columns, in order
export function cellSlots() { return scheme.cells.slice(); }

// {node, slot} of a text that the node table shows (a value or a grad), else null
export function cellOf(id) {
  const m = cellRe.exec(id);
  return m ? { node: m[1], slot: m[2] } : null;
}

// the node a shape belongs to (its box, texts, cells, separator), else null
export function nodeOf(id) {
  const m = nodeRe.exec(id);
  return m ? m[1] : null;
}
