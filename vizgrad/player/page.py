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
from .sections import (caption_block, groups_hint, sample_select, steps_list, table_frame,
                       tools_bar)
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
{tools_bar(scene, bool(data["views"]), sample_select(scene, data["samples"], chosen),
        find_examples(scene, data["index"]))}
</div>
<p class="hint">{e(w("player.hint", pending=w("pending"), none=tx.NOT_REACHED))}</p>
{groups_hint(scene, data)}
{caption_block(scene)}
{stage}
{parts["svg"]}</figure>
{table_frame(scene, parts)}
{steps_list(scene, parts["captions"])}
</main>
<script type="application/json" id="vg-data">{_json_block(data)}</script>
<script>{script}</script>
</body>
</html>
"""
