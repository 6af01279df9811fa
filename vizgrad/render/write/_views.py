"""The views of a collapsed player page: one picture per group opened, and the way back.

A page built with ``collapse`` shows the collapsed graph; a click on a group
box switches to the view of the same graph with that one group opened
(:func:`vizgrad.collapse.collapse` with ``expand=[path]``), laid out once here.
Each view carries its steps' ``from`` (the source step each position stands
for), so the page keeps the reader at the same point of the backward pass::

    >>> import vizgrad
    >>> from vizgrad.collapse import collapse
    >>> from vizgrad.render.scene.model import Scene
    >>> G = vizgrad.examples.graph("mlp")
    >>> base = Scene(collapse(G, "neuron"))
    >>> vs = views(base, G, "neuron", "merge", {})
    >>> [v["open"] for v in vs["views"]], vs["left_out"]
    (['L0/N0', 'L0/N1', 'L0/N2', 'L1/N0'], [])
    >>> unpack_view(vs["views"][3])["frame"]["label"]
    'L1/N0 · 11 values'

Views are laid out in the order of the boxes until :data:`VIEW_BUDGET` bytes
(compressed: a view is mostly SVG text, which zlib shrinks about five times)
or :data:`MAX_VIEWS` views are spent; the groups left out stay collapsed, and
the page says so.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import TYPE_CHECKING, Any

from .. import text as tx
from ..scene import ids
from ..scene._groups import box_name, ordered_params
from .playback import node_table, pack, playback, scene_svg

if TYPE_CHECKING:
    from ..scene.model import Scene

__all__ = ["MAX_VIEWS", "VIEW_BUDGET", "frame_svg", "index", "open_frames", "pack_view",
           "positions", "table_rows", "unpack_view", "view_data", "views", "with_frames"]

#: bytes the opened views of one page may add (compressed, as the page holds them)
VIEW_BUDGET = 2_000_000
#: the most views one page lays out
MAX_VIEWS = 40
_PAD = 10.0  # points between the members and the frame around them


def positions(G: Any) -> list[int]:
    """The source step of each step of ``G`` (its own index when it has no ``from``)."""
    return [int(s.get("from", s["index"])) for s in G.graph["steps"]]


def _member_boxes(scene: Scene, members: set[str]) -> list[tuple[str, float, float, float, float]]:
    """The box and op circle of every member: (node, x, y, width, height)."""
    out = []
    for sh in scene.shapes:
        p = ids.parse(sh.id)
        node = p.node if p is not None and p.kind in ("box", "op") else None
        if node not in members:
            continue
        if sh.kind == "rect":
            out.append((node, *sh.geom[:4]))
        elif sh.kind == "ellipse":
            cx, cy, rx, ry = sh.geom
            out.append((node, cx - rx, cy - ry, 2 * rx, 2 * ry))
    return out


def frame_svg(scene: Scene, frame: dict[str, Any], prefix: str,
              suffix: str = "") -> tuple[str, str]:
    """The tinted halos behind an opened group's members (drawn first), and the group's
    label above its output (drawn last; a click on it closes the group)."""
    from ._svgout import xml_text

    f = scene.preset.font * 0.85
    th = scene.theme
    out = [f'<g id="{prefix}{ids.frame(suffix)}" class="vg-frame">']
    for x, y, w, h in frame["halos"]:
        out.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" '
                   f'rx="{f * 0.6:.2f}" fill="{_TINT}" fill-opacity="{_ALPHA[th.name]}" '
                   f'stroke="{_TINT}" stroke-width="1.2"/>')
    x, y = frame["at"]
    label = (f'<text id="{prefix}{ids.frame_label(suffix)}" class="vg-frame-label" '
             f'data-path="{xml_text(frame["path"])}" '
             f'x="{x:.2f}" y="{y:.2f}" '
             f'font-size="{f:.2f}" font-weight="bold" fill="{th.text}" stroke="{th.background}" '
             f'stroke-width="4" paint-order="stroke">{xml_text(frame["label"])} ▴</text>')
    return "".join(out) + "</g>", label


_TINT = "#8da0cb"  # ColorBrewer Set2 blue: membership, apart from the highlight and the grads
_ALPHA = {"light": "0.28", "dark": "0.35"}


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The area two (x, y, width, height) rectangles share."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _label_at(scene: Scene, shapes: list[tuple[str, float, float, float, float]], text: str,
              order: list[str]) -> list[float]:
    """Where the group's label goes: above or below one of its members (its output first),
    wherever it covers the least of the other boxes and stays inside the picture."""
    from .._metrics import width

    f = scene.preset.font * 0.85
    w, h = width(text + " ▴", f, True), f * 1.2
    pad = _PAD / 2
    members = {s[0] for s in shapes}
    others = [sh.geom[:4] if sh.kind == "rect" else (sh.geom[0] - sh.geom[2], sh.geom[1] - sh.geom[3],
                                                      2 * sh.geom[2], 2 * sh.geom[3])
              for sh, p in ((sh, ids.parse(sh.id)) for sh in scene.shapes)
              if p is not None and p.kind in ("box", "op") and sh.kind in ("rect", "ellipse")
              and p.node not in members]
    right, bottom = scene.size
    best: tuple[float, int, list[float]] | None = None
    rank = {m: i for i, m in enumerate(order)}
    for k, (node, x, y, _, bh) in enumerate(sorted(shapes, key=lambda s: rank.get(s[0], 0))):
        for base in (y - pad - 4, y + bh + pad + f):  # baselines above and below the member
            box = (x - pad, base - f, w, h)
            cost = sum(_overlap(box, o) for o in others)
            if box[0] < 0 or box[1] < 0 or box[0] + w > right or box[1] + h > bottom:
                cost += w * h
            if best is None or (cost, k) < best[:2]:
                best = (cost, k, [round(x - pad, 2), round(base, 2)])
    assert best is not None
    return best[2]


def _frame(scene: Scene, path: str, members: list[str], size: int) -> dict[str, Any] | None:
    shapes = _member_boxes(scene, set(members))
    if not shapes:
        return None
    pad = _PAD / 2
    halos = [[round(x - pad, 2), round(y - pad, 2), round(w + 2 * pad, 2), round(h + 2 * pad, 2)]
             for _, x, y, w, h in shapes]
    order = sorted(members, key=lambda m: -scene.graph.nodes[m].get("order", 0))  # output first
    label = f"{path} · {scene.word('box.group', size=f'{size:,}')}"
    return {"halos": halos, "at": _label_at(scene, shapes, label, order), "output": order[0],
            "path": path, "label": label}


def _params(scene: Scene, source: Any, n: str, done: int | None) -> list[dict[str, Any]]:
    """A group's parameters as table rows: name, value, final grad, the position it is final."""
    G = scene.graph
    a = G.nodes[n]
    data: dict[str, Any] = {}
    if source is not None:
        for m in a.get("members") or ():
            if m in source and source.nodes[m].get("label"):
                data[str(source.nodes[m]["label"])] = source.nodes[m].get("data")
    out = []
    for name, grad in ordered_params(a):
        value = data.get(str(name))
        out.append({"name": str(name), "data": "" if value is None else scene.num(value),
                    "grad": scene.num(grad), "done": scene.last + 1 if done is None else done})
    return out


