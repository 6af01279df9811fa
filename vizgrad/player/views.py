"""The views of a collapsed player page: one picture per group opened, and the way back.

A page built with ``collapse`` shows the collapsed graph; a click on a group
box switches to the view of the same graph with that group opened in place
(:func:`~vizgrad.scene.opened.open_scene`: a framed cluster where its
box was, every other box at its rank and order), laid out once here; inside an
opened group, its own groups open in turn (a neuron inside a layer). Each view
carries, per step, the collapsed step it belongs to (:func:`step_map`), so the
page keeps the reader at the same point of the backward pass::

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> from vizgrad.scene import scene_of
    >>> G = vizgrad.examples.graph("mlp")
    >>> base = scene_of(collapse(G, "neuron"))
    >>> vs = views(base, G, "neuron", "merge", {})
    >>> [v["open"] for v in vs["views"]], vs["left_out"]
    (['L0/N0', 'L0/N1', 'L0/N2', 'L1/N0'], [])
    >>> unpack_view(vs["views"][3])["frames"][0]["label"]
    'L1/N0 · 11 values'

Views are laid out in the order of the boxes until :data:`VIEW_BUDGET` bytes
(compressed: a view is mostly SVG text, which zlib shrinks about five times)
or :data:`MAX_VIEWS` views are spent; the groups left out stay collapsed, and
the page says so.
"""

from __future__ import annotations

import base64
import json
import time
import zlib
from typing import TYPE_CHECKING, Any

from ..style import text as tx
from ..scene import ids
from ..scene.cells import GradRows, full_text, is_row, short_names
from ..scene.groups import box_name, ordered_params
from ..style.verdicts import terms_text
from ..scene.frames import step_map
from .finding import find_examples, index
from ..write.group_frames import frame_svg, frames_of, with_frames
from ..write.playback import node_table, pack, playback, scene_svg

if TYPE_CHECKING:
    from ..scene.scene import Scene

__all__ = ["MAX_VIEWS", "VIEW_BUDGET", "find_examples", "frame_svg", "frames_of", "index",
           "opened_parts",
           "pack_view", "plan", "VIEW_SECONDS", "VIEW_SECONDS_EACH",
           "positions", "shown", "step_map", "table_rows", "unpack_view", "view_data", "views",
           "with_frames"]

#: bytes the opened views of one page may add (compressed, as the page holds them)
VIEW_BUDGET = 2_000_000
#: the most views one page lays out
MAX_VIEWS = 40
#: seconds the layouts of one page's views may take in all, and one view at most: a view
#: that takes longer stays closed (and the page says so), the others still open
VIEW_SECONDS, VIEW_SECONDS_EACH = 30.0, 5.0


def positions(G: Any) -> list[int]:
    """The source step of each step of ``G`` (its own index when it has no ``from``)."""
    return [int(s.get("from", s["index"])) for s in G.graph["steps"]]


def _params(scene: Scene, source: Any, n: str, done: int | None) -> list[dict[str, Any]]:
    """A group's parameters as table rows: name, value, final grad, the position it is final."""
    G = scene.facts
    a = G.nodes[n]
    data: dict[str, Any] = {}
    if source is not None:
        for m in a.get("members") or ():
            if m in source and source.nodes[m].get("label"):
                data[str(source.nodes[m]["label"])] = source.nodes[m].get("data")
    terms = {str(name): rows for name, g, rows in a.get("terms") or () if g is not None}
    out = []
    for name, grad in ordered_params(a):
        value = data.get(str(name))
        row = {"name": str(name), "data": "" if value is None else scene.num(value),
               "grad": scene.num(grad), "done": scene.last + 1 if done is None else done}
        if str(name) in terms and grad is not None:  # what each sample's += added
            row["terms"] = terms_text({"amount": grad, "terms": terms[str(name)]},
                                      scene.decimals, scene.trim, scene.lang)
        out.append(row)
    return out


def _inputs(scene: Scene, n: str) -> list[dict[str, Any]]:
    """A batch's inputs as table rows: name, data, final grad (the sum of what each step
    added), the position from which that grad is final (its last step's)."""
    grads = GradRows(scene.facts, scene.order, "grads")
    steps, rows = grads.steps.get(n, []), grads.rows.get(n, [])
    how = scene.word("player.input_of")
    out = []
    for j, (name, data, grad) in enumerate(scene.facts.nodes[n].get("grid") or ()):
        last = [k for k, row, before in zip(steps, rows, [None, *rows])
                if before is None or row[j] != before[j]]
        out.append({"name": str(name), "data": scene.num(data), "grad": scene.num(grad),
                    "how": how, "done": last[-1] if last else scene.last + 1})
    return out


