// The picture's caption kept in sight while the picture scrolls. Shared by the step player
// (one line) and the lab (every line, wrapped, over the picture).
import { captionId } from "./ids.js";

// the caption's lines in the picture (`prefix` of the ids), first to last
export function captionLines(svg, prefix) {
  const out = [];
  const doc = svg.ownerDocument;
  for (let i = 0; ; i++) {
    const el = svg.querySelector("#" + CSS.escape(prefix + captionId(i))) ||
      doc.getElementById(prefix + captionId(i));
    if (!el) { return out; }
    out.push(el);
  }
}

// While the picture's own caption (its first line) is scrolled out of `box`, `line` shows it
// and gets the class "on"; the line keeps its height either way, so nothing moves.
export function captionLine(box, svg, prefix, line) {
  const cap = captionLines(svg, prefix)[0];
  if (!cap || !line) { return; }
  const c = cap.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const away = c.top < b.top || c.left < b.left;
  line.textContent = away ? cap.textContent : "";
  line.classList.toggle("on", away);
}

// While a line of the caption (the step, then its chain rule) is cut at an edge of `box` or
// scrolled away, `over` shows all of them (one <div> each) and gets the class "on".
export function captionOver(box, svg, prefix, over) {
  const lines = captionLines(svg, prefix)
    .filter(function (el) { return el.getAttribute("display") !== "none" && el.textContent.trim(); });
  const b = box.getBoundingClientRect();
  const cut = lines.some(function (el) {
    const r = el.getBoundingClientRect();
    return r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5;
  });
  over.replaceChildren.apply(over, (cut ? lines : []).map(function (el) {
    return Object.assign(document.createElement("div"), { textContent: el.textContent });
  }));
  over.classList.toggle("on", cut);
}

// The caption as the page's own text above the picture (the step player): `box` gets the
// badge (its word and colours) and one <div> per caption line shown in the picture, read from
// the picture's caption shapes (outside its view), so it wraps to the screen. `badge`: the
// ids of the badge's rect and text.
export function captionText(svg, prefix, box, badge) {
  if (!box || box.hidden) { return; }
  const doc = svg.ownerDocument;
  const get = function (id) {
    return svg.querySelector("#" + CSS.escape(prefix + id)) || doc.getElementById(prefix + id);
  };
  const lines = captionLines(svg, prefix)
    .filter(function (el) { return el.getAttribute("display") !== "none" && el.textContent.trim(); });
  const rect = badge ? get(badge.rect) : null;
  const word = badge ? get(badge.text) : null;
  const tag = box.querySelector(".badge");
  if (tag && word) {
    tag.textContent = word.textContent;
    tag.style.background = rect ? rect.getAttribute("fill") : "";
    tag.style.color = word.getAttribute("fill") || "";
  }
  box.querySelector(".lines").replaceChildren.apply(box.querySelector(".lines"), lines.map(function (el) {
    return Object.assign(doc.createElement("div"), { textContent: el.textContent });
  }));
}
