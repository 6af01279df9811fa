"""Fixed positions for animation frames, from one Graphviz layout.

The frames renderer draws every step on the same geometry: node boxes,
edge splines and a free spot beside each edge for its contribution label.
This module writes a minimal DOT for that (boxes of one size, an edge label
placeholder as wide as the longest contribution text) and parses Graphviz's
``json`` output, so the layout comes from the same Graphviz as the SVG::

    >>> geo = parse_layout('''{"bb": "0,0,100,40",
    ...   "objects": [{"_gvid": 0, "name": "v0", "pos": "20,20", "width": "0.5", "height": "0.5"},
    ...               {"_gvid": 1, "name": "v1", "pos": "80,20", "width": "0.5", "height": "0.5"}],
    ...   "edges": [{"tail": 0, "head": 1, "id": "e0", "lp": "50,30",
    ...              "pos": "e,62,20 38,20 44,20 50,20 56,20"}]}''')
    >>> geo.width, geo.height, geo.nodes["v0"]
    (100.0, 40.0, (20.0, 20.0, 36.0, 36.0))
    >>> geo.edges["e0"].tip, geo.edges["e0"].label
    ((62.0, 20.0), (50.0, 30.0))

Coordinates are Graphviz points (1/72 inch) with y pointing up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import BackendError

__all__ = ["Edge", "Geometry", "CHAR_EM", "LINE_EM", "layout_dot", "parse_layout", "edge_ids"]

#: width of one monospace character, in em (Courier and DejaVu Sans Mono)
CHAR_EM = 0.6
#: line height, in em, for multi-line labels
LINE_EM = 1.2


@dataclass(frozen=True)
class Edge:
    """One edge: its Bezier control points, arrow tip and label spot."""

    points: tuple[tuple[float, float], ...]
    tip: tuple[float, float] | None
    label: tuple[float, float] | None


@dataclass
class Geometry:
    """Bounding box size, node boxes ``(x, y, w, h)`` by id and edges by edge id."""

    width: float
    height: float
    nodes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    edges: dict[str, Edge] = field(default_factory=dict)


def edge_ids(G: Any) -> dict[tuple[str, str, int], str]:
    """Stable edge ids ``e0, e1, ...`` in (child order, slot) order.

    >>> from vizgrad import Value, to_networkx
    >>> a = Value(3.0, label="a")
    >>> edge_ids(to_networkx(a + a))
    {('v0', 'v1', 0): 'e0', ('v0', 'v1', 1): 'e1'}
    """
    order = {n: G.nodes[n].get("order", i) for i, n in enumerate(G.nodes)}
    edges = sorted(G.edges(keys=True), key=lambda e: (order[e[1]], e[2], order[e[0]]))
    return {e: f"e{i}" for i, e in enumerate(edges)}


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def layout_dot(G: Any, *, box: tuple[float, float], label: tuple[int, int], font: float,
               rankdir: str = "LR") -> str:
    """DOT for the frame layout: same-size boxes and ``label`` (chars, lines) placeholders.

    ``box`` is the node size in points; ``font`` the label font size in points.

    >>> from vizgrad import Value, to_networkx
    >>> print(layout_dot(to_networkx(Value(1.0) * 2), box=(72, 36), label=(3, 1), font=9))
    digraph vizgrad {
      graph [rankdir=LR, margin=0, nodesep=0.3, ranksep=0.15, outputorder=edgesfirst];
      node [shape=box, fixedsize=true, width=1.0000, height=0.5000, label=""];
      edge [fontname="Courier", fontsize=9.00, arrowsize=0.7];
      "v0";
      "v1";
      "v2";
      "v0" -> "v2" [id="e0", label="XXX"];
      "v1" -> "v2" [id="e1", label="XXX"];
    }
    """
    chars, lines = label
    placeholder = "\\n".join(["X" * max(chars, 1)] * max(lines, 1))
    order = sorted(G.nodes, key=lambda n: G.nodes[n].get("order", 0))
    out = [
        "digraph vizgrad {",
        f"  graph [rankdir={rankdir}, margin=0, nodesep=0.3, ranksep=0.15, "
        "outputorder=edgesfirst];",
        f"  node [shape=box, fixedsize=true, width={box[0] / 72:.4f}, "
        f'height={box[1] / 72:.4f}, label=""];',
        f'  edge [fontname="Courier", fontsize={font:.2f}, arrowsize=0.7];',
    ]
    out += [f"  {_quote(n)};" for n in order]
    for (u, v, _key), eid in edge_ids(G).items():
        out.append(f'  {_quote(u)} -> {_quote(v)} [id="{eid}", label="{placeholder}"];')
    out.append("}")
    return "\n".join(out)


def _point(text: str) -> tuple[float, float]:
    x, y = text.split(",")[:2]
    return float(x), float(y)


def _edge(obj: dict[str, Any]) -> Edge:
    tip = None
    points: list[tuple[float, float]] = []
    for token in str(obj.get("pos", "")).split():
        if token.startswith("e,"):
            tip = _point(token[2:])
        elif token.startswith("s,"):
            continue
        else:
            points.append(_point(token))
    label = _point(obj["lp"]) if obj.get("lp") else None
    return Edge(tuple(points), tip, label)


def _shift(p: tuple[float, float], x0: float, y0: float) -> tuple[float, float]:
    return p[0] - x0, p[1] - y0


def parse_layout(data: bytes | str) -> Geometry:
    """Node boxes and edge splines from Graphviz ``-Tjson`` output."""
    try:
        doc = json.loads(data)
        x0, y0, x1, y1 = (float(v) for v in str(doc["bb"]).split(","))
        geo = Geometry(x1 - x0, y1 - y0)
        for obj in doc.get("objects", []):
            if "pos" not in obj:
                continue
            x, y = _point(obj["pos"])
            geo.nodes[obj["name"]] = (x - x0, y - y0, float(obj["width"]) * 72,
                                      float(obj["height"]) * 72)
        for obj in doc.get("edges", []):
            e = _edge(obj)
            geo.edges[str(obj.get("id", f"e{obj.get('_gvid', len(geo.edges))}"))] = Edge(
                tuple(_shift(p, x0, y0) for p in e.points),
                _shift(e.tip, x0, y0) if e.tip else None,
                _shift(e.label, x0, y0) if e.label else None,
            )
    except (ValueError, KeyError, TypeError) as err:
        raise BackendError(f"Graphviz returned a layout vizgrad cannot read: {err}") from None
    return geo
