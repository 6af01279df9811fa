"""Which node goes into which box when a graph is collapsed: by group path at a depth,
in runs of the topological order, and a batch's inputs in one box of their own.

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("mlp")
    >>> group_depth(G)
    2
    >>> box_of, boxes = box_assignment(G, 1)
    >>> [b["label"] for b in boxes.values()]
    ['L1', 'L0']
"""

from __future__ import annotations

import math
from itertools import repeat
from typing import Any

from ..columns import distinct, in_order, namer
from .batch import box_attrs
from .merge import group_key

__all__ = ["INPUTS_BOX", "box_assignment", "group_depth"]


def group_depth(G: Any) -> int:
    """The deepest group path in the graph (0 when nothing is grouped)."""
    return max((len(str(g).split("/")) for g in distinct(G, "group") if g), default=0)


_LOOSE = "\0loose"  # a node in no box at ``depth``: in a run, if any
#: the id of the box of a batch's inputs (:mod:`.batch`)
INPUTS_BOX = "in0"


def _box_path(g: Any, depth: int, expand: frozenset[str]) -> str | None:
    """The path of the box of a node of group path ``g`` (``_LOOSE`` or ``None``: none)."""
    path = group_key(g, depth) if depth else None
    d = depth
    while path is not None and path in expand:  # an opened group shows its own groups
        d += 1
        deeper = group_key(g, d)
        path = deeper if deeper != path else None
    if path is not None:
        return path
    return _LOOSE if not depth or group_key(g, depth) is None else None


def box_assignment(G: Any, depth: int, runs: int | None = None, root_apart: bool = True,
           expand: frozenset[str] = frozenset(), inputs: Any = ()
           ) -> tuple[dict[str, str], dict[str, Any]]:
    """Nodes grouped at ``depth`` into boxes ``g0, g1 …`` (in order of first member), but
    for the groups in ``expand``; with ``runs``, the other nodes but the root go into that
    many runs of the topological order; ``inputs`` (a batch's, :func:`.batch.batch_inputs`)
    go into one box of their own."""
    box_of: dict[str, str] = {}
    boxes: dict[str, dict[str, Any]] = {}
    ids: dict[str, str] = {}  # group path → its box
    loose = []
    kinds: dict[Any, str | None] = {}  # group path → its box's path, _LOOSE, or None (apart)
    data_in = set(inputs)
    for n, g in in_order(G, "group"):
        if n in data_in:  # the batch's data: one box, wherever micrograd wrapped its copies
            box_of[n] = INPUTS_BOX
            continue
        if g not in kinds:
            kinds[g] = _box_path(g, depth, expand)
        path = kinds[g]
        if path is _LOOSE:
            loose.append(n)
        elif path is not None:
            b = ids.get(path)
            if b is None:
                b = ids[path] = f"g{len(boxes)}"
                boxes[b] = {"label": path, "kind": "group", "op": "group", "group": path}
            box_of[n] = b
    if data_in:  # the same id at every level and with any group opened
        boxes[INPUTS_BOX] = box_attrs()
    if runs is None:
        loose = []
    elif root_apart:
        loose = [n for n in loose if n != G.graph["root"]]
    if loose:
        size = math.ceil(len(loose) / runs)
        named = namer(G)  # a run is called by its ends' names, never their ids
        for start in range(0, len(loose), size):
            part = loose[start:start + size]
            b = f"g{len(boxes)}"
            label = (f"{named(part[0])}…{named(part[-1])}" if len(part) > 1
                     else named(part[0]))
            boxes[b] = {"label": label, "kind": "group", "op": "group", "group": None}
            box_of.update(zip(part, repeat(b)))
    return box_of, boxes
