"""Place the edges of a :class:`~vizgrad.scene.scene.Scene`: their curves, arrowheads and
labels (once, from the layout).

An edge's label goes on its own edge: where Graphviz laid it out, moved clear of boxes,
labels and other edges (:func:`~vizgrad.scene.labels.place_label`; past
:data:`~vizgrad.scene.labels.MANY_LABELS`, where Graphviz kept room for it, beside its
edge); or, when Graphviz laid out none (the plan's DOT ``joined``), in
the gap between ranks its edge crosses, clear of the labels before it
(:class:`~vizgrad.scene.labels.Gaps`, :func:`label_spots`, which also tells the layout
when that leaves labels on top of each other: it lays the labels out after all)::

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> s = scene_of(examples.graph("fork"))
    >>> [sh.id for sh in s.shapes if sh.id.startswith(("e-v0-v2-0", "lb-v0-v2-0"))]
    ... # the edge, its forward and backward arrowheads, its label's box
    ['e-v0-v2-0', 'e-v0-v2-0-f', 'e-v0-v2-0-b', 'lb-v0-v2-0']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from . import ids
from .labels import MANY_LABELS, Gaps, Obstacles, curve_points, place_label
from .layout import geometry as gm
from .shapes import Shape, baseline, rnd
from ..style.metrics import width

if TYPE_CHECKING:
    from .parts import Settings

__all__ = ["label_spots", "place_edges"]

Point = tuple[float, float]
_ARROW = gm.ARROW
_HALF = _ARROW * 0.38  # half an arrowhead's base


def _arrow(tip: Point, base_dir: Point) -> tuple[Point, ...]:
    """A triangle with its point at ``tip``, its base ``_ARROW`` along ``base_dir``."""
    ux, uy = base_dir
    tx_, ty = tip
    bx, by = tx_ + ux * _ARROW, ty + uy * _ARROW
    return ((round(tx_, 2), round(ty, 2)), (round(bx - uy * _HALF, 2), round(by + ux * _HALF, 2)),
            (round(bx + uy * _HALF, 2), round(by - ux * _HALF, 2)))


def _edge(add: Any, eid: str, e: gm.Edge, dx: float, dy: float, backward: bool) -> None:
    pts = tuple([(round(x + dx, 2), round(y + dy, 2)) for x, y in e.points])
    add(Shape(eid, "path", pts, "vg-edge"))
    if e.tip is not None:
        tip = (e.tip[0] + dx, e.tip[1] + dy)
        add(Shape(ids.arrow(eid, "f"), "poly", _arrow(tip, gm.unit(tip, pts[-1])), "vg-arrow"))
    if backward and len(pts) > 1:
        nxt = next((q for q in pts[1:] if q != pts[0]), pts[-1])
        add(Shape(ids.arrow(eid, "b"), "poly", _arrow(pts[0], gm.unit(pts[0], nxt)),
                  "vg-arrow vg-back"))


def _straight(rankdir: str, geo: gm.Geometry, tail: str, head: str) -> gm.Edge:
    """An edge Graphviz did not route: a straight curve from box side to box side."""
    tx_, ty, tw, th = geo.nodes[tail]
    hx, hy, hw, hh = geo.nodes[head]
    if rankdir == "LR":
        return gm.straight((tx_ + tw / 2, ty), (hx - hw / 2, hy))
    return gm.straight((tx_, ty + th / 2), (hx, hy - hh / 2))


def _routed(s: Settings, texts: Mapping[Any, str | None], ops: Mapping[str, Any],
            geo: gm.Geometry) -> dict[str, gm.Edge]:
    """Each edge's curve by its id: Graphviz's, or straight where it routed none."""
    return {ids.edge(u, v, slot): geo.edges.get(ids.edge(u, v, slot)) or _straight(
        s.rankdir, geo, u, gm.op_id(v) if v in ops else v) for (u, v, slot) in texts}


def label_spots(s: Settings, texts: Mapping[Any, str | None], ops: Mapping[str, Any],
                geo: gm.Geometry) -> tuple[dict[str, Point], int]:
    """Where each edge label goes (its centre, by its edge's id) when Graphviz laid out none:
    in the gaps between the ranks of ``geo`` (every box, op circle and edge from an op to its
    box counts as taken), clear of boxes and of each other; and how many labels lie on a
    box, an op circle or a label placed before them, left nowhere clear."""
    routed = _routed(s, texts, ops, geo)
    axis = 0 if s.rankdir == "LR" else 1
    taken = [(box[axis] - box[axis + 2] / 2, box[axis] + box[axis + 2] / 2)
             for box in geo.nodes.values()]
    for n in ops:
        ends = [p[axis] for p in geo.edges[ids.op_edge(n)].points]
        taken.append((min(ends), max(ends)))
    rects = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h in geo.nodes.values()]
    gaps, size = Gaps(taken, axis, rects), s.preset.label
    spots = {}
    for (u, v, slot), label in texts.items():
        if label:
            eid = ids.edge(u, v, slot)
            spots[eid] = gaps.place(list(curve_points(routed[eid].points)),
                                    (width(label, size) + size * 0.4, size * 1.3))
    return spots, gaps.overlaps


def place_edges(s: Settings, texts: Mapping[Any, str | None], ops: Mapping[str, Any],
                geo: gm.Geometry, dx: float, dy: float, right: float,
                joined: bool = False) -> list[Shape]:
    """Every edge (``texts``: each with its label), its arrowheads and its label, and the
    edge out of each op circle of ``ops``, the graph's top left moved to ``(dx, dy)``;
    labels stay left of ``right``, the picture's width. ``joined``: Graphviz laid out no
    label (the plan's DOT ``joined``)."""
    size = s.preset.label
    out: list[Shape] = []
    add = out.append
    routed = _routed(s, texts, ops, geo)
    room, lines, spots = None, {}, {}
    labelled = [ids.edge(u, v, slot) for (u, v, slot), t in texts.items() if t]
    labels = len(labelled)
    if joined:  # Graphviz laid out no label: label_spots found each a place in a gap, which
        # scene.make.placed put in the geometry (found again for a geometry made otherwise)
        spots = {e: routed[e].label for e in labelled if routed[e].label is not None}
        if len(spots) < labels:
            spots = label_spots(s, texts, ops, geo)[0]
    elif labels <= MANY_LABELS:  # past it each label's own curve is walked once, below
        moved = [(eid, list(curve_points(e.points, dx, dy))) for eid, e in routed.items()]
        moved += [(ids.op_edge(n), list(curve_points(geo.edges[ids.op_edge(n)].points, dx, dy)))
                  for n in ops]
        boxes = [(x + dx - w / 2, y + dy - h / 2, x + dx + w / 2, y + dy + h / 2)
                 for x, y, w, h in geo.nodes.values()]
        room = Obstacles(moved, boxes, (1.0, dy, right - 1.0, dy + geo.height), labels)
        lines = dict(moved)
    for (u, v, slot), label in texts.items():
        eid = ids.edge(u, v, slot)
        e = routed[eid]
        _edge(add, eid, e, dx, dy, backward=True)
        if label and (e.label is not None or eid in spots):
            w = width(label, size) + size * 0.4
            if eid in spots:
                lx, ly = spots[eid][0] + dx, spots[eid][1] + dy
            elif room is not None:  # on its own edge, clear of boxes, labels, other edges
                spot = (e.label[0] + dx, e.label[1] + dy)
                lx, ly = place_label(lines[eid], (w, size * 1.3), room, eid, spot)
            else:  # past MANY_LABELS: where Graphviz kept room for it, beside its edge
                lx, ly = e.label[0] + dx, e.label[1] + dy
            add(Shape(ids.edge_box(u, v, slot), "rect", (rnd(lx - w / 2), rnd(ly - size * 0.65),
                                                         rnd(w), rnd(size * 1.3), rnd(size * 0.3)),
                      "vg-label-bg"))
            add(Shape(ids.edge_label(u, v, slot), "text", (rnd(lx), baseline(ly, size)),
                      "vg-label", size, False, "middle"))
    for n in ops:
        _edge(add, ids.op_edge(n), geo.edges[ids.op_edge(n)], dx, dy, backward=False)
    return out


