"""A picture too big for one slide, split over several: one picture per slide, one layout.

A ``slides`` picture must read at 14 pt or more on a 960×540 pt slide. One that
fits (scaled down if need be) is one slide. One that does not is cut into
pages of the same size: each shows the caption block at the top (the step and
its chain rule, wrapped to the page) and the legend at the bottom, as the
whole picture does, and between them one window of the graph, drawn at full
size. When the caption and the legend would take more than a quarter of a slide
(:data:`SHARE`), the legend and the whole caption go on a slide of their own after
the picture, and each picture's slide keeps the caption rows that fit in that
quarter (the step and its first chain rule at least). Windows are cut between
boxes where they can be, so a box is seen whole on one slide, and their positions
on the page follow the picture's layout::

    >>> from vizgrad import draw, examples
    >>> pages = draw(examples.graph("tanh-native"), preset="slides").slides()
    >>> len(pages) > 1
    True
    >>> len(draw(examples.graph("fork"), preset="slides").slides())
    1
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable

from ..scene import ids
from .svgout import FONTS, _attr, _n, layered, shape_element, xml_text
from ..scene.scene import SLIDE_WIDTH, readable

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["SHARE", "SLIDE", "count", "cuts", "page_size", "plan", "slides"]

#: the slide, in points, and the smallest text on it
SLIDE = (SLIDE_WIDTH, 540.0, 14.0)
_OVERLAP = 0.0


def page_size(scene: Scene) -> tuple[float, float]:
    """A page, in points: a 960×540 slide scaled so the smallest text is 14 pt on it."""
    small = round(min(sh.size for sh in scene.shapes if sh.kind == "text"), 2)  # as written
    k = small / SLIDE[2]
    return math.floor(SLIDE[0] * k * 100) / 100, math.floor(SLIDE[1] * k * 100) / 100


def _frame(sh_id: str) -> str | None:
    kind = _kind(sh_id)
    if kind in ("badge", "badge_text", "caption"):
        return "caption"
    return "legend" if kind == "legend" else None


def _kind(sh_id: str) -> str | None:
    p = ids.parse(sh_id)
    return p.kind if p is not None else None


def cuts(spans: list[tuple[float, float]], start: float, end: float, room: float) -> list[float]:
    """Where windows of at most ``room`` over ``[start, end]`` begin and end: between the
    ``spans`` (boxes) where a gap lets, else at ``room``.

    >>> cuts([(0, 40), (50, 90), (100, 140)], 0, 140, 95)
    [0, 95.0, 140]
    >>> cuts([(0, 40), (50, 90), (100, 140)], 0, 140, 60)
    [0, 45.0, 95.0, 140]
    >>> cuts([(0, 200)], 0, 200, 90)  # no gap: cut through
    [0, 90, 180, 200]
    """
    out = [start]
    while end - out[-1] > room + 1e-6:
        a = out[-1]
        inside = [(lo + hi) / 2 for (_, lo), (hi, _) in _pairs(spans)
                  if a < (lo + hi) / 2 <= a + room]
        out.append(max(inside) if inside else a + room)
    out.append(end)
    return out


def _pairs(spans: list[tuple[float, float]]) -> list[tuple[tuple[float, float],
                                                        tuple[float, float]]]:
    """Consecutive merged spans: each free gap as ((start, lo), (hi, end))."""
    merged: list[list[float]] = []
    for lo, hi in sorted(spans):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [((merged[i][0], merged[i][1]), (merged[i + 1][0], merged[i + 1][1]))
            for i in range(len(merged) - 1)]


def _items(scene: Scene) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The boxes, op circles and labels of the picture as (id, (x0, y0, x1, y1))."""
    out = []
    for sh in scene.shapes:
        g = sh.geom
        if sh.kind == "rect" and _kind(sh.id) in ("box", "edge_box"):
            out.append((sh.id, (g[0], g[1], g[0] + g[2], g[1] + g[3])))
        elif sh.kind == "ellipse" and _kind(sh.id) == "op":
            out.append((sh.id, (g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3])))
    return out


