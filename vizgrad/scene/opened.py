"""Groups opened in place: each opened group a framed cluster where its box was.

An :class:`OpenScene` draws a graph collapsed with some groups opened
(:func:`vizgrad.graph.collapse.collapse` with ``expand``) from several layouts: the
collapsed picture's own layout (``base``), with each opened group's box made
as large as its content, and one layout per opened group of what is inside it
(its values, and the boxes of its groups one level down). The outer layout is
the base's DOT with only box sizes changed, so every other box keeps its rank
and its order within the rank; an edge from outside into an opened group
follows the outer edge to the frame, then the inner one to its member::

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> from vizgrad.scene.scene import Scene
    >>> G = vizgrad.examples.graph("mlp")
    >>> base = Scene(collapse(G, "neuron"))
    >>> s = OpenScene(collapse(G, "neuron", expand=["L0/N1"]), base=base, source=G)
    >>> [f["path"] for f in s.frames], s.frames[0]["rect"][2] > 100
    (['L0/N1'], True)
"""

from __future__ import annotations

from typing import Any

from .layout import geometry as gm
from . import ids
from ..style.metrics import width
from .layout.run import run_layout
from .dot import LABEL_H
from .scene import Scene

__all__ = ["PAD", "OpenScene", "label_band", "step_map"]

#: points between an opened group's content and its frame
PAD = 8.0
_PORT = 1.0  # points: where edges from outside enter a cluster's layout


def label_band(scene: Scene) -> float:
    """The height, in points, of the band at the top of a frame where its label goes."""
    return scene.preset.font * 0.85 * 1.7


def _join(a: gm.Point, b: gm.Point) -> list[gm.Point]:
    """A straight Bezier piece from ``a`` to ``b`` (its three further control points)."""
    dx, dy = (b[0] - a[0]) / 3, (b[1] - a[1]) / 3
    return [(a[0] + dx, a[1] + dy), (a[0] + 2 * dx, a[1] + 2 * dy), b]


def _moved(e: gm.Edge, off: tuple[float, float]) -> gm.Edge:
    def m(p: gm.Point) -> gm.Point:
        return (round(p[0] + off[0], 3), round(p[1] + off[1], 3))
    return gm.Edge(tuple(m(p) for p in e.points), m(e.tip) if e.tip else None,
                   m(e.label) if e.label else None)


def _chain(pieces: list[gm.Edge]) -> gm.Edge:
    """One edge along ``pieces`` in turn (each but the last up to its arrow tip)."""
    pts = list(pieces[0].points)
    for prev, nxt in zip(pieces, pieces[1:]):
        if prev.tip is not None:
            pts += _join(pts[-1], prev.tip)
        if nxt.points and nxt.points[0] != pts[-1]:
            pts += _join(pts[-1], nxt.points[0])
        pts += list(nxt.points[1:])
    return gm.Edge(tuple(pts), pieces[-1].tip, pieces[-1].label)


def _set(scene: Scene, **fields: Any) -> None:
    """Set an opened scene's own fields while it is built (a Scene is frozen)."""
    for name, value in fields.items():
        object.__setattr__(scene, name, value)


