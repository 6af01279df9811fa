"""Which box each node of a graph goes into, and what a box's value and grad are made of.

:func:`vizgrad.graph.collapse.contract.contract` builds one :class:`Boxes` per transform: it maps
nodes to boxes, finds each box's outputs (the members used outside it, the root, or
members nobody uses) and adds up the value a box shows (all samples, or one).
"""

from __future__ import annotations

import math
from itertools import compress, groupby
from operator import itemgetter, ne
from typing import Any

from ..columns import edge_lists, getter, namer

#: the kind of the box of a batch's inputs (:mod:`vizgrad.graph.collapse.batch`)
GRID = "inputs"

__all__ = ["GRID", "Boxes", "exact_sum"]


def exact_sum(xs: list[float]) -> float:
    """The exactly rounded sum (:func:`math.fsum`), or a plain one past the float range."""
    try:
        return math.fsum(xs)
    except (OverflowError, ValueError):  # an inf among the terms, or inf - inf
        return sum(xs, 0.0)


class Boxes:
    """The mapping node → box and what each box's grad and value are made of."""

    def __init__(self, G: Any, box_of: dict[str, str], boxes: dict[str, dict[str, Any]],
                 pick: tuple[dict[str, int], int | None] | None = None) -> None:
        self.G, self.box_of, self.attrs = G, box_of, boxes
        self.pick = pick
        self._samples = 0  # how many samples the nodes are of (counted when first needed)
        self.rank = rank = dict(G.nodes(data="order"))
        self.members: dict[str, list[str]] = {b: [] for b in boxes}
        for b, run in groupby(box_of.items(), key=itemgetter(1)):  # a box's nodes in a row
            self.members[b].extend(map(itemgetter(0), run))
        for ms in self.members.values():
            ms.sort(key=rank.__getitem__)
        ends = {G.graph["root"], *G.graph.get("also", ())}
        get = box_of.get
        ps, cs, slots = edge_lists(G)
        #: the edges ``(parent, child, slot)`` that are not inside one box, in order
        self.crossing: list[tuple[str, str, int]] = list(compress(
            zip(ps, cs, slots), map(ne, map(get, ps, ps), map(get, cs, cs))))
        used_outside: set[str] = set()
        self.feeds: dict[str, dict[str, None]] = {b: {} for b in boxes}  # outside → box
        for p, n, _ in self.crossing:
            bp, bn = get(p), get(n)
            if bp != bn:
                if bp is not None:
                    used_outside.add(p)
                if bn is not None:
                    self.feeds[bn][p] = None
        shown = used_outside | ends
        parents = set(ps)  # a node that is no one's parent is a sink: an output
        self.outputs: dict[str, list[str]] = {}
        self.out_sets: dict[str, set[str]] = {}
        #: the members used only inside their box: no grad of theirs is ever shown
        self.inner: set[str] = set()
        for b, ms in self.members.items():
            mine = set(ms)
            outs = self.out_sets[b] = (mine & shown) | (mine - parents)
            self.outputs[b] = list(filter(outs.__contains__, ms))
            self.inner |= mine - outs
        self.shown: dict[str, float] = {}
        #: the boxes that hold no value (a focus stub)
        self.valueless = {b for b, a in boxes.items() if a.get("kind") == "stub"}
        #: the boxes of a group (a neuron, a layer): they show their output Values, per sample
        self.groups = {b for b, a in boxes.items() if a.get("kind", "group") == "group"}
        #: the box of a batch's inputs (:mod:`.batch`): a cell per input, no value of its own
        self.grids = {b for b, a in boxes.items() if a.get("kind") == GRID}
        #: each such box's inputs' names and members, once read (``contract``)
        self.cells: dict[str, Any] = {}
        self._named: Any = None  # node → its name, made when first needed

    def of(self, n: str) -> str:
        return self.box_of.get(n, n)

    def param(self, n: str) -> str | None:
        """The name of ``n`` if it is a parameter of a box (a member without operands, a
        weight or a bias), else ``None``."""
        if n not in self.box_of or self.G.in_degree(n):
            return None
        if self._named is None:
            self._named = namer(self.G)
        return self._named(n)

    def outs(self, c: str) -> list[str]:
        return self.outputs.get(c, [c])

    def shown_outputs(self, b: str) -> list[str]:
        """The outputs a box's value adds up: with a sample picked, that sample's (when the
        box has any), else all of them."""
        outs = self.outputs[b]
        if self.pick is not None and self.pick[1] is not None:
            of, s = self.pick
            return [o for o in outs if of.get(o) == s] or outs
        return outs

    def value(self, b: str) -> float | None:
        """The box's value: its ``data`` if given, else its shown outputs' sum (a focus stub
        among them holds no value and adds nothing; ``None`` when none holds one)."""
        given = self.attrs[b].get("data")
        if b in self.grids:  # a batch's inputs: each its own, never added up
            return None
        if given is not None:
            return given  # type: ignore[no-any-return]
        data = getter(self.G, "data")
        values = [v for v in map(data, self.shown_outputs(b)) if v is not None]
        return exact_sum(values) if values else None

    def sample_attrs(self, b: str) -> dict[str, Any]:
        """``sample``: the one sample the box's value is of; ``samples``: how many samples
        its value adds up (only when more than one); ``adds``: how many outputs."""
        if self.pick is None or self.attrs[b].get("data") is not None or b in self.grids:
            return {}
        of, shown = self.pick[0], self.shown_outputs(b)
        seen = {of[o] for o in shown if o in of}
        outs = self.outputs[b]
        data = getter(self.G, "data")
        out: dict[str, Any] = {"adds": len(shown)}
        per = self._by_sample(b)
        if per is not None:  # what the box shows for each sample, and for all (a player's choice)
            out["by_sample"] = [exact_sum([data(o) for o in v]) for v in per]
            out["all"] = exact_sum([v for v in map(data, outs) if v is not None])
        if len(seen) == 1 and self.pick[1] is not None:
            out["sample"] = seen.pop()
        elif len(seen) > 1:
            out["samples"] = len(seen)
        return out

    def _by_sample(self, b: str) -> list[list[str]] | None:
        """The box's outputs of each sample ``0 … S-1`` (``S``: one more than the largest
        sample of any node), in order, bucketed in one pass; ``None`` when a sample has
        none."""
        of = self.pick[0] if self.pick is not None else {}
        if not self._samples:
            self._samples = 1 + max(of.values(), default=0)
        per: list[list[str]] = [[] for _ in range(self._samples)]
        get = of.get
        for o in self.outputs[b]:
            k = get(o)
            if k is not None:
                per[k].append(o)
        return per if all(per) else None

    def grad(self, c: str, vis: dict[str, float]) -> float | None:
        """The grad shown for ``c``: a box's is the sum of what reached it from outside."""
        return self.shown.get(c) if c in self.attrs else vis.get(c)
