"""Groups opened in place: each opened group a framed cluster where its box was.

:func:`open_scene` draws a graph collapsed with some groups opened
(:func:`vizgrad.graph.collapse.collapse` with ``expand``) from several layouts: the
collapsed picture's own layout (``base``), with each opened group's box made
as large as its content, and one layout per opened group of what is inside it
(its values, and the boxes of its groups one level down). The outer layout is
the base's DOT with only box sizes changed, so every other box keeps its rank
and its order within the rank; an edge from outside into an opened group
follows the outer edge to the frame, then the inner one to its member. The result is a
plain :class:`~vizgrad.scene.scene.Scene` whose ``opened`` field holds the frames
(:class:`~vizgrad.scene.frames.Opened`)::

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> from vizgrad.scene.make import scene_of
    >>> G = vizgrad.examples.graph("mlp")
    >>> base = scene_of(collapse(G, "neuron"))
    >>> s = open_scene(collapse(G, "neuron", expand=["L0/N1"]), base=base, source=G)
    >>> [f.path for f in s.opened.frames], s.opened.frames[0].rect[2] > 100
    (['L0/N1'], True)
"""

from __future__ import annotations

from typing import Any

from .layout import geometry as gm
from . import ids
from ..style.metrics import width
from .layout.run import DEFAULT_TIMEOUT, run_layout
from .dot import LABEL_H
from .frames import PAD, Frame, Opened, label_band, step_map
from .parts import kind
from .plan import Plan, plan, require_graph
from .scene import Scene

__all__ = ["open_scene"]

_PORT = 1.0  # points: where edges from outside enter a cluster's layout


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


def open_scene(x: Any, *, base: Scene, source: Any, backend: str | None = None,
               timeout: float = DEFAULT_TIMEOUT, **options: Any) -> Scene:
    """The :class:`~vizgrad.scene.scene.Scene` of graph ``x`` (collapsed with some groups
    opened) laid out in place of the boxes of ``base`` (the same graph collapsed with none
    opened); ``source`` is the graph both were collapsed from. Its ``opened`` field holds
    each opened group's frame; the options not given are ``base``'s."""
    require_graph(x, "open_scene")
    for key in ("preset", "theme", "rankdir", "decimals", "trim", "lang"):
        options.setdefault(key, getattr(base, key))
    options.setdefault("scale", base.scale)
    p = plan(x, **options)
    o = _Opening(p, base, source)
    geo, frames = o.geometry(backend, timeout)
    steps = step_map(base.facts, p.facts, list(o.opened))
    return Scene(p, geo, Opened(o.opened, frames, tuple(tuple(r) for r in steps), base.last))


class _Opening:
    """The layouts of one picture of opened groups: who is where, and each layout run."""

    def __init__(self, p: Plan, base: Scene, source: Any) -> None:
        self.plan, self.graph, self.base, self.source = p, p.facts, base, source
        self.opened: tuple[str, ...] = ()
        self._base_edges: dict[tuple[str, str], list[str]] = {}
        for (u, v, slot) in base.edge_texts:
            self._base_edges.setdefault((u, v), []).append(ids.edge(u, v, slot))

    def kind(self, n: str) -> str:
        return kind(self.graph, n)

    def frame_label(self, path: str) -> str:
        """The label of an opened group's frame: its path and how many values it holds."""
        size = sum(1 for _, g in self.source.nodes(data="group")
                   if g and (str(g) == path or str(g).startswith(path + "/")))
        return f"{path} · {self.plan.word('box.group', size=f'{size:,}')}"

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
    def geometry(self, backend: str | None,
                 timeout: float) -> tuple[gm.Geometry, tuple[Frame, ...]]:
        """The composed geometry, and each opened group's frame (parents first)."""
        G, base, p = self.graph, self.base, self.plan.preset
        self._base_box = {str(base.facts.nodes[b]["group"]): b for b in base.order
                          if base.kind(b) == "group" and base.facts.nodes[b].get("group")}
        opened: set[str] = set()
        for n in G:  # the opened groups: paths some value (or smaller box) lies inside
            g = G.nodes[n].get("group")
            if g:
                parts = str(g).split("/")
                top = len(parts) - (self.kind(n) == "group")
                opened.update("/".join(parts[:d]) for d in range(1, top + 1))
        self.opened = tuple(sorted((q for q in opened if self._opens(q, opened)),
                                   key=lambda q: (q.count("/"), q)))
        self._where = {n: self._containers(n) for n in G}
        levels: dict[str | None, dict[tuple[str, str, Any], tuple[float, float] | None]] = {}
        segments: dict[tuple[str, str, int], list[tuple[str | None, tuple[str, str, Any]]]] = {}
        for (u, v, slot), text in self.plan.edge_texts.items():
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
        band = label_band(p)
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
                boxes[name] = self.plan.box_sizes[n]
                if name in ops and n in self.plan.op_sizes:
                    ops[name] = self.plan.op_sizes[n]
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
                boxes[r] = self.plan.box_sizes[n]
                ops.update({r: self.plan.op_sizes[n]} if n in self.plan.op_sizes else {})
            else:
                boxes[r] = self.plan.box_sizes[r]
                if r in self.plan.op_sizes:
                    ops[r] = self.plan.op_sizes[r]
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
                 band: float) -> tuple[gm.Geometry, tuple[Frame, ...]]:
        """One geometry in the outer layout's frame: each cluster's content inside its box."""
        geo = gm.Geometry(outer.width, outer.height)
        offset: dict[str | None, tuple[float, float]] = {None: (0.0, 0.0)}
        layout: dict[str | None, gm.Geometry] = {None: outer, **inner}
        frames: list[Frame] = []
        for q in self.opened:  # parents first
            parent = next((c for c in reversed(self._opened_over(q))), None)
            cx, cy, w, h = layout[parent].nodes[self._open_box(q, parent)]
            ox, oy = offset[parent]
            x, y = cx - w / 2 + ox, cy - h / 2 + oy
            offset[q] = (x + (w - inner[q].width) / 2, y + band + PAD)
            frames.append(Frame(q, (x, y, w, h), self.frame_label(q)))
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
        return geo, tuple(frames)

    def _opened_over(self, q: str) -> list[str]:
        return [c for c in self.opened if q.startswith(c + "/")]

    def _outer_edge(self, key: tuple[str, str, Any]) -> str:
        """The id, in the base's layout, of the edge ``key`` stands for."""
        u, v, slot = key
        known = self._base_edges.get((u, v), [])
        want = ids.edge(u, v, slot)
        return want if want in known else (known[0] if known else want)
