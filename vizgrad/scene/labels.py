"""Where each edge label goes: on its own edge, where no other edge comes near.

Graphviz puts a label beside its edge, which in a crowded rank can be nearer
another edge than its own (fork's ``1 × (−6) = −6`` under the a→× edge).
Here each label is centred on a point of its own edge's curve instead (the label's
background hides the line under it, so the label reads as part of its edge), chosen
among points along the edge: clear of every box and op circle, of the labels placed
before it, and as far from every other edge as it can be, nearer the edge's head
(its target end) when the room is alike::

    >>> spot = place_label([(0.0, 0.0), (10.0, 0.0), (90.0, 0.0), (100.0, 0.0)],
    ...                    (20.0, 10.0), Obstacles([], []))
    >>> 50 < spot[0] < 90 and spot[1] == 0.0
    True
"""

from __future__ import annotations

import bisect
import math
from typing import Iterable, Iterator

__all__ = ["MANY_LABELS", "Gaps", "Obstacles", "curve", "curve_points", "place_label"]

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1
_CELL = 48.0  # grid cell of the segment index, points
_STEPS = 8  # points per Bezier curve when it is flattened
_SPOTS = 24  # candidate spots along an edge
#: labels past which Graphviz lays out none, left to right (each would be a node and a rank
#: of its own: past a few hundred they triple its time): the gaps between ranks are made
#: wide enough and each label goes in one its edge crosses (:class:`Gaps`), clear of boxes
#: and of the labels placed before it, without looking for room away from other edges (a
#: picture this busy is not read label by label). Where Graphviz does lay them out past it
#: (top to bottom, or labels that would crowd), each stays where Graphviz kept room for it,
#: beside its edge.
MANY_LABELS = 300
_PAD = 3.0  # room kept between a label and a box or another label, points
#: where in its gap a label is tried, from the middle (0) to either side (±1)
_ALONG = (0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1, -1)


def _weights(t: float) -> tuple[float, float, float, float]:
    u = 1 - t
    return u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t


#: the Bernstein weights of the points a curve is cut at, worked out once
_WEIGHTS = tuple(_weights(k / _STEPS) for k in range(1, _STEPS + 1))


def curve(points: tuple[Point, ...]) -> list[Point]:
    """A cubic Bezier spline (start, then three points per curve) as a polyline."""
    return list(curve_points(points))


def curve_points(points: tuple[Point, ...], dx: float = 0.0, dy: float = 0.0) -> Iterator[Point]:
    """The points of :func:`curve`, each moved by ``(dx, dy)``, one at a time."""
    x, y = points[0]
    yield x + dx, y + dy
    for i in range(1, len(points) - 2, 3):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[i - 1:i + 3]
        for a, b, c, d in _WEIGHTS:
            yield (a * x0 + b * x1 + c * x2 + d * x3 + dx, a * y0 + b * y1 + c * y2 + d * y3 + dy)


def _lerp(a: Point, b: Point, t: float) -> Point:
    return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _cells(x0: float, y0: float, x1: float, y1: float) -> Iterable[tuple[int, int]]:
    for i in range(math.floor(x0 / _CELL), math.floor(x1 / _CELL) + 1):
        for j in range(math.floor(y0 / _CELL), math.floor(y1 / _CELL) + 1):
            yield i, j


