"""One Graphviz layout per graph: the DOT that sizes every box, and the positions it returns.

vizgrad draws every step itself; Graphviz only places things, once. Each
value box, op circle and edge label enters the DOT with the size of the
widest content it shows in any step, so nothing moves or overflows between
steps. :func:`parse` reads Graphviz's ``json0`` (or ``json``) output into a
:class:`Geometry` in points with y pointing down::

    >>> dot = layout_dot({"v0": (60, 40), "v1": (60, 40)}, {"v1": (24, 24)},
    ...                  [("v0", "v1", "e0", (50, 16))], inputs=["v0"])
    >>> print(dot.splitlines()[6])
      "v1-op" [height="0.3333" shape="ellipse" width="0.3333"];
    >>> geo = parse('''{"bb": "0,0,100,40",
    ...   "objects": [{"_gvid": 0, "name": "v0", "pos": "20,20", "width": "0.5", "height": "0.5"}],
    ...   "edges": [{"_gvid": 0, "tail": 0, "head": 0, "id": "e0", "lp": "50,30",
    ...              "pos": "e,62,20 38,20 44,20 50,20 56,20"}]}''')
    >>> geo.width, geo.height, geo.nodes["v0"]
    (100.0, 40.0, (20.0, 20.0, 36.0, 36.0))
    >>> geo.edges["e0"].tip, geo.edges["e0"].label
    ((62.0, 20.0), (50.0, 10.0))
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ...exceptions import BackendError
from .. import ids

__all__ = ["ARROW", "CHAR_EM", "LINE_EM", "Edge", "Geometry", "layout_dot", "op_id", "parse",
           "straight", "unit"]

#: width of one Courier character, in em: edge-label placeholders are Courier
CHAR_EM = 0.6
#: line height of a placeholder label, in em
LINE_EM = 1.2
_BIG = 300  # nodes past which the layout trades some neatness for speed
_SMALL = 100  # nodes up to which the layout spends more time on fewer crossings
#: arrowhead length, points
ARROW = 9.0

Point = tuple[float, float]


def op_id(node: str) -> str:
    """The layout name of a value's op circle."""
    return f"{node}-op"


@dataclass(frozen=True)
class Edge:
    """One edge: Bezier control points (tail first), arrow tip, label centre."""

    points: tuple[Point, ...]
    tip: Point | None
    label: Point | None


@dataclass
class Geometry:
    """Layout size and, by name, node centres and sizes ``(x, y, w, h)`` and edges."""

    width: float
    height: float
    nodes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    edges: dict[str, Edge] = field(default_factory=dict)


