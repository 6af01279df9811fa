"""Which forward pass (sample) made each value of a net's graph, and choosing one.

A batch of ``S`` samples runs the net ``S`` times: the net's output neurons (the
groups ``Lk/Nj`` of its last layer, see :mod:`vizgrad.tracing.nets`) are called once per
sample, in order, so :func:`count` counts the outputs of one of them. Which sample
made each value is decided once, when the trace names it (:mod:`vizgrad.tracing.names`);
a value of every sample (a parameter, the total loss) belongs to none::

    >>> import random
    >>> from vizgrad.core.nn import MLP
    >>> from vizgrad.graph.convert import as_graph
    >>> net = MLP(2, [2, 1], seed=1)
    >>> loss = sum((net([x, 1.0]) - 1.0) ** 2 for x in (0.5, -0.5, 2.0))
    >>> loss.backward()
    >>> G = as_graph(loss, net)
    >>> count(G), sorted(set(samples(G).values()))
    (3, [0, 1, 2])
    >>> G.graph["root"] in samples(G)
    False

A graph without a net's groups is one forward pass (:func:`count` gives 1).
"""

from __future__ import annotations

import re
from typing import Any

from .columns import children, distinct, getter
from ..tracing.names import ACTIVATIONS
from ..exceptions import OptionError

__all__ = ["ALL", "check", "count", "net_outputs", "pick", "samples"]

#: the sample choice that adds up every sample's values
ALL = "all"

_NEURON = re.compile(r"L(\d+)/N(\d+)")


def net_outputs(G: Any) -> list[list[str]]:
    """For each neuron of the net's last layer, its outputs in order (one per sample):
    its sums and activations used outside the neuron, or the graph's output (a weight's
    square for a penalty on the parameters, also grouped with the neuron, is not one)."""
    layers: dict[int, set[str]] = {}
    for g in distinct(G, "group"):  # each group path once
        m = _NEURON.fullmatch(str(g)) if g else None
        if m:
            layers.setdefault(int(m.group(1)), set()).add(str(g))
    if not layers:
        return []
    last = layers[max(layers)]
    ends = {G.graph.get("root"), *G.graph.get("also", ())}
    found: dict[str, list[str]] = {g: [] for g in sorted(last)}
    order, op = getter(G, "order"), getter(G, "op")
    groups = dict(G.nodes(data="group"))
    ops = ("+", *ACTIVATIONS)
    mine = sorted((n for n, g in groups.items() if g in found), key=order)
    kids = children(G, set(mine))
    for n in mine:
        g = groups[n]
        if op(n) in ops and (n in ends or n not in kids
                             or any(groups[m] != g for m in kids[n])):
            found[g].append(n)
    return [outs for outs in found.values() if outs]


def count(G: Any) -> int:
    """How many samples the graph's net was run on (1 without a net)."""
    outs = net_outputs(G)
    return max(1, min((len(o) for o in outs), default=1))


def samples(G: Any) -> dict[str, int]:
    """Node → the sample whose forward pass made it, for every node of one sample only.

    The trace names each value's sample (:mod:`vizgrad.tracing.names`, the node attribute
    ``sample``); this reads it. With one sample (or no net) every node is left out:
    nothing needs telling apart.
    """
    return _of(G, count(G))


def _of(G: Any, total: int) -> dict[str, int]:
    """:func:`samples` of a graph whose net was run on ``total`` samples."""
    if total < 2:
        return {}
    return {n: s for n, s in G.nodes(data="sample") if s is not None}


def check(v: Any) -> int | str:
    """A sample choice: a sample number ≥ 0, or ``"all"``.

    >>> check(2), check("all")
    (2, 'all')
    >>> try:
    ...     check(-1)
    ... except OptionError as err:
    ...     print(err)
    sample must be a sample number ≥ 0 (0 is the first forward pass) or all, got -1
    """
    if v == ALL or (isinstance(v, int) and not isinstance(v, bool) and v >= 0):
        return v
    raise OptionError(f"sample must be a sample number ≥ 0 (0 is the first forward pass) or "
                      f"all, got {v!r}")


def pick(G: Any, sample: Any) -> tuple[dict[str, int], int | None] | None:
    """What :func:`.contract.contract` needs to show ``sample``'s values (``None``
    for a graph of one sample); a sample the net was not run on is an
    :class:`~vizgrad.exceptions.OptionError`."""
    s = check(sample)
    total = count(G)
    if s != ALL and s >= total:
        runs = f"{total} samples (0 to {total - 1})" if total > 1 else "one sample (0)"
        raise OptionError(f"sample {s} is not in this graph: its net was run on {runs}; "
                          f"pick one of those, or sample=all")
    if total < 2:
        return None
    return _of(G, total), (None if s == ALL else int(s))
