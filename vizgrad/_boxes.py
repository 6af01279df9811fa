"""Which box each node of a graph goes into, and what a box's value and grad are made of.

:func:`vizgrad._contract.contract` builds one :class:`Boxes` per transform: it maps
nodes to boxes, finds each box's outputs (the members used outside it, the root, or
members nobody uses) and adds up the value a box shows (all samples, or one).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

__all__ = ["Boxes", "exact_sum", "getter", "in_order"]


def exact_sum(xs: list[float]) -> float:
    """The exactly rounded sum (:func:`math.fsum`), or a plain one past the float range."""
    try:
        return math.fsum(xs)
    except (OverflowError, ValueError):  # an inf among the terms, or inf - inf
        return sum(xs, 0.0)


def getter(G: Any, key: str, default: Any = None) -> Callable[[str], Any]:
    """A function node → its attribute ``key`` (``default`` when it has none); a light graph
    reads it off its column (:meth:`vizgrad._lite.LiteGraph.getter`).

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> getter(G, "label")(G.graph["root"]) == G.nodes[G.graph["root"]].get("label")
    True
    """
    own = getattr(G, "getter", None)
    if own is not None:
        return own(key)  # type: ignore[no-any-return]
    nd = G.nodes
    return lambda n: nd[n].get(key, default)


def in_order(G: Any, key: str) -> list[tuple[str, Any]]:
    """``(node, attribute key)`` of every node, in the graph's ``order``.

    >>> import vizgrad
    >>> G = vizgrad.examples.graph("fork")
    >>> [n for n, _ in in_order(G, "op")] == sorted(G, key=lambda n: G.nodes[n]["order"])
    True
    """
    pairs = list(G.nodes(data=key))
    orders = [o for _, o in G.nodes(data="order")]
    return [pairs[i] for i in sorted(range(len(pairs)), key=orders.__getitem__)]


class Boxes:
    """The mapping node → box and what each box's grad and value are made of."""

    def __init__(self, G: Any, box_of: dict[str, str], boxes: dict[str, dict[str, Any]],
                 pick: tuple[dict[str, int], int | None] | None = None) -> None:
        self.G, self.box_of, self.attrs = G, box_of, boxes
        self.pick = pick
        self._samples = 0  # how many samples the nodes are of (counted when first needed)
        self.rank = rank = dict(G.nodes(data="order"))
        self.members: dict[str, list[str]] = {b: [] for b in boxes}
        for n in sorted(box_of, key=rank.__getitem__):
            self.members[box_of[n]].append(n)
        ends = {G.graph["root"], *G.graph.get("also", ())}
        get = box_of.get
        used_outside: set[str] = set()
        self.feeds: dict[str, dict[str, None]] = {b: {} for b in boxes}  # outside → box
        #: the edges ``(parent, child, slot)`` that are not inside one box, in order
        self.crossing: list[tuple[str, str, int]] = []
        cross = self.crossing.append
        for p, n, slot in G.edges(keys=True):
            bp, bn = get(p), get(n)
            if bp != bn:
                cross((p, n, slot))
                if bp is not None:
                    used_outside.add(p)
                if bn is not None:
                    self.feeds[bn][p] = None
            elif bp is None:
                cross((p, n, slot))
        sinks = {n for n, d in G.out_degree() if not d}
        self.outputs: dict[str, list[str]] = {
            b: [m for m in ms if m in used_outside or m in ends or m in sinks]
            for b, ms in self.members.items()}
        self.out_sets = {b: set(o) for b, o in self.outputs.items()}
        #: the members used only inside their box: no grad of theirs is ever shown
        self.inner = {m for b, ms in self.members.items() if len(ms) > len(self.out_sets[b])
                      for m in ms if m not in self.out_sets[b]}
        self.shown: dict[str, float] = {}

    def of(self, n: str) -> str:
        return self.box_of.get(n, n)

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

    def value(self, b: str) -> float:
        """The box's value: its ``data`` if given, else its shown outputs' sum."""
        given = self.attrs[b].get("data")
        return given if given is not None else exact_sum([self.G.nodes[o]["data"]
                                                     for o in self.shown_outputs(b)])

    def sample_attrs(self, b: str) -> dict[str, Any]:
        """``sample``: the one sample the box's value is of; ``samples``: how many samples
        its value adds up (only when more than one); ``adds``: how many outputs."""
        if self.pick is None or self.attrs[b].get("data") is not None:
            return {}
        of, shown = self.pick[0], self.shown_outputs(b)
        seen = {of[o] for o in shown if o in of}
        outs = self.outputs[b]
        data = getter(self.G, "data")
        out: dict[str, Any] = {"adds": len(shown)}
        per = self._by_sample(b)
        if per is not None:  # what the box shows for each sample, and for all (a player's choice)
            out["by_sample"] = [exact_sum([data(o) for o in v]) for v in per]
            out["all"] = exact_sum([data(o) for o in outs])
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