def table_rows(scene: Scene, source: Any = None) -> list[dict[str, Any]]:
    """:func:`~vizgrad.render.write.playback.node_table` with each group's path and
    parameter rows, and the texts a row shows where its box has none (a constant has no
    grad row): the data the script of the player and the lab builds its table from
    (``render/assets/vg/table.js``).

    >>> from vizgrad import examples
    >>> from vizgrad.render.scene.model import Scene
    >>> r = table_rows(Scene(examples.graph("fork")))[0]
    >>> r["name"], r["data"], r["grad"]
    ('a', '−2', '—')
    """
    rows: list[dict[str, Any]] = list(node_table(scene))
    G = scene.graph
    for r in rows:
        n = r["id"]
        r["data"] = scene.num(G.nodes[n].get("data"))
        # a constant learns nothing from its gradient: say what it is, not "not reached"
        r["grad"] = scene.word("node.const") if r["kind"] == "const" else tx.NOT_REACHED
        if scene.kind(n) == "group":
            ins = sorted(set(G.predecessors(n)), key=lambda p: G.nodes[p].get("order", 0))
            r["how"] = scene.word("player.group.how", size=f"{G.nodes[n].get('size', 0):,}",
                                  inputs=", ".join(tx.name(G, p) for p in ins) or "—")
            r["params"] = _params(scene, source, n, scene.params_done.get(n))
            r["path"] = str(G.nodes[n].get("group") or r["name"])
    return rows


def with_frames(scene: Scene, svg: str, frames: list[dict[str, Any]], prefix: str) -> str:
    """``svg`` (the scene's) with each frame's halos drawn first and its label last; the
    first frame's ids are ``frame`` and ``frame-label``, the next ``frame-1`` … ."""
    at = svg.index("/>\n", svg.index('class="vg-background"')) + 3
    end = svg.rindex("</svg>")
    halos, labels = [], []
    for k, frame in enumerate(frames):
        h, label = frame_svg(scene, frame, prefix, f"-{k}" if k else "")
        halos.append(h + "\n")
        labels.append(label + "\n")
    return svg[:at] + "".join(halos) + svg[at:end] + "".join(labels) + svg[end:]


