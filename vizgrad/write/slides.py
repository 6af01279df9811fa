"""A picture on 960×540 slides: one slide when it fits in some arrangement, else a few full
ones, each readable at 14 pt; one layout (the plan: :mod:`vizgrad.scene.slide_plan`).

Each slide is a 16:9 page: the caption block on top (its rows that fit a quarter of the
page with the legend), the legend at the bottom, and between them the windows of the
graph the plan gives it. A window draws the boxes, op circles and edge labels it holds,
each whole, and the edges under them cut at its border (stubs to the boxes of another
window). A picture split over several slides heads each with "part k of n: A → B"; the
legend and the whole caption go on a slide of their own when the quarter cannot hold
them::

    >>> from vizgrad import draw, examples
    >>> pages = draw(examples.graph("softmax-nll"), preset="slides").slides()
    >>> 'class="vg-page"' in pages[0], pages[0].count("<svg")
    (True, 1)
    >>> len(draw(examples.graph("fork"), preset="slides").slides())
    1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..scene import ids
from ..scene.slide_plan import SHARE, SLIDE, Page, Plan, Window, plan
from .svgout import FONTS, _attr, _n, layered, shape_element, xml_text

if TYPE_CHECKING:
    from ..scene.scene import Scene, Shape

__all__ = ["SHARE", "SLIDE", "count", "heading", "slides"]

#: the kinds of shape a window owns (drawn whole, on its window's slide only)
_NODE_KINDS = ("box", "text", "cell", "sep", "op")


def count(scene: Scene, step: int | None) -> int:
    """How many slides :func:`slides` makes, without drawing them."""
    return len(plan(scene, step).pages)


def slides(scene: Scene, step: int | None, whole: Callable[[], str], title: str) -> list[str]:
    """A drawing (``scene`` at ``step``, its ``title``) as slides; see the module doc.
    ``whole`` (the picture's own SVG) is not needed: every slide is a page."""
    pl = plan(scene, step)
    look = scene.look(step)
    parts = sum(1 for pg in pl.pages if pg.windows)
    return [_page(scene, pl, look, title, pg, i, parts) for i, pg in enumerate(pl.pages)]


def heading(scene: Scene, page: Page, k: int, n: int,
            look: dict[str, Any] | None = None) -> str:
    """"part k of n: A → B" ("part k of n: A" for one box): the first box of the page's
    first window and the last of its last along the picture's direction (values before
    constants; names as the boxes show them, in ``look``: by default the final view's)."""
    shown = scene.look(None) if look is None else look
    along = 0 if scene.rankdir == "LR" else 1

    def ends(w: Window) -> list[str]:
        kept = [m for m in w.nodes if scene.kind(m) not in ("stub", "const")] or list(w.nodes)
        return sorted(kept, key=lambda m: (_centre(scene, m)[along],
                                           _centre(scene, m)[1 - along]))

    first, last = ends(page.windows[0])[0], ends(page.windows[-1])[-1]
    if first == last:  # one box on the slide
        return scene.word("slides.part_one", k=k, n=n, first=_name(scene, shown, first))
    return scene.word("slides.part", k=k, n=n, first=_name(scene, shown, first),
                      last=_name(scene, shown, last))


def _centre(scene: Scene, n: str) -> tuple[float, float]:
    b = scene.reading.get(n, (0.0, 0.0))
    return (b[1], b[0]) if scene.rankdir == "LR" else (b[0], b[1])


def _name(scene: Scene, look: dict[str, Any], n: str) -> str:
    text = look.get(ids.text(n, "name"), {}).get("text") or \
        str(scene.facts.nodes[n].get("label") or n)
    return text.split(" · ")[0]


def _owner(sh: Shape, apart: set[str]) -> tuple[str, Any]:
    """Who a shape belongs to: ("n", node), ("o", node) for an op circle apart from its box
    (``apart``), ("l", (u, v, slot)), ("caption"|"legend", None), or ("edge", None) for what
    is drawn in every window, cut at its border."""
    p = ids.parse(sh.id)
    if sh.id in (ids.badge(), ids.badge_text()) or p is not None and p.kind == "caption":
        return "caption", None
    if p is None:
        return "edge", None
    if p.kind == "legend":
        return "legend", None
    if p.node in apart and (p.kind == "op" or p.kind == "text" and p.slot == "op"):
        return "o", p.node
    if p.kind in _NODE_KINDS:
        return "n", p.node
    if p.kind in ("edge_label", "edge_box"):
        return "l", (p.node, p.target, p.slot)
    return "edge", None


def _window(scene: Scene, w: Window, j: int, prefix: str, pad: float,
            drawn: dict[str, list[tuple[Any, str]]]) -> tuple[str, list[str]]:
    """One window: its clip path and its group, moved to its place on the page."""
    x0, y0, x1, y1 = w.area
    cid = f"{prefix}w{j}"
    clip = (f'<clipPath id="{cid}"><rect x="{_n(x0 - pad)}" y="{_n(y0 - pad)}" '
            f'width="{_n(x1 - x0 + 2 * pad)}" height="{_n(y1 - y0 + 2 * pad)}"/></clipPath>')
    own_n, own_l, own_o = set(w.nodes), set(w.labels), set(w.ops)
    body = [el for _, el in drawn["edge"]]
    body += [el for key, el in drawn["l"] if key in own_l]
    body += [el for key, el in drawn["o"] if key in own_o]
    body += [el for key, el in drawn["n"] if key in own_n]
    dx, dy = w.at[0] - x0, w.at[1] - y0
    return clip, [f'<g transform="translate({_n(dx)},{_n(dy)})">',
                  f'<g clip-path="url(#{cid})">', *body, "</g></g>"]


def _page(scene: Scene, pl: Plan, look: dict[str, Any], title: str, page: Page, i: int,
          parts: int) -> str:
    th, p = scene.theme, scene.preset
    pw, ph = pl.size
    prefix = f"p{i}-"
    hatch = f"{prefix}vg-hatch-{th.name}"
    rows = page.rows
    dropped = {ids.caption(k) for k in range(rows, scene.caption_rows)}
    drawn: dict[str, list[tuple[Any, str]]] = {"caption": [], "legend": [], "n": [], "l": [],
                                               "o": [], "edge": []}
    apart = {m for pg in pl.pages for w in pg.windows for m in w.ops}
    for sh in layered(scene):
        lk = look.get(sh.id, {})
        if lk.get("hidden") or sh.id in dropped:
            continue
        part, key = _owner(sh, apart)
        drawn[part].append((key, shape_element(sh, lk, f'id="{prefix}{sh.id}" class="{sh.cls}"',
                                               hatch)))
    margin = p.font  # where the scene put its caption and legend
    top = pl.edge + (pl.heading_h if page.heading else 0.0)
    head: list[str] = []
    name = title
    if page.heading:
        where = heading(scene, page, sum(1 for pg in pl.pages[:i + 1] if pg.windows), parts,
                        look)
        name = f"{title} · {where}"
        x, y, anchor = pl.edge, pl.edge + p.legend * 1.05, ""
        if not pl.heading_h:  # at the right of the caption's first row
            first = next(sh for sh in scene.shapes if sh.id == ids.caption(0))
            x, y, anchor = pw - pl.edge, first.geom[1] + top - margin, ' text-anchor="end"'
        head = [f'<text class="vg-page" x="{_n(x)}" y="{_n(y)}" font-size="{_n(p.legend)}"'
                f'{anchor} font-weight="bold" fill="{th.muted}">{xml_text(where)}</text>']
    body = [f'<g transform="translate({_n(pl.edge - margin)},{_n(top - margin)})">',
            *(el for _, el in drawn["caption"]), "</g>"] if rows or not page.windows else []
    clips: list[str] = []
    for j, w in enumerate(page.windows):
        clip, group = _window(scene, w, j, prefix, p.font * 0.5, drawn)
        clips.append(clip)
        body += group
    if page.legend:  # the legend's rows at the page's bottom
        leg_h = len(scene.legend_lines()) * p.legend * 1.45
        dy = (ph - pl.edge - leg_h) - (scene.height - margin - leg_h)
        body += [f'<g transform="translate({_n(pl.edge - margin)},{_n(dy)})">',
                 *(el for _, el in drawn["legend"]), "</g>"]
    notes = "" if page.windows else " vg-notes"  # the caption and the legend, no picture
    w, h = _n(pw), _n(ph)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" '
        f'viewBox="0 0 {w} {h}" class="vizgrad vg-theme-{th.name} vg-slide{notes}" '
        f'role="img" '
        f'xml:space="preserve" style="max-width:100%;height:auto" font-family="{_attr(FONTS)}">',
        f"<title>{xml_text(name)}</title>",
        f'<defs><pattern id="{hatch}" patternUnits="userSpaceOnUse" width="6" height="6" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{th.background}"/>'
        f'<line x1="1" y1="0" x2="1" y2="6" stroke="{th.hatch}" stroke-width="1.6"/></pattern>'
        f"{''.join(clips)}</defs>",
        f'<rect class="vg-background" width="{w}" height="{h}" fill="{th.background}"/>',
        *head,
        *body,
        "</svg>",
    ]
    return "\n".join(lines) + "\n"