def table_rows(scene: Scene, source: Any = None) -> list[dict[str, Any]]:
    """:func:`~vizgrad.write.playback.node_table` with each group's path and
    parameter rows, and the texts a row shows where its box has none (a constant has no
    grad row): the data the script of the player and the lab builds its table from
    (``player/assets/vg/table.js``); an opened group's parameters stay "parameter of L0/N1".

    >>> from vizgrad import examples
    >>> from vizgrad.scene import scene_of
    >>> r = table_rows(scene_of(examples.graph("fork")))[0]
    >>> r["name"], r["data"], r["grad"]
    ('a', '−2', '—')
    """
    rows: list[dict[str, Any]] = list(node_table(scene))
    G = scene.facts
    opened = scene.opened.paths if scene.opened is not None else ()
    for r in rows:
        n = r["id"]
        r["data"] = (full_text(short_names(G, n), [scene.num(c[1]) for c in G.nodes[n]["cells"]])
                     if is_row(G, n) else scene.num(G.nodes[n].get("data")))
        # a constant learns nothing from its gradient: say what it is, not "not reached"
        r["grad"] = scene.word("node.const") if r["kind"] == "const" else tx.NOT_REACHED
        if scene.kind(n) == "group":
            ins = sorted(set(G.predecessors(n)), key=lambda p: G.nodes[p].get("order", 0))
            r["how"] = scene.word("player.group.how", size=f"{G.nodes[n].get('size', 0):,}",
                                  inputs=", ".join(tx.name(G, p) for p in ins) or "—")
            r["params"] = _params(scene, source, n, scene.params_done.get(n))
            r["path"] = str(G.nodes[n].get("group") or r["name"])
        elif scene.kind(n) == "inputs":  # a batch's inputs: a row each, as parameters have
            r["data"] = r["grad"] = ""
            r["how"] = scene.word("player.inputs.how")
            r["params"] = _inputs(scene, n)
        elif opened and scene.kind(n) == "input" and str(G.nodes[n].get("group") or "") in opened:
            r["how"] = scene.word("player.param", path=str(G.nodes[n]["group"]))
    return rows


def view_data(scene: Scene, prefix: str, source: Any = None, *, base: Any = None,
              svg: bool = True) -> dict[str, Any]:
    """What the page needs to show one view: SVG, playback, table rows, positions, the
    boxes that open, the opened frames and each step's place in ``base``'s steps."""
    G = scene.facts
    boxes = {str(G.nodes[n]["group"]): n for n in scene.order
             if scene.kind(n) == "group" and G.nodes[n].get("group")}
    opened = list(scene.opened.paths) if scene.opened is not None else []
    frames = frames_of(scene)
    out: dict[str, Any] = {"open": opened[-1] if opened else None, "from": positions(G),
                           "boxes": boxes, "rows": table_rows(scene, source),
                           "playback": pack(playback(scene)), "frames": frames,
                           "names": {n: box_name(G, n, scene.word) for n in boxes.values()},
                           "steps": step_map(base if base is not None else G, G, opened)}
    if svg:
        text = scene_svg(scene, scene.look(None), prefix=prefix, caption_apart=True)
        out["svg"] = with_frames(scene, text, frames, prefix) if frames else text
    return out


def opened_parts(scene: Any, source: Any, parts: dict[str, Any]) -> dict[str, Any]:
    """``parts`` (:func:`~vizgrad.player.page.player_parts`) of a page that opens any
    group when asked (the lab): the opened groups' frames in the SVG and their paths
    (``open``) and each step's place in the collapsed steps (``steps``, ``base_last``:
    see :func:`step_map`), what the find box searches beside the table (``index``: the values inside
    closed groups, each with its innermost group) and its placeholder's examples."""
    frames = frames_of(scene)
    if frames and scene.opened is not None:
        parts["svg"] = with_frames(scene, parts["svg"], frames, parts["prefix"])
        parts["open"] = [f["path"] for f in frames]
        # the steps counted as in the collapsed picture, as its caption counts them
        parts["steps"] = [list(row) for row in scene.opened.steps]
        parts["base_last"] = scene.opened.base_last
    found = index(source, scene.facts, {str(g) for _, g in source.nodes(data="group") if g}) \
        if source is not None and "collapsed" in scene.facts.graph else []
    return {**parts, "index": found, "find_examples": find_examples(scene, found)}


