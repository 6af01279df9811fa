"""Write a scene's look as SVG text: deterministic, escaped, scalable.

Shapes keep their stable ids and classes; numbers are written with at most
two decimals; the root has a ``viewBox`` and scales down to its container
(``max-width: 100%``), so it fits a notebook cell or a docs column.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..scene import ids
from ..scene.shapes import Shape

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["CAPTION_CLASSES", "FONTS", "empty_rows", "layered", "shape_element", "svg_document",
           "svg_shapes", "xml_text"]

#: The font stack: DejaVu Sans (the widths layout measures), common Latin fallbacks,
#: then CJK fonts for Chinese words.
FONTS = ("'DejaVu Sans', Verdana, 'Helvetica Neue', Arial, 'Noto Sans CJK SC', "
         "'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', sans-serif")
#: the characters XML cannot carry (tab and newline it can)
_NOT_XML = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")
_CAPTION_HEAD = ids.PATTERNS["caption"].split("{", 1)[0]
_LAYER = {"vg-edge": 0, "vg-arrow": 0, "vg-arrow vg-back": 0, "vg-label-bg": 1, "vg-label": 1}


@lru_cache(maxsize=4096)  # "data", "grad" and many numbers recur in every box
def xml_text(s: str) -> str:
    """Text safe inside XML: escaped, characters XML cannot carry become U+FFFD.

    >>> xml_text("a < b & \\x01")
    'a &lt; b &amp; �'
    """
    return html.escape(_NOT_XML.sub("\ufffd", s), quote=False)


def _attr(s: str) -> str:
    return html.escape(xml_text(s), quote=True).replace("&amp;amp;", "&amp;")


def _n(v: float) -> str:
    text = f"{v:.2f}"
    if text[-1] != "0":  # nothing to trim (and not "-0")
        return text
    text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _layer(shape: Shape) -> int:
    return _LAYER.get(shape.cls, 2)


def _paint(look: dict[str, str], hatch_id: str) -> str:
    out = []
    if "fill" in look:
        fill = f"url(#{hatch_id})" if look.get("hatch") else look["fill"]
        out.append(f'fill="{fill}"')
    if look.get("stroke"):
        out.append(f'stroke="{look["stroke"]}"')
        if look.get("sw"):
            out.append(f'stroke-width="{look["sw"]}"')
        if look.get("dash"):
            out.append(f'stroke-dasharray="{look["dash"]}"')
    return " ".join(out)


def shape_element(sh: Shape, lk: dict[str, str], head: str, hatch: str) -> str:
    """One shape as an SVG element in look ``lk``; ``head`` holds its first attributes
    (id, class) and ``hatch`` is the id of the hatch pattern for unreached grads."""
    g = sh.geom
    if sh.kind == "rect":  # a box with a tooltip: its every cell (a layer's row)
        tip = f"<title>{xml_text(lk['title'])}</title></rect>" if lk.get("title") else ""
        return (f'<rect {head} x="{_n(g[0])}" y="{_n(g[1])}" width="{_n(g[2])}" '
                f'height="{_n(g[3])}" rx="{_n(g[4])}" {_paint(lk, hatch)}'
                + (f">{tip}" if tip else "/>"))
    if sh.kind == "ellipse":
        return (f'<ellipse {head} cx="{_n(g[0])}" cy="{_n(g[1])}" rx="{_n(g[2])}" '
                f'ry="{_n(g[3])}" {_paint(lk, hatch)}/>')
    if sh.kind == "path":
        d = f"M{_n(g[0][0])},{_n(g[0][1])}C" + " ".join([f"{_n(x)},{_n(y)}" for x, y in g[1:]])
        return f'<path {head} d="{d}" fill="none" {_paint(lk, hatch)}/>'
    if sh.kind == "poly":
        pts = " ".join([f"{_n(x)},{_n(y)}" for x, y in g])
        return f'<polygon {head} points="{pts}" {_paint(lk, hatch)}/>'
    # only an id that starts as a caption's can be one (parsed only then: a text is drawn
    # for every box's row)
    is_caption = (sh.id.startswith(_CAPTION_HEAD) and (p := ids.parse(sh.id)) is not None
                  and p.kind == "caption")
    anchor = "" if sh.anchor == "start" else f' text-anchor="{sh.anchor}"'
    weight = ' font-weight="bold"' if lk.get("bold") else ""
    # captions keep their runs of spaces ("= 3   (−6 → −3)"), which browsers would collapse
    spaces = ' style="white-space:pre"' if is_caption else ""
    return (f'<text {head} x="{_n(g[0])}" y="{_n(g[1])}" font-size="{_n(sh.size)}"'
            f'{anchor}{weight}{spaces} fill="{lk.get("fill", "#000")}">'
            f'{xml_text(lk.get("text", ""))}</text>')


def layered(scene: Scene) -> list[Shape]:
    """The scene's shapes in drawing order: edges under labels under boxes."""
    return sorted(scene.shapes, key=_layer)


