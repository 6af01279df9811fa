"""The windows of a scene on slides: its graph cut between boxes, never through one, and
the windows placed on a page (the plan that uses them: :mod:`.slide_plan`).

Every box with its op circle, and every edge label with its box, is one *item*; items whose
spans overlap along an axis stay together where a page lets them. The graph is cut along
the picture's direction into bands, each band across into windows, each window the extent
of the items it holds; windows then fill pages in order, stacked (left to right pictures)
or side by side (top to bottom)::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.make import scene_of
    >>> scene = scene_of(examples.graph("fork"), preset="slides")
    >>> [sorted(k[1] for k in keys if k[0] == "n") for _, keys in windows(scene, 900, 400)]
    [['v0', 'v1', 'v2', 'v3', 'v4']]
    >>> len(windows(scene, 300, 400)) > 1
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from ..style.presets import Preset
from . import ids

__all__ = ["Box", "Pictured", "Window", "band", "fill", "items", "merged", "place", "size",
           "windows"]

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


class Pictured(Protocol):
    """What the slides read of a :class:`~vizgrad.scene.scene.Scene` (which imports them:
    no cycle)."""

    preset: Preset
    rankdir: str
    shapes: tuple[Any, ...]
    facts: Any
    order: tuple[str, ...]
    reading: Mapping[str, tuple[float, float]]
    caption: bool
    caption_rows: int
    badge_width: float
    wrap_at: float

    def look(self, k: int | None) -> dict[str, dict[str, str]]: ...

    def word(self, key: str, **values: Any) -> str: ...

    def kind(self, n: str) -> str: ...

    def caption_texts(self, k: int | None) -> list[str]: ...

    def caption_lines(self, k: int | None) -> list[str]: ...

    def legend_lines(self) -> list[str]: ...


Scene = Pictured


@dataclass(frozen=True)
class Window:
    """A part of the graph (``area``, in the scene's points) and where its top left goes
    on the page (``at``); ``nodes`` are the boxes it holds, ``labels`` its edge labels'
    ``(u, v, slot)``, ``ops`` the op circles it holds apart from their box (one far from
    its box is an item of its own)."""

    area: Box
    at: tuple[float, float]
    nodes: tuple[str, ...]
    labels: tuple[tuple[str, str, str], ...]
    ops: tuple[str, ...] = ()



def items(scene: Scene) -> list[tuple[Any, Box]]:
    """Every box, op circle and edge label as (key, extent): ``("n", node)`` a node's box,
    ``("o", node)`` its op circle, ``("l", u, v, slot)`` a label with its box."""
    out: list[tuple[Any, Box]] = []
    for sh in scene.shapes:
        p, g = ids.parse(sh.id), sh.geom
        if p is None:
            continue
        if sh.kind == "rect" and p.kind == "box":
            out.append((("n", p.node), (g[0], g[1], g[0] + g[2], g[1] + g[3])))
        elif sh.kind == "ellipse" and p.kind == "op":
            out.append((("o", p.node), (g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3])))
        elif sh.kind == "rect" and p.kind == "edge_box":
            out.append((("l", p.node, p.target, p.slot),
                        (g[0], g[1], g[0] + g[2], g[1] + g[3])))
    return out


def band(spans: list[tuple[float, float]], room: float) -> list[list[int]]:
    """The indices of ``spans`` in bands of at most ``room``: overlapping spans stay in one
    band (a cut never goes through one), bands in order, each as full as fits.

    >>> band([(0, 40), (50, 90), (100, 140)], 95)
    [[0, 1], [2]]
    >>> band([(0, 40), (30, 90), (100, 140)], 100)  # the first two overlap: together
    [[0, 1], [2]]
    >>> band([(0, 40), (30, 90), (80, 130)], 60)  # too long together: each whole apart
    [[0], [1], [2]]
    """
    order = sorted(range(len(spans)), key=lambda i: spans[i])
    clusters: list[list[int]] = []
    hi = float("-inf")
    for i in order:
        if clusters and spans[i][0] < hi:
            clusters[-1].append(i)
            hi = max(hi, spans[i][1])
        else:
            clusters.append([i])
            hi = spans[i][1]
    out: list[list[int]] = []
    lo = 0.0
    for c in clusters:
        c_lo, c_hi = min(spans[i][0] for i in c), max(spans[i][1] for i in c)
        if out and c_hi - lo <= room + 1e-6:
            out[-1].extend(c)
        elif c_hi - c_lo <= room + 1e-6:
            out.append(list(c))
            lo = c_lo
        else:  # overlapping spans longer than a page: parts of it, each span whole
            for i in c:
                if not out or spans[i][1] - lo > room + 1e-6:
                    out.append([])
                    lo = spans[i][0]
                out[-1].append(i)
    return out


def merged(scene: Scene) -> dict[Any, Box]:
    """Each item's extent: a box with its op circle one item when the circle stands next
    to the box (within three lines of text), else two; a label with its box."""
    found = dict(items(scene))
    near = scene.preset.font * 3
    for key in [k for k in found if k[0] == "o" and ("n", k[1]) in found]:
        a, b = found[key], found[("n", key[1])]
        if max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3]) <= near:
            found[("n", key[1])] = (min(a[0], b[0]), min(a[1], b[1]),
                                    max(a[2], b[2]), max(a[3], b[3]))
            del found[key]
    return found


def windows(scene: Scene, room_w: float, room_h: float) -> list[tuple[Box, list[Any]]]:
    """The graph's windows in reading order: each the extent of what it holds."""
    found = merged(scene)
    keys = list(found)
    lr = scene.rankdir == "LR"
    a0, a1, b0, b1 = (0, 2, 1, 3) if lr else (1, 3, 0, 2)
    room_a, room_b = (room_w, room_h) if lr else (room_h, room_w)
    out = []
    for part in band([(found[k][a0], found[k][a1]) for k in keys], room_a):
        held = [keys[i] for i in part]
        for sub in band([(found[k][b0], found[k][b1]) for k in held], room_b):
            ks = [held[i] for i in sub]
            area = (min(found[k][0] for k in ks), min(found[k][1] for k in ks),
                    max(found[k][2] for k in ks), max(found[k][3] for k in ks))
            out.append((area, ks))
    return out


def fill(wins: list[tuple[Box, list[Any]]], lr: bool, room_w: float, room_h: float,
          gap: float) -> list[list[tuple[Box, list[Any]]]]:
    """Windows onto pages, in order: stacked (a left-to-right picture) or side by side."""
    pages: list[list[tuple[Box, list[Any]]]] = []
    used = 0.0
    for w in wins:
        (x0, y0, x1, y1), _ = w
        size, room = (y1 - y0, room_h) if lr else (x1 - x0, room_w)
        if pages and used + gap + size <= room + 1e-6:
            pages[-1].append(w)
            used += gap + size
        else:
            pages.append([w])
            used = size
    return pages


def size(block: list[tuple[Box, list[Any]]], lr: bool, gap: float) -> tuple[float, float]:
    """The width and height of a page's windows together: stacked or side by side."""
    ws = [a[2] - a[0] for a, _ in block]
    hs = [a[3] - a[1] for a, _ in block]
    if lr:
        return max(ws), sum(hs) + gap * (len(hs) - 1)
    return sum(ws) + gap * (len(ws) - 1), max(hs)


def place(block: list[tuple[Box, list[Any]]], lr: bool, top: float, bottom: float,
          page: tuple[float, float], gap: float, edge: float) -> tuple[Window, ...]:
    """The windows of one page, where they go: stacked (or side by side) and centred in
    the room between the caption and the legend."""
    pw, ph = page
    ws = [a[2] - a[0] for a, _ in block]
    hs = [a[3] - a[1] for a, _ in block]
    total_w, total_h = size(block, lr, gap)
    x = max(edge, (pw - total_w) / 2)
    y = top + max(0.0, (ph - top - bottom - total_h) / 2)
    out = []
    for (area, keys), w, h in zip(block, ws, hs):
        out.append(Window(area, (round(x, 2), round(y, 2)),
                          tuple(k[1] for k in keys if k[0] == "n"),
                          tuple(k[1:] for k in keys if k[0] == "l"),
                          tuple(k[1] for k in keys if k[0] == "o")))
        if lr:
            y += h + gap
        else:
            x += w + gap
    return tuple(out)