def pack_view(view: dict[str, Any]) -> dict[str, Any]:
    """A view as the page carries it: its group path, and the rest as zlib-compressed JSON in
    base64 (``z``), which the page inflates with the browser's ``DecompressionStream``.

    >>> unpack_view(pack_view({"open": "L0/N1", "rows": []}))
    {'open': 'L0/N1', 'rows': []}
    """
    text = json.dumps(view, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return {"open": view["open"], "z": base64.b64encode(zlib.compress(text.encode(), 9)).decode()}


def unpack_view(packed: dict[str, Any]) -> dict[str, Any]:
    """The view :func:`pack_view` packed."""
    view: dict[str, Any] = json.loads(zlib.decompress(base64.b64decode(packed["z"])))
    return view


def _inside(E: Any, path: str, members: Any) -> None:
    """Inside an opened box, its values' boxes go by their names in the box: ``L0.N1.w0·x0``
    is titled ``w0·x0`` in the frame of ``L0/N1`` (labels, like the parameters', stay whole).
    The short title is the node's ``short``; its ``name`` stays whole, so the captions, read
    outside the frame, still say ``L0.N1.out``.

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> G = vizgrad.examples.graph("mlp")
    >>> E = collapse(G, "neuron", expand=["L0/N1"])
    >>> _inside(E, "L0/N1", [n for n in G if G.nodes[n]["group"] == "L0/N1"])
    >>> inside = [E.nodes[n] for n in E if E.nodes[n].get("group") == "L0/N1"]
    >>> sorted(a.get("short", a["name"]) for a in inside)[:5]
    ['L0.N1.b', 'L0.N1.w0', 'L0.N1.w1', 'out', 'w0·x0']
    >>> [a["name"] for a in inside if a.get("short") == "out"]
    ['L0.N1.out']
    """
    head = path.replace("/", ".") + "."
    for m in members:
        attrs = E.nodes[m] if m in E else {}
        name = attrs.get("name")
        if name and not attrs.get("label") and str(name).startswith(head):
            attrs["short"] = str(name)[len(head):]


def shown(G: Any) -> set[tuple[str, float]]:
    """Every (node, grad) a picture of ``G`` colours a box by."""
    out = set()
    for s in G.graph["steps"]:
        if s["kind"] == "seed":
            out.add((str(s["node"]), s["grad"]))
        for c in s.get("contributions", ()):
            if isinstance(c["after"], (int, float)):
                out.add((str(c["target"]), c["after"]))
    return out


def plan(H: Any, source: Any, level: Any, steps: str,
         limit: int | None = None) -> tuple[list[tuple[list[str], Any]], list[str]]:
    """The views a page of ``H`` (``source`` collapsed at ``level``) lays out: each group of
    ``H`` opened, then each group one level down inside an opened one, breadth first, at
    most ``limit`` (default :data:`MAX_VIEWS`); and the paths of the groups left out."""
    from ..graph.collapse import collapse

    limit = MAX_VIEWS if limit is None else limit
    inputs = (H.graph.get("collapsed") or {}).get("inputs", True)  # the copies kept, or not
    out: list[tuple[list[str], Any]] = []
    queue: list[tuple[list[str], Any]] = [([], H)]
    seen = []
    while queue:
        chain, G = queue.pop(0)
        for b in sorted(G, key=lambda n: G.nodes[n].get("order", 0)):
            a = G.nodes[b]
            path = str(a.get("group") or "")
            if a.get("kind") != "group" or not path or (chain and not
                                                       path.startswith(chain[-1] + "/")):
                continue
            seen.append(path)
            if len(out) >= limit:
                continue
            E = collapse(source, level, steps=steps, expand=[*chain, path], inputs=inputs)
            for p in (*chain, path):
                _inside(E, p, [n for n in E if str(E.nodes[n].get("group") or "") == p])
            out.append(([*chain, path], E))
            queue.append(([*chain, path], E))
    return out, [p for p in seen if p not in {c[-1] for c, _ in out}]


def views(scene: Scene, base: Any, level: Any, steps: str, options: dict[str, Any],
          prefix: str = "vg-", budget: int | None = None, limit: int | None = None,
          planned: Any = None) -> dict[str, Any]:
    """The opened views of the group boxes of ``scene`` (collapsed from ``base``), packed,
    within ``budget`` bytes and ``limit`` views (default :data:`VIEW_BUDGET`,
    :data:`MAX_VIEWS`): each laid out in place of the collapsed picture's boxes
    (:func:`~vizgrad.scene.opened.open_scene`); once one does not fit, the rest
    are left out (no more layouts). A view whose layout runs past
    :data:`VIEW_SECONDS_EACH` seconds, or past what is left of :data:`VIEW_SECONDS` (or of
    the drawing's own ``timeout``, when smaller), is left out too."""
    from ..exceptions import LayoutTimeoutError
    from ..scene.opened import open_scene

    budget = VIEW_BUDGET if budget is None else budget
    todo, left = planned if planned is not None else plan(scene.facts, base, level, steps, limit)
    out: list[dict[str, Any]] = []
    spent = 0
    options = {k: v for k, v in options.items() if k not in ("scale", "rankdir")}
    ends = time.monotonic() + min(VIEW_SECONDS, float(options.get("timeout") or VIEW_SECONDS))
    for chain, E in todo:
        if any(p in left for p in chain[:-1]):  # inside a group left out
            left.append(chain[-1])
            continue
        if spent >= budget:
            left.append(chain[-1])
            continue
        left_s = ends - time.monotonic()
        if left_s <= 0:
            left.append(chain[-1])
            continue
        try:
            opened = open_scene(E, base=scene, source=base,
                               **{**options, "timeout": min(left_s, VIEW_SECONDS_EACH)})
        except LayoutTimeoutError:
            left.append(chain[-1])
            continue
        view = pack_view(view_data(opened, prefix, base, base=scene.facts))
        if spent + len(view["z"]) > budget:
            left.append(chain[-1])
            spent = budget
            continue
        spent += len(view["z"])
        out.append(view)
    return {"views": out, "left_out": left}
