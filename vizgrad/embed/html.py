"""The HTML an embed writes: a figure, a player's iframe, an error box.

Shared by the Sphinx directive, the Markdown extension and the notebook display.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass



__all__ = ["Rendered", "ERROR_STYLE", "error_html", "figure_html", "iframe_html", "natural_width",
           "player_height"]


@dataclass(frozen=True)
class Rendered:
    """One output: ``kind`` is ``svg``, ``animated`` (both SVG text) or ``player`` (a page)."""

    kind: str
    text: str
    alt: str
    caption: str | None

    @property
    def suffix(self) -> str:
        """The file suffix of :attr:`text`."""
        return ".html" if self.kind == "player" else ".svg"


_SVG_HEIGHT = re.compile(r'<svg\b[^>]*?\sheight="([0-9.]+)(pt|px)?"')
_TABLE_ROWS = re.compile(r'<table id="nodes" data-rows="(\d+)"')
_SVG_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)(pt|px)?"')


def natural_width(svg: str) -> float | None:
    """The width (CSS px) an SVG is drawn at, from its root's ``width``; None if unknown.

    >>> natural_width('<svg xmlns="http://www.w3.org/2000/svg" width="717.44pt" height="3pt">')
    956.59
    """
    m = _SVG_WIDTH.search(svg)
    if m is None:
        return None
    return round(float(m[1]) * (4 / 3 if m[2] != "px" else 1.0), 2)


def player_height(page: str) -> int:
    """An iframe height (CSS px) that shows a player page's tallest picture and its table.

    >>> player_height('<svg width="10pt" height="150pt"><table id="nodes" data-rows="1">')
    629
    """
    tallest = 0.0
    for number, unit in _SVG_HEIGHT.findall(page):
        tallest = max(tallest, float(number) * (4 / 3 if unit != "px" else 1.0))
    # the table's rows are built by the page's script; the table says how many it will have
    rows = sum(int(n) for n in _TABLE_ROWS.findall(page))
    sections = max(1, page.count('class="step'))
    return int(min(1600, max(320, tallest + 29 * rows / sections + 400)))


def iframe_html(page: str, title: str, *, src: str | None = None) -> str:
    """An ``<iframe>`` that holds a player page: inline (``srcdoc``) or from ``src``.

    The frame is sandboxed with scripts only: its page keeps its own ids, styles,
    keys and Content-Security-Policy, so several players on one page never meet.
    Its box starts at :func:`player_height` and the reader can drag it taller.
    """
    e = html.escape
    where = f'src="{e(src)}"' if src is not None else f'srcdoc="{e(page)}"'
    return (f'<div class="vizgrad-frame" style="resize:vertical;overflow:hidden;'
            f'height:{player_height(page)}px;border:1px solid #d1d9e0;border-radius:6px">'
            f'<iframe class="vizgrad-player" {where} sandbox="allow-scripts" '
            f'title="{e(title)}" loading="lazy" '
            f'style="display:block;width:100%;height:100%;border:0"></iframe></div>')


def figure_html(out: Rendered, *, src: str | None = None) -> str:
    """The HTML a document shows for ``out``: a ``<figure>`` with an optional caption.

    Without ``src`` it is self-contained (the SVG as a data: URL, the player
    inline); with ``src`` it points at the file written there.
    """
    e = html.escape
    if out.kind == "player":
        body = iframe_html(out.text, f"step player: {out.alt}", src=src)
    else:
        if src is None:
            src = "data:image/svg+xml;base64," + base64.b64encode(out.text.encode("utf-8")).decode()
        # as wide as the column, never wider than drawn: the text stays at its size or less
        natural = natural_width(out.text)
        most = f"max-width:{natural:g}px" if natural else "max-width:100%"
        body = (f'<img src="{e(src)}" alt="{e(out.alt)}" '
                f'style="display:block;width:100%;{most};height:auto">')
    cap = f"<figcaption>{e(out.caption)}</figcaption>" if out.caption else ""
    return f'<figure class="vizgrad vizgrad-{out.kind}">{body}{cap}</figure>'


#: an error box's look: it wraps within the column and needs no stylesheet of the site
ERROR_STYLE = ("white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%;box-sizing:border-box;"
               "margin:1em 0;padding:.6em .8em;border:1px solid #b3261e;border-left-width:4px;"
               "border-radius:4px;background:#fdecea;color:#5f1410;"
               "font:0.9em/1.45 ui-monospace,Menlo,Consolas,monospace")


def error_html(message: str) -> str:
    """A visible error box in place of a block that could not be drawn.

    >>> error_html("vizgrad block at line 3: x < 1")[:54]
    '<pre class="vizgrad-error" role="alert" style="white-s'
    """
    return (f'<pre class="vizgrad-error" role="alert" style="{ERROR_STYLE}">'
            f"{html.escape(message)}</pre>")