def _windows(scene: Scene, room_w: float, room_h: float) -> list[tuple[float, float, float,
                                                                       float]]:
    """Windows over the graph, along the picture's direction first (LR: bands left to right,
    cut between boxes), each fitted to what it holds, and cut across when still too big."""
    items = _items(scene)
    lr = scene.rankdir == "LR"
    a0, a1 = (0, 2) if lr else (1, 3)  # along the direction
    b0, b1 = (1, 3) if lr else (0, 2)  # across it
    room_a, room_b = (room_w, room_h) if lr else (room_h, room_w)
    solid = [(r[a0], r[a1]) for i, r in items if _kind(i) != "edge_box"]
    gx, gy, gw, gh = scene.graph_box
    start, end = (gx, gx + gw) if lr else (gy, gy + gh)
    out = []
    bands = cuts(solid, start, end, room_a)
    for lo, hi in zip(bands, bands[1:]):
        held = [r for _, r in items if lo <= (r[a0] + r[a1]) / 2 < hi or (
            hi == end and (r[a0] + r[a1]) / 2 == hi)]
        if not held:
            continue
        lo = max(min(lo, *(r[a0] for r in held)), hi - room_a)
        hi = min(max(hi, *(r[a1] for r in held)), lo + room_a)
        c0, c1 = min(r[b0] for r in held), max(r[b1] for r in held)
        across = cuts([(r[b0], r[b1]) for r in held], c0, c1, room_b)
        for u, v in zip(across, across[1:]):
            win = (lo, u, hi - lo, v - u) if lr else (u, lo, v - u, hi - lo)
            out.append(win)
    return out


def plan(scene: Scene, step: int | None) -> tuple[list[tuple[Any, bool, int]], float] | None:
    """The slides of ``scene`` at ``step`` before any is drawn: ``None`` for one slide of
    the whole picture, else ``(pages, top)``, each page a window of the graph (``None``:
    the legend, with the whole caption, alone), whether it carries the legend and how many
    caption rows it shows. What a budget counts."""
    if readable_on_slide(scene) >= SLIDE[2] - 1e-9:
        return None
    pw, ph = page_size(scene)
    p = scene.preset
    margin = p.font
    look = scene.look(step)
    shown = [i for i in range(scene.caption_rows) if look.get(f"cap-{i}", {}).get("text")]
    lines = max(shown, default=-1) + 1 if scene.caption else 0
    legend = len(scene.legend_lines()) * p.legend * 1.45 + (p.legend * 0.8 if
                                                           scene.legend_lines() else 0)
    # caption and legend take at most a quarter of a slide: else the legend and the whole
    # caption go on a slide of their own, after the picture, and each picture's slide keeps
    # the caption's rows that fit (the step and its first chain rule at least)
    apart = _top(p, lines) - margin + legend > SHARE * ph
    rows = lines
    while apart and rows > min(lines, 2) and _top(p, rows) - margin > SHARE * ph:
        rows -= 1
    top = _top(p, rows)
    room_w, room_h = pw - 2 * margin, ph - top - margin
    if room_h < p.font * 4 or room_w < p.font * 8:
        return None  # no room for a window: the caption alone fills a slide
    wins = _windows(scene, room_w, room_h)
    pages: list[tuple[Any, bool, int]]
    if apart:
        pages = [*((w, False, rows) for w in wins), (None, bool(legend), lines)]
    else:
        fits = [top + w[3] + legend <= ph - margin + 1e-6 for w in wins]
        pages = [(w, bool(legend) and ok, rows) for w, ok in zip(wins, fits)]
        if legend and not any(fits):  # the legend on a slide of its own, after the picture
            pages.append((None, True, rows))
    return pages, top


#: the most of a slide's height the caption and the legend may take together
SHARE = 0.25


def _top(p: Any, lines: int) -> float:
    """Where a slide's window starts under ``lines`` caption rows."""
    return p.font + lines * p.caption * 1.45 + (p.caption * 0.6 if lines else 0)