def unit(a: Point, b: Point) -> Point:
    """The unit vector from ``a`` towards ``b`` (along x when they coincide)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    return dx / d, dy / d


def straight(a: Point, b: Point) -> Edge:
    """A straight edge from ``a`` to the arrow's tip ``b``, its label's centre midway.

    >>> straight((0.0, 0.0), (30.0, 0.0)).points
    ((0.0, 0.0), (7.0, 0.0), (14.0, 0.0), (21.0, 0.0))
    """
    ux, uy = unit(a, b)
    end = (b[0] - ux * ARROW, b[1] - uy * ARROW)
    third = ((end[0] - a[0]) / 3, (end[1] - a[1]) / 3)
    pts = (a, (a[0] + third[0], a[1] + third[1]), (a[0] + 2 * third[0], a[1] + 2 * third[1]), end)
    return Edge(pts, b, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))


def _q(text: str) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attrs(attrs: dict[str, str]) -> str:
    return "[" + " ".join(f"{k}={_q(attrs[k])}" for k in sorted(attrs)) + "]"


def _inch(points: float) -> str:
    return f"{points / 72:.4f}"


def _placeholder(size: tuple[float, float], font: float) -> str:
    """Courier text as wide and tall as ``size`` (points) at ``font`` points."""
    chars = max(1, math.ceil(size[0] / (CHAR_EM * font) - 1e-6))
    lines = max(1, math.ceil(size[1] / (LINE_EM * font) - 1e-6))
    return "\n".join(["X" * chars] * lines)


def layout_dot(boxes: dict[str, tuple[float, float]], ops: dict[str, tuple[float, float]],
               edges: Iterable[tuple[str, str, str, tuple[float, float] | None]], *,
               inputs: Sequence[str] = (), first: Sequence[str] = (), sources: Sequence[str] = (),
               sinks: Sequence[str] = (), ordered: Sequence[tuple[str, str]] = (),
               rankdir: str = "LR",
               font: float = 10.0,
               nodesep: float = 0.3, ranksep: float = 0.3,
               joined: tuple[float, float] | None = None) -> str:
    """DOT for the layout: fixed-size boxes and op circles, edges with sized label placeholders.

    Args:
        boxes: value node → (width, height) in points, in drawing order.
        ops: value node → op circle (width, height); the op feeds its value.
        edges: (tail, head, id, label size or None); a head with an op enters at its op.
        inputs: nodes placed together in the first rank.
        first: values computed from inputs alone: their ops share a rank, and so
            do their boxes, so parallel first steps (``exp(z0)``, ``exp(z1)``...) line up.
        sources, sinks: nodes alone in the first rank, and alone in the last one.
        ordered: pairs of inputs kept in this order in their rank (``z0`` before ``z1``), by
            an invisible edge between them.
        rankdir: ``"LR"`` or ``"TB"``.
        font: the placeholder font size (points) used to turn sizes into text.
        joined: when set, Graphviz lays out no label (a label laid out is a node and a rank
            of its own: past a few hundred they triple its time). Each gap between ranks is
            made ``joined`` wider (a label's size: width left to right, height top to
            bottom), an edge with a longer label spans as many ranks as it needs, and each
            value with an op is one node, its op circle before its box (``ranksep`` apart),
            which :func:`parse` takes apart again.
    """
    lr = rankdir == "LR"
    gap = ranksep * 72
    if joined is not None:
        ranksep += joined[0 if lr else 1] / 72
        step = ranksep * 72  # a gap between ranks, points
    out = ["digraph vizgrad {",
           "  " + "graph " + _attrs({
               "margin": "0", "nodesep": f"{nodesep:g}", "ordering": "in",
               "outputorder": "edgesfirst", "rankdir": rankdir, "ranksep": f"{ranksep:g}",
               # small graphs get more crossing passes (fewer edges through labels);
               # large ones bounded passes (a deep graph otherwise takes minutes)
               **({"mclimit": "0.5", "nslimit": "2", "nslimit1": "2"} if len(boxes) > _BIG
                  else {"mclimit": "4"} if len(boxes) <= _SMALL else {}),
           }) + ";",
           '  node [fixedsize="true" label="" shape="box"];',
           f'  edge [arrowsize="0.8" fontname="Courier" fontsize="{font:g}"];']
    for n, (w, h) in boxes.items():
        if joined is not None and n in ops:
            ow, oh = ops[n]
            size = (ow + gap + w, max(oh, h)) if lr else (max(ow, w), oh + gap + h)
            join = f"{rankdir} {_inch(ow)} {_inch(oh)} {_inch(w)} {_inch(h)} {_inch(gap)}"
            attrs = {"height": _inch(size[1]), "vg_join": join, "width": _inch(size[0])}
            out.append(f"  {_q(n)} {_attrs(attrs)};")
            continue
        out.append(f"  {_q(n)} {_attrs({'height': _inch(h), 'width': _inch(w)})};")
        if n in ops:
            ow, oh = ops[n]
            out.append(f"  {_q(op_id(n))} "
                       f"{_attrs({'height': _inch(oh), 'shape': 'ellipse', 'width': _inch(ow)})};")
    if inputs:
        out.append("  { rank=min; " + " ".join(_q(n) for n in inputs) + " }")
        for i, (a, b) in enumerate(ordered):
            out.append(f"  {_q(a)} -> {_q(b)} {_attrs({'id': f'order{i}', 'style': 'invis'})};")
    for rank, nodes in (("source", sources), ("sink", sinks)):
        if nodes:
            out.append(f"  {{ rank={rank}; " + " ".join(_q(n) for n in nodes) + " }")
    if len(first) > 1:
        out.append("  { rank=same; " + " ".join(_q(n) for n in first) + " }")
        ranked = [op_id(n) for n in first if n in ops]
        if len(ranked) > 1 and joined is None:
            out.append("  { rank=same; " + " ".join(_q(n) for n in ranked) + " }")
    for tail, head, eid, size in edges:
        attrs = {"id": eid}
        if joined is not None:  # out of a box's far side, into its op circle's near side
            attrs["tailport"] = "e" if lr else "s"
            if head in ops:
                attrs["headport"] = "w" if lr else "n"
            ranks = 1 if size is None else math.ceil((size[0 if lr else 1] + gap) / step - 1e-9)
            if ranks > 1:
                attrs["minlen"] = str(ranks)
        elif size is not None:
            attrs["label"] = _placeholder(size, font)
        target = op_id(head) if head in ops and joined is None else head
        out.append(f"  {_q(tail)} -> {_q(target)} {_attrs(attrs)};")
    if joined is None:
        for n in ops:
            out.append(f"  {_q(op_id(n))} -> {_q(n)} {_attrs({'id': ids.op_edge(n)})};")
    out.append("}")
    return "\n".join(out) + "\n"


def _apart(geo: Geometry, name: str, x: float, y: float, join: str) -> None:
    """A value laid out with its op circle (``join``: the direction, the circle's and the
    box's sizes and the gap between them, in inches) as the circle, the box and the short
    edge between them."""
    rankdir, *inches = join.split()
    ow, oh, bw, bh, gap = (float(v) * 72 for v in inches)
    if rankdir == "LR":
        left = x - (ow + gap + bw) / 2
        op, box = (left + ow / 2, y), (left + ow + gap + bw / 2, y)
        a, b = (op[0] + ow / 2, y), (box[0] - bw / 2, y)
    else:
        top = y - (oh + gap + bh) / 2
        op, box = (x, top + oh / 2), (x, top + oh + gap + bh / 2)
        a, b = (x, op[1] + oh / 2), (x, box[1] - bh / 2)
    geo.nodes[op_id(name)] = (round(op[0], 3), round(op[1], 3), ow, oh)
    geo.nodes[name] = (round(box[0], 3), round(box[1], 3), bw, bh)
    geo.edges[ids.op_edge(name)] = straight(a, b)


def _point(text: str) -> Point:
    x, y = text.split(",")[:2]
    return float(x), float(y)


def parse(data: bytes | str) -> Geometry:
    """Node boxes and edge splines from Graphviz ``-Tjson0`` (or ``-Tjson``) output, y
    pointing down."""
    try:
        doc = json.loads(data)
        x0, y0, x1, y1 = (float(v) for v in str(doc["bb"]).split(","))

        def flip(p: Point) -> Point:
            return round(p[0] - x0, 3), round(y1 - p[1], 3)

        geo = Geometry(x1 - x0, y1 - y0)
        for obj in doc.get("objects", []):
            if "pos" not in obj:
                continue
            x, y = flip(_point(obj["pos"]))
            if "vg_join" in obj:
                _apart(geo, str(obj["name"]), x, y, str(obj["vg_join"]))
                continue
            geo.nodes[str(obj["name"])] = (x, y, float(obj["width"]) * 72,
                                           float(obj["height"]) * 72)
        for obj in doc.get("edges", []):
            tip, points = None, []
            for token in str(obj.get("pos", "")).split():
                if token.startswith("e,"):
                    tip = flip(_point(token[2:]))
                elif not token.startswith("s,"):
                    points.append(flip(_point(token)))
            label = flip(_point(obj["lp"])) if obj.get("lp") else None
            geo.edges[str(obj["id"])] = Edge(tuple(points), tip, label)
    except (ValueError, KeyError, TypeError) as err:
        raise BackendError(f"Graphviz returned a layout vizgrad cannot read: {err}") from None
    return geo

