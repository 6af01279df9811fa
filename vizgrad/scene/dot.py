"""The DOT a :class:`~vizgrad.scene.scene.Scene` hands Graphviz: each box sized for
the widest text it shows in any step, each edge label's room, and the ranks to line up.

The functions read the scene's public fields that are set before the layout (graph,
preset, order, edge texts, parameter and input rows); :func:`dot_parts` and the sizes
make the DOT::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.scene import Scene
    >>> scene = Scene(examples.graph("fork"))
    >>> box_texts(scene)["v0"]
    ('a', ['pending', '—', '−2', '−3', '−6'])
    >>> from vizgrad.scene.layout.geometry import layout_dot
    >>> parts = dot_parts(scene, scene.op_sizes, scene.free)
    >>> scene.dot == layout_dot(dict(scene.box_sizes), dict(scene.op_sizes), **parts)
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .layout import geometry as gm
from . import ids
from ..style import text as tx
from ..style.metrics import width
from .cells import GradRows, is_row, row_text
from .groups import box_name, row_labels
from .shapes import ROW, op_glyph

if TYPE_CHECKING:
    from .parts import Drawn

__all__ = ["LABEL_H", "aligned", "box_sizes", "box_texts", "dot_parts", "edge_texts",
           "free_edges", "heights", "op_sizes"]

_SPAN_BUDGET = 1500  # ranks that long edges may cross in all before the longest go free
_LONG = 3  # ranks an edge may cross and still be laid out, past the budget
#: the room an edge label takes across its edge, relative to its text
LABEL_H = 1.65

Edge = tuple[str, str, int]


def edge_texts(scene: Drawn) -> dict[Edge, str | None]:
    """Every operand edge (tail, head, slot) in drawing order, with its label text."""
    G = scene.graph
    rank = {n: i for i, n in enumerate(scene.order)}
    edges = sorted(G.edges(keys=True), key=lambda e: (rank[e[1]], e[2], rank[e[0]]))
    out: dict[Edge, str | None] = {}
    label = tx.amount_text if scene.collapsed else tx.contribution_text
    for u, v, slot in edges:
        c = scene.contributions.by_edge.get((v, u, slot))
        if c is None or (scene.collapsed and c["amount"] == 0):  # a dead neuron's edges: grey
            out[(u, v, slot)] = None
            continue
        out[(u, v, slot)] = label(c, scene.decimals, scene.trim, scene.lang)
    return out


def box_texts(scene: Drawn) -> dict[str, tuple[str, list[str]]]:
    """For each node: its name and every value text its box can show (for its width)."""
    G = scene.graph
    shown: dict[str, set[float]] = {}
    for s in G.graph["steps"]:
        if s["kind"] == "seed":
            shown.setdefault(s["node"], set()).add(s["grad"])
        for c in s.get("contributions", ()):
            shown.setdefault(c["target"], set()).add(c["after"])
    out = {}
    rows = GradRows(scene)
    for n in scene.order:
        vals = [scene.word("pending"), tx.NOT_REACHED]
        if "data" in G.nodes[n]:
            vals.append(scene.num(G.nodes[n]["data"]))
        vals += [scene.num(v) for v in G.nodes[n].get("by_sample", ())]  # a player's choice
        if G.nodes[n].get("all") is not None:
            vals.append(scene.num(G.nodes[n]["all"]))
        vals += sorted(scene.num(v) for v in shown.get(n, ()))
        if is_row(G, n):  # a layer's rows of cells: data, and the grads after each step
            vals.append(row_text([scene.num(c[1]) for c in G.nodes[n]["cells"]]))
            vals += [row_text([scene.num(g) for g in row]) for row in rows.rows.get(n, ())]
        out[n] = (box_name(scene, n), vals)
    return out


def _cols(rows: Any) -> int:
    """Parameter cells per row of a group box: two once a neuron has four or more."""
    return 2 if len(rows) >= 4 else 1


def box_sizes(scene: Drawn) -> dict[str, tuple[float, float]]:
    """Each box's width and height, in points: room for its widest text of any step."""
    p = scene.preset
    f, line = p.font, 1.3 * p.font
    out: dict[str, tuple[float, float]] = {}
    for n, (name, vals) in box_texts(scene).items():
        if scene.kind(n) in ("const", "stub"):
            out[n] = (width(name, f * 0.9) + f, line + f * 0.4)
            continue
        rows = scene.params.get(n, ())
        labels = row_labels(scene, n)  # a layer's sums, a net's sample
        inner = max(width(v, f) for v in vals) + f * 0.8 + max(width(w, ROW * f) for w in labels)
        cols = _cols(rows)
        if rows:  # parameter cells side by side: each as wide as the widest
            cell = max(width(scene.num(g), f) + width(r, ROW * f) for r, g in rows) + f * 1.4
            inner = max(inner, cols * cell - f * 0.6)
        ins = scene.inrows.get(n, ())
        icols = _cols(ins)
        if ins:  # a cell per box feeding this one, side by side as the parameters
            cell = max(width(a, ROW * f) + width(v, f) for _, (a, v) in ins) + f * 1.4
            inner = max(inner, icols * cell - f * 0.6)
        below = 0.0
        if n in scene.matrices:  # a layer's parameters as a matrix, under its rows
            grid = scene.matrices[n][1]
            inner, below = max(inner, grid.width), grid.height + 0.3 * f
        out[n] = (max(width(name, f, True), inner) + f * 1.2,
                  (3 + -(-len(rows) // cols) + -(-len(ins) // icols)) * line + f * 0.6 + below)
    return out


def op_sizes(scene: Drawn) -> dict[str, tuple[float, float]]:
    """Each op circle's width and height, in points, by the node it computes."""
    G, p = scene.graph, scene.preset
    out: dict[str, tuple[float, float]] = {}
    for n in scene.order:
        if G.in_degree(n) and scene.kind(n) not in ("group", "stub"):
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


def free_edges(scene: Drawn) -> set[Edge]:
    """Edges left out of the layout and drawn straight: only when the graph has so
    many long edges (a value shared across a deep chain, like ``a*b + a*b + ...``)
    that laying them out would take Graphviz minutes."""
    h = scene.to_output
    spans = {e: h[e[0]] - h[e[1]] - 1 for e in scene.edge_texts}
    if sum(spans.values()) <= _SPAN_BUDGET + 4 * len(scene.order):
        return set()
    return {e for e, span in spans.items() if span > _LONG}


def aligned(scene: Drawn, ops: Any) -> tuple[list[str], list[str]]:
    """Inputs to line up in the first rank, and first ops to line up in one rank,
    each only when that stretches edges little (a deep chain would make every
    input edge long, and the layout slow)."""
    G, height, order = scene.graph, scene.to_output, scene.order
    top = max(height.values(), default=0)
    budget = max(200, 2 * len(order))
    inputs = [n for n in order if scene.kind(n) == "input" and G.out_degree(n)]
    if scene.collapsed or sum((top - height[n]) * G.out_degree(n) for n in inputs) > budget:
        inputs = []
    leaves = {n for n in order if scene.kind(n) in ("input", "const")}
    first = [n for n in ops if all(u in leaves for u in G.predecessors(n))]
    if first and sum(max(height[n] for n in first) - height[n] for n in first) > budget:
        first = []
    return inputs, first


def dot_parts(scene: Drawn, ops: Any, free: Any) -> dict[str, Any]:
    """What :func:`~vizgrad.scene.layout.geometry.layout_dot` needs besides the box and op
    sizes: the laid-out edges with their labels' room, the aligned ranks, the spacing."""
    p = scene.preset
    edges = []
    for (u, v, slot), label in scene.edge_texts.items():
        size = (width(label, p.label) + p.label * 0.5, p.label * LABEL_H) if label else None
        if (u, v, slot) not in free:
            edges.append((u, v, ids.edge(u, v, slot), size))
    inputs, first = aligned(scene, ops)
    return dict(edges=tuple(edges), inputs=tuple(inputs), first=tuple(first),
                rankdir=scene.rankdir, font=p.label * LABEL_H / gm.LINE_EM,
                nodesep=p.nodesep * (0.6 if scene.collapsed else 1), ranksep=p.ranksep)