def count(scene: Scene, step: int | None) -> int:
    """How many slides :func:`slides` makes, without drawing them."""
    planned = plan(scene, step)
    return 1 if planned is None else len(planned[0])


def slides(scene: Scene, step: int | None, whole: Callable[[], str], title: str) -> list[str]:
    """A drawing (``scene`` at ``step``, its whole SVG made by ``whole()``, its ``title``) as
    slides: one SVG when it reads at 14 pt on a 960×540 slide, else one SVG per window of
    the graph (see the module doc)."""
    planned = plan(scene, step)
    if planned is None:
        return [whole()]
    pages, _ = planned
    look = scene.look(step)
    size = page_size(scene)
    p = scene.preset
    return [_page(scene, look, title, w, with_legend, i, len(pages), size, _top(p, n), n)
            for i, (w, with_legend, n) in enumerate(pages)]


def readable_on_slide(scene: Scene) -> float:
    """The smallest text, in points, of the whole picture on a 960×540 slide."""
    if scene.preset.fit == (SLIDE[0], SLIDE[1], SLIDE[2]):
        return readable(scene)
    small = min(sh.size for sh in scene.shapes if sh.kind == "text")
    return small * min(1.0, SLIDE[0] / scene.width, SLIDE[1] / scene.height)


def _page(scene: Scene, look: dict[str, Any], title: str, win: tuple[float, ...] | None,
          with_legend: bool, i: int, n: int, size: tuple[float, float], top: float,
          rows: int) -> str:
    th = scene.theme
    dropped = {ids.caption(k) for k in range(rows, scene.caption_rows)}
    pw, ph = size
    margin = scene.preset.font
    prefix = f"p{i}-"
    hatch = f"{prefix}vg-hatch-{th.name}"
    frame, graph, legend = [], [], []
    for sh in layered(scene):
        lk = look.get(sh.id, {})
        if lk.get("hidden") or sh.id in dropped:
            continue
        head = f'id="{prefix}{sh.id}" class="{sh.cls}"'
        part = _frame(sh.id)
        (frame if part == "caption" else legend if part == "legend" else graph).append(
            shape_element(sh, lk, head, hatch))
    page = scene.word("slides.page", i=i + 1, n=n)
    notes = " vg-notes" if win is None else ""  # the caption and the legend, no picture
    w, h = _n(pw), _n(ph)
    body: list[str] = []
    clip = ""
    if win is not None:
        x0, y0, ww, wh = win
        clip = (f'<clipPath id="{prefix}window"><rect x="{_n(margin)}" y="{_n(top)}" '
                f'width="{_n(ww)}" height="{_n(wh)}"/></clipPath>')
        body = [f'<g clip-path="url(#{prefix}window)">'
                f'<g transform="translate({_n(margin - x0)},{_n(top - y0)})">', *graph, "</g></g>"]
    if with_legend:  # the legend keeps its place under the picture: the page's bottom
        body += [f'<g transform="translate(0,{_n(ph - scene.height)})">', *legend, "</g>"]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" '
        f'viewBox="0 0 {w} {h}" class="vizgrad vg-theme-{th.name} vg-slide{notes}" '
        f'role="img" '
        f'xml:space="preserve" style="max-width:100%;height:auto" font-family="{_attr(FONTS)}">',
        f"<title>{xml_text(title + ' · ' + page)}</title>",
        f'<defs><pattern id="{hatch}" patternUnits="userSpaceOnUse" width="6" height="6" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{th.background}"/>'
        f'<line x1="1" y1="0" x2="1" y2="6" stroke="{th.hatch}" stroke-width="1.6"/></pattern>'
        f"{clip}</defs>",
        f'<rect class="vg-background" width="{w}" height="{h}" fill="{th.background}"/>',
        *frame,
        *body,
        f'<text class="vg-page" x="{_n(pw - margin)}" y="{_n(margin * 1.2)}" '
        f'font-size="{_n(scene.preset.legend)}" text-anchor="end" fill="{th.muted}">'
        f"{xml_text(page)}</text>",
        "</svg>",
    ]
    return "\n".join(lines) + "\n"
