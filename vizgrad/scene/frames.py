"""Groups opened in place, as a value: which are open, their frames, and the steps counted.

A picture of a graph collapsed with some groups opened (:func:`vizgrad.scene.opened.open_scene`)
is a :class:`~vizgrad.scene.scene.Scene` whose ``opened`` field is an :class:`Opened`: the
opened groups' paths (outermost first), a :class:`Frame` for each (its rectangle in the
layout's points and its label) and, for each of the picture's steps, the step of the
collapsed picture it belongs to (:func:`step_map`), so its caption and the player's counter
count the collapsed picture's steps. A picture of no opened group has ``opened=None``::

    >>> f = Frame("L0/N1", (10.0, 20.0, 150.0, 90.0), "L0/N1 · 8 values")
    >>> o = Opened(("L0/N1",), (f,), ((0, 0, 0, ""),), 13)
    >>> o.frames[0].rect[2], o.paths
    (150.0, ('L0/N1',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..style.presets import Preset

__all__ = ["PAD", "Frame", "Opened", "label_band", "step_map"]

#: points between an opened group's content and its frame
PAD = 8.0


def label_band(preset: Preset) -> float:
    """The height, in points, of the band at the top of a frame where its label goes."""
    return preset.font * 0.85 * 1.7


@dataclass(frozen=True)
class Frame:
    """An opened group's frame: its ``path``, its rectangle ``(x, y, w, h)`` in the layout's
    points (the graph's top left at 0, 0) and its ``label`` (path and size)."""

    path: str
    rect: tuple[float, float, float, float]
    label: str


@dataclass(frozen=True)
class Opened:
    """The groups a picture opens in place (see the module doc)."""

    #: the opened groups' paths, outermost first
    paths: tuple[str, ...]
    frames: tuple[Frame, ...]
    #: for each step of the picture: ``(k, i, n, path)``, see :func:`step_map`
    steps: tuple[tuple[int, int, int, str], ...]
    #: the last step of the collapsed picture
    base_last: int


def step_map(H: Any, E: Any, opened: list[str]) -> list[list[Any]]:
    """For each step of ``E`` (``H`` with the groups ``opened``), the step of ``H`` it belongs
    to, and inside an opened group which of that step's steps it is: ``[k, i, n, path]``
    (``i``, ``n`` 0 and ``path`` "" outside), so the counter keeps ``H``'s numbering.

    >>> import vizgrad
    >>> from vizgrad.graph.collapse import collapse
    >>> G = vizgrad.examples.graph("mlp")
    >>> H = collapse(G, "neuron")
    >>> m = step_map(H, collapse(G, "neuron", expand=["L0/N1"]), ["L0/N1"])
    >>> m[1], m[2], m[6], m[16], m[21]
    ([1, 0, 0, ''], [2, 1, 5, 'L0/N1'], [2, 5, 5, 'L0/N1'], [12, 1, 5, 'L0/N1'], [13, 0, 0, ''])
    """
    box = {str(H.nodes[b]["group"]): b for b in H if H.nodes[b].get("kind") == "group"}
    by_from = {s["from"]: s["index"] for s in H.graph["steps"]}
    by_node = {(s["node"], s["kind"] == "forward"): s["index"] for s in H.graph["steps"]
               if s.get("node") is not None}
    out: list[list[Any]] = []
    for s in E.graph["steps"]:
        g = str(E.nodes[s["node"]].get("group") or "") if s.get("node") in E else ""
        inside = [p for p in opened if g == p or g.startswith(p + "/")]
        k = None
        if inside:
            top = next((p for p in sorted(inside, key=len) if p in box), None)
            k = by_node.get((box[top], s["kind"] == "forward")) if top else None
            path = max(inside, key=len)
        if k is None:
            k = by_from.get(s["from"])
            inside = []
        if k is None:  # no such step collapsed: the last one before it
            k = max((i for f, i in by_from.items() if f <= s["from"]), default=0)
        out.append([k, 0, 0, path if inside else ""])
    for j, row in enumerate(out):
        if row[3]:
            same = [i for i, r in enumerate(out) if r[0] == row[0]]
            row[1], row[2] = same.index(j) + 1, len(same)
    return out
