// When a group opens or closes, the boxes of the new picture glide from where they were in
// the old one to their new places (about 300 ms); new boxes, edges and frames fade in; nothing
// moves when the reader asks for reduced motion. Shared by the step player and the lab.
import { boxId, nodeOf, opId } from "./ids.js";

// how long a box takes to reach its new place, in ms (player.css and lab.css say 0.3s)
export const GLIDE_MS = 300;

export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function byId(svg, id) { return svg.querySelector("#" + CSS.escape(id)); }

function corner(el) {
  if (!el) { return null; }
  if (el.tagName === "ellipse") {
    return [Number(el.getAttribute("cx")), Number(el.getAttribute("cy"))];
  }
  return [Number(el.getAttribute("x")), Number(el.getAttribute("y"))];
}

// Glide the boxes of `now` (an <svg>) from their places in `was`. `oldNode(n)` is the id, in
// `was`, of node n of `now` (a group box has another id in each picture), null when it was
// not drawn there.
export function glide(was, now, prefix, oldNode) {
  const boxOf = boxId;
  const opOf = opId;
  if (!was || !now || was === now || reducedMotion()) { return; }
  const delta = {};
  const moving = [];
  const shift = function (el, d) {
    if (!d || (Math.abs(d[0]) < 0.5 && Math.abs(d[1]) < 0.5)) { return; }
    el.style.transform = "translate(" + d[0] + "px, " + d[1] + "px)";
    moving.push(el);
  };
  Array.prototype.forEach.call(now.querySelectorAll("[id]"), function (el) {
    const sid = el.id.slice(prefix.length);
    const n = nodeOf(sid);
    if (n !== null) {
      if (!(n in delta)) {
        const o = oldNode(n);
        const a = o === null ? null : corner(byId(was, prefix + boxOf(o)));
        const b = corner(byId(now, prefix + boxOf(n)));
        delta[n] = a && b ? [a[0] - b[0], a[1] - b[1]] : null;
      }
      if (delta[n] === null) { el.classList.add("vg-appear"); } else { shift(el, delta[n]); }
      return;
    }
    const op = el.tagName === "ellipse" ? sid.slice(sid.indexOf("-") + 1) : null;
    if (op !== null && sid === opOf(op)) {
      const o = oldNode(op);
      const a = o === null ? null : corner(byId(was, prefix + opOf(o)));
      const b = corner(el);
      if (a) { shift(el, [a[0] - b[0], a[1] - b[1]]); } else { el.classList.add("vg-appear"); }
      return;
    }
    if (el.parentNode === now || (el.parentNode && el.parentNode.parentNode === now)) {
      el.classList.add("vg-appear");  // edges, labels, frames: fade in
    }
  });
  now.getBoundingClientRect();  // the old places are laid out before the glide starts
  requestAnimationFrame(function () {
    moving.forEach(function (el) { el.classList.add("vg-moving"); el.style.transform = ""; });
    setTimeout(function () {
      moving.forEach(function (el) { el.classList.remove("vg-moving"); });
      Array.prototype.forEach.call(now.querySelectorAll(".vg-appear"), function (el) {
        el.classList.remove("vg-appear");
      });
    }, GLIDE_MS + 100);
  });
}
