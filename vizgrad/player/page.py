"""A self-contained HTML step player: one picture, the changes of every step, one file.

The page holds the scene's SVG once (every shape, the final view) and, for
each step, only the shapes whose look changed (:mod:`vizgrad.write.playback`),
so its size grows with the graph and the steps, not with their product.
First/Back/Next/Last, Play, a slider, ← → Home End and ``#step=K`` move
through the steps; the last position is the final view. The node table
follows the steps. It loads nothing from the network (a Content-Security-Policy
forbids it), so it works from ``file://``, in an ``<iframe>`` and offline.
A find box, zoom (buttons, keys, Ctrl + wheel, pinch) and drag-to-pan serve
wide graphs. A collapsed page carries one view per group, opened by a click
on its box (:mod:`vizgrad.player.views`). Without JavaScript it shows the
final picture and every step's caption and chain rule::

    >>> from vizgrad import examples
    >>> page = player_html(examples.graph("fork"))
    >>> page.startswith("<!DOCTYPE html>"), page.count("<svg "), page.count('class="step-text"')
    (True, 1, 9)
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from importlib import resources
from typing import Any

from ..exceptions import OptionError
from ..options import NO_STEP, Options, StepArg, options_for
from ..style import text as tx
from ..scene import ids
from ..scene.groups import sample_choices
from .bundle import bundle
from .views import (MAX_VIEWS, VIEW_BUDGET, find_examples, index, plan, positions, shown,
                     table_rows, views)
from .finding import inputs_index
from ..style.theme import robust_scale
from ..write.playback import pack, playback, scene_svg
from ..write.svg import graph_to_draw
from ..scene.pacing import pace
from ..scene.prepare import Prepared, prepare
from ..scene.make import make_scene
from ..scene.scene import Scene

__all__ = ["estimate", "find_examples", "player_html", "player_parts"]


def estimate(n: int, steps: int, groups: tuple[int, ...] = ()) -> tuple[int, float]:
    """About how many bytes a player page of ``n`` values and ``steps`` steps has, and how
    many seconds it takes beside its one layout: the page holds one picture and each
    step's changes, and its script (56 kB with nothing drawn; measured: 1,033 values and
    1,352 steps give 5.5 MB). ``groups``: the sizes of the collapsed groups, each laid
    out opened (about 2.6 kB and 10 ms per member; at most :data:`MAX_VIEWS` views and
    :data:`VIEW_BUDGET` bytes; measured: the lecture's 9 neurons of 36 values, 0.84 MB).

    >>> estimate(5, 8)[0] < 100_000
    True
    >>> estimate(22, 30, (36,) * 9)[0] - estimate(22, 30)[0]
    842400
    """
    members = sum(groups[:MAX_VIEWS])
    return (56_200 + 2_800 * n + 2_000 * steps + min(VIEW_BUDGET, 2_600 * members),
            0.002 * (n + steps) + 0.01 * members)


_PREFIX = "vg-"
_HEAD_SCRIPT = 'document.documentElement.classList.add("js");'
_HEAD_HASH = base64.b64encode(hashlib.sha256(_HEAD_SCRIPT.encode()).digest()).decode("ascii")


def _asset(filename: str) -> str:
    path = resources.files("vizgrad.player").joinpath("assets", filename)
    return path.read_text(encoding="utf-8")


def _csp(script: str) -> str:
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            f"script-src 'sha256-{digest}' 'sha256-{_HEAD_HASH}'")


def _json_block(data: Any) -> str:
    """JSON safe inside a ``<script type="application/json">`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def player_parts(scene: Scene, source: Any = None, *,
                 caption_apart: bool = False) -> dict[str, Any]:
    """What a page needs to replay ``scene``: the SVG, the per-step changes, the table rows
    (a group's with its parameters; their values come from ``source``, the graph it was
    collapsed from), each position's source step and the group boxes, and the words the
    script shows (shared by the player and the lab). ``caption_apart``: the page shows the
    caption as text above the picture, which starts at the graph
    (:func:`~vizgrad.write.playback.scene_svg`).

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> parts = player_parts(scene_of(examples.graph("fork"), lang="zh"))
    >>> parts["words"]["step"], parts["rows"][0]["how"]
    ('步骤 {k} / {n}', '输入节点')
    """
    G = scene.facts
    root = tx.name(G, G.graph["root"])
    play = playback(scene)
    words = {"step": scene.word("caption.step", k="{k}", n="{n}"),
             "final": scene.word("player.final"), "play": scene.word("player.play"),
             "pause": scene.word("player.pause"), "pending": scene.word("pending"),
             "grad": scene.word("player.col.grad", root=root),
             "inside": scene.word("player.inside", path="{path}", i="{i}", n="{n}")}
    words.update({k.split(".", 1)[1].replace(".", "_"): scene.word(k) for k in _WORDS})
    boxes = {str(G.nodes[n]["group"]): n for n in scene.order
             if scene.kind(n) == "group" and G.nodes[n].get("group")}
    return {"svg": scene_svg(scene, scene.look(None), prefix=_PREFIX,
                             caption_apart=caption_apart),
            "prefix": _PREFIX,
            "playback": pack(play), "from": positions(G), "boxes": boxes,
            "captions": play["captions"], "rows": table_rows(scene, source), "words": words,
            "lang": scene.lang, "theme": scene.theme.name, "active": scene.theme.active,
            "ids": ids.scheme()}


#: words the script fills in (``{path}``, ``{q}``, ``{i}``, ``{n}``, ``{name}`` are filled there)
_WORDS = ("player.expand", "player.collapse", "player.find.none", "player.find.count",
          "player.find.closed", "player.opened", "player.closed", "player.zoom.in",
          "player.zoom.out", "player.param")


def _table(scene: Scene, parts: dict[str, Any]) -> str:
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


def _steps_list(scene: Scene, captions: list[list[str]]) -> str:
    e = html.escape
    items = []
    for k, lines in enumerate(captions):
        rule = "".join(f"<li>{e(line)}</li>" for line in lines[1:] if line)
        items.append(f'<li class="step-text" value="{k}"><p>{e(lines[0])}</p>'
                     + (f"<ul>{rule}</ul>" if rule else "") + "</li>")
    return (f'<section class="steps" aria-labelledby="steps-h"><h2 id="steps-h">'
            f'{e(scene.word("player.steps"))}</h2><ol start="0">{"".join(items)}</ol></section>')


def _sample_select(scene: Scene, choices: dict[str, Any] | None, chosen: str) -> str:
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


def _tools(scene: Scene, openable: bool, samples: str = "", examples: str = "") -> str:
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


def _groups_hint(scene: Scene, data: dict[str, Any]) -> str:
    """How to open a group, and how many can be opened on this page."""
    if not data["views"] and not data["left_out"]:
        return ""
    w = scene.word
    text = w("player.open.hint") if data["views"] else ""
    if data["left_out"]:
        n, m = len(data["views"]), len(data["views"]) + len(data["left_out"])
        text += (" " if text else "") + w("player.open.some", n=n, m=m)
    return f'<p class="hint groups" id="groups-hint">{html.escape(text)}</p>'


def _caption(scene: Scene) -> str:
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


def player_html(x: Any, step: StepArg = None, *, options: Options | None = None,
                title: str | None = None, interval_ms: int | None = None, fit: bool = False,
                max_views: int | None = None, **overrides: Any) -> str:
    """One self-contained HTML page that steps through the graph's trace.

    Args:
        x: a Value, a Trace, a graph from :func:`vizgrad.to_networkx`, or a
            :class:`~vizgrad.scene.scene.Scene` (its layout and options are
            reused, so no option may come with it).
        step: the step shown first, counted in the view drawn as for :func:`vizgrad.draw`
            (default: step 0; ``"final"``: the final view); ``#step=K`` in the
            URL overrides it.
        options, overrides: the drawing options, as for :func:`vizgrad.draw`,
            except that ``collapse`` is off unless asked
            (:data:`vizgrad.options.ENTRY_DEFAULTS`). A collapsed page steps
            through the collapsed graph's own steps, its table lists every
            group's parameter grads, and a click on a group's box opens it at
            the same step (each group's view is laid out here, within
            :data:`vizgrad.player.views.VIEW_BUDGET` bytes).
        title: the page heading (default: the root's formula).
        interval_ms: the delay between steps of the Play button (default: each step's
            caption's reading time, the pace of the GIF and the animated SVG; see
            :mod:`vizgrad.scene.pacing`).
        fit: start with the picture scaled to the page width, small pictures
            enlarged (a button toggles it); otherwise it keeps its size and scrolls.
        max_views: the most groups laid out to be opened (default
            :data:`vizgrad.player.views.MAX_VIEWS`; each is a layout, so a
            large collapsed graph builds faster with fewer; 0 for none).

    Returns:
        The page as text; the same graph and options give the same bytes.
    """
    if max_views is not None and (isinstance(max_views, bool) or not isinstance(max_views, int)
                                  or max_views < 0):
        raise OptionError(f"max_views must be a whole number ≥ 0 (0: no group opens), "
                          f"got {max_views!r}")
    source, opened, chosen = None, None, "0"
    if isinstance(x, Scene):
        if options is not None or overrides:
            raise OptionError("a Scene keeps the options it was made with: give player_html() "
                              "the graph instead, or no drawing option "
                              f"({', '.join(sorted(overrides)) or 'options'})")
        scene = x
        prepared = Prepared(scene.facts, scene.facts)
    else:
        o = options_for("player", options, overrides)
        chosen = str(o.sample)
        prepared = prepare(graph_to_draw(x, o), o)
        G = prepared.graph
        info = G.graph.get("collapsed")
        planned, look = None, {}
        # groups open only when this page collapsed them (not a graph collapsed before)
        if info and "runs" not in info and "collapsed" not in prepared.source.graph:
            chain = prepared.chain
            source = chain[-2] if len(chain) > 1 else prepared.source
            planned = plan(G, source, info["level"], o.group_steps, max_views)
            # one colour scale for every view of the page (a box keeps its colour)
            look["scale"] = robust_scale([v for _, v in set().union(
                shown(G), *(shown(E) for _, E in planned[0]))])
        scene = make_scene(G, **o.scene(), **look)
        if planned is not None:
            opened = views(scene, source, info["level"], o.group_steps, o.scene(), _PREFIX,
                           planned=planned)
    G = scene.facts
    first = prepared.step(step, default=NO_STEP["player"])
    first = scene.last + 1 if first is None else first
    if interval_ms is not None and (isinstance(interval_ms, bool) or not isinstance(
            interval_ms, int) or interval_ms < 50):
        raise OptionError(f"interval_ms must be a whole number of milliseconds ≥ 50, "
                          f"got {interval_ms!r}")
    paced = [round(s * 1000) for s in pace(scene)] if interval_ms is None else [interval_ms]
    holds = " ".join(map(str, paced))  # ms each position is held while playing
    parts = player_parts(scene, source, caption_apart=True)
    e, w = html.escape, scene.word
    last = scene.last
    heading = tx.typeset(title) if title is not None else tx.formula(G, G.graph["root"])
    counter = (parts["words"]["final"] if first > last
               else parts["words"]["step"].format(k=first, n=last))
    data = {"playback": parts["playback"], "rows": parts["rows"], "ids": parts["ids"],
            "words": parts["words"], "prefix": _PREFIX, "from": parts["from"],
            "boxes": parts["boxes"], "views": [], "index": inputs_index(G), "left_out": [],
            "last": last,
            "samples": sample_choices(scene)}
    if opened is not None:
        data.update(views=opened["views"], left_out=opened["left_out"],
                    index=index(source, G, [v["open"] for v in opened["views"]]))
    script = bundle("player.js")
    dark = ' class="dark"' if scene.theme.name == "dark" else ""

    def button(go: str, label: str, icon: str, after: bool = False) -> str:
        span = f'<span aria-hidden="true">{icon}</span>'
        inner = f"{e(label)} {span}" if after else f"{span} {e(label)}"
        return (f'<button type="button" data-go="{go}" title="{e(w("player." + go + ".title"))}">'
                f"{inner}</button>")

    pressed = "true" if fit else "false"
    fit_button = (f'<button type="button" data-go="fit" aria-pressed="{pressed}" '
                  f'title="{e(w("player.fit.title"))}">{e(w("player.fit"))}</button>')
    stage = (f'<figure class="stage" id="stage" role="{"group" if data["views"] else "img"}" '
             f'aria-label="{e(w("player.picture"))}" tabindex="0">')
    th = scene.theme
    return f"""<!DOCTYPE html>
<html lang="{scene.lang}"{dark}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{_csp(script)}">
<meta name="generator" content="vizgrad">
<title>{e(w("player.title", heading=heading))}</title>
<script>{_HEAD_SCRIPT}</script>
<style>
{_asset("player.css")}:root {{ --bg: {th.background}; --fg: {th.text}; --active: {th.active}; }}
</style>
</head>
<body>
<main id="player"{' class="fit"' if fit else ''} data-start="{first}" data-interval="{holds}">
<h1>{e(heading)}</h1>
<div class="bar">
<nav class="controls" aria-label="{e(w("player.controls"))}">
{button("first", w("player.first"), "|◀")}
{button("prev", w("player.prev"), "◀")}
<output id="counter" aria-live="polite">{e(counter)}</output>
{button("next", w("player.next"), "▶", True)}
{button("last", w("player.last"), "▶|", True)}
<button type="button" data-go="play" aria-pressed="false">{e(w("player.play"))}</button>
{fit_button}
<label for="slider">{e(w("player.slider"))}</label>
<input type="range" id="slider" min="0" max="{last + 1}" step="1" value="{first}">
</nav>
{_tools(scene, bool(data["views"]), _sample_select(scene, data["samples"], chosen),
        find_examples(scene, data["index"]))}
</div>
<p class="hint">{e(w("player.hint", pending=w("pending"), none=tx.NOT_REACHED))}</p>
{_groups_hint(scene, data)}
{_caption(scene)}
{stage}
{parts["svg"]}</figure>
{_table(scene, parts)}
{_steps_list(scene, parts["captions"])}
</main>
<script type="application/json" id="vg-data">{_json_block(data)}</script>
<script>{script}</script>
</body>
</html>
"""
