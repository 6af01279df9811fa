"""A batch's inputs as one box: the numbers ``x[s][i]`` the user's code fed a net, one cell each.

A net run on several samples reads its data ``x[s][i]`` (sample ``s``, feature ``i``; named by
:mod:`vizgrad.tracing.names`), and micrograd wraps each number in every neuron that reads it. A
folded view draws all of them, copies and merged nodes alike, as one box of kind
:data:`KIND`: a matrix of samples × features whose cells are the inputs' own data and grad
(the grad of ``x[s][i]`` is the sum of its copies' grads, ``∂loss/∂x[s][i]``), and one
edge from it to each box that reads them::

    >>> import vizgrad
    >>> from vizgrad.core.nn import MLP
    >>> net = MLP(2, [2, 1], seed=1)
    >>> loss = sum((net([x, 1.0]) - 1.0) ** 2 for x in (0.5, -0.5, 2.0))
    >>> loss.backward()
    >>> from vizgrad.graph.convert import as_graph
    >>> G = as_graph(loss, net)
    >>> found = batch_inputs(G)
    >>> sorted({G.nodes[n]["name"] for n in found})[:3], len(found)
    (['x[0][0]', 'x[0][1]', 'x[1][0]'], 12)
    >>> shape(G.nodes[n]["name"] for n in found)
    (3, 2)

A graph of one sample keeps its inputs as they are (:func:`batch_inputs` gives none).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .boxes import GRID, exact_sum
from ..columns import getter
from ..samples import count

__all__ = ["KIND", "at", "batch_inputs", "box_attrs", "cells_of", "grid_attrs", "grid_cells",
           "grid_step", "shape"]

#: the kind of the box that holds a batch's inputs
KIND = GRID
_NAME = re.compile(r"x\[(\d+)\]\[(\d+)\]\Z")


def at(name: Any) -> tuple[int, int] | None:
    """``(sample, feature)`` of an input's name ``x[s][i]``, else None.

    >>> at("x[3][1]"), at("x[3]"), at("w[0][1]")
    ((3, 1), None, None)
    """
    m = _NAME.match(str(name))
    return (int(m.group(1)), int(m.group(2))) if m else None


def shape(names: Iterable[Any]) -> tuple[int, int]:
    """``(samples, features)`` spanned by the inputs' names."""
    spots = [p for p in map(at, names) if p is not None]
    return (1 + max((s for s, _ in spots), default=-1), 1 + max((i for _, i in spots), default=-1))


def batch_inputs(G: Any) -> list[str]:
    """The plain input leaves of a batch (no operand, no label, named ``x[s][i]``: the data
    the user's code fed in, and micrograd's copies of it), in order; none for a net run
    on one sample."""
    kind, label, order = getter(G, "kind"), getter(G, "label"), getter(G, "order")
    found = [n for n, name in G.nodes(data="name") if name and at(name) is not None
             and kind(n) == "input" and not label(n) and not G.in_degree(n)]
    if not found or count(G) < 2:
        return []
    return sorted(found, key=order)


def box_attrs() -> dict[str, Any]:
    """The attributes of the inputs' box before :func:`~.contract.contract` fills it in: it
    is named ``x``, as a layer's input is in the chapter (``L0(x)``), in every language."""
    return {"label": "x", "kind": KIND, "op": KIND, "group": None}


def cells_of(G: Any, members: Iterable[str]) -> tuple[list[str], list[list[str]]]:
    """The inputs' names in the order of the box's cells (sample by sample, feature by
    feature) and, for each, the members that are that input (micrograd's copies, or one
    merged node)."""
    by: dict[str, list[str]] = {}
    name = getter(G, "name")
    for m in members:
        by.setdefault(str(name(m)), []).append(m)
    names = sorted(by, key=lambda k: at(k) or (0, 0))
    return names, [by[k] for k in names]


def grid_cells(bx: Any, b: str) -> tuple[list[str], list[list[str]]]:
    """:func:`cells_of` box ``b`` of ``bx`` (a :class:`~.boxes.Boxes`), read once."""
    got = bx.cells.get(b)
    if got is None:
        got = bx.cells[b] = cells_of(bx.G, bx.members[b])
    return got  # type: ignore[no-any-return]


def _total(xs: list[float | None]) -> float | None:
    got = [x for x in xs if x is not None]
    return exact_sum(got) if got else None


def grid_attrs(G: Any, members: list[str], sample: int | None) -> dict[str, Any]:
    """The box's own attributes: ``grid``, ``[name, data, grad]`` of each input (its grad
    the sum of its copies' grads, as ``backward()`` left them), its ``shape`` (samples,
    features) and the ``sample`` whose row is marked."""
    names, copies = cells_of(G, members)
    data, grad = getter(G, "data"), getter(G, "grad")
    return {"grid": [[k, data(ms[0]), _total([grad(m) for m in ms])]
                     for k, ms in zip(names, copies)],
            "shape": list(shape(names)), "sample": 0 if sample is None else sample}


def grid_step(rec: dict[str, Any], got: dict[str, list[list[Any]]], vis: dict[str, float],
              names: list[str], copies: list[list[str]], sample: int | None) -> None:
    """A backward step's contribution to the inputs' box as the code made it: ``grads``, each
    input's grad after the step (``None`` before any reached it), and ``row``: the terms
    ``[w_ij, g_i, w_ij · g_i]`` each feature of the marked sample received in it, and their
    grads after it. The box has no value or grad of its own
    (``before``/``after`` are ``None``)."""
    rec["grads"] = [_total([vis.get(m) for m in ms]) for ms in copies]
    s = 0 if sample is None else sample
    row: list[list[list[Any]]] = []
    after: list[float | None] = []
    for k, ms, g in zip(names, copies, rec["grads"]):
        spot = at(k)
        if spot is not None and spot[0] == s:
            row.append([t for m in ms for t in got.get(m, ())])
            after.append(g)
    rec["row"] = {"sample": s, "terms": row, "after": after}
    rec["count"] = sum(map(len, got.values()))
    rec["amount"] = exact_sum([a for ts in got.values() for *_, a in ts])
    rec.update(local=None, before=None, after=None)
