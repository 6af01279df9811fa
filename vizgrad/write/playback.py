"""A scene as one picture and per-step changes: what the player and the lab replay.

:func:`playback` writes the scene's SVG once (every shape, hidden ones with
``display="none"``) and, for every step, only the shapes whose look changed
since the previous step. The browser side (``playback.js``) applies them: to
jump to step ``k`` it starts from step 0's look and applies the changes of
steps 1..k. The last position is the final view::

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> p = playback(scene_of(examples.graph("fork")))
    >>> len(p["changes"]), p["last"], p["active"][:3]
    (9, 7, [None, 'v2', 'v3'])
    >>> p["changes"][7]["t-v0-grad"]["text"]
    '−3'
    >>> p["changes"][8]["t-v1-grad"]  # the final view: the same number, no longer bold
    {'text': '−8', 'fill': '#1a1a1a', 'bold': ''}

The page size is O(shapes + changes): a step changes a few shapes, so a graph
of 1,000 values gives a page of a few megabytes, never values × steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..style import text as tx
from .svgout import svg_document

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["caption_band", "changed", "look_at", "node_table", "pack", "playback", "scene_svg",
           "unpack"]

Look = dict[str, dict[str, str]]


def changed(before: Look, after: Look) -> Look:
    """The shapes whose look differs between ``before`` and ``after``, with their whole new look.

    >>> changed({"a": {"text": "1"}, "b": {"fill": "red"}},
    ...         {"a": {"text": "2"}, "b": {"fill": "red"}})
    {'a': {'text': '2'}}
    """
    return {sid: look for sid, look in after.items() if before.get(sid) != look}


def scene_svg(scene: Scene, look: Look, *, prefix: str = "", title: str = "",
              caption_apart: bool = False) -> str:
    """The scene's SVG element with every shape (hidden ones kept), for inline use.

    The XML declaration and the fixed ``max-width`` style are left out so the
    page decides the size (natural, fit to width, or larger). ``caption_apart``: the page
    shows the caption as its own text above the picture, so the picture starts at the
    graph (:func:`caption_band`); the caption's shapes stay, outside the view, for the
    script to read.

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> scene = scene_of(examples.graph("fork"))
    >>> svg = scene_svg(scene, scene.look(None), caption_apart=True)
    >>> float(svg.split('viewBox="')[1].split()[1]) == caption_band(scene) > 0
    True
    """
    G = scene.facts
    svg = svg_document(scene, look, title=title or tx.formula(G, G.graph["root"]),
                       prefix=prefix, keep_hidden=True)
    svg = svg.split("\n", 1)[1]  # no <?xml ...?> inside HTML
    svg = svg.replace(' style="max-width:100%;height:auto"', "", 1)
    top = caption_band(scene) if caption_apart else 0.0
    if top > 0:
        w, h = _n(scene.width), _n(scene.height)
        svg = svg.replace(f'height="{h}pt" viewBox="0 0 {w} {h}"',
                          f'height="{_n(scene.height - top)}pt" '
                          f'viewBox="0 {_n(top)} {w} {_n(scene.height - top)}"', 1)
    return svg


def _n(v: float) -> str:
    """A number as the SVG's root writes it (svgout): two decimals at most."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def caption_band(scene: Scene) -> float:
    """The height, in the picture's units, of the caption's band above the graph (less a
    margin): what a page that shows the caption as text leaves out of the picture."""
    if not scene.caption or not scene.caption_rows:
        return 0.0
    margin = scene.preset.font
    return max(0.0, round(scene.graph_box[1] - margin, 2))


def node_table(scene: Scene) -> list[dict[str, str]]:
    """One row per value in drawing order: id, name, what computes it, and its kind.

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> [(r["name"], r["how"]) for r in node_table(scene_of(examples.graph("fork")))][:3]
    [('a', 'input node'), ('b', 'input node'), ('u', 'u = a × b')]
    """
    G = scene.facts
    rows = []
    for n in scene.order:
        kind = scene.kind(n)
        formula, name = tx.formula(G, n), tx.name(G, n)
        how = formula if formula != name else scene.word(f"node.{kind}") if kind in (
            "input", "const", "output") else name
        if not G.nodes[n].get("on_path", True):
            how += " · " + scene.word("node.offpath")
        rows.append({"id": n, "name": name, "how": how, "kind": kind,
                     "on_path": "1" if G.nodes[n].get("on_path", True) else ""})
    return rows