class Obstacles:
    """Every edge's polyline (by id) and every box's rectangle, indexed on a grid; and the
    labels placed so far."""

    def __init__(self, lines: list[tuple[str, list[Point]]], rects: list[Rect],
                 bounds: Rect | None = None, labels: int = 0) -> None:
        self.bounds = bounds
        #: spots tried along each edge: fewer when there are many labels to place
        self.spots = _SPOTS if labels <= 150 else _SPOTS // 2 if labels <= 600 else _SPOTS // 4
        self.segs: dict[tuple[int, int], list[tuple[str, Point, Point]]] = {}
        for eid, pts in lines:
            for a, b in zip(pts, pts[1:]):
                pieces = max(1, math.ceil(math.dist(a, b) / _CELL))  # a long line: short pieces,
                for k in range(pieces):  # each indexed in the few cells it crosses
                    p = _lerp(a, b, k / pieces)
                    q = _lerp(a, b, (k + 1) / pieces)
                    for c in _cells(min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]),
                                    max(p[1], q[1])):
                        self.segs.setdefault(c, []).append((eid, p, q))
        self.rects: dict[tuple[int, int], list[Rect]] = {}
        self.add_rects(rects)

    def add_rects(self, rects: Iterable[Rect]) -> None:
        for r in rects:
            for c in _cells(*r):
                self.rects.setdefault(c, []).append(r)

    def clear(self, r: Rect) -> bool:
        """True when ``r`` lies within the bounds and overlaps no box and no label placed
        before."""
        b = self.bounds
        if b is not None and not (b[0] <= r[0] and b[1] <= r[1] and r[2] <= b[2]
                                  and r[3] <= b[3]):
            return False
        for c in _cells(*r):
            for q in self.rects.get(c, ()):
                if r[0] < q[2] and q[0] < r[2] and r[1] < q[3] and q[1] < r[3]:
                    return False
        return True

    def crossed(self, r: Rect, own: str) -> bool:
        """True when an edge but ``own`` passes through ``r``."""
        for c in _cells(*r):
            for eid, a, b in self.segs.get(c, ()):
                if eid != own and _through(a, b, r):
                    return True
        return False

    def nearest_other(self, p: Point, own: str, reach: float) -> float:
        """The distance from ``p`` to the nearest edge but ``own`` (at most ``reach``)."""
        best = reach
        for c in _cells(p[0] - reach, p[1] - reach, p[0] + reach, p[1] + reach):
            for eid, a, b in self.segs.get(c, ()):
                if eid != own:
                    best = min(best, _seg_dist(p, a, b))
        return best


def _through(a: Point, b: Point, r: Rect) -> bool:
    """True when the segment ``a``–``b`` meets the rectangle ``r`` (clipped, Liang–Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - r[0]), (dx, r[2] - a[0]), (-dy, a[1] - r[1]), (dy, r[3] - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _along(line: list[Point], f: float) -> Point:
    """The point at fraction ``f`` of the polyline's length."""
    lengths = [math.dist(a, b) for a, b in zip(line, line[1:])]
    goal = f * sum(lengths)
    for (a, b), n in zip(zip(line, line[1:]), lengths):
        if goal <= n and n > 0:
            t = goal / n
            return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
        goal -= n
    return line[-1]


def place_label(line: list[Point] | tuple[Point, ...], size: tuple[float, float],
                obstacles: Obstacles, own: str = "", fallback: Point | None = None) -> Point:
    """The centre of a label of ``size`` on its edge ``line`` (tail first), recorded in
    ``obstacles`` so that later labels keep clear of it; ``fallback`` when no spot of the
    edge is clear of boxes and labels (a very short edge)."""
    line = list(line)
    w, h = size
    reach = h + 12.0  # room past this much is room enough
    best: tuple[float, Point] | None = None
    for pad in (_PAD, 0.0):  # some room around the label, else none
        for k in range(1, obstacles.spots):
            f = k / obstacles.spots
            p = _along(line, f)
            r = (p[0] - w / 2 - pad, p[1] - h / 2 - pad, p[0] + w / 2 + pad, p[1] + h / 2 + pad)
            if not obstacles.clear(r):
                continue
            room = obstacles.nearest_other(p, own, reach)
            body = (p[0] - w / 2, p[1] - h / 2, p[0] + w / 2, p[1] + h / 2)
            # no other edge through the label first; then room; alike room: nearer the head
            score = room - 4.0 * abs(f - 0.62) - (1000.0 if obstacles.crossed(body, own) else 0)
            if best is None or score > best[0]:
                best = (score, p)
        if best is not None:
            break
    spot = best[1] if best is not None else (fallback or _along(line, 0.5))
    obstacles.add_rects([(spot[0] - w / 2, spot[1] - h / 2, spot[0] + w / 2, spot[1] + h / 2)])
    return spot