def open_frames(scene: Scene, paths: list[str]) -> list[dict[str, Any]]:
    """The frames of the opened groups ``paths`` of a collapsed scene: their members are the
    values whose group path is, or is inside, the opened path."""
    G = scene.graph
    out = []
    for path in paths:
        members = [n for n in scene.order if scene.kind(n) != "group" and G.nodes[n].get("group")
                   and (str(G.nodes[n]["group"]) + "/").startswith(path + "/")]
        frame = _frame(scene, path, members, len(members))
        if frame:
            out.append(frame)
    return out


def view_data(scene: Scene, prefix: str, source: Any = None, *, open_: str | None = None,
              members: list[str] | None = None, svg: bool = True) -> dict[str, Any]:
    """What the page needs to show one view: SVG, playback, table rows, positions, boxes."""
    G = scene.graph
    boxes = {str(G.nodes[n]["group"]): n for n in scene.order
             if scene.kind(n) == "group" and G.nodes[n].get("group")}
    out: dict[str, Any] = {"open": open_, "from": positions(G), "boxes": boxes,
                           "rows": table_rows(scene, source), "playback": pack(playback(scene)),
                           "names": {n: box_name(scene, n) for n in boxes.values()}}
    frame = _frame(scene, open_, members or [], len(members or [])) if open_ else None
    if frame:
        out["frame"] = frame
    if svg:
        text = scene_svg(scene, scene.look(None), prefix=prefix)
        if frame:
            text = with_frames(scene, text, [frame], prefix)
        out["svg"] = text
    return out


def index(base: Any, collapsed: Any) -> list[list[str]]:
    """What the find box searches: ``[name, group path or "", node id]`` of every value
    inside a group of ``collapsed`` (``base`` is the graph it was collapsed from)."""
    out = []
    for b in sorted(collapsed, key=lambda n: collapsed.nodes[n]["order"]):
        a = collapsed.nodes[b]
        if a.get("kind") != "group" or not a.get("group"):
            continue
        for m in a.get("members") or ():
            out.append([tx.name(base, m), str(a["group"]), m])
    return out


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
    """Inside an opened box, its values go by their names in the box: ``L0.N1.w0·x0`` is
    ``w0·x0`` in the frame of ``L0/N1`` (labels, like the parameters', stay whole).

    >>> import vizgrad
    >>> from vizgrad.collapse import collapse
    >>> G = vizgrad.examples.graph("mlp")
    >>> E = collapse(G, "neuron", expand=["L0/N1"])
    >>> _inside(E, "L0/N1", [n for n in G if G.nodes[n]["group"] == "L0/N1"])
    >>> sorted(E.nodes[n]["name"] for n in E if E.nodes[n].get("group") == "L0/N1")[:5]
    ['L0.N1.b', 'L0.N1.w0', 'L0.N1.w1', 'out', 'w0·x0']
    """
    head = path.replace("/", ".") + "."
    for m in members:
        attrs = E.nodes[m] if m in E else {}
        name = attrs.get("name")
        if name and not attrs.get("label") and str(name).startswith(head):
            attrs["name"] = str(name)[len(head):]


def views(scene: Scene, base: Any, level: Any, steps: str, options: dict[str, Any],
          prefix: str = "vg-", budget: int | None = None,
          limit: int | None = None) -> dict[str, Any]:
    """The opened views of every group box of ``scene`` (collapsed from ``base``), packed,
    within ``budget`` bytes and ``limit`` views (default :data:`VIEW_BUDGET`,
    :data:`MAX_VIEWS`); once one does not fit, the rest are left out (no more layouts)."""
    from ...collapse import collapse
    from ..scene.model import Scene

    H = scene.graph
    budget = VIEW_BUDGET if budget is None else budget
    limit = MAX_VIEWS if limit is None else limit
    out: list[dict[str, Any]] = []
    left: list[str] = []
    spent = 0
    for b in scene.order:
        a = H.nodes[b]
        if scene.kind(b) != "group" or not a.get("group"):
            continue
        path = str(a["group"])
        if left or len(out) >= limit:
            left.append(path)
            continue
        E = collapse(base, level, steps=steps, expand=[path])
        _inside(E, path, a.get("members") or ())
        view = pack_view(view_data(Scene(E, **options), prefix, base, open_=path,
                                   members=list(a.get("members") or ())))
        if spent + len(view["z"]) > budget:
            left.append(path)
            continue
        spent += len(view["z"])
        out.append(view)
    return {"views": out, "left_out": left}
