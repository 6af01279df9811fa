"""Where a scene goes on 960×540 slides, before anything is drawn: pages, windows, bands.

A slide is a 16:9 page on which the smallest text reads at 14 pt or more (960×540 pt, in
the scene's points scaled by its smallest text). On each page the caption block sits on
top, the legend at the bottom, the two together at most a quarter of the page's height
(:data:`SHARE`), and the graph between them. The graph is cut into *windows* between
its boxes, never through one: along the picture's direction first (a left-to-right
picture into bands of columns), then across. Each box, op circle and edge label belongs
to exactly one window and lies wholly inside it; the windows then *fill* pages (bands
of a left-to-right picture stacked, of a top-to-bottom one side by side), so a net
whose layer view is three boxes wide and two pages long still makes one slide.

Of the ways to share the page, the plan takes the one that makes the fewest slides: the
legend on each slide when the quarter holds it, else on a slide of its own after the
pictures (the *notes*, with the whole caption); then the first slides as full as can be;
then as many whole lines of the caption as the quarter holds (the first at least, in a
backward step its chain rule). When the graph takes more than one slide, each is headed
"part k of n: A → B" (its first and last box along the picture's direction), beside the
caption's first row when it fits there::

    >>> from vizgrad import examples
    >>> from vizgrad.scene.scene import Scene, make_scene
    >>> p = plan(Scene(examples.graph("fork"), preset="slides"), None)
    >>> len(p.pages), p.pages[0].heading, sorted(p.pages[0].windows[0].nodes)
    (1, False, ['v0', 'v1', 'v2', 'v3', 'v4'])
    >>> p = plan(make_scene(examples.graph("softmax-nll"), preset="slides"), None)
    >>> [(len(page.windows), page.heading, page.rows, page.legend) for page in p.pages]
    [(1, True, 2, False), (2, True, 2, False), (1, True, 2, False), (2, True, 2, False), (0, False, 3, True)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import ids

if TYPE_CHECKING:
    from .parts import Drawn as Scene

__all__ = ["SHARE", "SLIDE", "Page", "Plan", "Window", "band", "plan", "slide_count"]

#: the slide, in points, and the smallest text on it
SLIDE = (960.0, 540.0, 14.0)
#: the most of a slide's height the caption and the legend may take together
SHARE = 0.25
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Window:
    """A part of the graph (``area``, in the scene's points) and where its top left goes
    on the page (``at``); ``nodes`` are the boxes it holds, ``labels`` its edge labels'
    ``(u, v, slot)``."""

    area: Box
    at: tuple[float, float]
    nodes: tuple[str, ...]
    labels: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Page:
    """One slide: its windows (none: the notes slide, the whole caption and the legend),
    how many caption rows it shows, whether it carries the legend and the part heading."""

    windows: tuple[Window, ...]
    rows: int
    legend: bool
    heading: bool


@dataclass(frozen=True)
class Plan:
    """Every slide of a scene at one step, on pages of ``size`` points; ``edge`` is the
    page's margin, ``top(rows, heading)`` where the graph may start."""

    size: tuple[float, float]
    pages: tuple[Page, ...]
    edge: float
    line: float
    heading_h: float
    legend_h: float

    def top(self, rows: int, heading: bool) -> float:
        """Where the caption block ends on a page with ``rows`` rows (and the heading)."""
        return (self.edge + (self.heading_h if heading else 0.0) + rows * self.line
                + (self.line * 0.4 if rows else 0.0))

    def bottom(self, legend: bool) -> float:
        """The height the legend takes at the page's bottom (the margin alone without it)."""
        return self.edge + (self.legend_h if legend else 0.0)


def _items(scene: Scene) -> list[tuple[Any, Box]]:
    """Every box, op circle and edge label as (key, extent); a node's box and op circle
    share the key ``("n", node)``, a label and its box ``("l", u, v, slot)``."""
    out: list[tuple[Any, Box]] = []
    for sh in scene.shapes:
        p, g = ids.parse(sh.id), sh.geom
        if p is None:
            continue
        if sh.kind == "rect" and p.kind == "box":
            out.append((("n", p.node), (g[0], g[1], g[0] + g[2], g[1] + g[3])))
        elif sh.kind == "ellipse" and p.kind == "op":
            out.append((("n", p.node), (g[0] - g[2], g[1] - g[3], g[0] + g[2], g[1] + g[3])))
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


def _merged(scene: Scene) -> dict[Any, Box]:
    """Each item's extent: a box with its op circle one item, a label with its box."""
    found: dict[Any, Box] = {}
    for key, b in _items(scene):
        o = found.get(key)
        found[key] = b if o is None else (min(o[0], b[0]), min(o[1], b[1]),
                                          max(o[2], b[2]), max(o[3], b[3]))
    return found


def _windows(scene: Scene, room_w: float, room_h: float) -> list[tuple[Box, list[Any]]]:
    """The graph's windows in reading order: each the extent of what it holds."""
    found = _merged(scene)
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


def _fill(wins: list[tuple[Box, list[Any]]], lr: bool, room_w: float, room_h: float,
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


def page_size(scene: Scene) -> tuple[float, float]:
    """A slide in the scene's points: 960×540 scaled so its smallest text is 14 pt."""
    k = round(min(sh.size for sh in scene.shapes if sh.kind == "text"), 2) / SLIDE[2]
    return _down(SLIDE[0] * k), _down(SLIDE[1] * k)


def _down(x: float) -> float:
    """``x`` to two decimals, rounded down (a page never larger than its text allows)."""
    return math.floor(x * 100) / 100


def _shown_rows(look: dict[str, dict[str, str]], rows: int) -> int:
    """How many caption rows a step fills (its last non-empty one) of ``rows``."""
    return max((i + 1 for i in range(rows) if look.get(ids.caption(i), {}).get("text")),
               default=0)


def _inline(scene: Scene, look: dict[str, dict[str, str]], step: int | None,
            room: float) -> bool:
    """True when the part heading, with the longest box names, fits at the right of the
    caption's first row (it then takes no row of its own)."""
    from ..style.metrics import width

    p = scene.preset
    names = [look.get(ids.text(n, "name"), {}).get("text", "").split(" · ")[0]
             for n in scene.order]
    longest = max(names, key=lambda t: width(t, p.legend, True), default="")
    head = scene.word("slides.part", k=99, n=99, first=longest, last=longest)
    first = scene.caption_lines(step)[0]
    return (scene.badge_width + p.caption * 0.6 + width(first, p.caption, True) + p.caption
            + width(head, p.legend, True)) <= room


def _stops(scene: Scene, step: int | None, rows: int) -> list[int]:
    """How many caption rows a slide may keep, most first: where a line of the caption
    ends (a slide never keeps half a line), down to the first line, or in a backward step
    to its first chain rule."""
    if not rows:
        return [0]
    from .captions import caption_groups

    steps = scene.graph.graph["steps"]
    least = 2 if step is not None and steps[step].get("kind") == "backward" else 1
    ends, total = [], 0
    for group in caption_groups(scene, step):
        total += len(group)
        ends.append(total)
    if total != rows:  # rows drawn otherwise (a scene of another kind): any row
        return list(range(rows, 0, -1))
    return ends[min(least, len(ends)) - 1:][::-1]


def plan(scene: Scene, step: int | None) -> Plan:
    """The slides of ``scene`` at ``step`` (``None``: the final view); see the module doc."""
    p = scene.preset
    pw, ph = page_size(scene)
    leg_n = len(scene.legend_lines())
    base = Plan((pw, ph), (), p.legend * 0.6, p.caption * 1.45, p.legend * 1.45,
                leg_n * p.legend * 1.45 + p.legend * 0.5 if leg_n else 0.0)
    look = scene.look(step)
    rows = _shown_rows(look, scene.caption_rows if scene.caption else 0)
    if rows and _inline(scene, look, step, pw - 2 * base.edge):  # the heading beside row 1
        base = Plan((pw, ph), (), base.edge, base.line, 0.0, base.legend_h)
    stops = _stops(scene, step, rows)
    # a box too big for a slide at 14 pt: the slide grows to hold it whole (smaller text)
    items = list(_merged(scene).values()) or [(0.0, 0.0, 0.0, 0.0)]
    need = max(max(b[3] - b[1] for b in items) + base.top(stops[-1], True) + base.bottom(False),
               (max(b[2] - b[0] for b in items) + 2 * base.edge) * SLIDE[1] / SLIDE[0])
    if need > ph:
        pw, ph = _down(need * SLIDE[0] / SLIDE[1]) + 0.01, _down(need) + 0.01
        base = Plan((pw, ph), (), base.edge, base.line, base.heading_h, base.legend_h)
    share = SHARE * ph
    gap = base.edge * 1.5  # between windows on one page
    room_w = pw - 2 * base.edge
    lr = scene.rankdir == "LR"
    best: tuple[Any, ...] | None = None
    # the fewest slides: the legend on each if the quarter holds it, else on a slide of
    # notes; then the first slides as full as can be; then the most caption lines (whole
    # lines, the first at least); a heading when the graph takes more than one slide
    for legend in ((True, False) if leg_n else (False,)):
        for r in stops:
            for heading in (False, True):
                if base.top(r, heading) + base.bottom(legend) > share + 1e-6:
                    continue
                room_h = ph - base.top(r, heading) - base.bottom(legend)
                wins = _windows(scene, room_w, room_h)
                if any(a[3] - a[1] > room_h + 1e-6 for a, _ in wins):
                    continue  # a box taller than the room: fewer caption rows
                pages = _fill(wins, lr, room_w, room_h, gap)
                if (len(pages) > 1) != heading:
                    continue
                notes = (not legend and leg_n > 0) or r < rows
                # the fewest slides, the first ones fullest, then the most caption
                key = (len(pages) + notes, tuple(-len(page) for page in pages), rows - r,
                       not legend)
                if best is None or key < best[0]:
                    best = (key, legend, r, heading, pages)
    if best is None:  # even the first line and the margins pass the quarter: notes apart
        r = stops[-1]
        room_h = ph - base.top(r, True) - base.bottom(False)
        pages = _fill(_windows(scene, room_w, room_h), lr, room_w, room_h, gap)
        best = (None, False, r, len(pages) > 1, pages)
    _, legend, r, heading, pages = best
    out = [Page(_place(block, lr, base, r, heading, legend, (pw, ph), gap), r, legend, heading)
           for block in pages]
    if not legend and leg_n or r < rows:  # the notes: the caption's lines that fit a page
        fit = [n for n in stops if base.top(n, False) + base.bottom(leg_n > 0) <= ph] or [r]
        out.append(Page((), fit[0], bool(leg_n), False))
    if len(pages) == 1 and not heading:  # one picture: the page as large as it reads
        wide = _frame_width(scene, step) + 2 * base.edge
        pw, ph = _one_page(base, out[0], (pw, ph), rows, leg_n > 0, wide,
                           _size(pages[0], lr, gap))
        out[0] = Page(_place(pages[0], lr, base, r, False, legend, (pw, ph), gap), r, legend,
                      False)
    return Plan((pw, ph), tuple(out), base.edge, base.line, base.heading_h, base.legend_h)


def _frame_width(scene: Scene, step: int | None) -> float:
    """The widest caption row (after the badge) or legend row of ``step``, in points."""
    from ..style.metrics import width

    p = scene.preset
    rows = [scene.badge_width + p.caption * 0.6 + width(t, p.caption, i == 0)
            for i, t in enumerate(scene.caption_lines(step) if scene.caption else [])]
    return max([0.0, *rows, *(width(t, p.legend) for t in scene.legend_lines())])


def _one_page(base: Plan, page: Page, size: tuple[float, float], rows: int,
              has_legend: bool, wide: float,
              content: tuple[float, float]) -> tuple[float, float]:
    """The smallest 16:9 page that holds one picture's page (its windows: ``content``
    wide and high) and its caption and legend rows (``wide``), at most a slide at 14 pt,
    whose caption and legend still take at most the quarter."""
    frame = base.top(page.rows, False) + base.bottom(page.legend)
    ph = max(frame / SHARE, frame + content[1],
             max(content[0] + 2 * base.edge, wide) * SLIDE[1] / SLIDE[0])
    if not page.legend and has_legend or page.rows < rows:  # the notes slide: it too
        ph = max(ph, base.top(rows, False) + base.bottom(has_legend))
    ph = min(ph, size[1])
    return _down(ph * SLIDE[0] / SLIDE[1]), _down(ph)


def _size(block: list[tuple[Box, list[Any]]], lr: bool, gap: float) -> tuple[float, float]:
    """The width and height of a page's windows together: stacked or side by side."""
    ws = [a[2] - a[0] for a, _ in block]
    hs = [a[3] - a[1] for a, _ in block]
    if lr:
        return max(ws), sum(hs) + gap * (len(hs) - 1)
    return sum(ws) + gap * (len(ws) - 1), max(hs)


def _place(block: list[tuple[Box, list[Any]]], lr: bool, base: Plan, rows: int, heading: bool,
           legend: bool, size: tuple[float, float], gap: float) -> tuple[Window, ...]:
    """The windows of one page, where they go: stacked (or side by side) and centred in
    the room between the caption and the legend."""
    pw, ph = size
    top, bottom = base.top(rows, heading), base.bottom(legend)
    ws = [a[2] - a[0] for a, _ in block]
    hs = [a[3] - a[1] for a, _ in block]
    total_w, total_h = _size(block, lr, gap)
    x = max(base.edge, (pw - total_w) / 2)
    y = top + max(0.0, (ph - top - bottom - total_h) / 2)
    out = []
    for (area, keys), w, h in zip(block, ws, hs):
        out.append(Window(area, (round(x, 2), round(y, 2)),
                          tuple(k[1] for k in keys if k[0] == "n"),
                          tuple(k[1:] for k in keys if k[0] == "l")))
        if lr:
            y += h + gap
        else:
            x += w + gap
    return tuple(out)


def slide_count(scene: Scene, step: int | None = None) -> int:
    """How many slides the scene makes at ``step``, notes included."""
    return len(plan(scene, step).pages)