def playback(scene: Scene) -> dict[str, Any]:
    """Step 0's full look, then each step's changed shapes, then the final view's.

    Keys: ``base`` (the look of step 0), ``changes`` (a list: ``{}`` for step
    0, the changed shapes of steps 1..last, then the final view's),
    ``active`` (the active node of each position, ``None`` for none),
    ``captions`` (each position's caption and chain-rule lines, for the
    text alternative), ``last`` (the last step's index).
    """
    G = scene.facts
    steps = G.graph["steps"]
    looks = scene.looks
    current: Look = {}
    base: Look = {}
    changes: list[Look] = []
    active: list[str | None] = []
    before: set[str] = set()
    for k, st in enumerate(scene.states()):
        if k == 0:
            current = looks.all(0, st)
            base = {sid: dict(look) for sid, look in current.items()}
            changes.append({})
        else:
            now = looks.touched(steps[k])
            diff = changed(current, looks.near(k, st, before | now))
            current.update(diff)
            changes.append(diff)
            before = now
        if k == 0:
            before = looks.touched(steps[0])
        active.append(st.active if st.active in G.nodes else None)
    prev = current
    final = scene.look(None)
    changes.append(changed(prev, final))
    active.append(None)
    captions = [scene.caption_texts(k) for k in range(scene.last + 1)] + [scene.caption_texts(None)]
    return {"base": base, "changes": changes, "active": active, "captions": captions,
            "last": scene.last}


def pack(play: dict[str, Any]) -> dict[str, Any]:
    """The same playback with each distinct look written once: ``looks`` is the list of
    distinct looks, ``base`` and ``changes`` map shape ids to indexes into it (a step's
    changes repeat a few styles, so this more than halves the data of a large graph).

    >>> p = pack({"base": {"a": {"fill": "red"}}, "changes": [{}, {"a": {"fill": "blue"}},
    ...           {"a": {"fill": "red"}}], "active": [None] * 3, "last": 1})
    >>> p["looks"], p["base"], p["changes"]
    ([{'fill': 'red'}, {'fill': 'blue'}], {'a': 0}, [{}, {'a': 1}, {'a': 0}])
    >>> unpack(p)["changes"][1]
    {'a': {'fill': 'blue'}}
    """
    index: dict[tuple[tuple[str, str], ...], int] = {}
    looks: list[dict[str, str]] = []

    def ref(look: dict[str, str]) -> int:
        key = tuple(sorted(look.items()))
        if key not in index:
            index[key] = len(looks)
            looks.append(look)
        return index[key]

    base = {sid: ref(look) for sid, look in sorted(play["base"].items())}
    changes = [{sid: ref(look) for sid, look in sorted(c.items())} for c in play["changes"]]
    return {"looks": looks, "base": base, "changes": changes, "active": play["active"],
            "last": play["last"]}


def unpack(packed: dict[str, Any]) -> dict[str, Any]:
    """The playback :func:`pack` wrote, with the looks in place again."""
    looks = packed["looks"]
    return {"base": {sid: looks[i] for sid, i in packed["base"].items()},
            "changes": [{sid: looks[i] for sid, i in c.items()} for c in packed["changes"]],
            "active": packed["active"], "last": packed["last"]}


def look_at(play: dict[str, Any], k: int) -> Look:
    """Every shape's look at position ``k`` of a (packed or not) playback: step 0's look
    with the changes of positions 1..k applied, as the browser does.

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> scene = scene_of(examples.graph("fork"))
    >>> look_at(pack(playback(scene)), 7) == scene.look(7)
    True
    """
    if "looks" in play:
        play = unpack(play)
    look = dict(play["base"])
    for changes in play["changes"][1:k + 1]:
        look.update(changes)
    return look
