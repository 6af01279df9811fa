"""The HTML pieces of a player page around its picture: tools, hints, caption, table, steps.

Each function takes the :class:`~vizgrad.scene.scene.Scene` (for its words) and returns
one piece of the page :func:`vizgrad.player.page.player_html` assembles; the page's script
fills them in as it steps. Without a script they still show the final caption and every
step's caption and chain rule::

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> from vizgrad.write.playback import playback
    >>> scene = scene_of(examples.graph("fork"))
    >>> steps_list(scene, playback(scene)["captions"]).count('class="step-text"')
    9
"""

from __future__ import annotations

import html
from typing import Any

from ..style import text as tx
from ..scene import ids
from ..scene.scene import Scene

__all__ = ["caption_block", "groups_hint", "sample_select", "steps_list", "table_frame",
           "tools_bar"]


def table_frame(scene: Scene, parts: dict[str, Any]) -> str:
    """The node table's frame: caption and column heads; the page's script builds its rows
    from the data (``vg/table.js``, shared with the lab). Without a script the table is
    hidden and a note points to the picture and the steps below, which hold every number."""
    e, w = html.escape, scene.word
    G = scene.facts
    root = e(tx.name(G, G.graph["root"]))
    # the table scrolls in its own box: the box takes the focus, so keys scroll it too
    return ('<div class="table-wrap" role="region" tabindex="0" aria-labelledby="nodes-caption">'
            f'<table id="nodes" data-rows="{len(parts["rows"])}" class="nodes">'
            f'<caption id="nodes-caption">{e(w("player.table", root=root))}</caption>'
            f'<thead><tr><th scope="col">{e(w("player.col.node"))}</th>'
            f'<th scope="col">{e(w("player.col.how"))}</th>'
            f'<th scope="col">{e(w("player.col.data"))}</th>'
            f'<th scope="col">{e(parts["words"]["grad"])}</th></tr></thead><tbody></tbody>'
            "</table></div>\n"
            f'<noscript><p class="no-script">{e(w("player.table.noscript"))}</p></noscript>')


def steps_list(scene: Scene, captions: list[list[str]]) -> str:
    e = html.escape
    items = []
    for k, lines in enumerate(captions):
        rule = "".join(f"<li>{e(line)}</li>" for line in lines[1:] if line)
        items.append(f'<li class="step-text" value="{k}"><p>{e(lines[0])}</p>'
                     + (f"<ul>{rule}</ul>" if rule else "") + "</li>")
    return (f'<section class="steps" aria-labelledby="steps-h"><h2 id="steps-h">'
            f'{e(scene.word("player.steps"))}</h2><ol start="0">{"".join(items)}</ol></section>')


def sample_select(scene: Scene, choices: dict[str, Any] | None, chosen: str) -> str:
    """The sample selector of a net run on several samples: which forward pass the boxes'
    data rows show (grads are the totals whatever is chosen)."""
    if not choices:
        return ""
    e, w = html.escape, scene.word
    opts = "".join(
        f'<option value="{e(k)}"{" selected" if k == chosen else ""}>'
        f'{e(w("player.sample.all") if k == "all" else k)}</option>' for k in choices)
    return (f'<span class="sample"><label for="sample">{e(w("player.sample"))}</label>'
            f'<select id="sample" title="{e(w("player.sample.title"))}">{opts}</select></span>')


def tools_bar(scene: Scene, openable: bool, samples: str = "", examples: str = "") -> str:
    """The picture's tools: zoom, find, the sample selector, and (with views) the way back
    to all collapsed."""
    e, w = html.escape, scene.word
    close = (f'<button type="button" data-do="collapse-all" '
             f'title="{e(w("player.collapse_all.title"))}" '
             f'disabled>{e(w("player.collapse_all"))}</button>' if openable else "")
    return (f'<div class="tools" role="group" aria-label="{e(w("player.tools"))}">'
            f'<span class="zoom">'
            f'<button type="button" data-do="zoom-out" aria-label="{e(w("player.zoom.out"))}" '
            f'title="{e(w("player.zoom.out.title"))}">−</button>'
            f'<output id="zoom" aria-live="polite">100 %</output>'
            f'<button type="button" data-do="zoom-in" aria-label="{e(w("player.zoom.in"))}" '
            f'title="{e(w("player.zoom.in.title"))}">+</button></span>'
            f'<span class="find"><label for="find">{e(w("player.find"))}</label>'
            f'<input type="search" id="find" autocomplete="off" spellcheck="false" '
            f'placeholder="{e(w("player.find.placeholder", examples=examples))}" '
            f'aria-describedby="found">'
            f'<output id="found" aria-live="polite"></output></span>{samples}{close}</div>')


def groups_hint(scene: Scene, data: dict[str, Any]) -> str:
    """How to open a group, and how many can be opened on this page."""
    if not data["views"] and not data["left_out"]:
        return ""
    w = scene.word
    text = w("player.open.hint") if data["views"] else ""
    if data["left_out"]:
        n, m = len(data["views"]), len(data["views"]) + len(data["left_out"])
        text += (" " if text else "") + w("player.open.some", n=n, m=m)
    return f'<p class="hint groups" id="groups-hint">{html.escape(text)}</p>'


def caption_block(scene: Scene) -> str:
    """The caption as the page's own text above the picture, so it wraps to the screen and
    the picture starts at the graph: the final view's, which the script replaces with each
    step's (read from the picture's caption shapes, kept outside its view)."""
    if not scene.caption:
        return '<div class="cap" id="cap" hidden></div>'
    e = html.escape
    look = scene.look(None)
    badge, text = look.get(ids.badge(), {}), look.get(ids.badge_text(), {})
    lines = "".join(f"<div>{e(line)}</div>" for line in scene.caption_lines(None))
    return (f'<div class="cap" id="cap" aria-live="polite"><span class="badge" '
            f'style="background:{e(badge.get("fill", ""))};color:{e(text.get("fill", ""))}">'
            f'{e(text.get("text", ""))}</span><div class="lines">{lines}</div></div>')