class Gaps:
    """Labels placed on their own edges in the bands across a laid-out graph that no box or
    op circle reaches (between its ranks), clear of the boxes (``rects``) and of each other.
    ``extents``: each box's and circle's extent along the graph's direction (``axis`` 0: x,
    1: y).

    >>> boxes = [(0.0, 0.0, 20.0, 20.0), (120.0, 40.0, 140.0, 60.0)]
    >>> g = Gaps([(0.0, 20.0), (120.0, 140.0)], 0, boxes)
    >>> edge = [(20.0, 0.0), (120.0, 50.0)]
    >>> g.place(edge, (20.0, 10.0))  # in the gap from 20 to 120, its middle
    (70.0, 25.0)
    >>> g.place(edge, (20.0, 10.0))  # taken: further along its edge, 3 pt clear of it
    (100.0, 40.0)
    >>> g.overlaps  # labels placed on top of a box or another label
    0
    """

    def __init__(self, extents: Iterable[tuple[float, float]], axis: int,
                 rects: Iterable[Rect] = ()) -> None:
        self.axis = axis
        self.free: list[tuple[float, float]] = []
        end = -math.inf
        for lo, hi in sorted(extents):
            if lo > end and end > -math.inf:
                self.free.append((end, lo))
            end = max(end, hi)
        self.starts = [lo for lo, _ in self.free]
        self.taken = Obstacles([], list(rects))  # the boxes, then each label placed
        #: labels placed on top of a box or a label placed before them (no clear spot left)
        self.overlaps = 0

    def _at(self, line: list[Point], at: float) -> Point | None:
        a = self.axis
        for p, q in zip(line, line[1:]):
            if p[a] != q[a] and (p[a] - at) * (q[a] - at) <= 0:
                return _lerp(p, q, (at - p[a]) / (q[a] - p[a]))
        return None

    def _crowding(self, r: Rect, pad: float = _PAD) -> float:
        """How much of ``r``, grown by ``pad``, the boxes and labels placed cover (area)."""
        x0, y0, x1, y1 = r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad
        seen: set[Rect] = set()
        area = 0.0
        for c in _cells(x0, y0, x1, y1):
            for q in self.taken.rects.get(c, ()):
                if q not in seen:
                    seen.add(q)
                    area += (max(0.0, min(x1, q[2]) - max(x0, q[0]))
                             * max(0.0, min(y1, q[3]) - max(y0, q[1])))
        return area

    def _spots(self, line: list[Point], across: float) -> Iterator[float]:
        """Where along the direction a label ``across`` long is tried on ``line``: in each gap
        the edge crosses, the one nearest the edge's middle first, from the gap's middle out;
        then along the whole edge (a label wider than its gaps)."""
        a = self.axis
        lo, hi = sorted((line[0][a], line[-1][a]))
        mid = (lo + hi) / 2
        k = max(0, bisect.bisect_right(self.starts, lo) - 1)
        crossed = []
        while k < len(self.free) and self.free[k][0] < hi:
            g0, g1 = max(self.free[k][0], lo), min(self.free[k][1], hi)
            if g0 < g1:
                crossed.append((g0, g1))
            k += 1
        for g0, g1 in sorted(crossed, key=lambda g: abs((g[0] + g[1]) / 2 - mid)):
            room = max(0.0, (g1 - g0 - across) / 2)
            yield from ((g0 + g1) / 2 + f * room for f in _ALONG)
        yield from (lo + (0.5 + f * 0.4) * (hi - lo) for f in _ALONG)

    def place(self, line: list[Point], size: Point) -> Point:
        """Where a label of ``size`` goes on the polyline ``line`` (its edge): the first of
        :meth:`_spots` that no box or label placed before crowds (nearer than ``_PAD``),
        else the one they crowd least."""
        w, h = size
        best, least = line[len(line) // 2], math.inf
        for at in self._spots(line, size[self.axis]):
            p = self._at(line, at)
            if p is not None:
                crowd = self._crowding(_box(p, w, h))
                if crowd < least:
                    best, least = p, crowd
                if crowd == 0:
                    break
        r = _box(best, w, h)
        if self._crowding(r, 0.0) > 0:
            self.overlaps += 1
        self.taken.add_rects([r])
        return best


def _box(p: Point, w: float, h: float) -> Rect:
    return p[0] - w / 2, p[1] - h / 2, p[0] + w / 2, p[1] + h / 2