class OpenScene(Scene):
    """A :class:`Scene` of ``x`` (collapsed with some groups opened) laid out in place of the
    boxes of ``base`` (the same graph collapsed with none opened); ``source`` is the graph
    both were collapsed from. :attr:`frames` holds each opened group's frame."""

    def __init__(self, x: Any, *, base: Scene, source: Any, **options: Any) -> None:
        _set(self, base=base, source=source)
        for key in ("preset", "theme", "rankdir", "decimals", "trim", "lang"):
            options.setdefault(key, getattr(base, key))
        options.setdefault("scale", base.scale)
        super().__init__(x, **options)

    def frame_label(self, path: str) -> str:
        """The label of an opened group's frame: its path and how many values it holds."""
        size = sum(1 for _, g in self.source.nodes(data="group")
                   if g and (str(g) == path or str(g).startswith(path + "/")))
        return f"{path} · {self.word('box.group', size=f'{size:,}')}"

    def caption_texts(self, k: int | None) -> list[str]:
        """The caption counts the collapsed picture's steps, as the player's counter:
        "step 12 / 13 (inside L0/N1: 1 of 5)"."""
        lines = super().caption_texts(k)
        if k is None or not lines:
            return lines
        if not hasattr(self, "_steps"):
            _set(self, _steps=step_map(self.base.graph, self.graph, list(self.opened)))
        own = self.word("caption.step", k=k, n=self.last)
        K, i, n, path = self._steps[k]
        said = self.word("caption.step", k=K, n=self.base.last)
        if path:
            said += " " + self.word("player.inside", path=path, i=i, n=n)
        if lines[0].startswith(own):
            lines = [said + lines[0][len(own):], *lines[1:]]
        return lines

    # -- who is where ---------------------------------------------------------------
    def _containers(self, n: str) -> list[str]:
        g = self.graph.nodes[n].get("group")
        if not g:
            return []
        g = str(g)
        return [p for p in self.opened if g == p or g.startswith(p + "/")]

    def _rep(self, n: str, level: str | None) -> str:
        """The node standing for ``n`` in the layout of ``level`` (``None``: the outer one)."""
        cs = self._where[n]
        at = 0 if level is None else cs.index(level) + 1
        if at < len(cs):
            return self._open_box(cs[at], level)
        if level is None and self.kind(n) == "group":
            return self._base_box[str(self.graph.nodes[n]["group"])]
        if level is not None and self.kind(n) == "group":
            return "box:" + str(self.graph.nodes[n]["group"])
        return n

    def _open_box(self, path: str, level: str | None) -> str:
        return self._base_box[path] if level is None else "box:" + path

    def _first(self, n: str) -> int:
        """The place of ``n`` in the source graph's order (a box: its first member's)."""
        a = self.graph.nodes[n]
        if a.get("kind") == "group" and a.get("members"):
            return min(int(self.source.nodes[m].get("order", 0)) for m in a["members"]
                       if m in self.source)
        return int(a.get("order", 0))

    # -- the layouts ------------------------------------------------------------------
    def _geometry(self, backend: str | None, timeout: float) -> gm.Geometry:
        G, base, p = self.graph, self.base, self.preset
        _set(self, _base_box={str(base.graph.nodes[b]["group"]): b for b in base.order
                              if base.kind(b) == "group" and base.graph.nodes[b].get("group")})
        opened: set[str] = set()
        for n in G:  # the opened groups: paths some value (or smaller box) lies inside
            g = G.nodes[n].get("group")
            if g:
                parts = str(g).split("/")
                top = len(parts) - (self.kind(n) == "group")
                opened.update("/".join(parts[:d]) for d in range(1, top + 1))
        _set(self, opened=tuple(sorted((q for q in opened if self._opens(q, opened)),
                                       key=lambda q: (q.count("/"), q))))
        _set(self, _where={n: self._containers(n) for n in G})
        levels: dict[str | None, dict[tuple[str, str, Any], tuple[float, float] | None]] = {}
        segments: dict[tuple[str, str, int], list[tuple[str | None, tuple[str, str, Any]]]] = {}
        for (u, v, slot), text in self.edge_texts.items():
            cu, cv = self._where[u], self._where[v]
            k = 0
            while k < min(len(cu), len(cv)) and cu[k] == cv[k]:
                k += 1
            common = cu[k - 1] if k else None
            ru, rv = self._rep(u, common), self._rep(v, common)
            size = ((width(text, p.label) + p.label * 0.5, p.label * LABEL_H) if text else None)
            segs: list[tuple[str | None, tuple[str, str, Any]]] = []
            for level in reversed(cu[k:]):
                segs.append((level, (self._rep(u, level), "out:" + rv, None)))
            last = not cv[k:]
            segs.append((common, (ru, rv, slot if last else None)))
            for level in cv[k:]:
                last = level == cv[-1]
                segs.append((level, ("in:" + ru, self._rep(v, level), slot if last else None)))
            for i, (level, key) in enumerate(segs):
                edges = levels.setdefault(level, {})
                if i == len(segs) - 1 and level is not None:
                    edges[key] = size
                elif key not in edges:
                    edges[key] = None
            segments[(u, v, slot)] = segs
        inner: dict[str, gm.Geometry] = {}
        names: dict[str, dict[tuple[str, str, Any], str]] = {}
        band = label_band(self)
        sizes: dict[str, tuple[float, float]] = {}
        for q in sorted(self.opened, key=lambda q: (-q.count("/"), q)):  # deepest first
            dot, names[q] = self._inner_dot(q, levels.get(q, {}), sizes)
            inner[q] = gm.parse(run_layout(dot, "json", backend, timeout))
            text = self.frame_label(q)  # a frame is never narrower than its label
            room = width(text + " ▴", p.font * 0.85, True) + 2 * PAD
            sizes["box:" + q] = (max(inner[q].width + 2 * PAD, room),
                                 inner[q].height + 2 * PAD + band)
        # the base's layout, each box as large as it is here (a box fed by an opened group
        # has a row per member it hears from), each opened one as large as its content
        boxes, ops = dict(base.box_sizes), dict(base.op_sizes)
        for n in G:
            name = self._rep(n, None)
            if not self._where[n] and name in boxes:
                boxes[name] = self.box_sizes[n]
                if name in ops and n in self.op_sizes:
                    ops[name] = self.op_sizes[n]
        for q in self.opened:
            if q in self._base_box:
                boxes[self._base_box[q]] = sizes["box:" + q]
        outer = gm.parse(run_layout(gm.layout_dot(boxes, ops, **base.dot_parts),
                                    "json", backend, timeout))
        return self._compose(outer, inner, names, segments, band)

    def _opens(self, q: str, opened: set[str]) -> bool:
        if q in self._base_box:
            return True
        parent = q.rsplit("/", 1)[0] if "/" in q else None
        return parent is not None and parent in opened and self._opens(parent, opened)

    def _inner_dot(self, q: str, edges: dict[tuple[str, str, Any], tuple[float, float] | None],
                   sizes: dict[str, tuple[float, float]]) -> tuple[str, dict[Any, str]]:
        """The layout of what is inside the opened group ``q``: its values and closed groups,
        the clusters of its opened groups (as boxes of their size), edge ends from outside."""
        G = self.graph
        first: dict[str, int] = {}
        for n in G:
            cs = self._where[n]
            if q in cs:
                r = self._rep(n, q)
                first[r] = min(first.get(r, 1 << 60), self._first(n))
        content = sorted(first, key=lambda r: (first[r], r))
        closed = {"box:" + str(G.nodes[m]["group"]): m for m in G if self.kind(m) == "group"}
        boxes: dict[str, tuple[float, float]] = {}
        ops: dict[str, tuple[float, float]] = {}
        for r in content:
            if r.startswith("box:") and r in sizes:
                boxes[r] = sizes[r]
            elif r.startswith("box:"):
                n = closed[r]
                boxes[r] = self.box_sizes[n]
                ops.update({r: self.op_sizes[n]} if n in self.op_sizes else {})
            else:
                boxes[r] = self.box_sizes[r]
                if r in self.op_sizes:
                    ops[r] = self.op_sizes[r]
        ins = sorted({t for t, _, _ in edges if t.startswith("in:")})
        outs = sorted({h for _, h, _ in edges if h.startswith("out:")})
        for port in ins + outs:
            boxes[port] = (_PORT, _PORT)
        names = {key: f"s{i}" for i, key in enumerate(edges)}
        spec = [(t, h, names[key], edges[key]) for key in edges for t, h in [key[:2]]]
        parts = {**self.base.dot_parts, "inputs": (), "first": (), "sources": ins, "sinks": outs}
        parts.pop("edges")
        return gm.layout_dot(boxes, ops, spec, **parts), names

    def _compose(self, outer: gm.Geometry, inner: dict[str, gm.Geometry],
                 names: dict[str, dict[Any, str]],
                 segments: dict[tuple[str, str, int], list[tuple[str | None, Any]]],
                 band: float) -> gm.Geometry:
        """One geometry in the outer layout's frame: each cluster's content inside its box."""
        geo = gm.Geometry(outer.width, outer.height)
        offset: dict[str | None, tuple[float, float]] = {None: (0.0, 0.0)}
        layout: dict[str | None, gm.Geometry] = {None: outer, **inner}
        frames: list[dict[str, Any]] = []
        for q in self.opened:  # parents first
            parent = next((c for c in reversed(self._opened_over(q))), None)
            cx, cy, w, h = layout[parent].nodes[self._open_box(q, parent)]
            ox, oy = offset[parent]
            x, y = cx - w / 2 + ox, cy - h / 2 + oy
            offset[q] = (x + (w - inner[q].width) / 2, y + band + PAD)
            frames.append({"path": q, "rect": [x, y, w, h]})
        _set(self, frames=tuple(frames))
        for n in self.graph:
            level = self._where[n][-1] if self._where[n] else None
            name = self._rep(n, level)
            ox, oy = offset[level]
            for a, b in ((name, n), (gm.op_id(name), gm.op_id(n))):
                if a in layout[level].nodes:
                    x, y, w, h = layout[level].nodes[a]
                    geo.nodes[b] = (round(x + ox, 3), round(y + oy, 3), w, h)
            if ids.op_edge(name) in layout[level].edges:
                geo.edges[ids.op_edge(n)] = _moved(layout[level].edges[ids.op_edge(name)],
                                                   offset[level])
        for (u, v, slot), segs in segments.items():
            pieces = []
            for level, key in segs:
                if level is None:
                    e = outer.edges.get(self._outer_edge(key))
                else:
                    e = inner[level].edges.get(names[level][key])
                if e is None:
                    break
                pieces.append(_moved(e, offset[level]))
            else:
                geo.edges[ids.edge(u, v, slot)] = _chain(pieces)
        return geo

    def _opened_over(self, q: str) -> list[str]:
        return [c for c in self.opened if q.startswith(c + "/")]

    def _outer_edge(self, key: tuple[str, str, Any]) -> str:
        """The id, in the base's layout, of the edge ``key`` stands for."""
        u, v, slot = key
        if not hasattr(self, "_base_edges"):
            self._base_edges: dict[tuple[str, str], list[str]] = {}
            for (a, b, s) in self.base.edge_texts:
                self._base_edges.setdefault((a, b), []).append(ids.edge(a, b, s))
        known = self._base_edges.get((u, v), [])
        want = ids.edge(u, v, slot)
        return want if want in known else (known[0] if known else want)


