"""Fold what lies after a net's neurons into one group, so that a collapse draws it as one box.

A loss over many samples, or a regularisation sum over every parameter, is a long chain of
values outside every neuron; collapsed by neuron, the net's boxes would sit beside hundreds of
loose values. :func:`fold_outside` puts them in the group :data:`OUTSIDE` (``"loss"``), which
:func:`vizgrad.graph.collapse.collapse` then draws as one box at every level.
"""

from __future__ import annotations

from typing import Any

from ..columns import children, getter

__all__ = ["FOLD_MIN", "OUTSIDE", "fold_outside"]

#: the group :func:`fold_outside` puts what comes after every group in (a net's loss)
OUTSIDE = "loss"
#: the fewest values :func:`fold_outside` folds: one sample's loss, (ŷ − y)² (a target, a
#: difference, a square), reads better drawn value by value
FOLD_MIN = 6


def fold_outside(G: Any) -> Any:
    """``G`` with the values after every group put in one group, :data:`OUTSIDE`, so that
    a collapse draws them as one box (``G`` itself when fewer than :data:`FOLD_MIN` would
    be).

    These are the ungrouped values computed from a group's (a loss over many samples,
    a regularisation sum over the parameters), and the numbers only they use (the
    targets). Inputs that the groups use stay as they are.

    >>> import vizgrad
    >>> from vizgrad.core.nn import MLP
    >>> net = MLP(2, [2, 1], seed=1)
    >>> loss = sum(((net([x, 1.0]) - y) ** 2 for x, y in [(1.0, 1.0), (2.0, -1.0)]),
    ...            vizgrad.Value(0.0))
    >>> loss.backward()
    >>> G = vizgrad.to_networkx(loss)
    >>> F = fold_outside(G)
    >>> folded = [n for n, g in F.nodes(data="group") if g == OUTSIDE]
    >>> len(folded) >= FOLD_MIN, G.graph["root"] in folded, G.nodes[G.graph["root"]]["group"]
    (True, True, None)
    """
    group = dict(G.nodes(data="group"))
    loose = sorted((n for n, g in group.items() if not g), key=getter(G, "order"))
    after: set[str] = set()
    for n in loose:  # only values outside every group can be after them
        if any(group[p] or p in after for p in G.predecessors(n)):
            after.add(n)
    kids = children(G, set(loose))
    for n in reversed(loose):  # the targets, and what is computed from them alone
        if n not in after:
            users = set(kids.get(n, ()))
            if users and users <= after:
                after.add(n)
    if len(after) < FOLD_MIN:
        return G
    F = G.copy()
    for n in after:
        F.nodes[n]["group"] = OUTSIDE
    return F