#: the classes of the caption's shapes (the badge and the lines), above the graph
CAPTION_CLASSES = frozenset({"vg-badge", "vg-badge-text", "vg-caption", "vg-rule"})


def empty_rows(scene: Scene, step: int | None) -> float:
    """The height, in points, of the caption rows that ``step`` leaves empty: every step
    has room for the longest caption of any step, and a picture of one step need not keep
    it (a still picture starts that much lower).

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> s = scene_of(examples.graph("fork"))
    >>> s.caption_rows, len(s.caption_lines(0)), empty_rows(s, 0) == 2 * s.preset.caption * 1.45
    (3, 1, True)
    """
    if not scene.caption:
        return 0.0
    used = len([line for line in scene.caption_lines(step) if line.strip()])
    return round(max(0, scene.caption_rows - max(used, 1)) * scene.preset.caption * 1.45, 2)


def svg_shapes(scene: Scene, look: dict[str, dict[str, str]], *, prefix: str = "",
               keep_hidden: bool = False, drop: float = 0.0) -> list[str]:
    """One SVG element per shape, edges under labels under boxes; hidden ones left out
    unless ``keep_hidden`` (then they carry ``display="none"``). ``drop``: the caption's
    shapes move down by this much (onto the graph, over the rows its step leaves empty)."""
    hatch = f"{prefix}vg-hatch-{scene.theme.name}"
    out = []
    for sh in layered(scene):
        lk = look.get(sh.id, {})
        hidden = bool(lk.get("hidden"))
        if hidden and not keep_hidden:
            continue
        head = f'id="{prefix}{sh.id}" class="{sh.cls}"' + (' display="none"' if hidden else "")
        if drop and sh.cls in CAPTION_CLASSES:
            head += f' transform="translate(0 {_n(drop)})"'
        out.append(shape_element(sh, lk, head, hatch))
    return out


def svg_document(scene: Scene, look: dict[str, dict[str, str]], *, title: str, desc: str = "",
                 prefix: str = "", keep_hidden: bool = False, extra_class: str = "",
                 shapes: list[str] | None = None, style: str = "", drop: float = 0.0) -> str:
    """A standalone SVG document of ``look``; ``shapes`` (elements written elsewhere)
    replace the shapes of ``look``, and ``style`` becomes a ``<style>`` sheet. ``drop``:
    the caption rows this step leaves empty, in points: the caption moves down onto the
    graph and the picture starts that much lower (see :func:`empty_rows`)."""
    th = scene.theme
    w, h = _n(scene.width), _n(scene.height - drop)
    top = f' y="{_n(drop)}"' if drop else ""
    cls = f"vizgrad vg-theme-{th.name}" + (f" {extra_class}" if extra_class else "")
    hatch = f"{prefix}vg-hatch-{th.name}"
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" '
        f'viewBox="0 {_n(drop)} {w} {h}" class="{cls}" role="img" xml:space="preserve" '
        f'style="max-width:100%;height:auto" font-family="{_attr(FONTS)}">',
        f"<title>{xml_text(title)}</title>",
    ]
    if desc:
        lines.append(f"<desc>{xml_text(desc)}</desc>")
    lines += [
        f'<defs><pattern id="{hatch}" patternUnits="userSpaceOnUse" width="6" height="6" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{th.background}"/>'
        f'<line x1="1" y1="0" x2="1" y2="6" stroke="{th.hatch}" stroke-width="1.6"/>'
        f"</pattern></defs>",
        *([f"<style>{style}</style>"] if style else []),
        f'<rect class="vg-background"{top} width="{w}" height="{h}" fill="{th.background}"/>',
        *(svg_shapes(scene, look, prefix=prefix, keep_hidden=keep_hidden, drop=drop)
          if shapes is None else shapes),
        "</svg>",
    ]
    return "\n".join(lines) + "\n"
