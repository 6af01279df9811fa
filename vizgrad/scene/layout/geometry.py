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

__all__ = ["Edge", "Geometry", "layout_dot", "parse", "op_id", "CHAR_EM", "LINE_EM"]

#: width of one Courier character, in em: edge-label placeholders are Courier
CHAR_EM = 0.6
#: line height of a placeholder label, in em
LINE_EM = 1.2
_BIG = 300  # nodes past which the layout trades some neatness for speed
_SMALL = 100  # nodes up to which the layout spends more time on fewer crossings

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
               sinks: Sequence[str] = (), rankdir: str = "LR",
               font: float = 10.0,
               nodesep: float = 0.3, ranksep: float = 0.3) -> str:
    """DOT for the layout: fixed-size boxes and op circles, edges with sized label placeholders.

    Args:
        boxes: value node → (width, height) in points, in drawing order.
        ops: value node → op circle (width, height); the op feeds its value.
        edges: (tail, head, id, label size or None); a head with an op enters at its op.
        inputs: nodes placed together in the first rank.
        first: values computed from inputs alone: their ops share a rank, and so
            do their boxes, so parallel first steps (``exp(z0)``, ``exp(z1)``...) line up.
        sources, sinks: nodes alone in the first rank, and alone in the last one.
        rankdir: ``"LR"`` or ``"TB"``.
        font: the placeholder font size (points) used to turn sizes into text.
    """
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
        out.append(f"  {_q(n)} {_attrs({'height': _inch(h), 'width': _inch(w)})};")
        if n in ops:
            ow, oh = ops[n]
            out.append(f"  {_q(op_id(n))} "
                       f"{_attrs({'height': _inch(oh), 'shape': 'ellipse', 'width': _inch(ow)})};")
    if inputs:
        out.append("  { rank=min; " + " ".join(_q(n) for n in inputs) + " }")
    for rank, nodes in (("source", sources), ("sink", sinks)):
        if nodes:
            out.append(f"  {{ rank={rank}; " + " ".join(_q(n) for n in nodes) + " }")
    if len(first) > 1:
        out.append("  { rank=same; " + " ".join(_q(n) for n in first) + " }")
        ranked = [op_id(n) for n in first if n in ops]
        if len(ranked) > 1:
            out.append("  { rank=same; " + " ".join(_q(n) for n in ranked) + " }")
    for tail, head, eid, size in edges:
        attrs = {"id": eid}
        if size is not None:
            attrs["label"] = _placeholder(size, font)
        target = op_id(head) if head in ops else head
        out.append(f"  {_q(tail)} -> {_q(target)} {_attrs(attrs)};")
    for n in ops:
        out.append(f"  {_q(op_id(n))} -> {_q(n)} {_attrs({'id': ids.op_edge(n)})};")
    out.append("}")
    return "\n".join(out) + "\n"


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

