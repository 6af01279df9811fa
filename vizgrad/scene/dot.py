"""The DOT a drawing's plan hands Graphviz: each box sized for the widest text it shows in
any step, each edge label's room, and the ranks to line up.

The functions take the graph (or its :class:`~vizgrad.graph.facts.GraphFacts`), the
picture's :class:`~vizgrad.scene.parts.Settings` and what the plan worked out before them
(the drawing order, the edge texts, the parameter and input rows); :func:`dot_parts` and
the sizes make the DOT (:func:`vizgrad.scene.plan.plan`)::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.plan import plan
    >>> p = plan(examples.graph("fork"))
    >>> box_texts(p.facts, p.order, p)["v0"]
    ('a', ['pending', '—', '−2', '−3', '−6'])
    >>> from vizgrad.scene.layout.geometry import layout_dot
    >>> parts = dot_parts(p.facts, p, p.order, p.collapsed, p.edge_texts, p.to_output,
    ...                   p.op_sizes, p.free)
    >>> p.dot == layout_dot(dict(p.box_sizes), dict(p.op_sizes), **parts)
    True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from .layout import geometry as gm
from . import ids
from ..style import text as tx
from ..style.metrics import width
from .cells import GradRows, is_row, row_text
from .groups import box_name, row_labels
from .labels import MANY_LABELS
from .matrix import COMPACT_ROOM
from .parts import kind
from .shapes import ROW, op_glyph

if TYPE_CHECKING:
    from .parts import Settings

__all__ = ["LABEL_H", "aligned", "box_sizes", "box_texts", "dot_parts", "edge_texts",
           "free_edges", "heights", "numbered", "op_sizes"]

_SPAN_BUDGET = 1500  # ranks that long edges may cross in all before the longest go free
_LONG = 3  # ranks an edge may cross and still be laid out, past the budget
#: the room an edge label takes across its edge, relative to its text
LABEL_H = 1.65

Edge = tuple[str, str, int]


def edge_texts(G: Any, order: Any, by_edge: Mapping[Edge, Any], collapsed: bool,
               s: Settings) -> dict[Edge, str | None]:
    """Every operand edge (tail, head, slot) in drawing order, with its label text
    (``by_edge``: the contributions by their edge; ``collapsed``: amounts alone)."""
    rank = {n: i for i, n in enumerate(order)}
    edges = sorted(G.edges(keys=True), key=lambda e: (rank[e[1]], e[2], rank[e[0]]))
    out: dict[Edge, str | None] = {}
    label = tx.amount_text if collapsed else tx.contribution_text
    for u, v, slot in edges:
        c = by_edge.get((v, u, slot))
        if c is None or (collapsed and c["amount"] == 0):  # a dead neuron's edges: grey
            out[(u, v, slot)] = None
            continue
        out[(u, v, slot)] = label(c, s.decimals, s.trim, s.lang)
    return out


def box_texts(G: Any, order: Any, s: Settings) -> dict[str, tuple[str, list[str]]]:
    """For each node: its name and every value text its box can show (for its width)."""
    shown: dict[str, set[float]] = {}
    for step in G.graph["steps"]:
        if step["kind"] == "seed":
            shown.setdefault(step["node"], set()).add(step["grad"])
        for c in step.get("contributions", ()):
            shown.setdefault(c["target"], set()).add(c["after"])
    out = {}
    rows = GradRows(G, order)
    for n in order:
        vals = [s.word("pending"), tx.NOT_REACHED]
        if "data" in G.nodes[n]:
            vals.append(s.num(G.nodes[n]["data"]))
        vals += [s.num(v) for v in G.nodes[n].get("by_sample", ())]  # a player's choice
        if G.nodes[n].get("all") is not None:
            vals.append(s.num(G.nodes[n]["all"]))
        vals += sorted(s.num(v) for v in shown.get(n, ()))
        if is_row(G, n):  # a layer's rows of cells: data, and the grads after each step
            vals.append(row_text([s.num(c[1]) for c in G.nodes[n]["cells"]]))
            vals += [row_text([s.num(g) for g in row]) for row in rows.rows.get(n, ())]
        out[n] = (box_name(G, n, s.word), vals)
    return out


def _cols(rows: Any) -> int:
    """Parameter cells per row of a group box: two once a neuron has four or more."""
    return 2 if len(rows) >= 4 else 1


def box_sizes(G: Any, order: Any, s: Settings, params: Mapping[str, Any],
              inrows: Mapping[str, Any],
              matrices: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Each box's width and height, in points: room for its widest text of any step
    (``params``, ``inrows`` and ``matrices``: each group box's parameter and input rows, a
    layer box's matrix and its grid)."""
    p = s.preset
    f, line = p.font, 1.3 * p.font
    out: dict[str, tuple[float, float]] = {}
    for n, (name, vals) in box_texts(G, order, s).items():
        if kind(G, n) in ("const", "stub"):
            out[n] = (width(name, f * 0.9) + f, line + f * 0.4)
            continue
        if kind(G, n) == "inputs" and n in matrices:  # its name, then its matrix
            grid = matrices[n][1]
            out[n] = (max(width(name, f, True), grid.width) + f * 1.2,
                      line + grid.height + f * 0.6)
            continue
        rows = params.get(n, ())
        labels = row_labels(G, n, s.word)  # a layer's sums, a net's sample
        inner = max(width(v, f) for v in vals) + f * 0.8 + max(width(w, ROW * f) for w in labels)
        cols = _cols(rows)
        if rows:  # parameter cells side by side: each as wide as the widest
            cell = max(width(s.num(g), f) + width(r, ROW * f) for r, g in rows) + f * 1.4
            inner = max(inner, cols * cell - f * 0.6)
        ins = inrows.get(n, ())
        icols = _cols(ins)
        if ins:  # a cell per box feeding this one, side by side as the parameters
            cell = max(width(a, ROW * f) + width(v, f) for _, (a, v) in ins) + f * 1.4
            inner = max(inner, icols * cell - f * 0.6)
        below = 0.0
        if n in matrices:  # a layer's parameters as a matrix, under its rows
            grid = matrices[n][1]
            if grid.compact:  # on slides: its rows elided to the room (looks.py)
                inner = min(inner, COMPACT_ROOM * f)
            inner, below = max(inner, grid.width), grid.height + 0.3 * f
        out[n] = (max(width(name, f, True), inner) + f * 1.2,
                  (3 + -(-len(rows) // cols) + -(-len(ins) // icols)) * line + f * 0.6 + below)
    return out


def op_sizes(G: Any, order: Any, p: Any) -> dict[str, tuple[float, float]]:
    """Each op circle's width and height, in points, by the node it computes (``p``: the
    preset)."""
    out: dict[str, tuple[float, float]] = {}
    for n in order:
        if G.in_degree(n) and kind(G, n) not in ("group", "stub"):
            glyph = op_glyph(str(G.nodes[n].get("op", "")))
            h = p.op * 1.45
            out[n] = (max(h, width(glyph, p.op * 0.8) + p.op * 0.7), h)
    return out


def heights(G: Any, order: Any) -> dict[str, int]:
    """Each node's longest path to an output: about how far right (LR) it lands."""
    height: dict[str, int] = {}
    for n in reversed(order):  # an edge back in the order (a focus stub) counts not
        height[n] = 1 + max((height[v] for v in G.successors(n) if v in height), default=-1)
    return height


def free_edges(to_output: Mapping[str, int], edges: Any, order: Any) -> set[Edge]:
    """Edges left out of the layout and drawn straight: only when the graph has so
    many long edges (a value shared across a deep chain, like ``a*b + a*b + ...``)
    that laying them out would take Graphviz minutes (``to_output``: :func:`heights`)."""
    h = to_output
    spans = {e: h[e[0]] - h[e[1]] - 1 for e in edges}
    if sum(spans.values()) <= _SPAN_BUDGET + 4 * len(order):
        return set()
    return {e for e, span in spans.items() if span > _LONG}


def numbered(G: Any, inputs: Sequence[str]) -> list[tuple[str, str]]:
    """Inputs named one stem and a number (``z0``, ``z1`` … ``z10``), as pairs of each and
    the next by number: the layout keeps each pair in that order."""
    family: dict[str, list[tuple[int, str]]] = {}
    for n in inputs:
        m = re.fullmatch(r"(.*?)(\d+)", G.nodes[n].get("label") or "")
        if m:
            family.setdefault(m.group(1), []).append((int(m.group(2)), n))
    pairs = []
    for members in family.values():
        names = [n for _, n in sorted(members)]
        pairs += zip(names, names[1:])
    return pairs


def aligned(G: Any, height: Mapping[str, int], order: Any, collapsed: bool,
            ops: Any) -> tuple[list[str], list[str]]:
    """Inputs to line up in the first rank, and first ops to line up in one rank,
    each only when that stretches edges little (a deep chain would make every
    input edge long, and the layout slow)."""
    top = max(height.values(), default=0)
    budget = max(200, 2 * len(order))
    inputs = [n for n in order if kind(G, n) == "input" and G.out_degree(n)]
    if collapsed or sum((top - height[n]) * G.out_degree(n) for n in inputs) > budget:
        inputs = []
    leaves = {n for n in order if kind(G, n) in ("input", "const")}
    first = [n for n in ops if all(u in leaves for u in G.predecessors(n))]
    if first and sum(max(height[n] for n in first) - height[n] for n in first) > budget:
        first = []
    return inputs, first


def dot_parts(G: Any, s: Settings, order: Any, collapsed: bool,
              texts: Mapping[Edge, str | None], to_output: Mapping[str, int], ops: Any,
              free: Any) -> dict[str, Any]:
    """What :func:`~vizgrad.scene.layout.geometry.layout_dot` needs besides the box and op
    sizes: the laid-out edges with their labels' room (``texts``: each edge's label),
    the aligned ranks, the spacing."""
    p = s.preset
    sizes = {e: (width(label, p.label) + p.label * 0.5, p.label * LABEL_H)
             for e, label in texts.items() if label}
    # Past MANY_LABELS, left to right, Graphviz lays out no label (layout_dot's joined): the
    # gaps between ranks hold nine labels in ten, an edge with a longer one spans more ranks.
    # Top to bottom a label lies across its edge, and only Graphviz keeps room beside it.
    joined = None
    if len(sizes) > MANY_LABELS and s.rankdir == "LR":
        wide = sorted(w for w, _ in sizes.values())
        joined = (wide[len(wide) * 9 // 10], p.label * LABEL_H)
    edges = tuple((u, v, ids.edge(u, v, slot), sizes.get((u, v, slot)))
                  for (u, v, slot) in texts if (u, v, slot) not in free)
    inputs, first = aligned(G, to_output, order, collapsed, ops)
    return dict(edges=edges, inputs=tuple(inputs), first=tuple(first),
                ordered=tuple(numbered(G, inputs)),
                rankdir=s.rankdir, font=p.label * LABEL_H / gm.LINE_EM,
                nodesep=p.nodesep * (0.6 if collapsed else 1), ranksep=p.ranksep,
                **({} if joined is None else {"joined": joined}))