def step_map(H: Any, E: Any, opened: list[str]) -> list[list[Any]]:
    """For each step of ``E`` (``H`` with the groups ``opened``), the step of ``H`` it belongs
    to, and inside an opened group which of that step's steps it is: ``[k, i, n, path]``
    (``i``, ``n`` 0 and ``path`` "" outside), so the counter keeps ``H``'s numbering.

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> G = vizgrad.examples.graph("mlp")
    >>> H = collapse(G, "neuron")
    >>> m = step_map(H, collapse(G, "neuron", expand=["L0/N1"]), ["L0/N1"])
    >>> m[1], m[2], m[6], m[16], m[21]
    ([1, 0, 0, ''], [2, 1, 5, 'L0/N1'], [2, 5, 5, 'L0/N1'], [12, 1, 5, 'L0/N1'], [13, 0, 0, ''])
    """
    box = {str(H.nodes[b]["group"]): b for b in H if H.nodes[b].get("kind") == "group"}
    by_from = {s["from"]: s["index"] for s in H.graph["steps"]}
    by_node = {(s["node"], s["kind"] == "forward"): s["index"] for s in H.graph["steps"]
               if s.get("node") is not None}
    out: list[list[Any]] = []
    for s in E.graph["steps"]:
        g = str(E.nodes[s["node"]].get("group") or "") if s.get("node") in E else ""
        inside = [p for p in opened if g == p or g.startswith(p + "/")]
        k = None
        if inside:
            top = next((p for p in sorted(inside, key=len) if p in box), None)
            k = by_node.get((box[top], s["kind"] == "forward")) if top else None
            path = max(inside, key=len)
        if k is None:
            k = by_from.get(s["from"])
            inside = []
        if k is None:  # no such step collapsed: the last one before it
            k = max((i for f, i in by_from.items() if f <= s["from"]), default=0)
        out.append([k, 0, 0, path if inside else ""])
    for j, row in enumerate(out):
        if row[3]:
            same = [i for i, r in enumerate(out) if r[0] == row[0]]
            row[1], row[2] = same.index(j) + 1, len(same)
    return out
