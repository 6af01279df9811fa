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
    >>> from vizgrad.scene.make import make_scene, scene_of
    >>> p = plan(scene_of(examples.graph("fork"), preset="slides"), None)
    >>> len(p.pages), p.pages[0].heading, sorted(p.pages[0].windows[0].nodes)
    (1, False, ['v0', 'v1', 'v2', 'v3', 'v4'])
    >>> p = plan(make_scene(examples.graph("softmax-nll"), preset="slides"), None)
    >>> [(len(page.windows), page.heading, page.rows, page.legend) for page in p.pages]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(1, True, 3, False), (1, True, 3, False), (2, True, 3, False), (2, True, 3, False),
     (0, False, 3, True)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import ids
from .slide_windows import Window, fill, merged, place, size, windows

if TYPE_CHECKING:
    from .slide_windows import Pictured as Scene

__all__ = ["SHARE", "SLIDE", "Page", "Plan", "Window", "page_size", "plan"]

#: the slide, in points, and the smallest text on it
SLIDE = (960.0, 540.0, 14.0)
#: the most of a slide's height the caption and the legend may take together
SHARE = 0.25


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

    steps = scene.facts.graph["steps"]
    least = 2 if step is not None and steps[step].get("kind") == "backward" else 1
    ends, total = [], 0
    for group in caption_groups(scene.caption_texts(step), scene.preset,
                                scene.wrap_at - scene.badge_width):
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
    items = list(merged(scene).values()) or [(0.0, 0.0, 0.0, 0.0)]
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
                wins = windows(scene, room_w, room_h)
                if any(a[3] - a[1] > room_h + 1e-6 for a, _ in wins):
                    continue  # a box taller than the room: fewer caption rows
                pages = fill(wins, lr, room_w, room_h, gap)
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
        pages = fill(windows(scene, room_w, room_h), lr, room_w, room_h, gap)
        best = (None, False, r, len(pages) > 1, pages)
    _, legend, r, heading, pages = best
    out = [Page(place(block, lr, base.top(r, heading), base.bottom(legend), (pw, ph), gap,
                      base.edge), r, legend, heading) for block in pages]
    if not legend and leg_n or r < rows:  # the notes: the caption's lines that fit a page
        fit = [n for n in stops if base.top(n, False) + base.bottom(leg_n > 0) <= ph] or [r]
        out.append(Page((), fit[0], bool(leg_n), False))
    if len(pages) == 1 and not heading:  # one picture: the page as large as it reads
        wide = _frame_width(scene, step) + 2 * base.edge
        pw, ph = _one_page(base, out[0], (pw, ph), rows, leg_n > 0, wide,
                           size(pages[0], lr, gap))
        out[0] = Page(place(pages[0], lr, base.top(r, False), base.bottom(legend), (pw, ph),
                            gap, base.edge), r, legend, False)
    return Plan((pw, ph), tuple(out), base.edge, base.line, base.heading_h, base.legend_h)


def _frame_width(scene: Scene, step: int | None) -> float:
    """The widest caption row (after the badge) or legend row of ``step``, in points."""
    from ..style.metrics import width

    p = scene.preset
    rows = [scene.badge_width + p.caption * 0.6 + width(t, p.caption, i == 0)
            for i, t in enumerate(scene.caption_lines(step) if scene.caption else [])]
    return max([0.0, *rows, *(width(t, p.legend) for t in scene.legend_lines())])


def _one_page(base: Plan, page: Page, slide: tuple[float, float], rows: int,
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
    ph = min(ph, slide[1])
    return _down(ph * SLIDE[0] / SLIDE[1]), _down(ph)
